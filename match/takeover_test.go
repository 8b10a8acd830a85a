package match_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/match/matchtest"
)

// The seams a cluster of nodes uses (package cluster): a write fenced off
// because another node took the game over, a command retried after its
// first owner died, a game adopted from a dead node, an owner released.

// TestDeposed: a write the journal refuses with ErrDeposed (another node
// owns the game now) stops this owner and answers ErrClosed — the caller
// forwards the command to the new owner — whichever write it was; nothing
// is written and no event is published.
func TestDeposed(t *testing.T) {
	for _, tc := range []struct {
		op  string
		cmd func(id string) match.Command
	}{
		{"update", func(string) match.Command { return match.Command{Kind: match.CmdJoin, User: bob, Seat: -1} }},
		{"append", func(string) match.Command { return move(alice, 0, "1") }},
		{"end", func(string) match.Command { return match.Command{Kind: match.CmdResign, User: alice, Ply: -1} }},
	} {
		t.Run(tc.op, func(t *testing.T) {
			n := newNode(t)
			id := n.create(twoHumans("9"))
			if tc.op != "update" {
				n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
			}
			n.journal.Fail = func(op, _ string) error {
				if op == tc.op {
					return fmt.Errorf("fenced: %w", match.ErrDeposed)
				}
				return nil
			}
			before, moves := n.journal.Game(id)
			events := len(n.events.All())
			if _, err := n.do(id, tc.cmd(id)); !errors.Is(err, match.ErrClosed) {
				t.Fatalf("a fenced %s answered %v, want ErrClosed", tc.op, err)
			}
			if n.reg.Get(id) != nil {
				t.Fatal("the deposed owner is still registered")
			}
			after, moves2 := n.journal.Game(id)
			if after.Version != before.Version || len(moves2) != len(moves) || len(n.events.All()) != events {
				t.Fatalf("a fenced write changed something: version %d → %d, moves %d → %d", before.Version, after.Version, len(moves), len(moves2))
			}
			if !strings.Contains(n.log(), "another node owns the game now") {
				t.Fatalf("not logged:\n%s", n.log())
			}
		})
	}

	t.Run("a timeout", func(t *testing.T) {
		n := newNode(t)
		m := twoHumans("9")
		m.Clock = match.Clock{Kind: match.ClockRealtime, InitialMs: 5000}
		id := n.create(m)
		n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
		var ends atomic.Int32
		n.journal.Fail = func(op, _ string) error {
			if op == "end" {
				ends.Add(1)
				return match.ErrDeposed
			}
			return nil
		}
		n.time.Advance(6 * time.Second)
		n.gone(id)
		// A stopped owner tries no more: no retry every second.
		n.time.Advance(5 * time.Second)
		n.settle(id)
		if ends.Load() != 1 {
			t.Fatalf("%d attempts to end the game, want 1", ends.Load())
		}
	})
}

