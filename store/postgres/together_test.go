package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/tabula-games/tabula/store/postgres"
)

// TestOpenTogether: nodes of a cluster started together on an empty
// database all open it — one migrates, the others wait for it — instead
// of all but one failing on the creation of the migrations table.
func TestOpenTogether(t *testing.T) {
	admin := admin(t)
	for round := range 3 {
		schema := fmt.Sprintf("tabula_together_%d", rand.Uint64()>>1)
		if _, err := admin.Exec("CREATE SCHEMA " + schema); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 4)
		for i := range errs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				db, err := postgres.Open(context.Background(), baseURL()+"&search_path="+schema)
				if err == nil {
					db.Close()
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		admin.Exec("DROP SCHEMA " + schema + " CASCADE")
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, node %d: %v", round, i, err)
			}
		}
	}
}
