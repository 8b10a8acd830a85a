package match_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/match"
)

// chats counts the chat lines the game's listeners heard with text.
func (n *node) chats(text string) int {
	k := 0
	for _, e := range n.events.All() {
		if e.Kind == match.EventChat && e.Chat.Text == text {
			k++
		}
	}
	return k
}

// TestCopies: a command sent again with its key (a forwarding node's
// second attempt, a client's resend) is answered as the first was and
// applied once, whatever the command: a chat line is said once, an offer
// made once, a move played once, a refusal repeated; the same key on
// another command, or another user's, is a new command; an answer that
// changed nothing because the store failed is not kept, so the copy runs.
func TestCopies(t *testing.T) {
	n := newNode(t)
	id := n.create(twoHumans("20"))
	join := match.Command{Kind: match.CmdJoin, User: bob, Seat: -1, Key: "j1"}
	first := n.must(id, join)
	if again := n.must(id, join); again.Seq() != first.Seq() {
		t.Fatalf("a copy of a join answered seq %d, the first %d", again.Seq(), first.Seq())
	}

	chat := match.Command{Kind: match.CmdChat, User: alice, Text: "gl hf", Key: "k1"}
	n.must(id, chat)
	chat.Retry = true // a forwarding node's second attempt is marked so
	n.must(id, chat)
	if got := n.chats("gl hf"); got != 1 {
		t.Fatalf("a chat line sent twice with its key was said %d times", got)
	}
	// Another text under the same key, and another user's key: new lines.
	n.must(id, match.Command{Kind: match.CmdChat, User: alice, Text: "have fun", Key: "k1"})
	n.must(id, match.Command{Kind: match.CmdChat, User: bob, Text: "gl hf", Key: "k1"})
	// Without a key a line is a line.
	n.must(id, match.Command{Kind: match.CmdChat, User: alice, Text: "gl hf"})
	if got := n.chats("gl hf"); got != 3 || n.chats("have fun") != 1 {
		t.Fatalf("lines said: %d × gl hf (want 3), %d × have fun (want 1)", got, n.chats("have fun"))
	}

	offer := match.Command{Kind: match.CmdOffer, User: alice, Offer: match.OfferDraw, Key: "o1"}
	n.must(id, offer)
	if _, err := n.do(id, offer); err != nil {
		t.Fatalf("a copy of an offer: %v, want the first answer", err)
	}
	offers := 0
	for _, e := range n.events.All() {
		if e.Kind == match.EventOffer {
			offers++
		}
	}
	if offers != 1 {
		t.Fatalf("%d offer events, want 1", offers)
	}

	// A move, and a refusal, answered again as they were.
	mv := move(alice, 0, "1")
	mv.Key = "m1"
	ack := n.must(id, mv)
	if again := n.must(id, mv); again.Move == nil || *again.Move != *ack.Move || again.Seq() != ack.Seq() {
		t.Fatalf("a copy of a move answered %+v, the first %+v", again.Move, ack.Move)
	}
	late := move(alice, 0, "2")
	late.Key = "m2"
	_, err1 := n.do(id, late)
	_, err2 := n.do(id, late)
	if codeOf(err1) != match.CodeStalePly && codeOf(err1) != match.CodeNotYourTurn || err2.Error() != err1.Error() {
		t.Fatalf("a refused move and its copy: %v; %v", err1, err2)
	}
	if _, moves := n.journal.Game(id); len(moves) != 1 {
		t.Fatalf("%d moves stored, want 1", len(moves))
	}

	// The store fails bob's move: unavailable, not remembered; the copy
	// is played.
	n.journal.Fail = func(op, _ string) error {
		if op == "append" {
			return errors.New("disk on fire")
		}
		return nil
	}
	bobs := move(bob, 1, "1")
	bobs.Key = "m3"
	if _, err := n.do(id, bobs); codeOf(err) != match.CodeUnavailable {
		t.Fatalf("a move the store failed: %v", err)
	}
	n.journal.Fail = nil
	if ack := n.must(id, bobs); ack.Move.Ply != 1 {
		t.Fatalf("the copy of a move the store failed: %+v", ack.Move)
	}

	// The list is short: a key answered answersKept commands ago is
	// forgotten, and its command is new again.
	for i := range 40 {
		n.must(id, match.Command{Kind: match.CmdPresence, User: alice, Here: i%2 == 0, Source: "s", Key: fmt.Sprint("p", i)})
		n.must(id, match.Command{Kind: match.CmdRoom, User: alice, Key: fmt.Sprint("r", i)})
		n.time.Advance(match.ChatEvery)
		n.must(id, match.Command{Kind: match.CmdChat, User: bob, Text: fmt.Sprint("line ", i), Key: fmt.Sprint("c", i)})
	}
	n.must(id, match.Command{Kind: match.CmdChat, User: bob, Text: "line 0", Key: "c0"})
	if got := n.chats("line 0"); got != 2 {
		t.Fatalf("a key 40 commands old: its line said %d times, want 2", got)
	}

	if _, err := n.do(id, match.Command{Kind: match.CmdChat, User: alice, Text: "x", Key: strings.Repeat("k", match.MaxKey+1)}); codeOf(err) != match.CodeBadRequest {
		t.Fatalf("a key too long: %v", err)
	}

	// The command that ends the game: its owner is gone, the node keeps
	// its answer for the copy; another resignation is told the game is
	// over.
	resign := match.Command{Kind: match.CmdResign, User: bob, Ply: -1, Key: "x1"}
	first = n.must(id, resign)
	again, err := n.do(id, resign)
	if err != nil || again.Seq() != first.Seq() || again.Meta.Result == nil || again.Meta.Result.Reason != match.ReasonResign {
		t.Fatalf("the copy of the resignation that ended the game: %+v, %v", again.Meta.Result, err)
	}
	if _, err := n.do(id, match.Command{Kind: match.CmdResign, User: bob, Ply: -1, Key: "x2"}); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("another resignation after the end: %v, want ErrClosed", err)
	}
}

