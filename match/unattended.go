package match

import (
	"slices"
	"time"
)

// The public list of live games leaves out a game nobody attends: a live
// game in which each person's seat has been away (no page of theirs open on
// any node, no move of theirs: presence.go) for UnattendedAfter. A game of
// bots only (people watch those) and a correspondence game (nobody is
// expected to stay: its deadline decides) are always listed. The game
// itself goes on until its clock or the idle rule ends it. Presence is the
// owner's, so the server asks the game's owner for its room and decides
// with Unattended.

// UnattendedAfter is how long every person in a live game must have been
// away before the public list of games leaves it out.
const UnattendedAfter = 5 * time.Minute

// MayBeUnattended reports whether m is a game the list may leave out, so
// that its owner is worth asking: a live game with a person's seat and a
// clock that expects them to stay.
func MayBeUnattended(m *Meta) bool {
	return m.Status == Live && m.Clock.Kind != ClockCorrespondence &&
		slices.ContainsFunc(m.Seats, func(se Seat) bool { return se.Kind == SeatHuman })
}

// Unattended reports whether the game m, whose room is room, has had every
// person's seat away for UnattendedAfter at now.
func Unattended(m *Meta, room *Room, now time.Time) bool {
	return UnattendedFor(m, room, now, UnattendedAfter)
}

// UnattendedFor is Unattended with the site's own time in place of
// UnattendedAfter (`tabula serve --unattended-after`; the browser test of
// the list waits seconds, not minutes).
func UnattendedFor(m *Meta, room *Room, now time.Time, after time.Duration) bool {
	if !MayBeUnattended(m) || room == nil {
		return false
	}
	cutoff := now.Add(-after)
	for i, se := range m.Seats {
		if se.Kind != SeatHuman {
			continue
		}
		gone := slices.ContainsFunc(room.Away, func(a Away) bool { return a.Seat == i && !a.Since.After(cutoff) })
		if !gone {
			return false
		}
	}
	return true
}
