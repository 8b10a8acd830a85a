package match_test

import (
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestBerserkDropsIncrement: a seat that berserked gets no increment after
// its moves for the rest of the game (as on lichess), while the other seat
// keeps its increment; a game loaded again charges the same way.
func TestBerserkDropsIncrement(t *testing.T) {
	n := newNode(t)
	m := twoHumans("9")
	m.Clock = match.Clock{Kind: match.ClockRealtime, InitialMs: 60000, IncrementMs: 5000}
	id := n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, match.Command{Kind: match.CmdBerserk, User: alice})
	n.time.Advance(2 * time.Second)
	if ack := n.must(id, move(alice, 0, "1")); ack.Move.ClockMs != 28000 { // 30 − 2, no increment
		t.Fatalf("alice (berserk) after her first move: %d ms, want 28000", ack.Move.ClockMs)
	}
	n.time.Advance(3 * time.Second)
	if ack := n.must(id, move(bob, 1, "2")); ack.Move.ClockMs != 62000 { // 60 − 3 + 5
		t.Fatalf("bob (no berserk) after his move: %d ms, want 62000", ack.Move.ClockMs)
	}
	n.time.Advance(1 * time.Second)
	if ack := n.must(id, move(alice, 2, "3")); ack.Move.ClockMs != 27000 { // 28 − 1, still no increment
		t.Fatalf("alice (berserk) after her second move: %d ms, want 27000", ack.Move.ClockMs)
	}
}
