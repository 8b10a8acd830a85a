package sqlite_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

// TestPuzzles: the rated puzzles' tables on SQLite.
func TestPuzzles(t *testing.T) { storetest.Puzzles(t, freshStore) }
