package match_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/match/matchtest"
)

var t0 = time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)

var (
	alice = match.User{ID: 1}
	bob   = match.User{ID: 2}
	carol = match.User{ID: 3}
)

// node is one node's registry on fakes: a journal in memory, a clock that
// moves when told, a record of the events.
type node struct {
	t       testing.TB
	reg     *match.Registry
	journal *matchtest.Journal
	time    *matchtest.Time
	events  *matchtest.Events
	logs    *bytes.Buffer
	logMu   *sync.Mutex
}

type lockedWriter struct {
	mu *sync.Mutex
	b  *bytes.Buffer
}

func (w lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func newNode(t testing.TB, edit ...func(*match.Config)) *node {
	t.Helper()
	n := &node{t: t, journal: matchtest.NewJournal(), time: matchtest.NewTime(t0), events: matchtest.NewEvents(),
		logs: &bytes.Buffer{}, logMu: &sync.Mutex{}}
	seed := uint64(0)
	cfg := match.Config{Journal: n.journal, Publisher: n.events, Time: n.time,
		GameSeed: func() uint64 { seed++; return seed }, BotSeed: func() uint64 { return 7 },
		Log: slog.New(slog.NewTextHandler(lockedWriter{n.logMu, n.logs}, nil))}
	for _, e := range edit {
		e(&cfg)
	}
	reg, err := match.NewRegistry(cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.reg = reg
	t.Cleanup(reg.StopAll)
	return n
}

func (n *node) log() string {
	n.logMu.Lock()
	defer n.logMu.Unlock()
	return n.logs.String()
}

// create makes a game of tnim with the given seats (seat 0 is the
// creator's) and returns its id. Like the server, it fills in Created, as
// Registry.Create requires: an open game counts its expiry from it.
func (n *node) create(m match.Meta) string {
	n.t.Helper()
	if m.Game == "" {
		m.Game = "tnim"
	}
	if m.Created.IsZero() {
		m.Created = n.time.Now()
	}
	if m.ID == "" {
		m.ID = fmt.Sprintf("g%d", len(n.events.All())+1)
	}
	ack, err := n.reg.Create(context.Background(), alice, m)
	if err != nil {
		n.t.Fatalf("create: %v", err)
	}
	return ack.Meta.ID
}

func (n *node) do(id string, c match.Command) (match.Ack, error) {
	return n.reg.Do(context.Background(), id, c)
}

func (n *node) must(id string, c match.Command) match.Ack {
	n.t.Helper()
	ack, err := n.do(id, c)
	if err != nil {
		n.t.Fatalf("%s %+v: %v", c.Kind, c, err)
	}
	return ack
}

func move(u match.User, ply int, text string) match.Command {
	return match.Command{Kind: match.CmdMove, User: u, Seat: -1, Ply: ply, Move: text}
}

func codeOf(err error) match.Code {
	var e *match.Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return match.Code("other: " + err.Error())
	}
	return ""
}

func twoHumans(stones string) match.Meta {
	return match.Meta{Options: map[string]string{"stones": stones},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}}
}

