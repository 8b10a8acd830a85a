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

// baseURL is the test server: TABULA_TEST_POSTGRES, or the local one
// .ci/run starts.
func baseURL() string {
	if u := os.Getenv("TABULA_TEST_POSTGRES"); u != "" {
		return u
	}
	return "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
}

// admin connects to the test server. A test fails when it does not
// answer — CI must not pass by skipping the PostgreSQL store — and is
// skipped only when TABULA_TEST_POSTGRES=off.
func admin(t *testing.T) *sql.DB {
	t.Helper()
	if os.Getenv("TABULA_TEST_POSTGRES") == "off" {
		t.Skip("TABULA_TEST_POSTGRES=off")
	}
	db, err := sql.Open("pgx", baseURL())
	if err == nil {
		err = db.Ping()
	}
	if err != nil {
		t.Fatalf("no PostgreSQL at %s (TABULA_TEST_POSTGRES=off skips): %v", baseURL(), err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// freshStore opens the store on a schema of its own for each test,
// dropped when the test ends.
func freshStore(t *testing.T) func(*testing.T) store.Store {
	a := admin(t)
	return func(t *testing.T) store.Store {
		schema := fmt.Sprintf("tabula_test_%d", rand.Uint64()>>1)
		if _, err := a.Exec("CREATE SCHEMA " + schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { a.Exec("DROP SCHEMA " + schema + " CASCADE") })
		db, err := postgres.Open(context.Background(), baseURL()+"&search_path="+schema)
		if err != nil {
			t.Fatal(err)
		}
		return db
	}
}

func TestConformance(t *testing.T) {
	storetest.Run(t, freshStore(t), postgres.LatestVersion())
}
