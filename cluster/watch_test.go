package cluster

import (
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
)

// inMsgs is how many messages node has received from NATS so far.
func inMsgs(tn *testNode) uint64 { return tn.n.nc.Stats().InMsgs }

// seqsOf is the numbers of game id's events among evs, in order, and
// whether any came twice.
func seqsOf(evs []match.Event, id string) (seqs []int64) {
	for _, ev := range evs {
		if ev.Game == id && !ev.Kind.RoomEvent() {
			seqs = append(seqs, ev.Seq)
		}
	}
	return seqs
}

func upTo(n int64) []int64 {
	var out []int64
	for i := int64(1); i <= n; i++ {
		out = append(out, i)
	}
	return out
}

// play plays moves of "1" in game id on node tn from ply to ply+moves.
func play(t *testing.T, tn *testNode, id string, ply, moves int) {
	t.Helper()
	for p := ply; p < ply+moves; p++ {
		if _, err := tn.do(id, move(p, "1")); err != nil {
			t.Fatalf("%s ply %d: %v", id, p, err)
		}
	}
}

// TestWatching: a node hears only the games its connections watch (and
// the events of its watched users' games that their channels show), each
// event once, and never its own: the owner of a game receives nothing of
// it from NATS, a node with no watcher nothing at all, a node that stops
// watching nothing more.
func TestWatching(t *testing.T) {
	e := newQuietEnv(t)
	a, b, c, d := e.start(), e.start(), e.start(), e.start()
	before := []uint64{inMsgs(a), inMsgs(b), inMsgs(c), inMsgs(d)}
	watch(b, "g")
	stopH1, stopH2 := b.n.WatchGame("h"), b.n.WatchGame("h") // two watchers of h on b
	stopBob := c.n.WatchUser(bob.ID)
	t.Cleanup(stopBob)
	// d watches bob's channel and game g: the events of g that bob's
	// channel shows come on both subjects, and are handed on once.
	watch(d, "g")
	t.Cleanup(d.n.WatchUser(bob.ID))
	a.create("g", twoHumans(20))
	a.create("h", twoHumans(20))
	a.create("unwatched", twoHumans(20))
	play(t, a, "g", 0, 6)
	play(t, a, "h", 0, 4)
	play(t, a, "unwatched", 0, 4)
	// g's seventh event (created, seat, start, four moves) is heard by b.
	for _, w := range []struct {
		tn *testNode
		id string
		n  int64
	}{{b, "g", 9}, {b, "h", 7}, {d, "g", 9}} {
		if _, err := w.tn.events.Wait(func(ev match.Event) bool { return ev.Game == w.id && ev.Seq == w.n }); err != nil {
			t.Fatalf("%s's event %d on %s: %v", w.id, w.n, w.tn.n.ID(), err)
		}
	}
	// c hears what bob's channel shows of bob's games: their creation
	// and start, and the moves that ask bob to move (the first, third…).
	if _, err := c.events.Wait(func(ev match.Event) bool {
		return ev.Game == "unwatched" && ev.Prompt != nil && ev.Meta.Ply == 3
	}); err != nil {
		t.Fatal(err)
	}
	if got, want := seqsOf(b.events.All(), "g"), upTo(9); !slices.Equal(got, want) {
		t.Fatalf("b heard g's events %v, want %v", got, want)
	}
	if got, want := seqsOf(b.events.All(), "h"), upTo(7); !slices.Equal(got, want) {
		t.Fatalf("b heard h's events %v, want %v", got, want)
	}
	if got := seqsOf(b.events.All(), "unwatched"); len(got) > 0 {
		t.Fatalf("b heard events %v of a game it does not watch", got)
	}
	if got, want := seqsOf(d.events.All(), "g"), upTo(9); !slices.Equal(got, want) {
		t.Fatalf("d, watching g and bob, heard g's events %v, want %v once each", got, want)
	}
	for _, id := range []string{"g", "h", "unwatched"} {
		var got []int64
		for _, ev := range c.events.All() {
			if ev.Game != id {
				continue
			}
			if ev.Kind != match.EventCreated && ev.Kind != match.EventStart && (ev.Prompt == nil || ev.Prompt.UserID != bob.ID) {
				t.Fatalf("c, watching bob, heard %s's %s event %d (prompt %+v)", id, ev.Kind, ev.Seq, ev.Prompt)
			}
			got = append(got, ev.Seq)
		}
		// Created (1), bob's seat (2) is not his channel's, the start
		// (3) asks alice; the moves at plies 0, 2, 4 (events 4, 6, 8)
		// ask bob.
		if want := []int64{1, 3, 4, 6}; len(got) < 4 || !slices.Equal(got[:4], want) {
			t.Fatalf("c, watching bob, heard %s's events %v, want %v…", id, got, want)
		}
	}
	if n := inMsgs(a) - before[0]; n != 0 {
		t.Fatalf("the owner received %d messages: its own events came back", n)
	}

	// b stops watching h (both its watchers): nothing more of h comes.
	stopH1()
	play(t, a, "h", 4, 1)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "h" && ev.Seq == 8 }); err != nil {
		t.Fatalf("h's event after one of two watchers left: %v", err)
	}
	stopH2()
	got := len(b.events.All())
	if err := b.n.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	play(t, a, "h", 5, 4)
	play(t, a, "g", 6, 2)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == 11 }); err != nil {
		t.Fatal(err)
	}
	for _, ev := range b.events.All()[got:] {
		if ev.Game == "h" {
			t.Fatalf("b heard h's event %d after its last watcher left", ev.Seq)
		}
	}
	if n := inMsgs(a) - before[0]; n != 0 {
		t.Fatalf("the owner received %d messages", n)
	}
	t.Logf("received: owner %d, b %d, c (bob's channel) %d, d %d messages", inMsgs(a)-before[0], inMsgs(b)-before[1], inMsgs(c)-before[2], inMsgs(d)-before[3])
}

