package match

import (
	"slices"
	"time"
)

// Berserk, as arenas play it (package director): a player halves their own
// realtime clock at the start of a game, before their first move, and gives
// up its increment for the rest of the game, for a point more if they win.
// As on lichess: halving alone would cost little under a large increment,
// and the point is for playing with less time. The match only keeps the clock; whether a game
// allows berserk (an arena's game that allows it) is the caller's rule, and
// the server asks for it only there.

// CmdBerserk halves the commanding player's own realtime clock and drops
// its increment (clocks.charge): refused
// once that player has moved, in a game without a realtime clock, or when
// the halving would leave the seat to move no time. A second berserk of the
// same seat is done already, not an error.
const CmdBerserk CommandKind = "berserk"

// Berserked reports whether seat halved its clock (Clock.Berserk).
func (c Clock) Berserked(seat int) bool {
	return seat >= 0 && seat < 64 && c.Berserk&(1<<uint(seat)) != 0
}

// berserkCut is what berserk takes off a seat's clock: half its starting
// time.
func (c Clock) berserkCut() int64 { return c.InitialMs / 2 }

// berserk applies CmdBerserk for u. It is a write of the game (the
// deadline of a seat to move moves earlier, the version goes up), and its
// event is EventResumed: every client takes a fresh snapshot, which shows
// the halved clock.
func (m *Match) berserk(u User) error {
	seat := m.meta.SeatOf(u.ID)
	switch {
	case seat < 0:
		return errorf(CodeForbidden, "only a player of the game may berserk")
	case m.meta.Status == Finished || m.meta.Status == Aborted:
		return errorf(CodeGameOver, "the game is over")
	case m.meta.Status != Live:
		return errorf(CodeConflict, "berserk is for a game that has started")
	case m.meta.Clock.Kind != ClockRealtime:
		return errorf(CodeConflict, "berserk needs a realtime clock")
	case m.meta.Clock.Berserked(seat):
		return nil
	case slices.ContainsFunc(m.moves, func(mv Move) bool { return mv.Seat == seat }):
		return errorf(CodeConflict, "berserk only before your first move")
	}
	now := m.reg.cfg.Time.Now()
	cut := m.meta.Clock.berserkCut()
	next := m.meta.Clone()
	next.Clock.Berserk |= 1 << uint(seat)
	if seat == m.meta.ToMove {
		left := m.clk.remaining[seat] - now.Sub(m.clk.turnStart).Milliseconds() - cut
		if left < 1000 {
			return errorf(CodeConflict, "too late to berserk: less than a second would be left")
		}
		next.Deadline = m.meta.Deadline.Add(-time.Duration(cut) * time.Millisecond)
	}
	if err := m.update(next); err != nil {
		return err
	}
	m.clk.control = m.meta.Clock
	m.clk.remaining[seat] -= cut
	m.armTimer()
	m.publish(Event{Kind: EventResumed, Clocks: m.clk.state(m.running(), now), Prompt: m.prompt()})
	return nil
}