// TestJoinDeposedAtTheStart: the join that fills the last seat writes
// twice, the seat and then the start. When only the start is fenced off
// (another node took the game over between the two writes), the seat is
// stored: the join has been applied and is answered so — the new owner
// starts the full game when it adopts it. Answered ErrClosed, the join
// was forwarded to the new owner as if it had never run there, and was
// refused there ("the game is live, not open"): cluster TestRace failed
// so in CI twice.
func TestJoinDeposedAtTheStart(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	var updates atomic.Int32
	n.journal.Fail = func(op, _ string) error {
		if op == "update" && updates.Add(1) == 2 {
			return fmt.Errorf("fenced: %w", match.ErrDeposed)
		}
		return nil
	}
	ack, err := n.do(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	if err != nil {
		t.Fatalf("a join whose seat was stored and whose start was fenced off: %v", err)
	}
	if ack.Meta.SeatOf(bob.ID) != 1 {
		t.Fatalf("the answer does not seat bob: %+v", ack.Meta.Seats)
	}
	if stored, _ := n.journal.Game(id); stored.SeatOf(bob.ID) != 1 || stored.Status != match.Open {
		t.Fatalf("stored: %s, seats %+v; want bob seated, the game open (its start is the new owner's)", stored.Status, stored.Seats)
	}
	if n.reg.Get(id) != nil {
		t.Fatal("the deposed owner is still registered")
	}
}

// TestRetry: a retried move that was already applied (same ply, seat and
// text as the last move) is answered as done and not played again; any
// other retried or repeated move at an old ply is stale.
func TestRetry(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "2"))
	retry := move(alice, 0, "2")
	retry.Retry = true
	ack, err := n.do(id, retry)
	if err != nil || ack.Move == nil || ack.Move.Ply != 0 || ack.Move.Text != "2" {
		t.Fatalf("a retried move that was applied: %+v, %v", ack.Move, err)
	}
	if _, moves := n.journal.Game(id); len(moves) != 1 {
		t.Fatalf("%d moves stored after the retry, want 1", len(moves))
	}
	for _, c := range []match.Command{
		move(alice, 0, "2"), // the same move, not marked as a retry
		{Kind: match.CmdMove, User: alice, Seat: -1, Ply: 0, Move: "1", Retry: true}, // another move
	} {
		if _, err := n.do(id, c); codeOf(err) != match.CodeStalePly && codeOf(err) != match.CodeNotYourTurn {
			t.Fatalf("%+v: %v, want stale_ply or not_your_turn", c, err)
		}
	}
	bobRetry := move(bob, 0, "2")
	bobRetry.Retry = true
	if _, err := n.do(id, bobRetry); codeOf(err) != match.CodeStalePly {
		t.Fatalf("bob retrying alice's move: %v", err)
	}
	if _, moves := n.journal.Game(id); len(moves) != 1 {
		t.Fatalf("%d moves stored, want 1", len(moves))
	}
}

// TestRetryAfterLaterMoves: a retried move that was applied and then
// followed by the other seat's move (its owner died after committing it and
// before answering; the opponent moved on at the new owner) is answered
// with the move at its ply, not refused as not_your_turn — the failover
// the issue saw: seat 1's ply 149 stored, the opponent's ply 150 stored
// 5 ms later, then the retry answered not_your_turn.
func TestRetryAfterLaterMoves(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "2"))
	n.must(id, move(bob, 1, "1"))
	n.must(id, move(alice, 2, "1"))
	retry := move(bob, 1, "1")
	retry.Retry = true
	ack, err := n.do(id, retry)
	if err != nil || ack.Move == nil || ack.Move.Ply != 1 || ack.Move.Seat != 1 || ack.Move.Text != "1" {
		t.Fatalf("a retried move followed by another: %+v, %v", ack.Move, err)
	}
	// Not the move at that ply (another text, another seat's): refused.
	for _, c := range []match.Command{
		{Kind: match.CmdMove, User: bob, Seat: -1, Ply: 1, Move: "2", Retry: true},
		{Kind: match.CmdMove, User: alice, Seat: -1, Ply: 1, Move: "1", Retry: true},
	} {
		if _, err := n.do(id, c); codeOf(err) != match.CodeStalePly && codeOf(err) != match.CodeNotYourTurn {
			t.Fatalf("%+v: %v, want stale_ply or not_your_turn", c, err)
		}
	}
	if _, moves := n.journal.Game(id); len(moves) != 3 {
		t.Fatalf("%d moves stored, want 3", len(moves))
	}
}

