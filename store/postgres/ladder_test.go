package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestLadder(t *testing.T) {
	storetest.RunLadder(t, freshStore(t))
}
