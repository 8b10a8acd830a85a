package match_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/match/matchtest"
)

// The room's commands (offers, takebacks, chat, presence, claims, aborts):
// each table names the command, who gives it in which game, and the code
// it must be refused with ("" for done); what a done command changed is
// checked after.

func offer(u match.User, k match.OfferKind) match.Command {
	return match.Command{Kind: match.CmdOffer, User: u, Offer: k}
}
func accept(u match.User, k match.OfferKind) match.Command {
	return match.Command{Kind: match.CmdAccept, User: u, Offer: k}
}
func decline(u match.User, k match.OfferKind) match.Command {
	return match.Command{Kind: match.CmdDecline, User: u, Offer: k}
}
func say(u match.User, text string) match.Command {
	return match.Command{Kind: match.CmdChat, User: u, Text: text}
}

// live is a started game of tnim between alice (seat 0) and bob.
func (n *node) live(m match.Meta) string {
	n.t.Helper()
	id := n.create(m)
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	return id
}

// room is the room as u sees it.
func (n *node) room(id string, u match.User) *match.Room {
	n.t.Helper()
	return n.must(id, match.Command{Kind: match.CmdRoom, User: u}).Room
}

func (n *node) version(id string) int64 {
	m, _ := n.journal.Game(id)
	return m.Version
}

type step struct {
	name string
	c    match.Command
	code match.Code
}

func (n *node) steps(id string, steps []step) {
	n.t.Helper()
	for _, s := range steps {
		before := n.version(id)
		_, err := n.do(id, s.c)
		if codeOf(err) != s.code {
			n.t.Fatalf("%s: %v, want code %q", s.name, err, s.code)
		}
		if err != nil && n.version(id) != before {
			n.t.Fatalf("%s: refused, but the game changed (version %d → %d)", s.name, before, n.version(id))
		}
	}
}

