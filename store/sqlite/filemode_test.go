package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// TestFilesArePrivate: the database file and its -wal and -shm companions
// hold password hashes and game seeds, so only their owner may read them,
// whatever the umask (finding 6 of issue 16: they were created 0644).
func TestFilesArePrivate(t *testing.T) {
	old := syscall.Umask(0o002) // the most permissive umask in common use
	defer syscall.Umask(old)
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tabula.db")
	db, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	u := store.User{Name: "pat", PasswordHash: "$argon2id$…"}
	if err := db.CreateUser(ctx, &u); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if perm := fi.Mode().Perm(); perm != 0o600 {
			t.Errorf("%s: mode %o, want 600", filepath.Base(p), perm)
		}
	}
}