// TestRetriedJoin: a retried join whose first copy took the seat — its
// owner died after committing it and before answering, and the game
// started — is answered as done, not refused with "the game is live, not
// open" (refused but applied: seen in TestClusterRetriesAroundFailover,
// bob's join forwarded, its owner killed 8 ms after); likewise a retried
// leave whose seat is given back. Not retried, or by someone else, they are
// refused as before.
func TestRetriedJoin(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	for _, seat := range []int{-1, 1} {
		retry := match.Command{Kind: match.CmdJoin, User: bob, Seat: seat, Retry: true}
		if ack, err := n.do(id, retry); err != nil || ack.Meta.SeatOf(bob.ID) != 1 || ack.Meta.Status != match.Live {
			t.Fatalf("a retried join that took seat %d: %v (%s)", seat, err, ack.Meta.Status)
		}
	}
	for _, c := range []match.Command{
		{Kind: match.CmdJoin, User: bob, Seat: -1},                // not a retry
		{Kind: match.CmdJoin, User: bob, Seat: 0, Retry: true},    // another seat
		{Kind: match.CmdJoin, User: carol, Seat: -1, Retry: true}, // not seated
	} {
		if _, err := n.do(id, c); codeOf(err) != match.CodeConflict {
			t.Fatalf("%+v: %v, want conflict", c, err)
		}
	}

	open := n.create(twoHumans("9"))
	if _, err := n.do(open, match.Command{Kind: match.CmdLeave, User: bob}); codeOf(err) != match.CodeForbidden {
		t.Fatalf("a leave without a seat: %v", err)
	}
	if _, err := n.do(open, match.Command{Kind: match.CmdLeave, User: bob, Retry: true}); err != nil {
		t.Fatalf("a retried leave whose seat is given back: %v", err)
	}
}

// holder is a journal that can say whether this node still holds a game.
type holder struct {
	*matchtest.Journal
	mu    sync.Mutex
	holds error
	asked int
}

func (h *holder) Holds(context.Context, string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.asked++
	return h.holds
}

func (h *holder) set(err error) (asked int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.holds = err
	return h.asked
}

// TestRefusalConfirmed: an owner refuses a command on the strength of the
// game as it holds it only while its journal says this node holds the
// game (match.Holder): an owner deposed without knowing it stops and
// answers ErrClosed, to be forwarded; a refusal it cannot confirm is
// unavailable. A refusal that is the command's own fault is not checked.
func TestRefusalConfirmed(t *testing.T) {
	h := &holder{Journal: matchtest.NewJournal()}
	n := newNode(t, func(c *match.Config) { c.Journal = h })
	n.journal = h.Journal
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	if _, err := n.do(id, move(bob, 0, "1")); codeOf(err) != match.CodeNotYourTurn {
		t.Fatalf("bob out of turn, the game held: %v", err)
	}
	if _, err := n.do(id, move(alice, 0, "x")); codeOf(err) != match.CodeBadMove {
		t.Fatalf("an unreadable move: %v", err)
	}
	before := h.set(nil)
	if _, err := n.do(id, match.Command{Kind: match.CmdChat, User: alice, Text: " "}); codeOf(err) != match.CodeBadRequest {
		t.Fatalf("an empty chat line: %v", err)
	}
	if h.set(nil) != before {
		t.Fatal("a refusal that is the command's own fault asked whether the game is held")
	}
	h.set(errors.New("the database is down"))
	if _, err := n.do(id, move(bob, 0, "1")); codeOf(err) != match.CodeUnavailable {
		t.Fatalf("bob out of turn, the holder unsure: %v", err)
	}
	h.set(fmt.Errorf("fenced: %w", match.ErrDeposed))
	if _, err := n.do(id, move(bob, 0, "1")); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("bob out of turn at a deposed owner: %v, want ErrClosed", err)
	}
	if n.reg.Get(id) != nil {
		t.Fatal("the deposed owner is still registered")
	}
}

