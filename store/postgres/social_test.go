package postgres_test

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/postgres"
	"github.com/tabula-games/tabula/store/storetest"
)

// TestSocial: follows and the inbox's tables on PostgreSQL, a schema per
// test.
func TestSocial(t *testing.T) {
	admin, err := sql.Open("pgx", baseURL())
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Skipf("no PostgreSQL at %s: %v", baseURL(), err)
	}
	defer admin.Close()
	storetest.Social(t, func(t *testing.T) store.Store {
		schema := fmt.Sprintf("tabula_social_%d", rand.Uint64()>>1)
		if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { admin.Exec("DROP SCHEMA " + schema + " CASCADE") })
		db, err := postgres.Open(context.Background(), baseURL()+"&search_path="+schema)
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}
