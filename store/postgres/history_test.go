package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestHistory(t *testing.T) {
	storetest.History(t, freshStore(t))
}
