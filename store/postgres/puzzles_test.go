package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

// TestPuzzles: the rated puzzles' tables on PostgreSQL, where concurrent
// attempts really run at once.
func TestPuzzles(t *testing.T) {
	storetest.Puzzles(t, freshStore(t))
}
