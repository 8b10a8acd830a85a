package match_test

import (
	"context"
	"errors"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

const (
	openTTL = time.Hour
	idleTTL = 24 * time.Hour
)

func expiringNode(t *testing.T, edit ...func(*match.Config)) *node {
	return newNode(t, append([]func(*match.Config){func(c *match.Config) {
		c.OpenExpiry, c.IdleExpiry = openTTL, idleTTL
	}}, edit...)...)
}

// gone waits until game id has no owner here any more.
func (n *node) gone(id string) {
	n.t.Helper()
	waitFor(n.t, func() bool { return n.reg.Get(id) == nil })
}

// settle waits until what the fake clock has started is done: its functions
// have returned and the owner of game id (if it still has one here) has
// handled what they handed it — it answers a snapshot only after everything
// queued before. A test then checks what did not happen without sleeping.
func (n *node) settle(id string) {
	n.t.Helper()
	if !n.time.Settle(10 * time.Second) {
		n.t.Fatal("the clock's functions still run after 10 s")
	}
	if m := n.reg.Get(id); m != nil {
		if _, err := m.Snapshot(context.Background()); err != nil && !errors.Is(err, match.ErrClosed) {
			n.t.Fatal(err)
		}
	}
}

// armed waits until a function is due d from now on the fake clock: the
// owner, or a bot's decision, is waiting for that pause.
func (n *node) armed(d time.Duration) {
	n.t.Helper()
	waitFor(n.t, func() bool { return slices.Contains(n.time.Pending(), d) })
}

// ended waits for the end event of game id and returns the game then.
func (n *node) ended(id string) match.Meta {
	n.t.Helper()
	isEnd := func(e match.Event) bool { return e.Game == id && e.Kind == match.EventEnd }
	evs, err := n.events.Wait(isEnd)
	if err != nil {
		n.t.Fatal(err)
	}
	return evs[slices.IndexFunc(evs, isEnd)].Meta
}

// TestOpenGameExpires: an open game nobody joins or leaves for the open
// expiry is aborted and forgotten by the node; a seat taken meanwhile
// starts the count again.
func TestOpenGameExpires(t *testing.T) {
	n := expiringNode(t)
	id := n.create(match.Meta{Options: map[string]string{"players": "3", "stones": "9"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatOpen}, {Kind: match.SeatOpen}}})
	n.time.Advance(openTTL - time.Minute)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(time.Minute) // the first hour is up, but Bob joined
	n.settle(id)
	if m, _ := n.journal.Game(id); m.Status != match.Open || n.reg.Get(id) == nil {
		t.Fatalf("expired although Bob joined %v ago: %s", time.Minute, m.Status)
	}
	n.time.Advance(openTTL - time.Minute)
	if m := n.ended(id); m.Status != match.Aborted {
		t.Fatalf("after an hour without anyone: %s, want aborted", m.Status)
	}
	n.gone(id)
	if m, _ := n.journal.Game(id); m.Status != match.Aborted {
		t.Fatalf("stored: %s", m.Status)
	}
	if _, err := n.do(id, match.Command{Kind: match.CmdJoin, User: carol, Seat: -1}); err != match.ErrClosed {
		t.Fatalf("joining the expired game: %v", err)
	}
}

// TestIdleGameExpires: a live game without a clock in which nobody moves
// for the idle expiry ends — the person to move loses, as on time — and
// the node forgets it; each move starts the count again.
func TestIdleGameExpires(t *testing.T) {
	n := expiringNode(t)
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(idleTTL - time.Hour)
	n.must(id, move(alice, 0, "1"))
	n.time.Advance(idleTTL - time.Hour)
	n.settle(id)
	if m, _ := n.journal.Game(id); m.Status != match.Live {
		t.Fatalf("ended although Alice moved %v ago: %s", idleTTL-time.Hour, m.Status)
	}
	n.time.Advance(time.Hour)
	m := n.ended(id)
	if m.Status != match.Finished || m.Result.Reason != match.ReasonAbandoned || !slices.Equal(m.Result.Winners, []int{0}) {
		t.Fatalf("after a day without Bob's move: %s %+v; want Bob (seat 1) to lose, abandoned", m.Status, m.Result)
	}
	n.gone(id)
}

// TestBotGameExpires: a game of bots only, whose bot never answers, ends
// after the idle expiry without a winner, its bot is cancelled and the
// node forgets it.
func TestBotGameExpires(t *testing.T) {
	bot := &scripted{script: []string{"wait"}, release: make(chan struct{})}
	defer close(bot.release)
	n := expiringNode(t, func(c *match.Config) {
		c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
	})
	id := n.create(match.Meta{Options: map[string]string{"stones": "9"},
		Seats: []match.Seat{{Kind: match.SeatBot, Level: "easy"}, {Kind: match.SeatBot, Level: "easy"}}})
	n.time.Advance(idleTTL)
	m := n.ended(id)
	if m.Result.Reason != match.ReasonAbandoned || m.Result.Status != match.Drawn || len(m.Result.Winners) != 0 {
		t.Fatalf("result %+v; want no winner, abandoned", m.Result)
	}
	n.gone(id)
}

