package storetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// RunLadder runs the tests of store.Ladder against stores made by open,
// as Run does.
func RunLadder(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, l store.Ladder, st store.Store)
	}{
		{"Entries", testLadderEntries},
		{"Lease", testLadderLease},
		{"Games", testLadderGames},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			l, ok := s.(store.Ladder)
			if !ok {
				t.Fatal("the store has no ladder (migration 13)")
			}
			tc.fn(t, l, s)
		})
	}
}

// testLadderEntries: joining, joining again, leaving, anchors, and the
// bot's rating from the ratings table.
func testLadderEntries(t *testing.T, l store.Ladder, s store.Store) {
	ctx := context.Background()
	a, b := newUser(t, s, "alpha"), newUser(t, s, "beta")
	must(t, l.JoinLadder(ctx, "sgolte", a.ID, 2, t0))
	must(t, l.JoinLadder(ctx, "sgolte", b.ID, 1, t0.Add(time.Second)))
	must(t, l.JoinLadder(ctx, "sgolte", a.ID, 3, t0.Add(time.Minute))) // again: max games changes
	must(t, l.SetLadderAnchor(ctx, "sgolte", "medium", 1500, 50, true, t0))
	must(t, l.JoinLadder(ctx, "skyjo", b.ID, 1, t0))
	if err := l.LeaveLadder(ctx, "sploof", a.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("leaving a ladder never joined: %v, want ErrNotFound", err)
	}
	must(t, l.LeaveLadder(ctx, "sgolte", b.ID))
	es, err := l.LadderEntries(ctx, "sgolte")
	must(t, err)
	if len(es) != 3 {
		t.Fatalf("entries %+v, want 3", es)
	}
	byName := map[string]store.LadderEntry{}
	for _, e := range es {
		byName[e.Name] = e
	}
	if e := byName["alpha"]; !e.Active || e.MaxGames != 3 || e.Anchor() || !e.Joined.Equal(t0) || e.Games != 0 {
		t.Fatalf("alpha %+v: want active, 3 games, joined at the first join", e)
	}
	if e := byName["beta"]; e.Active {
		t.Fatalf("beta %+v: want inactive after leaving", e)
	}
	if e := byName["medium"]; !e.Anchor() || e.Rating != 1500 || e.Deviation != 50 || !e.Active {
		t.Fatalf("anchor %+v", e)
	}
	// Joining again after leaving makes the entry active.
	must(t, l.JoinLadder(ctx, "sgolte", b.ID, 1, t0.Add(time.Hour)))
	es, err = l.LadderEntries(ctx, "sgolte")
	must(t, err)
	for _, e := range es {
		if e.Name == "beta" && (!e.Active || !e.Joined.Equal(t0.Add(time.Hour))) {
			t.Fatalf("beta after joining again: %+v", e)
		}
	}
}

// testLadderLease: one matchmaker at a time; a renewal keeps the epoch, a
// release lets another claim it with a higher one, and the deposed one can
// write nothing.
func testLadderLease(t *testing.T, l store.Ladder, s store.Store) {
	ctx := context.Background()
	e1, err := l.ClaimLadder(ctx, "n1", 0, time.Minute)
	must(t, err)
	if _, err := l.ClaimLadder(ctx, "n2", 0, time.Minute); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("a second claim: %v, want ErrConflict", err)
	}
	if e, err := l.ClaimLadder(ctx, "n1", e1, time.Minute); err != nil || e != e1 {
		t.Fatalf("renewal: %d, %v; want %d", e, err, e1)
	}
	must(t, l.ReleaseLadder(ctx, "n1", e1))
	e2, err := l.ClaimLadder(ctx, "n2", 0, time.Minute)
	must(t, err)
	if e2 <= e1 {
		t.Fatalf("epoch %d after %d", e2, e1)
	}
	if _, err := l.ClaimLadder(ctx, "n1", e1, time.Minute); !errors.Is(err, store.ErrDeposed) {
		t.Fatalf("the old holder renews: %v, want ErrDeposed", err)
	}
	g := store.LadderGame{GameID: "lg1", Game: "sgolte", FirstLevel: "easy", SecondUser: 7, Created: t0}
	if err := l.CreateLadderGameFenced(ctx, e1, g); !errors.Is(err, store.ErrDeposed) {
		t.Fatalf("a deposed matchmaker creates a game: %v, want ErrDeposed", err)
	}
	if gs, _ := l.PendingLadderGames(ctx); len(gs) != 0 {
		t.Fatalf("a deposed write stored %v", gs)
	}
}

