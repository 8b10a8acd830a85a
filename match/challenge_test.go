package match_test

import (
	"slices"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// challenge creates a challenge of Alice's to bob (and carol for three
// seats) that expires in ttl.
func (n *node) challenge(ttl time.Duration, invited ...match.User) string {
	n.t.Helper()
	seats := []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}}
	for _, u := range invited {
		seats = append(seats, match.Seat{Kind: match.SeatInvite, UserID: u.ID})
	}
	return n.create(match.Meta{Options: map[string]string{"players": string(rune('0' + len(seats)))}, Seats: seats,
		Expires: n.time.Now().Add(ttl)})
}

// answerOf is the Answer of game id's end event.
func (n *node) answerOf(id string) *match.Answer {
	n.t.Helper()
	isEnd := func(e match.Event) bool { return e.Game == id && e.Kind == match.EventEnd }
	evs, err := n.events.Wait(isEnd)
	if err != nil {
		n.t.Fatal(err)
	}
	return evs[slices.IndexFunc(evs, isEnd)].Answer
}

// TestChallengeDecline: only an invited player declines a challenge, with
// one of the reasons; the game is aborted and the end event says who
// declined and why.
func TestChallengeDecline(t *testing.T) {
	n := expiringNode(t)
	id := n.challenge(10*time.Minute, bob)
	refuse := func(u match.User, reason string) match.Command {
		return match.Command{Kind: match.CmdRefuse, User: u, Text: reason}
	}
	for _, c := range []struct {
		name string
		cmd  match.Command
		want match.Code
	}{
		{"a reason nobody knows", refuse(bob, "ugly"), match.CodeBadRequest},
		{"an empty reason", refuse(bob, ""), match.CodeBadRequest},
		{"the challenger", refuse(alice, "later"), match.CodeForbidden},
		{"a stranger", refuse(carol, "later"), match.CodeForbidden},
		{"the challenger leaving", match.Command{Kind: match.CmdLeave, User: alice}, match.CodeConflict},
	} {
		if _, err := n.do(id, c.cmd); codeOf(err) != c.want {
			t.Errorf("%s: %v, want %s", c.name, err, c.want)
		}
	}
	n.must(id, refuse(bob, "too_fast"))
	if a := n.answerOf(id); a == nil || a.Kind != match.AnswerDeclined || a.UserID != bob.ID || a.Reason != "too_fast" {
		t.Fatalf("answer %+v", a)
	}
	if m, _ := n.journal.Game(id); m.Status != match.Aborted {
		t.Fatalf("status %s", m.Status)
	}
	// An ordinary invitation cannot be "refused": it is aborted.
	plain := n.create(match.Meta{Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}})
	if _, err := n.do(plain, refuse(bob, "later")); codeOf(err) != match.CodeConflict {
		t.Fatalf("refusing an invitation: %v", err)
	}
}

// TestChallengeExpires: a challenge nobody answers is aborted at its own
// expiry (not the open-game expiry) with an "expired" answer; one accepted
// in time starts; a join after the expiry is refused even before the
// owner's timer has fired.
func TestChallengeExpires(t *testing.T) {
	n := expiringNode(t)
	id := n.challenge(10*time.Minute, bob)
	n.time.Advance(10 * time.Minute)
	if a := n.answerOf(id); a == nil || a.Kind != match.AnswerExpired {
		t.Fatalf("answer %+v", a)
	}
	if m := n.ended(id); m.Status != match.Aborted {
		t.Fatalf("status %s", m.Status)
	}
	if _, err := n.do(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}); err == nil {
		t.Fatal("joined an expired challenge")
	}
	ok := n.challenge(10*time.Minute, bob)
	if m := n.must(ok, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}).Meta; m.Status != match.Live {
		t.Fatalf("accepted challenge is %s", m.Status)
	}
}

// TestChallengeCancelAndAbort: the challenger cancels ("cancelled"); an
// invited player aborting declines without a reason ("generic"); an
// ordinary invitation's end carries no answer.
func TestChallengeCancelAndAbort(t *testing.T) {
	n := expiringNode(t)
	a := n.challenge(time.Hour, bob, carol)
	n.must(a, match.Command{Kind: match.CmdJoin, User: carol, Seat: -1})
	n.must(a, match.Command{Kind: match.CmdAbort, User: alice})
	if got := n.answerOf(a); got == nil || got.Kind != match.AnswerCancelled || got.UserID != alice.ID {
		t.Fatalf("cancel: %+v", got)
	}
	b := n.challenge(time.Hour, bob)
	n.must(b, match.Command{Kind: match.CmdAbort, User: bob})
	if got := n.answerOf(b); got == nil || got.Kind != match.AnswerDeclined || got.Reason != "generic" {
		t.Fatalf("abort by the invited: %+v", got)
	}
	plain := n.create(match.Meta{Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}})
	n.must(plain, match.Command{Kind: match.CmdAbort, User: bob})
	if got := n.answerOf(plain); got != nil {
		t.Fatalf("an invitation's end has an answer: %+v", got)
	}
}
