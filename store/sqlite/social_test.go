package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
	"github.com/tabula-games/tabula/store/storetest"
)

// TestSocial: follows and the inbox's tables on SQLite.
func TestSocial(t *testing.T) {
	storetest.Social(t, func(t *testing.T) store.Store {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tabula.db"), sqlite.Options{NoSync: true})
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}