// TestAdoptReplaces: adopting a game this node still holds an owner of
// stops that owner and loads the game from the journal — the node lost
// the game, others played on, and it won the game back.
func TestAdoptReplaces(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.must(id, move(alice, 0, "1"))
	stale := n.reg.Get(id)
	// Another node's owner plays ply 1 through the same journal.
	other := newNode(t, func(c *match.Config) { c.Journal = n.journal; c.Time = n.time })
	g, _ := n.journal.Game(id)
	g.Version++
	if _, err := other.reg.Adopt(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	other.must(id, move(bob, 1, "1"))
	other.reg.StopAll()
	// This node claims it back.
	g, _ = n.journal.Game(id)
	g.Version++
	owner, err := n.reg.Adopt(context.Background(), g)
	if err != nil || owner == stale {
		t.Fatalf("adopted: the stale owner again %v, %v", owner == stale, err)
	}
	if ack, err := n.do(id, move(alice, 2, "1")); err != nil || ack.Move.Ply != 2 {
		t.Fatalf("alice at ply 2 after winning the game back: %+v, %v", ack.Move, err)
	}
}

// TestAdopt: a game taken over from a dead node resumes with the deadline
// its takeover stored (the seat to move's clock shows what is left of it),
// publishes EventResumed first at the version the takeover wrote, prompts
// the seat to move again, loses on time at that deadline, and its bots
// carry on.
func TestAdopt(t *testing.T) {
	n := newNode(t)
	m := twoHumans("9")
	m.Clock = match.Clock{Kind: match.ClockRealtime, InitialMs: 60000, IncrementMs: 1000}
	id := n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(2 * time.Second)
	n.must(id, move(alice, 0, "1")) // alice: 59 s left; bob to move
	stored, _ := n.journal.Game(id)
	n.reg.StopAll()

	// The takeover's claim: one more version, bob's deadline 20 s from now.
	other := newNode(t, func(c *match.Config) { c.Journal = n.journal; c.Time = n.time })
	stored.Version++
	stored.Deadline = n.time.Now().Add(20 * time.Second)
	if _, err := other.reg.Adopt(context.Background(), stored); err != nil {
		t.Fatal(err)
	}
	evs, err := other.events.Wait(func(e match.Event) bool { return e.Kind == match.EventResumed })
	if err != nil {
		t.Fatal(err)
	}
	e := evs[0]
	if e.Seq != stored.Version || e.Prompt == nil || e.Prompt.UserID != bob.ID || e.Prompt.Ply != 1 {
		t.Fatalf("resumed event: seq %d (want %d), prompt %+v", e.Seq, stored.Version, e.Prompt)
	}
	if want := []match.ClockState{{Seat: 0, RemainingMs: 59000}, {Seat: 1, RemainingMs: 20000}}; !slices.Equal(e.Clocks, want) {
		t.Fatalf("clocks %+v, want %+v", e.Clocks, want)
	}
	n.time.Advance(5 * time.Second)
	ack := other.must(id, move(bob, 1, "1"))
	if ack.Move.ClockMs != 16000 || ack.Seq() != stored.Version+1 {
		t.Fatalf("bob's move after the takeover: clock %d ms (want 15 s left + 1 s), seq %d", ack.Move.ClockMs, ack.Seq())
	}

	// The deadline stands: a seat that does not move loses at it.
	n2 := newNode(t)
	id2 := n2.create(m)
	n2.must(id2, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	g, _ := n2.journal.Game(id2)
	n2.reg.StopAll()
	adopter := newNode(t, func(c *match.Config) { c.Journal = n2.journal; c.Time = n2.time })
	g.Version++
	g.Deadline = n2.time.Now().Add(3 * time.Second)
	if _, err := adopter.reg.Adopt(context.Background(), g); err != nil {
		t.Fatal(err)
	}
	if _, err := adopter.events.Wait(func(e match.Event) bool { return e.Kind == match.EventResumed }); err != nil {
		t.Fatal(err)
	}
	n2.time.Advance(3 * time.Second)
	evs, err = adopter.events.Wait(func(e match.Event) bool { return e.Kind == match.EventEnd })
	if err != nil {
		t.Fatal(err)
	}
	if r := evs[len(evs)-1].Meta.Result; r.Reason != match.ReasonTimeout {
		t.Fatalf("result %+v, want a loss on time", r)
	}

	// A bot seat to move carries on.
	// (The first node's bot waits a second of its clock before each move,
	// which the test lets pass once.)
	n3 := newNode(t, func(c *match.Config) { c.NewAgent = matchtest.FirstLegal; c.BotDelay = time.Second })
	id3 := n3.create(match.Meta{Options: map[string]string{"stones": "9"},
		Seats: []match.Seat{{Kind: match.SeatBot, Level: "easy"}, {Kind: match.SeatHuman, UserID: alice.ID}}})
	n3.armed(time.Second) // the bot's decision waits for its delay
	n3.time.Advance(time.Second)
	if _, err := n3.events.Wait(func(e match.Event) bool { return e.Kind == match.EventMove }); err != nil {
		t.Fatal(err)
	}
	n3.must(id3, move(alice, 1, "1"))
	g3, _ := n3.journal.Game(id3)
	n3.reg.StopAll()
	if _, moves := n3.journal.Game(id3); len(moves) != 2 {
		t.Fatalf("%d moves before the takeover, want 2", len(moves))
	}
	bots := newNode(t, func(c *match.Config) { c.Journal = n3.journal; c.NewAgent = matchtest.FirstLegal })
	g3.Version++
	if _, err := bots.reg.Adopt(context.Background(), g3); err != nil {
		t.Fatal(err)
	}
	if _, err := bots.events.Wait(func(e match.Event) bool { return e.Kind == match.EventMove && e.Move.Ply == 2 }); err != nil {
		t.Fatal(err)
	}
}

// TestRelease: releasing a game stops its owner here without a write; its
// commands answer ErrClosed.
func TestRelease(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	before, _ := n.journal.Game(id)
	n.reg.Release(id)
	if _, err := n.do(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("a released game answered %v", err)
	}
	if after, _ := n.journal.Game(id); after.Version != before.Version {
		t.Fatalf("releasing wrote: version %d → %d", before.Version, after.Version)
	}
	n.reg.Release("no such game") // nothing to do
}

// TestStoredSnapshot: a snapshot built from the store leaves out moves
// committed after the game's row was read, and shows the running realtime
// clock counting down to the stored deadline.
func TestStoredSnapshot(t *testing.T) {
	n := newNode(t)
	m := twoHumans("9")
	m.Clock = match.Clock{Kind: match.ClockRealtime, InitialMs: 30000}
	id := n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	n.time.Advance(4 * time.Second)
	n.must(id, move(alice, 0, "1"))
	row, _ := n.journal.Game(id)
	n.time.Advance(time.Second)
	n.must(id, move(bob, 1, "1")) // committed after the row was read
	_, moves := n.journal.Game(id)
	snap, err := match.StoredSnapshot(row, moves, n.time.Now().Add(3*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Moves) != 1 || snap.Seq() != row.Version || snap.State.ToMove() != 1 {
		t.Fatalf("snapshot: %d moves, seq %d, to move %d", len(snap.Moves), snap.Seq(), snap.State.ToMove())
	}
	// bob's deadline was 30 s after alice's move; 4 s have passed.
	if want := []match.ClockState{{Seat: 0, RemainingMs: 26000}, {Seat: 1, RemainingMs: 26000}}; !slices.Equal(snap.Clocks, want) {
		t.Fatalf("clocks %+v, want %+v", snap.Clocks, want)
	}
	row.Ply = 3
	if _, err := match.StoredSnapshot(row, moves, n.time.Now()); err == nil {
		t.Fatal("a row that says more moves than are stored was accepted")
	}
}

// TestJoinStartFailsAfterTheSeat: when the store takes the seat of the
// join that fills the game and then fails to write the start (a store
// error, not another owner), the join has been applied and is answered so,
// and the owner tries the start again a second later. Before, the join
// answered "unavailable" although its seat was stored, and nothing started
// the full game: it stayed open with every seat taken, and a retried join
// was answered as done (its seat is held) without starting it either.
func TestJoinStartFailsAfterTheSeat(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("9"))
	var updates atomic.Int32
	n.journal.Fail = func(op, _ string) error {
		if op == "update" && updates.Add(1) == 2 {
			return errors.New("the database went away")
		}
		return nil
	}
	ack, err := n.do(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	if err != nil {
		t.Fatalf("a join whose seat was stored and whose start failed: %v", err)
	}
	if ack.Meta.SeatOf(bob.ID) != 1 {
		t.Fatalf("the answer does not seat bob: %+v", ack.Meta.Seats)
	}
	if stored, _ := n.journal.Game(id); stored.Status != match.Open {
		t.Fatalf("stored %s before the start was tried again", stored.Status)
	}
	n.time.Advance(time.Second)
	eventually(t, "the full game started on the second try", func() bool {
		stored, _ := n.journal.Game(id)
		return stored.Status == match.Live
	})
	if _, err := n.do(id, move(alice, 0, "2")); err != nil {
		t.Fatalf("the first move of the started game: %v", err)
	}
}