// TestClockGoesFirst: a game whose clock gives the seat to move longer
// than the idle expiry ends by its clock, not as abandoned.
func TestClockGoesFirst(t *testing.T) {
	n := expiringNode(t)
	m := twoHumans("9")
	m.Clock = match.Clock{Kind: match.ClockCorrespondence, Days: 3}
	id := n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(2 * idleTTL)
	n.settle(id)
	if m, _ := n.journal.Game(id); m.Status != match.Live {
		t.Fatalf("a correspondence game with a day left ended: %s %+v", m.Status, m.Result)
	}
	n.time.Advance(idleTTL)
	if m := n.ended(id); m.Result.Reason != match.ReasonTimeout {
		t.Fatalf("result %+v; want a loss on time", m.Result)
	}
}

// TestLoadExpired: a game abandoned while the node was down is ended as it
// is loaded, not resumed: its bots never think and the node keeps no owner.
func TestLoadExpired(t *testing.T) {
	bot := &scripted{script: []string{"1"}}
	n := expiringNode(t, func(c *match.Config) {
		c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
	})
	started := t0.Add(-3 * idleTTL)
	live := match.Meta{ID: "old-live", Game: "tnim", Options: map[string]string{"players": "2", "stones": "9"}, Status: match.Live,
		Seats:   []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}},
		Created: started, Started: started, ToMove: 0, Version: 2}
	n.journal.Put(live, nil)
	open := match.Meta{ID: "old-open", Game: "tnim", Options: map[string]string{"players": "2", "stones": "9"}, Status: match.Open,
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatOpen}}, Created: t0.Add(-2 * openTTL), ToMove: -1, Version: 1}
	n.journal.Put(open, nil)
	fresh := open
	fresh.ID, fresh.Created = "new-open", t0.Add(-openTTL/2)
	n.journal.Put(fresh, nil)
	for _, m := range []match.Meta{live, open, fresh} {
		if _, err := n.reg.Load(context.Background(), m); err != nil {
			t.Fatal(err)
		}
	}
	if m := n.ended("old-live"); m.Result.Reason != match.ReasonAbandoned || !slices.Equal(m.Result.Winners, []int{1}) {
		t.Fatalf("the abandoned live game: %+v", m.Result)
	}
	if m := n.ended("old-open"); m.Status != match.Aborted {
		t.Fatalf("the abandoned open game: %s", m.Status)
	}
	n.gone("old-live")
	n.gone("old-open")
	if n.reg.Get("new-open") == nil || n.reg.Len() != 1 {
		t.Fatalf("the fresh open game: owner %v, %d owners", n.reg.Get("new-open"), n.reg.Len())
	}
	bot.mu.Lock()
	defer bot.mu.Unlock()
	if len(bot.seen) != 0 {
		t.Fatal("the bot of an abandoned game thought")
	}
}

// TestBotOnlyDelay: in a game of bots only, each move waits at least the
// pause for such games; a game with a person is not slowed.
func TestBotOnlyDelay(t *testing.T) {
	n := newNode(t, func(c *match.Config) { c.BotOnlyDelay = time.Second })
	id := n.create(match.Meta{Options: map[string]string{"stones": "9"},
		Seats: []match.Seat{{Kind: match.SeatBot, Level: "random"}, {Kind: match.SeatBot, Level: "random"}}})
	n.armed(time.Second) // the first decision waits for the pause
	if _, moves := n.journal.Game(id); len(moves) != 0 {
		t.Fatalf("%d moves before the pause", len(moves))
	}
	n.time.Advance(time.Second)
	if _, err := n.events.Wait(func(e match.Event) bool { return e.Game == id && e.Kind == match.EventMove }); err != nil {
		t.Fatal(err)
	}
	n.armed(time.Second) // and so does the second
	if _, moves := n.journal.Game(id); len(moves) != 1 {
		t.Fatalf("%d moves after one pause; want 1", len(moves))
	}

	human := n.create(match.Meta{Options: map[string]string{"stones": "9"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "random"}}})
	n.must(human, move(alice, 0, "1"))
	if _, err := n.events.Wait(func(e match.Event) bool { return e.Game == human && e.Kind == match.EventMove && e.Move.Ply == 1 }); err != nil {
		t.Fatalf("the bot facing a person waited: %v", err)
	}
}

// TestBotRest: a game waiting long for a person lets go of its bot's
// agent (and search tree); the bot's next move starts a new one, while a
// quick answer keeps the old.
func TestBotRest(t *testing.T) {
	var made atomic.Int32
	n := newNode(t, func(c *match.Config) {
		c.BotRest = 5 * time.Minute
		c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) {
			made.Add(1)
			return &scripted{}, nil
		}
	})
	id := n.create(match.Meta{Options: map[string]string{"stones": "20"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
	botMove := func(ply int) {
		t.Helper()
		n.must(id, move(alice, ply, "1"))
		if _, err := n.events.Wait(func(e match.Event) bool { return e.Game == id && e.Kind == match.EventMove && e.Move.Ply == ply+1 }); err != nil {
			t.Fatal(err)
		}
		n.settle(id) // the owner arms its timers after publishing
	}
	botMove(0) // the check at creation, then the seat's agent
	n.time.Advance(time.Minute)
	botMove(2)
	if got := made.Load(); got != 2 {
		t.Fatalf("%d agents made after a quick answer; want 2", got)
	}
	n.time.Advance(5 * time.Minute)
	n.settle(id)
	botMove(4)
	if got := made.Load(); got != 3 {
		t.Fatalf("%d agents made after a long wait; want 3 (a fresh one)", got)
	}
}
