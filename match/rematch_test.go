package match_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/tabula-games/tabula/match"
)

// wantCode fails unless err is a *match.Error of code.
func wantCode(t *testing.T, err error, code match.Code) {
	t.Helper()
	var me *match.Error
	if !errors.As(err, &me) || me.Code != code {
		t.Fatalf("got %v, want a %s error", err, code)
	}
}

// finished is a finished three-seat game: Alice, a bot, Bob.
func finished() match.Meta {
	return match.Meta{ID: "g1", Game: "tnim", Status: match.Finished, Rated: true,
		Options: map[string]string{"stones": "9", "players": "3"},
		Clock:   match.Clock{Kind: match.ClockRealtime, InitialMs: 60000},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"},
			{Kind: match.SeatHuman, UserID: bob.ID}}}
}

// TestRematchTurnsTheSeats: the rematch is the same game, options, clock
// and rating with the seats turned by one, the asker seated and every other
// person invited, the bot a bot again.
func TestRematchTurnsTheSeats(t *testing.T) {
	old := finished()
	m, err := match.Rematch(&old, bob.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := []match.Seat{{Kind: match.SeatBot, Level: "easy"}, {Kind: match.SeatHuman, UserID: bob.ID}, {Kind: match.SeatInvite, UserID: alice.ID}}
	for i, se := range m.Seats {
		if se != want[i] {
			t.Fatalf("seat %d: %+v, want %+v", i, se, want[i])
		}
	}
	if m.Game != old.Game || m.Options["stones"] != "9" || m.Clock != old.Clock || !m.Rated || m.ID != "" {
		t.Fatalf("rematch %+v of %+v", m, old)
	}
}

// TestRematchRefused: only a finished game from the ordinary start, only to
// one who played it, and only if every seat was a person's or a bot's.
func TestRematchRefused(t *testing.T) {
	for _, c := range []struct {
		name string
		edit func(*match.Meta)
		uid  int64
		code match.Code
	}{
		{"live", func(m *match.Meta) { m.Status = match.Live }, alice.ID, match.CodeConflict},
		{"aborted", func(m *match.Meta) { m.Status = match.Aborted }, alice.ID, match.CodeConflict},
		{"not a player", func(*match.Meta) {}, carol.ID, match.CodeForbidden},
		{"set position", func(m *match.Meta) { m.StartPosition = json.RawMessage(`{}`) }, alice.ID, match.CodeConflict},
		{"open seat", func(m *match.Meta) { m.Seats[1] = match.Seat{Kind: match.SeatOpen} }, alice.ID, match.CodeConflict},
	} {
		t.Run(c.name, func(t *testing.T) {
			old := finished()
			c.edit(&old)
			_, err := match.Rematch(&old, c.uid)
			wantCode(t, err, c.code)
		})
	}
}

// TestAnswerRematch: a second ask accepts a rematch it is invited to and is
// refused, with what became of it, otherwise.
func TestAnswerRematch(t *testing.T) {
	old := finished()
	rm, err := match.Rematch(&old, alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	rm.Status = match.Open
	if err := match.AnswerRematch(&rm, bob.ID); err != nil {
		t.Fatalf("the invited player: %v", err)
	}
	wantCode(t, match.AnswerRematch(&rm, alice.ID), match.CodeConflict) // offered already
	wantCode(t, match.AnswerRematch(&rm, carol.ID), match.CodeConflict)
	if !match.PendingRematch(&rm, alice.ID) || !match.PendingRematch(&rm, bob.ID) || match.PendingRematch(&rm, carol.ID) {
		t.Fatal("pending: the one who offered and the one invited, nobody else")
	}
	for _, st := range []match.Status{match.Live, match.Aborted, match.Finished} {
		rm.Status = st
		wantCode(t, match.AnswerRematch(&rm, bob.ID), match.CodeConflict)
		if match.PendingRematch(&rm, bob.ID) {
			t.Fatalf("a rematch %s is pending", st)
		}
	}
}

// TestRematchID: a game has one rematch id, its own, which no other game's
// rematch shares.
func TestRematchID(t *testing.T) {
	a, b := match.RematchID("g1"), match.RematchID("g2")
	if a != match.RematchID("g1") || a == b || len(a) != 10 || a == "g1" {
		t.Fatalf("rematch ids %q %q", a, b)
	}
}