// testLadderGames: results, a bot rated against an anchor's fixed rating
// (the anchor's unchanged), a second end refused, aborted games unrated.
func testLadderGames(t *testing.T, l store.Ladder, s store.Store) {
	ctx := context.Background()
	a, b := newUser(t, s, "alpha"), newUser(t, s, "beta")
	must(t, l.SetLadderAnchor(ctx, "sgolte", "hard", 1800, 50, true, t0))
	ep, err := l.ClaimLadder(ctx, "n1", 0, time.Minute)
	must(t, err)
	// Only an active entrant is paired: not a bot that never joined, nor
	// one that left after the matchmaker read the entrants.
	if err := l.CreateLadderGameFenced(ctx, ep, store.LadderGame{GameID: "g0", Game: "sgolte", FirstUser: a.ID, SecondLevel: "hard", Created: t0}); !errors.Is(err, store.ErrLeftLadder) {
		t.Fatalf("a game for a bot not on the ladder: %v, want ErrLeftLadder", err)
	}
	must(t, l.JoinLadder(ctx, "sgolte", a.ID, 2, t0))
	must(t, l.JoinLadder(ctx, "sgolte", b.ID, 2, t0))
	must(t, l.LeaveLadder(ctx, "sgolte", b.ID))
	if err := l.CreateLadderGameFenced(ctx, ep, store.LadderGame{GameID: "g0", Game: "sgolte", FirstUser: a.ID, SecondUser: b.ID, Created: t0}); !errors.Is(err, store.ErrLeftLadder) {
		t.Fatalf("a game for a bot that left the ladder: %v, want ErrLeftLadder", err)
	}
	if gs, _ := l.PendingLadderGames(ctx); len(gs) != 0 {
		t.Fatalf("a refused game stored: %v", gs)
	}
	must(t, l.JoinLadder(ctx, "sgolte", b.ID, 2, t0))
	for _, id := range []string{"g1", "g2", "g3"} {
		newGame(t, s, id, a.ID, match.Live, t0) // the games themselves (rating changes name them)
	}
	for _, g := range []store.LadderGame{
		{GameID: "g1", Game: "sgolte", FirstUser: a.ID, SecondLevel: "hard", Created: t0},
		{GameID: "g2", Game: "sgolte", FirstUser: a.ID, SecondUser: b.ID, Created: t0.Add(time.Second)},
		{GameID: "g3", Game: "sgolte", FirstLevel: "hard", SecondUser: b.ID, Created: t0.Add(2 * time.Second)},
	} {
		must(t, l.CreateLadderGameFenced(ctx, ep, g))
	}
	if err := l.CreateLadderGameFenced(ctx, ep, store.LadderGame{GameID: "g1", Game: "sgolte", Created: t0}); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("the same game twice: %v, want ErrConflict", err)
	}
	pend, err := l.PendingLadderGames(ctx)
	must(t, err)
	if len(pend) != 3 || pend[0].GameID != "g1" {
		t.Fatalf("pending %+v", pend)
	}
	var seen []float64
	rate := func(bot match.Rating, ar, ad, score float64) match.Rating {
		seen = append(seen, ar, ad, score, float64(bot.Games))
		return match.Rating{Rating: 1700, Deviation: 200, Volatility: 0.06}
	}
	end := t0.Add(time.Minute)
	must(t, l.EndLadderGameFenced(ctx, ep, "g1", store.LadderFirst, end, rate)) // alpha beat hard
	if len(seen) != 4 || seen[0] != 1800 || seen[1] != 50 || seen[2] != 1 || seen[3] != 0 {
		t.Fatalf("rate called with %v; want anchor 1800±50, score 1, no games yet", seen)
	}
	if err := l.EndLadderGameFenced(ctx, ep, "g1", store.LadderSecond, end, rate); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a second end: %v, want ErrNotFound", err)
	}
	seen = nil
	must(t, l.EndLadderGameFenced(ctx, ep, "g2", store.LadderDraw, end, rate)) // bots only: the game rated itself
	must(t, l.EndLadderGameFenced(ctx, ep, "g3", store.LadderAborted, end, rate))
	if seen != nil {
		t.Fatalf("rate called for a game between bots or an aborted one: %v", seen)
	}
	rs, err := s.Ratings(ctx, a.ID)
	must(t, err)
	if len(rs) != 1 || rs[0].Rating != 1700 || rs[0].Games != 1 {
		t.Fatalf("alpha's ratings %+v, want 1700 after one game", rs)
	}
	if rs, _ := s.Ratings(ctx, b.ID); len(rs) != 0 {
		t.Fatalf("beta rated by the ladder: %+v", rs)
	}
	es, err := l.LadderEntries(ctx, "sgolte")
	must(t, err)
	if len(es) != 3 || es[0].Level != "hard" || es[0].Rating != 1800 {
		t.Fatalf("the anchor after a loss: %+v, want 1800 still (and the two bots)", es)
	}
	gs, err := l.LadderGames(ctx, "sgolte", time.Time{}, 10)
	must(t, err)
	if len(gs) != 3 || gs[0].GameID != "g3" || gs[2].Result != store.LadderFirst || !gs[2].Ended.Equal(end) {
		t.Fatalf("games %+v", gs)
	}
	if pend, _ := l.PendingLadderGames(ctx); len(pend) != 0 {
		t.Fatalf("pending after the ends: %+v", pend)
	}
}