// TestMoveCommands: who may move, when, and at which ply — a stale ply (a
// replayed or out-of-date request) and a future one alike are refused, and
// a refused move changes nothing.
func TestMoveCommands(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("10"))
	if _, err := n.do(id, move(alice, 0, "1")); codeOf(err) != match.CodeConflict {
		t.Fatalf("a move before the start: %v", err)
	}
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "2")) // 8 stones left, bob to move at ply 1
	for _, tc := range []struct {
		name string
		c    match.Command
		code match.Code
	}{
		{"a stranger", move(carol, 1, "1"), match.CodeForbidden},
		{"the seat not to move", move(alice, 1, "1"), match.CodeNotYourTurn},
		{"a seat that is not yours", match.Command{Kind: match.CmdMove, User: bob, Seat: 0, Ply: 1, Move: "1"}, match.CodeForbidden},
		{"a stale ply", move(bob, 0, "1"), match.CodeStalePly},
		{"a future ply", move(bob, 2, "1"), match.CodeStalePly},
		{"a negative ply", move(bob, -1, "1"), match.CodeStalePly},
		{"unreadable", move(bob, 1, "one"), match.CodeBadMove},
		{"illegal", move(bob, 1, "4"), match.CodeIllegalMove},
		{"an unknown command", match.Command{Kind: "teleport", User: bob}, match.CodeBadRequest},
		{"the move", move(bob, 1, "3"), ""},
		{"the same move again", move(bob, 1, "3"), match.CodeNotYourTurn},
		{"the next seat at the old ply", move(alice, 1, "1"), match.CodeStalePly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := n.journal.Game(id)
			ack, err := n.do(id, tc.c)
			if codeOf(err) != tc.code {
				t.Fatalf("got %v, want code %q", err, tc.code)
			}
			after, moves := n.journal.Game(id)
			if err != nil {
				if after.Version != before.Version {
					t.Fatalf("a refused move changed the game: version %d → %d", before.Version, after.Version)
				}
				return
			}
			if ack.Move == nil || ack.Move.Ply != 1 || ack.Move.Seat != 1 || ack.Move.Text != "3" || len(moves) != 2 ||
				ack.Meta.ToMove != 0 || ack.Seq() != after.Version {
				t.Fatalf("ack %+v (move %+v), stored %d moves at version %d", ack.Meta, ack.Move, len(moves), after.Version)
			}
		})
	}
}

// TestEventsNumbered: every committed change is one event, numbered as the
// game's version, with no gaps, from creation to the end; the owner's
// snapshot stands at the last number.
func TestEventsNumbered(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("4"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "1"))
	n.must(id, move(bob, 1, "1"))
	snap, err := n.reg.Snapshot(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	mid := snap.Seq()
	n.must(id, move(alice, 2, "2")) // takes the last two: alice wins
	events := n.events.All()
	var kinds []string
	for i, e := range events {
		kinds = append(kinds, string(e.Kind))
		if e.Seq != int64(i+1) || e.Game != id || e.Meta.Version != e.Seq {
			t.Fatalf("event %d: seq %d, game %s, version %d", i, e.Seq, e.Game, e.Meta.Version)
		}
	}
	want := "created lobby start move move move end"
	if strings.Join(kinds, " ") != want {
		t.Fatalf("events %v, want %s", kinds, want)
	}
	if mid != 5 {
		t.Fatalf("snapshot after two moves at seq %d, want 5", mid)
	}
	stored, _ := n.journal.Game(id)
	if stored.Version != int64(len(events)) || stored.Status != match.Finished {
		t.Fatalf("stored version %d (%s), %d events", stored.Version, stored.Status, len(events))
	}
	// The start prompts alice (seat 0, to move); each move prompts the
	// next human seat, with its ply; the last move prompts nobody.
	if p := events[2].Prompt; p == nil || p.UserID != alice.ID || p.Ply != 0 || p.Request.Seat != 0 || len(p.Request.Legal) != 3 {
		t.Fatalf("start prompt %+v", p)
	}
	if p := events[3].Prompt; p == nil || p.UserID != bob.ID || p.Ply != 1 {
		t.Fatalf("prompt after move 0: %+v", p)
	}
	if events[5].Prompt != nil || events[5].Legal != nil || events[5].Move.Text != "2" {
		t.Fatalf("the final move: prompt %+v, legal %v", events[5].Prompt, events[5].Legal)
	}
	if r := events[6].Meta.Result; r == nil || r.Status != match.Won || !slices.Equal(r.Winners, []int{0}) || r.Reason != match.ReasonNormal {
		t.Fatalf("end %+v", events[6].Meta.Result)
	}
	// The owner is gone; the game has no owner here any more.
	if _, err := n.do(id, move(bob, 3, "1")); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("a move after the end: %v", err)
	}
}

