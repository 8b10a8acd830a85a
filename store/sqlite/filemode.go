package sqlite

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// createPrivate creates the database file, if it does not exist yet, with
// mode 0600: it holds password hashes and the seeds that decide hidden
// cards. SQLite gives the -wal and -shm files it makes beside it the
// database file's own permissions. An existing file keeps the mode its
// owner gave it.
func createPrivate(path string) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlite: create %s: %w", path, err)
	}
	return f.Close()
}
