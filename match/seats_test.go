package match

import (
	"errors"
	"testing"
)

func codeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	if err != nil {
		return "other"
	}
	return ""
}

// TestSeatOf: the first seat a user holds, never an invitation, and nobody
// for user 0 (the spectator). Before match.SeatOf the server had three
// copies of this loop, two of which returned the last seat.
func TestSeatOf(t *testing.T) {
	m := Meta{Seats: []Seat{{Kind: SeatOpen}, {Kind: SeatHuman, UserID: 7}, {Kind: SeatInvite, UserID: 8}, {Kind: SeatHuman, UserID: 7}, {Kind: SeatBot, Level: "easy"}}}
	for _, tc := range []struct {
		uid  int64
		want int
	}{{7, 1}, {8, -1}, {0, -1}, {9, -1}} {
		if got := m.SeatOf(tc.uid); got != tc.want {
			t.Errorf("SeatOf(%d) = %d, want %d", tc.uid, got, tc.want)
		}
	}
	if !m.Invites(8) || m.Invites(7) || m.Invites(0) {
		t.Errorf("Invites: 8 %v, 7 %v, 0 %v; want true, false, false", m.Invites(8), m.Invites(7), m.Invites(0))
	}
}

func TestJoin(t *testing.T) {
	alice, bob, carol := User{ID: 1}, User{ID: 2}, User{ID: 3, Guest: true}
	open := func(seats ...Seat) Meta { return Meta{Status: Open, Seats: seats} }
	for _, tc := range []struct {
		name     string
		m        Meta
		u        User
		want     int // the seat wanted, -1 any
		seat     int // the seat taken
		code     Code
		rated    bool
		kept     bool // the game keeps its creator's deal
		accept   bool // the joiner accepts it
		notTaken bool
	}{
		{name: "first open seat", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}, Seat{Kind: SeatOpen}), u: bob, want: -1, seat: 1},
		{name: "the invited seat before an open one", m: open(Seat{Kind: SeatOpen}, Seat{Kind: SeatInvite, UserID: 2}), u: bob, want: -1, seat: 1},
		{name: "a named open seat", m: open(Seat{Kind: SeatOpen}, Seat{Kind: SeatOpen}), u: bob, want: 1, seat: 1},
		{name: "someone else's invitation", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatInvite, UserID: 3}), u: bob, want: 1, code: CodeConflict},
		{name: "no seat for an uninvited user", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatInvite, UserID: 3}), u: bob, want: -1, code: CodeConflict},
		{name: "a taken seat", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), u: bob, want: 0, code: CodeConflict},
		{name: "no such seat", m: open(Seat{Kind: SeatOpen}, Seat{Kind: SeatOpen}), u: bob, want: 2, code: CodeBadRequest},
		{name: "a second seat", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), u: alice, want: -1, code: CodeConflict},
		{name: "a live game", m: Meta{Status: Live, Seats: []Seat{{Kind: SeatOpen}}}, u: bob, want: -1, code: CodeConflict},
		{name: "a guest in a rated game", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), rated: true, u: carol, want: -1, code: CodeForbidden},
		{name: "a guest in an unrated game", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), u: carol, want: -1, seat: 1},
		{name: "a kept deal, not accepted", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), kept: true, u: bob, want: -1, code: CodeKeptDeal},
		{name: "a kept deal, invited, not accepted", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatInvite, UserID: 2}), kept: true, u: bob, want: -1, code: CodeKeptDeal},
		{name: "a kept deal, accepted", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), kept: true, accept: true, u: bob, want: -1, seat: 1},
		{name: "accepting a deal nobody kept", m: open(Seat{Kind: SeatHuman, UserID: 1}, Seat{Kind: SeatOpen}), accept: true, u: bob, want: -1, seat: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.m.Rated, tc.m.KeepDeal = tc.rated, tc.kept
			before := tc.m.Clone()
			next, seat, err := tc.m.joined(tc.u, tc.want, tc.accept)
			if codeOf(err) != tc.code {
				t.Fatalf("joined: %v, want code %q", err, tc.code)
			}
			if tc.m.Seats[0] != before.Seats[0] || (len(before.Seats) > 1 && tc.m.Seats[1] != before.Seats[1]) {
				t.Fatalf("joined changed the game it was given: %+v", tc.m.Seats)
			}
			if err != nil {
				return
			}
			if seat != tc.seat || next.Seats[seat] != (Seat{Kind: SeatHuman, UserID: tc.u.ID}) {
				t.Fatalf("seat %d, seats %+v; want the user in seat %d", seat, next.Seats, tc.seat)
			}
		})
	}
}

