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

// The tests of store.Leases, run for every store that implements it.

func leases(t *testing.T, s store.Store) store.Leases {
	t.Helper()
	l, ok := s.(store.Leases)
	if !ok {
		t.Skip("the store has no leases")
	}
	return l
}

// ownedGame creates a live game owned by node (epoch 1) with the creator
// in seat 0 and seat 1 as given.
func ownedGame(t *testing.T, s store.Store, id, node string, creator int64, seat1 match.Seat) match.Meta {
	t.Helper()
	g := match.Meta{
		ID: id, Game: "sgolte", Options: map[string]string{"size": "5"}, Status: match.Live,
		Seats:   []match.Seat{{Kind: match.SeatHuman, UserID: creator}, seat1},
		Clock:   match.Clock{Kind: match.ClockRealtime, InitialMs: 60000},
		Created: t0, CreatorID: creator, ToMove: 0,
	}
	must(t, s.(store.Leases).CreateOwnedGame(context.Background(), &g, node))
	return g
}

// expire ends node's lease as if it had stopped renewing.
func expire(t *testing.T, l store.Leases, node string) {
	t.Helper()
	must(t, l.LeaveNode(context.Background(), node))
}

// testLeaseRenewal: a new node's lease is live and not lapsed; renewed in
// time it stays so; once it has expired, renewing it says it lapsed, and
// it is live again.
func testLeaseRenewal(t *testing.T, s store.Store) {
	l := leases(t, s)
	ctx := context.Background()
	lapsed, err := l.RenewNode(ctx, "a", time.Minute, false)
	must(t, err)
	if lapsed {
		t.Fatal("a new node's lease lapsed")
	}
	lapsed, err = l.RenewNode(ctx, "a", time.Minute, true)
	must(t, err)
	if lapsed {
		t.Fatal("a lease renewed in time lapsed")
	}
	_, err = l.RenewNode(ctx, "b", time.Millisecond, false)
	must(t, err)
	time.Sleep(20 * time.Millisecond)
	nodes, err := l.LiveNodes(ctx)
	must(t, err)
	if len(nodes) != 1 || nodes[0].ID != "a" || !nodes[0].BotsFull || !nodes[0].Expires.After(nodes[0].Renewed) {
		t.Fatalf("live nodes %+v, want a (bots full)", nodes)
	}
	lapsed, err = l.RenewNode(ctx, "b", time.Minute, false)
	must(t, err)
	if !lapsed {
		t.Fatal("renewing an expired lease did not say it lapsed")
	}
	expire(t, l, "a")
	if nodes, _ = l.LiveNodes(ctx); len(nodes) != 1 || nodes[0].ID != "b" {
		t.Fatalf("after a left: %+v", nodes)
	}
}