// TestViewsInEvents: a move event of a game with hidden information holds
// each seat's own view and the spectators', never the true state.
func TestViewsInEvents(t *testing.T) {
	n := newNode(t)
	id := n.create(match.Meta{Game: "tnimh", Options: map[string]string{"stones": "6"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}})
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "2"))
	events := n.events.All()
	e := events[len(events)-1]
	if e.Kind != match.EventMove || len(e.Views) != 3 {
		t.Fatalf("move event %s with %d views, want 3 (spectator, seat 0, seat 1)", e.Kind, len(e.Views))
	}
	for seat := -1; seat < 2; seat++ {
		v := string(e.View(seat))
		if !strings.Contains(v, `"bag":4`) || strings.Contains(v, `"revealed"`) {
			t.Fatalf("seat %d sees %s", seat, v)
		}
	}
	if len(e.Legal) != 3 {
		t.Fatalf("legal moves of the seat to move: %v", e.Legal)
	}
}

func TestSeatingCommands(t *testing.T) {
	n := newNode(t)
	id := n.create(match.Meta{Options: map[string]string{"players": "3"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatOpen}, {Kind: match.SeatInvite, UserID: carol.ID}}})
	for _, tc := range []struct {
		name string
		c    match.Command
		code match.Code
		seat int64 // who holds seat 1 after
	}{
		{"bob takes the open seat", match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}, "", bob.ID},
		{"bob again", match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}, match.CodeConflict, bob.ID},
		{"bob cannot abort", match.Command{Kind: match.CmdAbort, User: bob}, match.CodeForbidden, bob.ID},
		{"bob leaves", match.Command{Kind: match.CmdLeave, User: bob}, "", 0},
		{"bob leaves twice", match.Command{Kind: match.CmdLeave, User: bob}, match.CodeForbidden, 0},
		{"bob cannot take carol's seat", match.Command{Kind: match.CmdJoin, User: bob, Seat: 2}, match.CodeConflict, 0},
		{"bob comes back", match.Command{Kind: match.CmdJoin, User: bob, Seat: 1}, "", bob.ID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := n.do(id, tc.c)
			if codeOf(err) != tc.code {
				t.Fatalf("got %v, want code %q", err, tc.code)
			}
			m, _ := n.journal.Game(id)
			if m.Seats[1].UserID != tc.seat || m.Status != match.Open {
				t.Fatalf("seat 1 %+v, status %s", m.Seats[1], m.Status)
			}
		})
	}
	// Carol fills the last seat: the game starts.
	ack := n.must(id, match.Command{Kind: match.CmdJoin, User: carol, Seat: -1})
	if ack.Meta.Status != match.Live || ack.Meta.ToMove != 0 || ack.Meta.Started.IsZero() {
		t.Fatalf("after the last seat: %+v", ack.Meta)
	}
	if _, err := n.do(id, match.Command{Kind: match.CmdLeave, User: carol}); codeOf(err) != match.CodeConflict {
		t.Fatalf("leaving a live game: %v", err)
	}

	// The creator aborts an open game: it ends, and its owner stops.
	id2 := n.create(twoHumans("5"))
	if ack := n.must(id2, match.Command{Kind: match.CmdAbort, User: alice}); ack.Meta.Status != match.Aborted {
		t.Fatalf("aborted: %+v", ack.Meta)
	}
	if _, err := n.do(id2, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("joining an aborted game: %v", err)
	}
}

func TestCreateRefuses(t *testing.T) {
	n := newNode(t)
	for _, tc := range []struct {
		name string
		m    match.Meta
		code match.Code
	}{
		{"an unknown game", match.Meta{Game: "chess"}, match.CodeBadOption},
		{"an unknown option", match.Meta{Options: map[string]string{"colour": "red"}}, match.CodeBadOption},
		{"options with a position", match.Meta{Options: map[string]string{"stones": "3"}, StartPosition: []byte(`{"game":"tnim","stones":3,"players":2,"toMove":0,"winner":-1}`)}, match.CodeBadOption},
		{"an unreadable position", match.Meta{StartPosition: []byte(`{"game":"tnim"`)}, match.CodeBadPosition},
		{"a position that is over", match.Meta{StartPosition: []byte(`{"game":"tnim","stones":0,"players":2,"toMove":-1,"winner":1}`)}, match.CodeBadPosition},
		{"three seats for two", match.Meta{Seats: []match.Seat{{Kind: match.SeatOpen}, {Kind: match.SeatOpen}, {Kind: match.SeatOpen}}}, match.CodeBadOption},
		{"a bad clock", match.Meta{Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 10}}, match.CodeBadOption},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.m.ID = "refused"
			if tc.m.Game == "" {
				tc.m.Game = "tnim"
			}
			if _, err := n.reg.Create(context.Background(), alice, tc.m); codeOf(err) != tc.code {
				t.Fatalf("got %v, want code %q", err, tc.code)
			}
			if m, _ := n.journal.Game("refused"); m.ID != "" {
				t.Fatalf("a refused game was stored: %+v", m)
			}
		})
	}
}