func TestLeaveAndAbort(t *testing.T) {
	m := Meta{Status: Open, CreatorID: 1, Seats: []Seat{{Kind: SeatHuman, UserID: 1}, {Kind: SeatHuman, UserID: 2}, {Kind: SeatOpen}}}
	for _, tc := range []struct {
		name   string
		status Status
		u      User
		leave  Code
		abort  Code
	}{
		{"the creator, open", Open, User{ID: 1}, "", ""},
		{"a player, open", Open, User{ID: 2}, "", CodeForbidden},
		{"a stranger, open", Open, User{ID: 3}, CodeForbidden, CodeForbidden},
		{"the creator, live, nobody has moved", Live, User{ID: 1}, CodeConflict, ""},
		{"a player, live, nobody has moved", Live, User{ID: 2}, CodeConflict, ""},
		{"a stranger, live", Live, User{ID: 3}, CodeConflict, CodeForbidden},
		{"the creator, finished", Finished, User{ID: 1}, CodeConflict, CodeConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := m.Clone()
			m.Status = tc.status
			next, err := m.left(tc.u)
			if codeOf(err) != tc.leave {
				t.Fatalf("left: %v, want code %q", err, tc.leave)
			}
			if err == nil && (next.Seats[m.SeatOf(tc.u.ID)] != Seat{Kind: SeatOpen} || next.SeatOf(tc.u.ID) >= 0) {
				t.Fatalf("after leaving: %+v", next.Seats)
			}
			if err := m.MayAbort(tc.u, nil); codeOf(err) != tc.abort {
				t.Fatalf("MayAbort: %v, want code %q", err, tc.abort)
			}
		})
	}
}

func TestCheckSeats(t *testing.T) {
	me, guest := User{ID: 1}, User{ID: 1, Guest: true}
	human := Seat{Kind: SeatHuman, UserID: 1}
	for _, tc := range []struct {
		name    string
		seats   []Seat
		creator User
		rated   bool
		code    Code
	}{
		{"me and an open seat", []Seat{human, {Kind: SeatOpen}}, me, false, ""},
		{"too few seats", []Seat{human}, me, false, CodeBadOption},
		{"me twice", []Seat{human, human}, me, false, CodeBadOption},
		{"an invitation twice", []Seat{{Kind: SeatInvite, UserID: 2}, {Kind: SeatInvite, UserID: 2}}, me, false, CodeBadOption},
		{"someone else seated", []Seat{{Kind: SeatHuman, UserID: 2}, {Kind: SeatOpen}}, me, false, CodeBadOption},
		{"a bot", []Seat{human, {Kind: SeatBot, Level: "easy"}}, me, false, ""},
		{"an unknown bot level", []Seat{human, {Kind: SeatBot, Level: "mcts:iters=1e9"}}, me, false, CodeBadOption},
		{"a bot in a rated game", []Seat{human, {Kind: SeatBot, Level: "easy"}}, me, true, CodeBadOption},
		{"a guest seated in a rated game", []Seat{human, {Kind: SeatOpen}}, guest, true, CodeBadOption},
		{"a guest creating a rated game for others", []Seat{{Kind: SeatOpen}, {Kind: SeatOpen}}, guest, true, ""},
		{"an imported seat", []Seat{human, {Kind: SeatImported}}, me, false, CodeBadOption},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := checkSeats(tc.seats, 2, tc.creator, tc.rated, "Test"); codeOf(err) != tc.code {
				t.Fatalf("checkSeats: %v, want code %q", err, tc.code)
			}
		})
	}
}
