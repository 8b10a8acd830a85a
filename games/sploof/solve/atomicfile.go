package solve

import (
	"io"
	"os"
)

// saveAtomic writes path whole or not at all: write fills a temporary file
// beside it, which is synced and then renamed over path, so that a run
// interrupted at any moment leaves the previous file (the checkpoint a
// restarted run goes on from) intact.
func saveAtomic(path string, write func(io.Writer) error) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	err = write(f)
	if err == nil {
		err = f.Sync()
	}
	if err2 := f.Close(); err == nil {
		err = err2
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
