package match_test

import (
	"context"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// book is a match.Conditionals in memory.
type book struct {
	mu sync.Mutex
	m  map[[2]any]match.Conditional
}

func newBook() *book { return &book{m: map[[2]any]match.Conditional{}} }

func (b *book) Conditional(_ context.Context, game string, seat int) (*match.Conditional, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	c, ok := b.m[[2]any{game, seat}]
	if !ok {
		return nil, nil
	}
	c.Lines = slices.Clone(c.Lines)
	return &c, nil
}

func (b *book) SetConditional(_ context.Context, c match.Conditional) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.m[[2]any{c.Game, c.Seat}] = c
	return nil
}

func (b *book) DropConditional(_ context.Context, game string, seat int) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.m, [2]any{game, seat})
	return nil
}

// waitCondMoves waits until the journal holds game id with n moves and returns
// their texts.
func waitCondMoves(t *testing.T, n *node, id string, want int) []string {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, moves := n.journal.Game(id)
		if len(moves) >= want || time.Now().After(deadline) {
			var texts []string
			for _, m := range moves {
				texts = append(texts, m.Text)
			}
			return texts
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// waitEntry waits until b's entry for seat 1 of id satisfies ok.
func waitEntry(t *testing.T, b *book, id string, ok func(*match.Conditional) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, _ := b.Conditional(context.Background(), id, 1)
		if ok(c) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("conditional entry of seat 1: %+v", c)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestConditionalExactlyOnce: a stored reply is played once whichever node
// owns the game. The node that committed the opponent's move died before
// playing the reply: the node that takes the game over plays it when it
// resumes. A later owner that finds the entry not yet advanced (its owner
// died between the reply and the write) does not play it again, and still
// follows the rest of the line when the opponent's next move matches it.
func TestConditionalExactlyOnce(t *testing.T) {
	b := newBook()
	m := twoHumans("30")
	m.Clock = match.Clock{Kind: match.ClockCorrespondence, Days: 2}

	// Node A keeps no conditional moves (as if it died before its hook
	// ran): alice's move is stored, bob's reply is not played.
	a := newNode(t)
	id := a.create(m)
	a.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	line := [][]string{{"1", "2", "3", "1"}}
	b.SetConditional(context.Background(), match.Conditional{Game: id, Seat: 1, Ply: 0, Lines: line, Created: t0})
	a.must(id, move(alice, 0, "1"))
	a.reg.StopAll()

	// Node B takes it over and plays the reply on resuming.
	adopt := func(from *node) *node {
		t.Helper()
		g, _ := from.journal.Game(id)
		g.Version++
		n := newNode(t, func(c *match.Config) { c.Journal = from.journal; c.Time = from.time; c.Conditionals = b })
		n.journal, n.time = from.journal, from.time
		if _, err := n.reg.Adopt(context.Background(), g); err != nil {
			t.Fatal(err)
		}
		return n
	}
	nb := adopt(a)
	if got := waitCondMoves(t, nb, id, 2); !slices.Equal(got, []string{"1", "2"}) {
		t.Fatalf("moves after the takeover: %v, want alice's 1 and bob's conditional 2", got)
	}
	waitEntry(t, b, id, func(c *match.Conditional) bool {
		return c != nil && c.Ply == 2 && reflect.DeepEqual(c.Lines, [][]string{{"3", "1"}})
	})
	nb.reg.StopAll()

	// Node B "died" before writing what was left: the entry is back at
	// ply 0. Node C resumes: nothing is replayed.
	b.SetConditional(context.Background(), match.Conditional{Game: id, Seat: 1, Ply: 0, Lines: line, Created: t0})
	nc := adopt(nb)
	if _, err := nc.events.Wait(func(e match.Event) bool { return e.Kind == match.EventResumed }); err != nil {
		t.Fatal(err)
	}
	nc.must(id, move(alice, 2, "3"))
	if got := waitCondMoves(t, nc, id, 4); !slices.Equal(got, []string{"1", "2", "3", "1"}) {
		t.Fatalf("moves: %v, want 1 2 3 and bob's 1 (the line's second pair), once each", got)
	}
	waitEntry(t, b, id, func(c *match.Conditional) bool { return c == nil })
	if _, moves := nc.journal.Game(id); len(moves) != 4 || moves[3].Seat != 1 {
		t.Fatalf("moves %+v: want 4, the last bob's", moves)
	}
}

// TestConditionalTakeback: a takeback drops both seats' lines, which were
// for moves that are gone.
func TestConditionalTakeback(t *testing.T) {
	b := newBook()
	m := twoHumans("30")
	m.Clock = match.Clock{Kind: match.ClockCorrespondence, Days: 2}
	n := newNode(t, func(c *match.Config) { c.Conditionals = b })
	id := n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "1"))
	n.must(id, move(bob, 1, "1"))
	b.SetConditional(context.Background(), match.Conditional{Game: id, Seat: 1, Ply: 2, Lines: [][]string{{"2", "2"}}, Created: t0})
	n.must(id, match.Command{Kind: match.CmdOffer, User: bob, Offer: match.OfferTakeback})
	n.must(id, match.Command{Kind: match.CmdAccept, User: alice, Offer: match.OfferTakeback})
	waitEntry(t, b, id, func(c *match.Conditional) bool { return c == nil })
}
