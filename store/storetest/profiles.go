package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// The tests of store.RatingHistory and store.Blocks, run for every store
// that implements them.

// testRatingHistory: a rated game's end writes each player's rating before
// and after it, once: an end retried (by a second node, or the same one)
// is refused and writes nothing more; an unrated end writes none.
func testRatingHistory(t *testing.T, s store.Store) {
	h, ok := s.(store.RatingHistory)
	if !ok {
		t.Skip("the store keeps no rating history")
	}
	ctx := context.Background()
	a, b := newUser(t, s, "rhea"), newUser(t, s, "otto")
	rated := func(at time.Time) match.End {
		return match.End{
			Result: match.Result{Status: match.Won, Winners: []int{0}, Reason: match.ReasonResign}, Finished: at,
			RatedUsers: []int64{a.ID, b.ID},
			Rate: func(cur []match.Rating) []match.Rating {
				out := make([]match.Rating, len(cur))
				for j, r := range cur {
					base := r.Rating
					if r.Games == 0 {
						base = 1500
					}
					out[j] = match.Rating{UserID: r.UserID, Rating: base + float64(10*(1-2*j)), Deviation: 200, Volatility: 0.06, Games: r.Games + 1, Updated: at}
				}
				return out
			},
		}
	}
	for i := 0; i < 3; i++ {
		id := fmt.Sprintf("h%d", i)
		newGame(t, s, id, a.ID, match.Live, t0)
		end := rated(t0.Add(time.Duration(i) * time.Minute))
		must(t, s.EndGame(ctx, id, end))
		// The same end again, as a retry after an owner's failover would send it.
		wantErr(t, s.EndGame(ctx, id, end), store.ErrConflict, "ending a finished game again")
		if l, ok := s.(store.Leases); ok {
			if err := l.EndGameFenced(ctx, 1, id, end); err == nil {
				t.Fatal("a fenced end of a finished game was accepted")
			}
		}
	}
	newGame(t, s, "unrated", a.ID, match.Live, t0)
	must(t, s.EndGame(ctx, "unrated", match.End{Result: match.Result{Status: match.Drawn}, Finished: t0.Add(time.Hour)}))

	got, err := h.RatingChanges(ctx, a.ID, "", 0)
	must(t, err)
	if len(got) != 3 {
		t.Fatalf("a's rating changes: %d, want 3 (one per rated game): %+v", len(got), got)
	}
	for i, c := range got {
		want := 1500 + 10*float64(i)
		if c.GameID != fmt.Sprintf("h%d", i) || c.Game != "sgolte" || c.UserID != a.ID || c.Before != want || c.After != want+10 ||
			c.BeforeGames != i || c.DeviationAfter != 200 || !c.At.Equal(t0.Add(time.Duration(i)*time.Minute)) {
			t.Fatalf("a's change %d: %+v", i, c)
		}
	}
	got, err = h.RatingChanges(ctx, b.ID, "sgolte", 2)
	must(t, err)
	if len(got) != 2 || got[0].GameID != "h1" || got[1].GameID != "h2" || got[1].After != 1470 {
		t.Fatalf("b's newest two changes, oldest first: %+v", got)
	}
	if got, err := h.RatingChanges(ctx, a.ID, "skyjo", 0); err != nil || len(got) != 0 {
		t.Fatalf("a's changes in another game: %+v, %v", got, err)
	}
	g, err := h.GameRatingChanges(ctx, "h1")
	must(t, err)
	if len(g) != 2 || g[0].UserID != a.ID || g[1].UserID != b.ID || g[1].Before != 1490 || g[1].After != 1480 {
		t.Fatalf("changes of game h1: %+v", g)
	}
	if g, err := h.GameRatingChanges(ctx, "unrated"); err != nil || len(g) != 0 {
		t.Fatalf("changes of an unrated game: %+v, %v", g, err)
	}
}

