package match_test

import (
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestUnattended: a live game leaves the public list once each person's
// seat has been away for UnattendedAfter; a game of bots only, a
// correspondence game and a game that is not live never do.
func TestUnattended(t *testing.T) {
	live := func() match.Meta {
		return match.Meta{Status: match.Live, Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 60000},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}, {Kind: match.SeatHuman, UserID: bob.ID}}}
	}
	now := t0.Add(time.Hour)
	long, short := now.Add(-match.UnattendedAfter), now.Add(-match.UnattendedAfter+time.Second)
	bothAway := &match.Room{Away: []match.Away{{Seat: 0, Since: long}, {Seat: 2, Since: long}}}
	m := live()
	if !match.Unattended(&m, bothAway, now) {
		t.Fatal("both people away for UnattendedAfter: the game is attended")
	}
	for name, room := range map[string]*match.Room{
		"one still there":   {Away: []match.Away{{Seat: 0, Since: long}}},
		"one away not long": {Away: []match.Away{{Seat: 0, Since: long}, {Seat: 2, Since: short}}},
		"nobody away":       {},
		"no room":           nil,
	} {
		if match.Unattended(&m, room, now) {
			t.Errorf("%s: unattended", name)
		}
	}
	for name, edit := range map[string]func(*match.Meta){
		"bots only":      func(m *match.Meta) { m.Seats = []match.Seat{{Kind: match.SeatBot}, {Kind: match.SeatBot}} },
		"correspondence": func(m *match.Meta) { m.Clock = match.Clock{Kind: match.ClockCorrespondence, Days: 3} },
		"finished":       func(m *match.Meta) { m.Status = match.Finished },
	} {
		m := live()
		edit(&m)
		if match.MayBeUnattended(&m) || match.Unattended(&m, bothAway, now) {
			t.Errorf("%s: may be left out of the list", name)
		}
	}
}