// TestNoWatcherHearsNothing: a node none of whose connections watches
// anything receives no message while other nodes play.
func TestNoWatcherHearsNothing(t *testing.T) {
	e := newQuietEnv(t)
	a, b, c := e.start(), e.start(), e.start()
	before := inMsgs(c)
	a.create("g", twoHumans(20))
	watch(b, "g")
	play(t, a, "g", 0, 5)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == 8 }); err != nil {
		t.Fatal(err)
	}
	for _, tn := range []*testNode{a, b, c} {
		if err := tn.n.nc.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if n := inMsgs(c) - before; n != 0 {
		t.Fatalf("a node that watches nothing received %d messages", n)
	}
	if evs := c.events.All(); len(evs) != 0 {
		t.Fatalf("a node that watches nothing handed on %d events", len(evs))
	}
}

// TestGapFilled: a node that misses three events of a game it watches (lost
// on the way, as core NATS may lose them) fetches them from the game's
// owner and hands every event on, in order, with no gap for its
// connections to resynchronise from; a gap longer than the owner's
// history is handed on as it is (the connections then load a snapshot).
func TestGapFilled(t *testing.T) {
	e := newQuietEnv(t)
	a, b := e.start(), e.start()
	watch(b, "g")
	a.create("g", twoHumans(2000))
	play(t, a, "g", 0, 4)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == 7 }); err != nil {
		t.Fatal(err)
	}
	var lost atomic.Int64
	lose := func(from, to int64) {
		drop := func(m *nats.Msg) bool {
			var w eventV1
			if _, err := decode(m.Data, typeEvent, &w); err == nil && w.Game == "g" && w.Seq >= from && w.Seq <= to {
				lost.Add(1)
				return true
			}
			return false
		}
		b.n.testDrop.Store(&drop)
	}
	lose(8, 10) // the moves at plies 4, 5 and 6
	play(t, a, "g", 4, 5)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == 12 }); err != nil {
		t.Fatal(err)
	}
	if lost.Load() != 3 {
		t.Fatalf("%d events lost, want 3", lost.Load())
	}
	if got, want := seqsOf(b.events.All(), "g"), upTo(12); !slices.Equal(got, want) {
		t.Fatalf("b handed on g's events %v, want %v", got, want)
	}
	if n := b.n.filledGaps.Load(); n != 1 {
		t.Fatalf("%d gaps filled from the owner's history, want 1", n)
	}

	// More than the history: the events come with their gap.
	lose(13, 13+historyLen)
	play(t, a, "g", 9, historyLen+3)
	last := int64(12 + historyLen + 3)
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == last }); err != nil {
		t.Fatal(err)
	}
	want := append(upTo(12), last-1, last)
	if got := seqsOf(b.events.All(), "g"); !slices.Equal(got, want) {
		t.Fatalf("after a gap longer than the history b handed on %v, want %v", got, want)
	}
	if n := b.n.filledGaps.Load(); n != 1 {
		t.Fatalf("%d gaps filled, want still 1", n)
	}
}