// TestDrawOffers: only players offer, only the other accepts; one pending
// offer per seat and one offer per seat per move; a move ends the offer;
// offering while the other's offer stands agrees to it; a draw by
// agreement is drawn for everyone and rated as a draw.
func TestDrawOffers(t *testing.T) {
	n := newNode(t)
	id := n.live(twoHumans("20"))
	n.steps(id, []step{
		{"a spectator offers", offer(carol, match.OfferDraw), match.CodeForbidden},
		{"an unknown offer", offer(alice, "surrender"), match.CodeBadRequest},
		{"accept what nobody offered", accept(bob, match.OfferDraw), match.CodeConflict},
		{"alice offers", offer(alice, match.OfferDraw), ""},
		{"alice offers again", offer(alice, match.OfferDraw), match.CodeConflict},
		{"alice accepts her own offer", accept(alice, match.OfferDraw), match.CodeConflict},
		{"a spectator accepts", accept(carol, match.OfferDraw), match.CodeForbidden},
		{"bob declines", decline(bob, match.OfferDraw), ""},
		{"bob declines again", decline(bob, match.OfferDraw), match.CodeConflict},
		{"alice offers again at the same move", offer(alice, match.OfferDraw), match.CodeRateLimited},
		{"alice moves", move(alice, 0, "1"), ""},
		{"alice offers after a move", offer(alice, match.OfferDraw), ""},
		{"alice withdraws", decline(alice, match.OfferDraw), ""},
		{"bob offers", offer(bob, match.OfferDraw), ""},
		{"bob moves", move(bob, 1, "1"), ""},
		{"alice accepts after the move ended it", accept(alice, match.OfferDraw), match.CodeConflict},
	})
	if r := n.room(id, alice); len(r.Offers) != 0 {
		t.Fatalf("offers after a move: %+v", r.Offers)
	}
	// The room wrote nothing: the version counts the join, the start and two moves.
	if v := n.version(id); v != 5 {
		t.Fatalf("version %d after offers and two moves, want 5", v)
	}
	var notes []match.OfferNote
	for _, e := range n.events.All() {
		if e.Kind == match.EventOffer {
			notes = append(notes, *e.Note)
			if e.Seq != e.Meta.Version || e.Room == nil || e.Room.N == 0 {
				t.Fatalf("a room event numbered seq %d (version %d), room %+v", e.Seq, e.Meta.Version, e.Room)
			}
		}
	}
	want := []match.OfferNote{{match.OfferDraw, 0, match.NoteOffered}, {match.OfferDraw, 1, match.NoteDeclined},
		{match.OfferDraw, 0, match.NoteOffered}, {match.OfferDraw, 0, match.NoteWithdrawn}, {match.OfferDraw, 1, match.NoteOffered}}
	if !slices.Equal(notes, want) {
		t.Fatalf("notes %+v, want %+v", notes, want)
	}

	n.steps(id, []step{
		{"bob offers", offer(bob, match.OfferDraw), ""},
		{"alice offers too: agreed", offer(alice, match.OfferDraw), ""},
	})
	m, _ := n.journal.Game(id)
	if m.Status != match.Finished || m.Result.Status != match.Drawn || m.Result.Reason != match.ReasonAgreed || len(m.Result.Winners) != 0 {
		t.Fatalf("after both offered: %s %+v", m.Status, m.Result)
	}

	// Against a bot there is nobody to agree.
	n2 := newNode(t, func(c *match.Config) { c.NewAgent = matchtest.FirstLegal })
	bid := n2.create(match.Meta{Options: map[string]string{"stones": "20"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
	n2.steps(bid, []step{{"a draw offered to a bot", offer(alice, match.OfferDraw), match.CodeConflict}})
}

// TestAgreedDrawIsRated: a draw by agreement in a rated game is a draw
// for the ratings, whatever the scores.
func TestAgreedDrawIsRated(t *testing.T) {
	n := newNode(t)
	m := twoHumans("20")
	m.Rated = true
	id := n.live(m)
	n.must(id, offer(bob, match.OfferDraw))
	n.must(id, accept(alice, match.OfferDraw))
	rated := n.journal.Rated(id)
	if len(rated) != 2 || rated[0].Games != 1 || rated[0].Rating != rated[1].Rating {
		t.Fatalf("ratings after a draw between new players: %+v", rated)
	}
}

// TestTakeback: against bots in an unrated game a takeback is done at once
// and takes back the player's move and the bot's reply; between people the
// opponent accepts or declines; a rated game needs the opponent too; a
// game with hidden information has none; nobody takes back a move that is
// not theirs or before they have moved.
func TestTakeback(t *testing.T) {
	t.Run("against a bot", func(t *testing.T) {
		n := newNode(t, func(c *match.Config) { c.NewAgent = matchtest.FirstLegal })
		id := n.create(match.Meta{Options: map[string]string{"stones": "20"},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
		n.steps(id, []step{{"before any move", offer(alice, match.OfferTakeback), match.CodeConflict}})
		n.must(id, move(alice, 0, "3"))
		waitMoves(t, n, id, 2)
		n.must(id, move(alice, 2, "2"))
		waitMoves(t, n, id, 4)
		ack := n.must(id, offer(alice, match.OfferTakeback))
		if ack.Meta.Ply != 2 || ack.Meta.ToMove != 0 {
			t.Fatalf("after the takeback: ply %d, to move %d", ack.Meta.Ply, ack.Meta.ToMove)
		}
		m, moves := n.journal.Game(id)
		if len(moves) != 2 || m.Ply != 2 || m.ToMove != 0 {
			t.Fatalf("stored after the takeback: %d moves, ply %d, to move %d", len(moves), m.Ply, m.ToMove)
		}
		evs := n.events.All()
		last := evs[len(evs)-1]
		if last.Kind != match.EventTakeback || last.Meta.Ply != 2 || len(last.Legal) != 3 || last.Prompt == nil || last.Prompt.Ply != 2 {
			t.Fatalf("the takeback's event: %+v", last)
		}
		// Again and again: back to the start.
		n.must(id, offer(alice, match.OfferTakeback))
		if _, moves := n.journal.Game(id); len(moves) != 0 {
			t.Fatalf("%d moves after taking everything back", len(moves))
		}
		// The game goes on from there: 20 stones again.
		n.must(id, move(alice, 0, "1"))
		waitMoves(t, n, id, 2)
		if _, moves := n.journal.Game(id); moves[0].Text != "1" {
			t.Fatalf("moves after playing on: %+v", moves)
		}
	})

	t.Run("a bot's decision in flight is dropped", func(t *testing.T) {
		bot := &scripted{script: []string{"wait"}, release: make(chan struct{})}
		var made []*closeCounter // each agent the owner made, in order
		var madeMu sync.Mutex
		n := newNode(t, func(c *match.Config) {
			c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) {
				madeMu.Lock()
				defer madeMu.Unlock()
				made = append(made, &closeCounter{scripted: bot})
				return made[len(made)-1], nil
			}
		})
		id := n.create(match.Meta{Options: map[string]string{"stones": "20"},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
		n.must(id, move(alice, 0, "3"))
		waitFor(t, func() bool { bot.mu.Lock(); defer bot.mu.Unlock(); return len(bot.seen) == 1 })
		n.must(id, offer(alice, match.OfferTakeback)) // while the bot thinks
		n.must(id, move(alice, 0, "1"))               // and a different move
		close(bot.release)                            // the old decision answers "1" for 17 stones
		waitMoves(t, n, id, 2)
		// The owner closes the dropped decision's agent (the second it
		// made: the first was the check at creation) when its answer
		// arrives, instead of playing it; a snapshot after that is taken
		// once the owner is done with it.
		waitFor(t, func() bool {
			madeMu.Lock()
			defer madeMu.Unlock()
			return len(made) > 1 && made[1].n.Load() > 0
		})
		n.settle(id)
		_, moves := n.journal.Game(id)
		if len(moves) != 2 || moves[0].Text != "1" {
			t.Fatalf("moves %+v", moves)
		}
		bot.mu.Lock()
		defer bot.mu.Unlock()
		if len(bot.seen) != 2 {
			t.Fatalf("the bot was asked %d times, want 2 (the dropped decision and the new one)", len(bot.seen))
		}
	})

	for _, rated := range []bool{false, true} {
		t.Run(map[bool]string{false: "between people", true: "between people, rated"}[rated], func(t *testing.T) {
			n := newNode(t)
			m := twoHumans("20")
			m.Rated = rated
			id := n.live(m)
			n.must(id, move(alice, 0, "1"))
			n.must(id, move(bob, 1, "2"))
			n.steps(id, []step{
				{"a spectator asks", offer(carol, match.OfferTakeback), match.CodeForbidden},
				{"alice asks", offer(alice, match.OfferTakeback), ""},
				{"alice asks again", offer(alice, match.OfferTakeback), match.CodeConflict},
				{"alice accepts her own", accept(alice, match.OfferTakeback), match.CodeConflict},
				{"a spectator accepts", accept(carol, match.OfferTakeback), match.CodeForbidden},
				{"bob declines", decline(bob, match.OfferTakeback), ""},
				{"alice asks at the same move", offer(alice, match.OfferTakeback), match.CodeRateLimited},
			})
			if _, moves := n.journal.Game(id); len(moves) != 2 {
				t.Fatalf("a declined takeback took %d moves back", 2-len(moves))
			}
			n.must(id, move(alice, 2, "1"))
			n.steps(id, []step{
				{"bob asks", offer(bob, match.OfferTakeback), ""},
				{"alice accepts", accept(alice, match.OfferTakeback), ""},
			})
			// Bob's last move was ply 1: it and alice's reply are gone.
			m2, moves := n.journal.Game(id)
			if len(moves) != 1 || m2.ToMove != 1 || m2.Status != match.Live {
				t.Fatalf("after bob's takeback: %d moves, to move %d, %s", len(moves), m2.ToMove, m2.Status)
			}
			n.must(id, move(bob, 1, "3"))
		})
	}

	t.Run("hidden information", func(t *testing.T) {
		n := newNode(t, func(c *match.Config) { c.NewAgent = matchtest.FirstLegal })
		id := n.create(match.Meta{Game: "tnimh", Options: map[string]string{"stones": "20"},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
		n.must(id, move(alice, 0, "1"))
		waitMoves(t, n, id, 2)
		n.steps(id, []step{{"a takeback in a hidden game", offer(alice, match.OfferTakeback), match.CodeConflict}})
	})
}

func waitMoves(t *testing.T, n *node, id string, k int) {
	t.Helper()
	waitFor(t, func() bool { _, moves := n.journal.Game(id); return len(moves) >= k })
}

// TestTakebackClocks: the realtime clocks go back to what the kept moves
// left, and the seat to move starts its turn at the takeback.
func TestTakebackClocks(t *testing.T) {
	n := newNode(t)
	m := twoHumans("20")
	m.Clock = match.Clock{Kind: match.ClockRealtime, InitialMs: 60000, IncrementMs: 1000}
	id := n.live(m)
	n.time.Advance(5 * time.Second)
	n.must(id, move(alice, 0, "1")) // alice: 60 - 5 + 1 = 56 s
	n.time.Advance(10 * time.Second)
	n.must(id, move(bob, 1, "1")) // bob: 51 s
	n.time.Advance(20 * time.Second)
	n.must(id, move(alice, 2, "1")) // alice: 37 s
	n.must(id, offer(bob, match.OfferTakeback))
	n.time.Advance(3 * time.Second)
	n.must(id, accept(alice, match.OfferTakeback))
	snap, err := n.reg.Snapshot(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	// Back to after alice's first move: bob to move with 60 s, alice 56 s.
	if want := []match.ClockState{{Seat: 0, RemainingMs: 56000}, {Seat: 1, RemainingMs: 60000}}; !slices.Equal(snap.Clocks, want) {
		t.Fatalf("clocks %+v, want %+v", snap.Clocks, want)
	}
	if want := n.time.Now().Add(60 * time.Second); !snap.Meta.Deadline.Equal(want) {
		t.Fatalf("deadline %v, want %v", snap.Meta.Deadline, want)
	}
}

// TestAbortLive: a live game can be aborted by any player until every seat
// has made a move; then not; never by a spectator. An open game by its
// creator or by the user it invites.
func TestAbortLive(t *testing.T) {
	abort := func(u match.User) match.Command { return match.Command{Kind: match.CmdAbort, User: u} }
	for _, tc := range []struct {
		name  string
		moves int // played by alice and bob in turn before
		by    match.User
		code  match.Code
	}{
		{"nobody has moved, alice", 0, alice, ""},
		{"nobody has moved, bob", 0, bob, ""},
		{"nobody has moved, a spectator", 0, carol, match.CodeForbidden},
		{"alice has moved, bob", 1, bob, ""},
		{"alice has moved, alice", 1, alice, ""},
		{"both have moved", 2, alice, match.CodeConflict},
		{"both have moved, bob", 2, bob, match.CodeConflict},
		{"three moves", 3, bob, match.CodeConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t)
			id := n.live(twoHumans("20"))
			for ply := 0; ply < tc.moves; ply++ {
				n.must(id, move([]match.User{alice, bob}[ply%2], ply, "1"))
			}
			n.steps(id, []step{{tc.name, abort(tc.by), tc.code}})
			m, _ := n.journal.Game(id)
			if aborted := m.Status == match.Aborted; aborted != (tc.code == "") || (aborted && (m.Result != nil || m.ToMove != -1)) {
				t.Fatalf("status %s, result %+v, to move %d", m.Status, m.Result, m.ToMove)
			}
		})
	}
	t.Run("an invited user declines", func(t *testing.T) {
		n := newNode(t)
		id := n.create(twoHumans("20"))
		n.steps(id, []step{{"a stranger", abort(carol), match.CodeForbidden}, {"the invited", abort(bob), ""}})
	})
}

// TestChat: players talk (a spectator's line goes to the spectators' chat:
// spectatorchat_test.go); lines are checked and limited; the chat changes
// nothing of the game; the room keeps the last lines for players only.
func TestChat(t *testing.T) {
	n := newNode(t)
	id := n.live(twoHumans("20"))
	n.steps(id, []step{
		{"nobody signed in", say(match.User{}, "hi"), match.CodeForbidden},
		{"empty", say(alice, "   "), match.CodeBadRequest},
		{"too long", say(alice, strings.Repeat("é", match.ChatMaxRunes+1)), match.CodeBadRequest},
		{"two lines", say(alice, "a\nb"), match.CodeBadRequest},
		{"a NUL", say(alice, "a\x00b"), match.CodeBadRequest},
		{"a bidi override", say(alice, "abc\u202Egpj.exe"), match.CodeBadRequest},
		{"invalid UTF-8", say(alice, "a\xffb"), match.CodeBadRequest},
		{"as long as allowed", say(alice, strings.Repeat("é", match.ChatMaxRunes)), ""},
		{"markup is text", say(bob, `<img src=x onerror="alert(1)">`), ""},
	})
	before := n.version(id)
	// A flood: ChatBurst lines at once (one said above), then one per ChatEvery.
	for i := 1; i < match.ChatBurst; i++ {
		n.must(id, say(alice, "gl"))
	}
	n.steps(id, []step{{"one too many", say(alice, "hf"), match.CodeRateLimited}, {"bob is not limited by alice", say(bob, "ok"), ""}})
	n.time.Advance(match.ChatEvery)
	n.must(id, say(alice, "hf"))
	if n.version(id) != before {
		t.Fatalf("chat changed the game: version %d → %d", before, n.version(id))
	}
	for i := 0; i < match.ChatKeep; i++ {
		n.time.Advance(match.ChatEvery)
		n.must(id, say(bob, "line"))
	}
	if r := n.room(id, carol); len(r.Chat) != 0 {
		t.Fatalf("a spectator's room holds the chat: %d lines", len(r.Chat))
	}
	r := n.room(id, alice)
	if len(r.Chat) != match.ChatKeep || r.Chat[len(r.Chat)-1].N != int64(match.ChatBurst+3+match.ChatKeep) {
		t.Fatalf("the room keeps %d lines, the last numbered %d", len(r.Chat), r.Chat[len(r.Chat)-1].N)
	}
	var lines []string
	for _, e := range n.events.All() {
		if e.Kind == match.EventChat {
			lines = append(lines, e.Chat.Text)
		}
	}
	if lines[1] != `<img src=x onerror="alert(1)">` {
		t.Fatalf("the line was changed: %q", lines[1])
	}
}

// TestClaimVictory: a player may claim the win from a seat to move that
// has been away, and to move, for the grace — never from one that is
// there, never early, never in a correspondence game, never for oneself.
func TestClaimVictory(t *testing.T) {
	claim := func(u match.User) match.Command { return match.Command{Kind: match.CmdClaim, User: u} }
	here := func(u match.User, h bool) match.Command {
		return match.Command{Kind: match.CmdPresence, User: u, Here: h}
	}
	grace := match.DefaultClaimGrace

	t.Run("left and did not come back", func(t *testing.T) {
		n := newNode(t)
		id := n.live(twoHumans("20"))
		n.must(id, here(alice, true))
		n.must(id, here(bob, true))
		n.must(id, move(alice, 0, "1"))
		n.steps(id, []step{
			{"a spectator's presence", here(carol, true), match.CodeForbidden},
			{"bob is there", claim(alice), match.CodeConflict},
			{"bob claims on his own turn", claim(bob), match.CodeConflict},
			{"bob leaves", here(bob, false), ""},
			{"too early", claim(alice), match.CodeConflict},
		})
		n.time.Advance(grace - time.Second)
		n.steps(id, []step{{"a second early", claim(alice), match.CodeConflict}, {"a spectator claims", claim(carol), match.CodeForbidden}})
		n.time.Advance(time.Second)
		n.must(id, claim(alice))
		m, _ := n.journal.Game(id)
		if m.Status != match.Finished || m.Result.Reason != match.ReasonAbandoned || !slices.Equal(m.Result.Winners, []int{0}) {
			t.Fatalf("after the claim: %s %+v", m.Status, m.Result)
		}
		var away [][]match.Away
		for _, e := range n.events.All() {
			if e.Kind == match.EventPresence {
				away = append(away, e.Room.Away)
			}
		}
		// (Alice, silent since, may be away too by the end.)
		if len(away) == 0 || len(away[0]) != 1 || away[0][0].Seat != 1 || !away[0][0].ClaimAt.Equal(t0.Add(grace)) {
			t.Fatalf("presence events: %+v", away)
		}
	})

	t.Run("came back in time", func(t *testing.T) {
		n := newNode(t)
		id := n.live(twoHumans("20"))
		n.must(id, move(alice, 0, "1"))
		n.must(id, here(bob, false))
		n.time.Advance(grace - time.Second)
		n.must(id, here(bob, true))
		n.time.Advance(time.Hour)
		n.must(id, here(bob, true))
		n.steps(id, []step{{"bob is back", claim(alice), match.CodeConflict}})
	})

	t.Run("silence: the node that held the page died", func(t *testing.T) {
		n := newNode(t)
		id := n.live(twoHumans("20"))
		n.must(id, here(bob, true))
		n.must(id, move(alice, 0, "1"))
		// Nothing more from bob: away PresenceTTL after his last word.
		n.time.Advance(match.PresenceTTL)
		if _, err := n.events.Wait(func(e match.Event) bool { return e.Kind == match.EventPresence }); err != nil {
			t.Fatal(err)
		}
		n.steps(id, []step{{"within the grace", claim(alice), match.CodeConflict}})
		n.time.Advance(grace)
		n.must(id, claim(alice))
	})

	t.Run("away but not to move, then to move", func(t *testing.T) {
		n := newNode(t)
		id := n.live(twoHumans("20"))
		n.must(id, here(bob, false))
		n.time.Advance(time.Hour)
		n.steps(id, []step{{"alice to move", claim(alice), match.CodeConflict}})
		n.must(id, move(alice, 0, "1"))
		n.steps(id, []step{{"bob's turn has just begun", claim(alice), match.CodeConflict}})
		n.time.Advance(grace)
		n.must(id, claim(alice))
	})

	t.Run("pages on two servers: the last one here closes, one elsewhere is open", func(t *testing.T) {
		n := newNode(t)
		id := n.live(twoHumans("20"))
		on := func(u match.User, h bool, source string) match.Command {
			c := here(u, h)
			c.Source = source
			return c
		}
		n.must(id, move(alice, 0, "1"))
		n.must(id, on(bob, true, "node2"))
		n.must(id, on(bob, true, "node3"))
		n.must(id, on(bob, false, "node3")) // his page on node3 closed; the one on node2 is open
		for range 3 {
			n.time.Advance(match.PresenceEvery) // node2 repeats it
			n.must(id, on(bob, true, "node2"))
		}
		n.steps(id, []step{{"bob's page on node2 is open", claim(alice), match.CodeConflict}})
		for _, e := range n.events.All() {
			if e.Kind != match.EventPresence {
				continue
			}
			for _, a := range e.Room.Away {
				if a.Seat == 1 {
					t.Fatalf("bob counted away with a page open: %+v", e.Room.Away)
				}
			}
		}
		// Then the page on node2 closes too: he is away from then.
		n.must(id, on(bob, false, "node2"))
		n.time.Advance(grace)
		n.must(id, claim(alice))
	})

	t.Run("correspondence", func(t *testing.T) {
		n := newNode(t)
		m := twoHumans("20")
		m.Clock = match.Clock{Kind: match.ClockCorrespondence, Days: 3}
		id := n.live(m)
		n.must(id, move(alice, 0, "1"))
		n.must(id, here(bob, false))
		n.time.Advance(time.Hour)
		n.steps(id, []step{{"a correspondence game", claim(alice), match.CodeConflict}})
	})

	t.Run("a fresh owner counts everyone as there", func(t *testing.T) {
		n := newNode(t)
		id := n.live(twoHumans("20"))
		n.must(id, move(alice, 0, "1"))
		n.time.Advance(grace)
		n.steps(id, []step{{"within PresenceTTL of the start", claim(alice), match.CodeConflict}})
	})
}

// closeCounter is a scripted bot that counts its closes.
type closeCounter struct {
	*scripted
	n atomic.Int32
}

func (c *closeCounter) Close() error {
	c.n.Add(1)
	return nil
}