// testFencing: a node's writes of a game succeed while it holds the game's
// epoch; once another node has claimed the game, every write of the old
// owner is refused with ErrDeposed and changes nothing, and the new owner
// writes on.
func testFencing(t *testing.T, s store.Store) {
	l := leases(t, s)
	ctx := context.Background()
	u := newUser(t, s, "fenced")
	_, err := l.RenewNode(ctx, "a", time.Minute, false)
	must(t, err)
	_, err = l.RenewNode(ctx, "b", time.Minute, false)
	must(t, err)
	g := ownedGame(t, s, "f1", "a", u.ID, match.Seat{Kind: match.SeatHuman, UserID: u.ID + 1})
	if o, err := l.Owner(ctx, "f1"); err != nil || o != (store.Owner{Node: "a", Epoch: 1, Status: match.Live}) {
		t.Fatalf("owner %+v, %v", o, err)
	}
	mv := func(ply int) match.Move {
		return match.Move{Ply: ply, Seat: ply % 2, Text: fmt.Sprint("m", ply), At: t0}
	}
	must(t, l.AppendMoveFenced(ctx, 1, "f1", mv(0), match.Turn{ToMove: 1}, nil))
	wantErr(t, l.AppendMoveFenced(ctx, 1, "f1", mv(0), match.Turn{ToMove: 1}, nil), store.ErrConflict, "a stale ply, fenced")
	if orphans, _ := l.Orphans(ctx, 10); len(orphans) != 0 {
		t.Fatalf("orphans while the owner lives: %+v", orphans)
	}
	if _, err := l.Claim(ctx, store.Orphan{GameID: "f1", Owner: "a", Epoch: 1}, "b"); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("claiming the game of a live owner: %v", err)
	}

	expire(t, l, "a")
	orphans, err := l.Orphans(ctx, 10)
	must(t, err)
	if len(orphans) != 1 || orphans[0].GameID != "f1" || orphans[0].Owner != "a" || orphans[0].Epoch != 1 || orphans[0].Bots || orphans[0].DownSince.IsZero() {
		t.Fatalf("orphans %+v", orphans)
	}
	epoch, err := l.Claim(ctx, orphans[0], "b")
	must(t, err)
	if epoch != 2 {
		t.Fatalf("claimed at epoch %d, want 2", epoch)
	}
	claimed, err := s.Game(ctx, "f1")
	must(t, err)
	if claimed.Version != g.Version+2 { // the move, and the claim
		t.Fatalf("version after the claim %d, want %d", claimed.Version, g.Version+2)
	}

	// The old owner is fenced off, whatever it writes.
	wantErr(t, l.AppendMoveFenced(ctx, 1, "f1", mv(1), match.Turn{ToMove: 0}, nil), store.ErrDeposed, "a move by the old owner")
	wantErr(t, l.EndGameFenced(ctx, 1, "f1", match.End{Result: match.Result{Winners: []int{0}}, Finished: t0}), store.ErrDeposed, "an end by the old owner")
	stale := claimed.Clone()
	wantErr(t, l.UpdateGameFenced(ctx, 1, &stale), store.ErrDeposed, "an update by the old owner")
	if after, _ := s.Game(ctx, "f1"); after.Version != claimed.Version || after.Status != match.Live {
		t.Fatalf("a fenced write changed the game: %+v", after)
	}
	if moves, _ := s.Moves(ctx, "f1"); len(moves) != 1 {
		t.Fatalf("%d moves after fenced writes, want 1", len(moves))
	}
	must(t, l.AppendMoveFenced(ctx, 2, "f1", mv(1), match.Turn{ToMove: 0}, nil))
	must(t, l.EndGameFenced(ctx, 2, "f1", match.End{Result: match.Result{Winners: []int{1}}, Finished: t0}))
	if owned, _ := l.Owned(ctx, "b"); len(owned) != 0 {
		t.Fatalf("a finished game is still owned: %v", owned)
	}

	// An open game, fenced the same way; bots are reported.
	open := match.Meta{ID: "f2", Game: "sgolte", Options: map[string]string{}, Status: match.Open,
		Seats: []match.Seat{{Kind: match.SeatOpen}, {Kind: match.SeatBot, Level: "easy"}}, Created: t0.Add(time.Second), ToMove: -1}
	must(t, l.CreateOwnedGame(ctx, &open, "b"))
	if owned, _ := l.Owned(ctx, "b"); len(owned) != 1 || owned["f2"] != 1 {
		t.Fatalf("owned %v, want f2 at epoch 1", owned)
	}
	expire(t, l, "b")
	orphans, _ = l.Orphans(ctx, 10)
	if len(orphans) != 1 || !orphans[0].Bots {
		t.Fatalf("orphans %+v, want f2 with bots", orphans)
	}
	_, err = l.Claim(ctx, orphans[0], "c")
	must(t, err)
	next := open.Clone()
	next.Version++ // the claim's write
	next.Seats[0] = match.Seat{Kind: match.SeatHuman, UserID: u.ID}
	wantErr(t, l.UpdateGameFenced(ctx, 1, &next), store.ErrDeposed, "a seat taken by the old owner")
	must(t, l.UpdateGameFenced(ctx, 2, &next))
	// The unfenced writes of a single node are not affected by owners.
	_, err = s.Game(ctx, "f2")
	must(t, err)
}

