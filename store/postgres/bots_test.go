package postgres_test

import (
	"testing"

	"github.com/tabula-games/tabula/store/storetest"
)

func TestBotAccounts(t *testing.T) {
	storetest.RunBots(t, freshStore(t))
}