// TestClocksRun: a realtime clock charges each move its time and adds the
// increment; a seat that lets its time run out loses, fired by the clock
// alone; a correspondence deadline does the same.
func TestClocksRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		clock   match.Clock
		wait    time.Duration // alice's think before her move
		clockMs int64         // her clock after it
		expire  time.Duration // bob's time
	}{
		{"realtime", match.Clock{Kind: match.ClockRealtime, InitialMs: 10000, IncrementMs: 2000}, 3 * time.Second, 9000, 10 * time.Second},
		{"correspondence", match.Clock{Kind: match.ClockCorrespondence, Days: 1}, 5 * time.Hour, 0, 24 * time.Hour},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t)
			m := twoHumans("9")
			m.Clock = tc.clock
			id := n.create(m)
			ack := n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
			if want := t0.Add(time.Duration(tc.clock.Days)*24*time.Hour + time.Duration(tc.clock.InitialMs)*time.Millisecond); !ack.Meta.Deadline.Equal(want) {
				t.Fatalf("alice's deadline %v, want %v", ack.Meta.Deadline, want)
			}
			n.time.Advance(tc.wait)
			ack = n.must(id, move(alice, 0, "1"))
			if ack.Move.ClockMs != tc.clockMs || !ack.Meta.Deadline.Equal(t0.Add(tc.wait+tc.expire)) {
				t.Fatalf("after alice's move: clock %d ms, bob's deadline %v", ack.Move.ClockMs, ack.Meta.Deadline)
			}
			if tc.clock.Kind == match.ClockRealtime {
				snap, _ := n.reg.Snapshot(context.Background(), id)
				if len(snap.Clocks) != 2 || snap.Clocks[0].RemainingMs != 9000 || snap.Clocks[1].RemainingMs != 10000 {
					t.Fatalf("clocks %+v", snap.Clocks)
				}
			}
			n.time.Advance(tc.expire - time.Millisecond)
			if m, _ := n.journal.Game(id); m.Status != match.Live {
				t.Fatalf("bob lost before his time: %s", m.Status)
			}
			n.time.Advance(time.Millisecond)
			events, err := n.events.Wait(func(e match.Event) bool { return e.Kind == match.EventEnd })
			if err != nil {
				t.Fatal(err)
			}
			r := events[len(events)-1].Meta.Result
			if r.Reason != match.ReasonTimeout || !slices.Equal(r.Winners, []int{0}) {
				t.Fatalf("result %+v, want a loss on time for seat 1", r)
			}
		})
	}
}