// testClaimRace: many nodes claiming one orphan at once: exactly one wins.
func testClaimRace(t *testing.T, s store.Store) {
	l := leases(t, s)
	ctx := context.Background()
	u := newUser(t, s, "racer")
	_, err := l.RenewNode(ctx, "dead", time.Minute, false)
	must(t, err)
	ownedGame(t, s, "r1", "dead", u.ID, match.Seat{Kind: match.SeatBot, Level: "easy"})
	expire(t, l, "dead")
	orphans, err := l.Orphans(ctx, 10)
	must(t, err)
	if len(orphans) != 1 {
		t.Fatalf("orphans %+v", orphans)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var winners []string
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := fmt.Sprint("n", i)
			_, err := l.Claim(ctx, orphans[0], node)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				winners = append(winners, node)
			case !errors.Is(err, store.ErrConflict):
				t.Errorf("%s: %v", node, err)
			}
		}()
	}
	wg.Wait()
	if len(winners) != 1 {
		t.Fatalf("winners %v, want exactly one", winners)
	}
	if o, _ := l.Owner(ctx, "r1"); o.Node != winners[0] || o.Epoch != 2 {
		t.Fatalf("owner %+v, want %s at epoch 2", o, winners[0])
	}
}

// testFairDeadline: a claim moves a running deadline on by the outage — to
// the database's now plus what the seat to move had left when its owner
// was last known alive — and leaves it alone when that moment is unknown.
func testFairDeadline(t *testing.T, s store.Store) {
	l := leases(t, s)
	ctx := context.Background()
	u := newUser(t, s, "clocked")
	for _, tc := range []struct {
		name string
		left time.Duration // the time the seat to move had when its owner was last seen
	}{
		{"time left", 7 * time.Second},
		{"time already up", -2 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			id := "d" + fmt.Sprint(int(tc.left.Seconds()))
			g := ownedGame(t, s, id, "x", u.ID, match.Seat{Kind: match.SeatHuman, UserID: u.ID + 1})
			deadline := time.Now().Add(time.Hour).Truncate(time.Millisecond)
			g.Deadline = deadline
			must(t, l.UpdateGameFenced(ctx, 1, &g))
			// The owner was last seen long ago: the whole outage since is
			// not charged.
			down := deadline.Add(-tc.left)
			before := time.Now()
			_, err := l.Claim(ctx, store.Orphan{GameID: id, Owner: "x", Epoch: 1, DownSince: down}, "y")
			after := time.Now()
			must(t, err)
			got, err := s.Game(ctx, id)
			must(t, err)
			left := max(tc.left, 0)
			// The database's now lies between the two readings of this
			// machine's clock (the database runs on it).
			lo, hi := before.Add(left).Add(-5*time.Millisecond), after.Add(left).Add(5*time.Millisecond)
			if got.Deadline.Before(lo) || got.Deadline.After(hi) {
				t.Fatalf("deadline after the claim %v, want now + %v (between %v and %v)", got.Deadline, left, lo, hi)
			}
		})
	}
	t.Run("unknown", func(t *testing.T) {
		g := ownedGame(t, s, "du", "", u.ID, match.Seat{Kind: match.SeatHuman, UserID: u.ID + 1})
		g.Deadline = t0.Add(time.Hour)
		must(t, s.UpdateGame(ctx, &g))
		_, err := l.Claim(ctx, store.Orphan{GameID: "du", Epoch: 0}, "y")
		must(t, err)
		if got, _ := s.Game(ctx, "du"); !got.Deadline.Equal(t0.Add(time.Hour)) {
			t.Fatalf("deadline %v, want it unchanged", got.Deadline)
		}
	})
}
