package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

// TestReviews: the kept reviews of finished games on PostgreSQL.
func TestReviews(t *testing.T) {
	storetest.Reviews(t, freshStore(t))
}
