package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestModeration(t *testing.T) {
	storetest.Moderation(t, freshStore(t))
}
