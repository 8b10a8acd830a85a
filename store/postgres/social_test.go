package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

// TestSocial: follows and the inbox's tables on PostgreSQL, a schema per
// test.
func TestSocial(t *testing.T) {
	storetest.Social(t, freshStore(t))
}