// TestRatedResult: a rated game between registered users ends with both
// players' ratings updated in the finishing write; a resignation is a loss.
func TestRatedResult(t *testing.T) {
	for _, tc := range []struct {
		name   string
		finish func(n *node, id string)
		winner int
		reason match.Reason
	}{
		{"played out", func(n *node, id string) {
			n.must(id, move(alice, 0, "2"))
			n.must(id, move(bob, 1, "1"))
		}, 1, match.ReasonNormal},
		{"resigned", func(n *node, id string) {
			if _, err := n.do(id, match.Command{Kind: match.CmdResign, User: alice, Ply: 1}); codeOf(err) != match.CodeStalePly {
				t.Fatalf("a resignation at another ply: %v", err)
			}
			n.must(id, match.Command{Kind: match.CmdResign, User: alice, Ply: -1})
		}, 1, match.ReasonResign},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t)
			m := twoHumans("3")
			m.Rated = true
			id := n.create(m)
			n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
			tc.finish(n, id)
			stored, _ := n.journal.Game(id)
			if stored.Status != match.Finished || stored.Result.Reason != tc.reason || !slices.Equal(stored.Result.Winners, []int{tc.winner}) {
				t.Fatalf("stored %s %+v", stored.Status, stored.Result)
			}
			rs := n.journal.Rated(id)
			if len(rs) != 2 || rs[tc.winner].Rating <= 1500 || rs[1-tc.winner].Rating >= 1500 || rs[0].UserID != alice.ID {
				t.Fatalf("ratings %+v", rs)
			}
		})
	}
	// A guest may not sit in a rated game.
	n := newNode(t)
	m := twoHumans("3")
	m.Rated = true
	m.Seats[1] = match.Seat{Kind: match.SeatOpen}
	id := n.create(m)
	if _, err := n.do(id, match.Command{Kind: match.CmdJoin, User: match.User{ID: 9, Guest: true}, Seat: -1}); codeOf(err) != match.CodeForbidden {
		t.Fatalf("a guest joined a rated game: %v", err)
	}
}

