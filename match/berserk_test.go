package match_test

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestBerserk: a player halves their own realtime clock before their first
// move — the seat to move loses half its starting time from its deadline,
// the other seat starts its turn with half; a second berserk is done
// already; it is refused after the player's first move, without a
// realtime clock, to a spectator, before the start and when less than a
// second would be left; a game loaded again (another node, a restart)
// keeps the halved clock.
func TestBerserk(t *testing.T) {
	rt := match.Clock{Kind: match.ClockRealtime, InitialMs: 60000, IncrementMs: 1000}
	berserk := func(u match.User) match.Command { return match.Command{Kind: match.CmdBerserk, User: u} }

	n := newNode(t)
	m := twoHumans("9")
	m.Clock = rt
	m.Clock.Berserk = 3 // asked for at creation: ignored, a game starts unberserked
	id := n.create(m)
	if g, _ := n.journal.Game(id); g.Clock.Berserk != 0 {
		t.Fatalf("created with berserk bits %b", g.Clock.Berserk)
	}
	n.steps(id, []step{{"before the start", berserk(alice), match.CodeConflict}})
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(10 * time.Second)
	before := n.version(id)
	ack := n.must(id, berserk(alice)) // alice is to move, 10 s spent
	if !ack.Meta.Clock.Berserked(0) || ack.Meta.Clock.Berserked(1) || n.version(id) != before+1 {
		t.Fatalf("after alice's berserk: clock %+v, version %d → %d", ack.Meta.Clock, before, n.version(id))
	}
	if want := t0.Add(30 * time.Second); !ack.Meta.Deadline.Equal(want) {
		t.Fatalf("alice's deadline %v, want %v (60 s halved)", ack.Meta.Deadline, want)
	}
	if evs := n.events.All(); evs[len(evs)-1].Kind != match.EventResumed || evs[len(evs)-1].Clocks[0].RemainingMs != 20000 {
		t.Fatalf("last event %+v: want EventResumed with alice's 20 s", evs[len(evs)-1])
	}
	before = n.version(id)
	if ack := n.must(id, berserk(alice)); !ack.Meta.Clock.Berserked(0) || n.version(id) != before {
		t.Fatal("a second berserk changed the game")
	}
	n.steps(id, []step{
		{"a spectator", berserk(carol), match.CodeForbidden},
	})
	n.time.Advance(5 * time.Second)
	if ack := n.must(id, move(alice, 0, "1")); ack.Move.ClockMs != 15000 { // 30 − 15, no increment after a berserk
		t.Fatalf("alice's clock after her move %d ms, want 15000", ack.Move.ClockMs)
	}
	// Bob berserks while it is his turn: half of 60 s off his 60 s.
	n.time.Advance(2 * time.Second)
	n.must(id, berserk(bob))
	snap, _ := n.reg.Snapshot(context.Background(), id)
	if snap.Clocks[1].RemainingMs != 28000 || snap.Clocks[0].RemainingMs != 15000 {
		t.Fatalf("clocks %+v, want alice 15 s, bob 28 s", snap.Clocks)
	}
	// Loaded again: the halved clocks come from the stored clock.
	stored, _ := n.journal.Game(id)
	n.reg.StopAll()
	other := newNode(t, func(c *match.Config) { c.Journal = n.journal; c.Time = n.time })
	stored.Version++
	if _, err := other.reg.Adopt(context.Background(), stored); err != nil {
		t.Fatal(err)
	}
	snap, _ = other.reg.Snapshot(context.Background(), id)
	if snap.Meta.Clock.Berserk != 3 || snap.Clocks[0].RemainingMs != 15000 {
		t.Fatalf("after a takeover: %+v %+v", snap.Meta.Clock, snap.Clocks)
	}

	// Without a realtime clock; too late (less than a second would be left).
	for _, c := range []match.Clock{{Kind: match.ClockNone}, {Kind: match.ClockCorrespondence, Days: 1}} {
		m := twoHumans("9")
		m.Clock = c
		id := n.create(m)
		n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
		n.steps(id, []step{{string(c.Kind), berserk(alice), match.CodeConflict}})
	}
	m = twoHumans("9")
	m.Clock = rt
	id = n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(29500 * time.Millisecond)
	n.steps(id, []step{{"too late", berserk(alice), match.CodeConflict}})
	n.must(id, move(alice, 0, "1"))
	n.steps(id, []step{{"alice after her first move", berserk(alice), match.CodeConflict}, {"bob, to move", berserk(bob), ""}})
}

// TestClockBerserked: the bits of Clock.Berserk name the seats.
func TestClockBerserked(t *testing.T) {
	c := match.Clock{Kind: match.ClockRealtime, InitialMs: 60000, Berserk: 2}
	if c.Berserked(0) || !c.Berserked(1) || c.Berserked(-1) || c.Berserked(64) {
		t.Fatal("Berserked")
	}
}