// testBlocks: blocking is one-way, idempotent, listed newest first with
// names, and undone by Unblock (a missing block is ErrNotFound).
func testBlocks(t *testing.T, s store.Store) {
	bs, ok := s.(store.Blocks)
	if !ok {
		t.Skip("the store keeps no blocks")
	}
	ctx := context.Background()
	a, b, c := newUser(t, s, "ada"), newUser(t, s, "Bea"), newUser(t, s, "cy")
	must(t, bs.Block(ctx, store.Block{UserID: a.ID, BlockedID: b.ID, Created: t0}))
	must(t, bs.Block(ctx, store.Block{UserID: a.ID, BlockedID: b.ID, Created: t0.Add(time.Hour)}))
	must(t, bs.Block(ctx, store.Block{UserID: a.ID, BlockedID: c.ID, Created: t0.Add(time.Minute)}))
	blocked := func(x, y store.User, want bool) {
		t.Helper()
		got, err := bs.Blocked(ctx, x.ID, y.ID)
		must(t, err)
		if got != want {
			t.Fatalf("%s blocks %s: %v, want %v", x.Name, y.Name, got, want)
		}
	}
	blocked(a, b, true)
	blocked(b, a, false)
	blocked(a, c, true)
	list, err := bs.BlockList(ctx, a.ID)
	must(t, err)
	if len(list) != 2 || list[0].Name != "cy" || list[1].Name != "Bea" || list[1].BlockedID != b.ID || !list[1].Created.Equal(t0) {
		t.Fatalf("a's blocks: %+v", list)
	}
	if list, err := bs.BlockList(ctx, b.ID); err != nil || len(list) != 0 {
		t.Fatalf("b's blocks: %+v, %v", list, err)
	}
	must(t, bs.Unblock(ctx, a.ID, b.ID))
	blocked(a, b, false)
	wantErr(t, bs.Unblock(ctx, a.ID, b.ID), store.ErrNotFound, "unblocking twice")
	wantErr(t, bs.Unblock(ctx, b.ID, a.ID), store.ErrNotFound, "unblocking someone never blocked")
}

// testRatingHistoryRace: eight writers end the same rated game at once,
// as the owners of a game on several nodes might around a failover: one
// end is stored, and with it one rating change per player and one rated
// game more, whatever the order.
func testRatingHistoryRace(t *testing.T, s store.Store) {
	h, ok := s.(store.RatingHistory)
	if !ok {
		t.Skip("the store keeps no rating history")
	}
	ctx := context.Background()
	a, b := newUser(t, s, "rae"), newUser(t, s, "rob")
	newGame(t, s, "hrace", a.ID, match.Live, t0)
	end := match.End{
		Result: match.Result{Status: match.Won, Winners: []int{1}, Reason: match.ReasonTimeout}, Finished: t0,
		RatedUsers: []int64{a.ID, b.ID},
		Rate: func(cur []match.Rating) []match.Rating {
			out := make([]match.Rating, len(cur))
			for j, r := range cur {
				out[j] = match.Rating{UserID: r.UserID, Rating: 1500 + float64(20*j-10), Deviation: 300, Volatility: 0.06, Games: r.Games + 1, Updated: t0}
			}
			return out
		},
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, conflicts := 0, 0
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := s.EndGame(ctx, "hrace", end)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, store.ErrConflict):
				conflicts++
			default:
				t.Errorf("writer %d: %v", w, err)
			}
		}()
	}
	wg.Wait()
	if wins != 1 || conflicts != 7 {
		t.Fatalf("%d ends stored, %d conflicted; want 1 and 7", wins, conflicts)
	}
	cs, err := h.GameRatingChanges(ctx, "hrace")
	must(t, err)
	if len(cs) != 2 || cs[0].After != 1490 || cs[1].After != 1510 {
		t.Fatalf("rating changes of the raced game: %+v", cs)
	}
	for _, u := range []store.User{a, b} {
		rs, err := s.Ratings(ctx, u.ID)
		must(t, err)
		if len(rs) != 1 || rs[0].Games != 1 {
			t.Fatalf("%s's ratings after the race: %+v", u.Name, rs)
		}
	}
}
