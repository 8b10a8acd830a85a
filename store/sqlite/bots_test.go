package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
	"github.com/tabula-games/tabula/store/storetest"
)

func TestBotAccounts(t *testing.T) {
	storetest.RunBots(t, func(t *testing.T) store.Store {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tabula.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return db
	})
}