// TestEndedBy: which stored ends answer a late copy of a command as done.
func TestEndedBy(t *testing.T) {
	seats := []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatHuman, UserID: bob.ID}}
	over := func(reason match.Reason, winners ...int) match.Meta {
		return match.Meta{Status: match.Finished, Seats: seats, Ply: 7, CreatorID: alice.ID,
			Result: &match.Result{Status: match.Won, Reason: reason, Winners: winners}}
	}
	resign := func(u match.User, ply int) match.Command {
		return match.Command{Kind: match.CmdResign, User: u, Ply: ply}
	}
	aborted := match.Meta{Status: match.Aborted, Seats: seats, CreatorID: alice.ID}
	for _, tc := range []struct {
		m    match.Meta
		c    match.Command
		want bool
	}{
		{over(match.ReasonResign, 1), resign(alice, -1), true},
		{over(match.ReasonResign, 1), resign(alice, 7), true},
		{over(match.ReasonResign, 1), resign(alice, 6), false}, // a resignation at another ply
		{over(match.ReasonResign, 1), resign(bob, -1), false},  // the winner did not resign
		{over(match.ReasonTimeout, 1), resign(alice, -1), false},
		{over(match.ReasonResign, 1), resign(match.User{ID: 9}, -1), false},
		{over(match.ReasonAgreed), match.Command{Kind: match.CmdAccept, User: bob, Offer: match.OfferDraw}, true},
		{over(match.ReasonAgreed), match.Command{Kind: match.CmdOffer, User: alice, Offer: match.OfferDraw}, true},
		{over(match.ReasonAgreed), match.Command{Kind: match.CmdAccept, User: bob, Offer: match.OfferTakeback}, false},
		{over(match.ReasonAbandoned, 0), match.Command{Kind: match.CmdClaim, User: alice}, true},
		{over(match.ReasonAbandoned, 0), match.Command{Kind: match.CmdClaim, User: bob}, false},
		{over(match.ReasonNormal, 0), match.Command{Kind: match.CmdChat, User: alice, Text: "gg"}, false},
		{aborted, match.Command{Kind: match.CmdAbort, User: bob}, true},
		{aborted, match.Command{Kind: match.CmdAbort, User: match.User{ID: 9}}, false},
		// A challenge declined by the player it invited.
		{match.Meta{Status: match.Aborted, CreatorID: alice.ID, Seats: []match.Seat{seats[0], {Kind: match.SeatInvite, UserID: bob.ID}}},
			match.Command{Kind: match.CmdRefuse, User: bob, Text: "generic"}, true},
		{aborted, match.Command{Kind: match.CmdRefuse, User: match.User{ID: 9}, Text: "generic"}, false},
		{aborted, resign(alice, -1), false},
	} {
		if got := match.EndedBy(&tc.m, tc.c); got != tc.want {
			t.Errorf("%s %v of %s by %d: %v, want %v", tc.c.Kind, tc.c.Offer, tc.m.Status, tc.c.User.ID, got, tc.want)
		}
	}
}

func TestMoveStored(t *testing.T) {
	m := match.Meta{Status: match.Finished, Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatHuman, UserID: bob.ID}}}
	moves := []match.Move{{Ply: 0, Seat: 0, Text: "1"}, {Ply: 1, Seat: 1, Text: "2"}}
	mv := func(u match.User, seat, ply int, text string) match.Command {
		return match.Command{Kind: match.CmdMove, User: u, Seat: seat, Ply: ply, Move: text}
	}
	for _, tc := range []struct {
		c    match.Command
		want bool
	}{
		{mv(bob, -1, 1, "2"), true},
		{mv(bob, 1, 1, "2"), true},
		{mv(alice, -1, 0, "1"), true},
		{mv(bob, -1, 1, "1"), false},               // another move at that ply
		{mv(alice, -1, 1, "2"), false},             // another seat's
		{mv(bob, 0, 1, "2"), false},                // a seat not bob's
		{mv(bob, -1, 2, "2"), false},               // no move at that ply
		{mv(match.User{ID: 9}, -1, 1, "2"), false}, // not a player
		{match.Command{Kind: match.CmdResign, User: bob, Ply: 1, Move: "2"}, false},
	} {
		if got := match.MoveStored(&m, moves, tc.c); got != tc.want {
			t.Errorf("%+v: %v, want %v", tc.c, got, tc.want)
		}
	}
}
