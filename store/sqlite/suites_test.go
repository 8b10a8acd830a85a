package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
	"github.com/tabula-games/tabula/store/storetest"
)

// freshStore opens a new SQLite store in one of t's temporary directories,
// without waiting for the disk (NoSync): the feature suites of storetest
// check what is stored, not how durably — TestConformance and TestReopen
// keep the default.
func freshStore(t *testing.T) store.Store {
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "tabula.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

// The suites of each feature's tables, on SQLite (store/postgres runs the
// same on PostgreSQL).

func TestBotAccounts(t *testing.T) { storetest.RunBots(t, freshStore) }
func TestChallenges(t *testing.T)  { storetest.Challenges(t, freshStore) }

// TestConditional: the conditional moves of correspondence games.
func TestConditional(t *testing.T) { storetest.Conditional(t, freshStore) }
func TestHistory(t *testing.T)     { storetest.History(t, freshStore) }
func TestLadder(t *testing.T)      { storetest.RunLadder(t, freshStore) }
func TestModeration(t *testing.T)  { storetest.Moderation(t, freshStore) }
func TestPeople(t *testing.T)      { storetest.People(t, freshStore) }
func TestPrefs(t *testing.T)       { storetest.Prefs(t, freshStore) }
func TestReviews(t *testing.T)     { storetest.Reviews(t, freshStore) }

// TestSocial: follows and the inbox's tables.
func TestSocial(t *testing.T) { storetest.Social(t, freshStore) }
func TestTables(t *testing.T) { storetest.RunTables(t, freshStore) }

// TestTournamentBots: the server's own bots as tournament players.
func TestTournamentBots(t *testing.T) { storetest.RunTournamentBots(t, freshStore) }
