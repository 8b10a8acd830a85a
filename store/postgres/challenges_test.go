package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestChallenges(t *testing.T) {
	storetest.Challenges(t, freshStore(t))
}
