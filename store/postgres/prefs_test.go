package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

// TestPrefs: the board preferences per account on PostgreSQL.
func TestPrefs(t *testing.T) {
	storetest.Prefs(t, freshStore(t))
}
