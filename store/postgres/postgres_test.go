package postgres_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"os"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/postgres"
	"github.com/tabula-games/tabula/store/storetest"
)

// baseURL is the test server: TABULA_TEST_POSTGRES, or the local one the
// development machines run. Tests skip when it does not answer, so the
// suite never needs PostgreSQL to pass.
func baseURL() string {
	if u := os.Getenv("TABULA_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

func TestConformance(t *testing.T) {
	admin, err := sql.Open("pgx", baseURL())
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Skipf("no PostgreSQL at %s: %v", baseURL(), err)
	}
	defer admin.Close()
	storetest.Run(t, func(t *testing.T) store.Store {
		// Each test gets a schema of its own.
		schema := fmt.Sprintf("tabula_test_%d", rand.Uint64()>>1)
		if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
		db, err := postgres.Open(context.Background(), baseURL()+"&search_path="+schema)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}, postgres.LatestVersion())
}
