package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

// TestConditional: the conditional moves of correspondence games on
// PostgreSQL.
func TestConditional(t *testing.T) {
	storetest.Conditional(t, freshStore(t))
}