// scripted is a bot that plays what its script says, one decision per
// call; "wait" blocks until released or cancelled.
type scripted struct {
	mu      sync.Mutex
	script  []string
	seen    []game.Observation
	release chan struct{}
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	s.mu.Lock()
	s.seen = append(s.seen, obs)
	step := "1"
	if len(s.script) > 0 {
		step, s.script = s.script[0], s.script[1:]
	}
	s.mu.Unlock()
	switch step {
	case "error":
		return 0, errors.New("the bot broke")
	case "wait":
		select {
		case <-s.release:
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		step = "1"
	case "illegal":
		return game.Move(99), nil
	}
	mv, err := obs.World().ParseMove(step)
	if err != nil {
		return 0, err
	}
	return mv, nil
}

// pool is a BotPool that records the tasks it runs.
type pool struct {
	mu    sync.Mutex
	tasks []match.BotTask
}

func (p *pool) Think(ctx context.Context, t match.BotTask, choose func(context.Context) (game.Move, error)) (game.Move, error) {
	p.mu.Lock()
	p.tasks = append(p.tasks, t)
	p.mu.Unlock()
	return choose(ctx)
}

// TestBotTurns: a bot seat is played by its bot through the node's pool,
// handed an observation of its own seat; a bot that fails or answers an
// illegal move is replaced by a random legal move (and the log says so);
// a decision that comes after the game ended is dropped.
func TestBotTurns(t *testing.T) {
	for _, tc := range []struct {
		name   string
		script []string
		warn   bool
	}{
		{"good moves", []string{"1", "1"}, false},
		{"an error", []string{"error", "1"}, true},
		{"an illegal move", []string{"illegal", "1"}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bot := &scripted{script: tc.script}
			p := &pool{}
			var levelsMu sync.Mutex
			var levels []string
			n := newNode(t, func(c *match.Config) {
				c.Bots = p
				c.NewAgent = func(level string, g game.Game, seed uint64) (agent.Agent, error) {
					levelsMu.Lock()
					defer levelsMu.Unlock()
					levels = append(levels, level)
					return bot, nil
				}
			})
			id := n.create(match.Meta{Options: map[string]string{"stones": "6"},
				Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "greedy"}}})
			for ply := 0; ply < 4; ply += 2 {
				n.must(id, move(alice, ply, "1"))
				if _, err := n.events.Wait(func(e match.Event) bool { return e.Kind == match.EventMove && e.Move.Ply == ply+1 }); err != nil {
					t.Fatal(err)
				}
			}
			_, moves := n.journal.Game(id)
			if len(moves) != 4 || moves[1].Seat != 1 || moves[3].Seat != 1 {
				t.Fatalf("moves %+v", moves)
			}
			p.mu.Lock()
			tasks := slices.Clone(p.tasks)
			p.mu.Unlock()
			if len(tasks) != 2 || tasks[0] != (match.BotTask{Game: id, Seat: 1, Level: "greedy", Creator: alice.ID, Cores: 1}) {
				t.Fatalf("pool tasks %+v", tasks)
			}
			// The availability check at creation, then one agent for the
			// seat, kept for the game.
			levelsMu.Lock()
			defer levelsMu.Unlock()
			if !slices.Equal(levels, []string{"greedy", "greedy"}) {
				t.Fatalf("agents made: %v", levels)
			}
			for _, obs := range bot.seen {
				if obs.Seat() != 1 {
					t.Fatalf("the bot observed seat %d", obs.Seat())
				}
			}
			if warned := strings.Contains(n.log(), "bot failed; playing a random move"); warned != tc.warn {
				t.Fatalf("warning logged: %v, want %v\n%s", warned, tc.warn, n.log())
			}
		})
	}

	t.Run("a late decision", func(t *testing.T) {
		bot := &scripted{script: []string{"wait"}, release: make(chan struct{})}
		n := newNode(t, func(c *match.Config) {
			c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
		})
		id := n.create(match.Meta{Options: map[string]string{"stones": "6"},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
		n.must(id, move(alice, 0, "1"))
		for {
			bot.mu.Lock()
			thinking := len(bot.seen) > 0
			bot.mu.Unlock()
			if thinking {
				break
			}
			time.Sleep(time.Millisecond)
		}
		n.must(id, match.Command{Kind: match.CmdResign, User: alice, Ply: -1})
		close(bot.release)
		m, moves := n.journal.Game(id)
		if m.Status != match.Finished || len(moves) != 1 {
			t.Fatalf("after the resignation: %s with %d moves", m.Status, len(moves))
		}
	})
}

// TestStoreFailures: a write the store refuses changes nothing and the
// game goes on; a conflict (another writer) stops this owner.
func TestStoreFailures(t *testing.T) {
	var fail error
	n := newNode(t)
	n.journal.Fail = func(op, id string) error {
		if op == "append" {
			return fail
		}
		return nil
	}
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	fail = errors.New("disk full")
	if _, err := n.do(id, move(alice, 0, "1")); codeOf(err) != match.CodeUnavailable {
		t.Fatalf("a failed write: %v", err)
	}
	if !strings.Contains(n.log(), "disk full") {
		t.Fatalf("the cause is not logged:\n%s", n.log())
	}
	fail = nil
	n.must(id, move(alice, 0, "1"))
	fail = match.ErrConflict
	if _, err := n.do(id, move(bob, 1, "1")); codeOf(err) != match.CodeConflict {
		t.Fatalf("a conflicting write: %v", err)
	}
	if _, err := n.do(id, move(bob, 1, "1")); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("the stale owner still answers: %v", err)
	}
}

// TestLoad: a live game loaded from the journal (after a restart) goes on
// from its stored moves; a game whose row disagrees with its moves is
// refused.
func TestLoad(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "2"))
	stored, _ := n.journal.Game(id)

	// Another node on the same journal, as after a restart.
	m := newNode(t, func(c *match.Config) { c.Journal = n.journal })
	owner, err := m.reg.Load(context.Background(), stored)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := owner.Snapshot(context.Background())
	if err != nil || len(snap.Moves) != 1 || snap.State.ToMove() != 1 || snap.Seq() != stored.Version {
		t.Fatalf("loaded: %+v, %v", snap, err)
	}
	m.must(id, move(bob, 1, "1"))
	if _, moves := n.journal.Game(id); len(moves) != 2 {
		t.Fatalf("%d moves stored", len(moves))
	}
	k := newNode(t, func(c *match.Config) { c.Journal = n.journal })
	stored.Ply = 5
	if _, err := k.reg.Load(context.Background(), stored); err == nil || !strings.Contains(err.Error(), "5 moves, 2 stored") {
		t.Fatalf("loading a game whose row says 5 moves with 2 stored: %v", err)
	}
}
