package cluster

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store/postgres"
)

// TestConditionalAcrossNodes: conditional moves (issue 27.9) in a cluster.
// The opponent's move sent to a node that does not own the game is
// forwarded, and the owner plays the stored reply; when the owner dies, the
// node that takes the game over follows the rest of the line from the
// shared store — each reply played once.
func TestConditionalAcrossNodes(t *testing.T) {
	// 10 s leases, so that a loaded machine lets none lapse before the
	// crash (with the harness's 1 s, CI's race step once saw b take the
	// game over early); the crash's lease is then expired by hand.
	e := newQuietEnv(t)
	book := func(c *match.Config) {
		db, err := postgres.Open(context.Background(), e.pgURL)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		c.Conditionals = db
	}
	a, b := e.start(book), e.start(book)
	m := twoHumans(30)
	m.Clock = match.Clock{Kind: match.ClockCorrespondence, Days: 2}
	a.create("cond", m)
	if err := a.db.SetConditional(context.Background(), match.Conditional{Game: "cond", Seat: 1, Ply: 0,
		Lines: [][]string{{"1", "2", "3", "1"}}, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}

	if _, err := b.do("cond", move(0, "1")); err != nil {
		t.Fatal(err)
	}
	e.waitFor(5*time.Second, "bob's reply by the owner", func() bool { return slices.Equal(e.moves("cond"), []string{"1", "2"}) })
	if e.owner("cond") != a.n.ID() {
		t.Fatalf("owner %s, want %s", e.owner("cond"), a.n.ID())
	}
	e.waitFor(5*time.Second, "the line's rest stored", func() bool {
		c, err := b.db.Conditional(context.Background(), "cond", 1)
		return err == nil && c != nil && c.Ply == 2
	})

	a.crash()
	e.lapse(a)
	if _, err := b.do("cond", move(2, "3")); err != nil {
		t.Fatalf("alice's move during the takeover: %v", err)
	}
	e.waitFor(5*time.Second, "bob's second reply by the new owner", func() bool { return slices.Equal(e.moves("cond"), []string{"1", "2", "3", "1"}) })
	if e.owner("cond") != b.n.ID() {
		t.Fatalf("owner after the crash %s, want %s", e.owner("cond"), b.n.ID())
	}
	e.waitFor(5*time.Second, "the used-up line dropped", func() bool {
		c, err := b.db.Conditional(context.Background(), "cond", 1)
		return err == nil && c == nil
	})
	if got := e.moves("cond"); len(got) != 4 {
		t.Fatalf("moves %v: each reply once", got)
	}
}
