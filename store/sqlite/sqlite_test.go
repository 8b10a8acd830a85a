package sqlite_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
	"github.com/tabula-games/tabula/store/storetest"
)

func TestConformance(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store {
		db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tabula.db"), sqlite.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return db
	}, sqlite.LatestVersion())
}

// TestReopen: data written and closed is there when the file is opened
// again, and opening an up-to-date file runs no migration twice.
func TestReopen(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tabula.db")
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	u := store.User{Name: "pat"}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db, err = sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if got, err := db.UserByName(ctx, "pat"); err != nil || got.ID != u.ID {
		t.Fatalf("after reopen: %+v, %v", got, err)
	}
	// WAL mode is a property of the file: any connection sees it.
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	var mode string
	if err := raw.QueryRow("PRAGMA journal_mode").Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal_mode = %q, %v; want wal", mode, err)
	}
}