// TestWatchRace: connections come and go on several goroutines, on a
// game that one connection watches throughout and on one that nobody else
// does, while both are played: the steady watcher hears every event once,
// in order, and once every watcher has left the node watches nothing.
func TestWatchRace(t *testing.T) {
	e := newQuietEnv(t)
	a, b := e.start(), e.start()
	stop := b.n.WatchGame("g")
	a.create("g", twoHumans(2000))
	a.create("h", twoHumans(2000))
	done := make(chan struct{})
	var churners sync.WaitGroup
	for i := 0; i < 4; i++ {
		churners.Add(1)
		go func() {
			defer churners.Done()
			for j := 0; ; j++ {
				select {
				case <-done:
					return
				default:
				}
				leave := b.n.WatchGame([]string{"g", "h"}[(i+j)%2])
				leave()
				leave() // a second stop is nothing
			}
		}()
	}
	for ply := 0; ply < 20; ply++ {
		play(t, a, "g", ply, 1)
		play(t, a, "h", ply, 1)
	}
	close(done)
	churners.Wait()
	if _, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Seq == 23 }); err != nil {
		t.Fatal(err)
	}
	// (A loaded machine may let a's lease lapse: b then takes the game
	// over, a write of its own, EventResumed.)
	if got := seqsOf(b.events.All(), "g"); len(got) < 23 || !slices.Equal(got, upTo(int64(len(got)))) {
		t.Fatalf("b handed on %v, want 1…23 or more, each once", got)
	}
	stop()
	b.n.watches.mu.Lock()
	left := len(b.n.watches.m)
	b.n.watches.mu.Unlock()
	if left != 0 {
		t.Fatalf("%d watches left after every watcher stopped", left)
	}
}

// TestInboundTake: what a node does with each event message it receives —
// hands it on, drops it as a copy, or fetches the events of a gap first —
// whichever subscription brought it.
func TestInboundTake(t *testing.T) {
	in := inbound{games: map[string]*heard{}}
	msg := func(game bool, node string, stream, n uint64) received {
		return received{node: node, game: game, ev: eventV1{Game: "g", Stream: stream, N: n}}
	}
	type want struct {
		handOn bool
		gap    uint64
	}
	step := func(what string, r received, repair bool, w want) {
		t.Helper()
		if handOn, gap := in.take(r, repair); handOn != w.handOn || gap != w.gap {
			t.Fatalf("%s: hand on %v, gap from %d; want %v, %d", what, handOn, gap, w.handOn, w.gap)
		}
	}
	step("the first event heard", msg(true, "a", 1, 1), false, want{true, 0})
	step("the next", msg(true, "a", 1, 2), false, want{true, 0})
	step("its copy on a user's subject", msg(false, "a", 1, 2), false, want{false, 0})
	step("a user's copy after a lost event", msg(false, "a", 1, 4), false, want{false, 3})
	step("the game's copy while the gap is fetched", msg(true, "a", 1, 4), false, want{false, 0})
	in.filled("g", 3)
	p := in.next("g")
	if len(p) != 2 {
		t.Fatalf("%d events waited for the repair, want 2", len(p))
	}
	step("the event after the gap", p[0], true, want{true, 0})
	step("its copy", p[1], true, want{false, 0})
	if len(in.next("g")) != 0 || in.games["g"].repairing {
		t.Fatal("the repair did not end")
	}
	step("a new owner's stream", msg(true, "b", 9, 40), false, want{true, 0})
	step("its next", msg(true, "b", 9, 41), false, want{true, 0})

	// A game heard on a user's subject only: its events come with gaps.
	in.forget("g")
	step("a user's first", msg(false, "b", 9, 45), false, want{true, 0})
	step("a user's next, four later", msg(false, "b", 9, 49), false, want{true, 0})
	// Until a connection watches the game: from its first event there.
	step("the game's first", msg(true, "b", 9, 52), false, want{true, 0})
	step("after a gap", msg(true, "b", 9, 54), false, want{false, 53})
}
