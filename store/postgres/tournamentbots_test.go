package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestTournamentBots(t *testing.T) {
	storetest.RunTournamentBots(t, freshStore(t))
}
