package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestTables(t *testing.T) {
	storetest.RunTables(t, freshStore(t))
}
