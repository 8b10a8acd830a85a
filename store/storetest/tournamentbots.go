package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/tabula-games/tabula/store"
)

// RunTournamentBots runs the tests of store.TournamentBots (the server's own
// bots as tournament players) against stores made by open.
func RunTournamentBots(t *testing.T, open func(t *testing.T) store.Store) {
	s := open(t)
	defer s.Close()
	tb, ok := s.(store.TournamentBots)
	if !ok {
		t.Skip("the store adds no bots to tournaments")
	}
	ts := tournaments(t, s)
	ctx := context.Background()
	a := newUser(t, s, "ann")
	newTournament(t, ts, "b1", a.ID, t0)
	if _, err := ts.JoinTournament(ctx, "b1", a.ID, t0, 0); err != nil {
		t.Fatal(err)
	}
	// Bots after the players, with ids that say their level and number
	// (store.BotID), named by them; the listing gives their level, and a
	// person none.
	p, err := tb.AddTournamentBot(ctx, "b1", "easy", t0, 0, 4)
	must(t, err)
	if id, _ := store.BotID(0, "easy"); p.UserID != id || id >= 0 || p.Number != 1 || p.Name != "easy #1" || p.BotLevel != "easy" {
		t.Fatalf("first bot %+v", p)
	}
	// Two at once, from two nodes: each gets its own id and number.
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i := range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = tb.AddTournamentBot(ctx, "b1", "hard", t0, 0, 4)
		}()
	}
	wg.Wait()
	must(t, errors.Join(errs...))
	players, err := ts.TournamentPlayers(ctx, "b1")
	must(t, err)
	if len(players) != 4 || players[0].BotLevel != "" || players[0].Name != "ann" || players[3].Name != "hard #3" || players[3].BotLevel != "hard" {
		t.Fatalf("players %+v", players)
	}
	// A withdrawn bot still counts towards the most bots.
	must(t, ts.WithdrawTournament(ctx, "b1", players[2].UserID))
	must2(t, tb, "b1", 0, 4)
	wantErr(t, func() error { _, err := tb.AddTournamentBot(ctx, "b1", "easy", t0, 0, 4); return err }(), store.ErrConflict, "a fifth bot of four")
	// The tournament's most players holds bots too.
	newTournament(t, ts, "b2", a.ID, t0)
	must2(t, tb, "b2", 2, 10)
	must2(t, tb, "b2", 2, 10)
	wantErr(t, func() error { _, err := tb.AddTournamentBot(ctx, "b2", "easy", t0, 2, 10); return err }(), store.ErrConflict, "a third player of two")
	wantErr(t, func() error { _, err := tb.AddTournamentBot(ctx, "none", "easy", t0, 2, 10); return err }(), store.ErrNotFound, "a bot in no tournament")
	newTournament(t, ts, "b3", a.ID, t0)
	if _, err := tb.AddTournamentBot(ctx, "b3", "exec:/bin/sh", t0, 0, 10); err == nil {
		t.Fatal("a bot of no level was added")
	}
}

func must2(t *testing.T, tb store.TournamentBots, id string, max, maxBots int) {
	t.Helper()
	if _, err := tb.AddTournamentBot(context.Background(), id, "random", t0, max, maxBots); err != nil {
		t.Fatal(err)
	}
}
