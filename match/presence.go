package match

import (
	"slices"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Presence, and claiming victory from a player who has left.
//
// Every node that holds a player's game page open says so to the game's
// owner (CmdPresence, forwarded like any command, so it works across
// nodes): once when the first page opens, again every PresenceEvery while
// one is open, and "gone" when the last one closes. A move counts as a
// sign of life too. A player is away from the moment their last page
// closed, or PresenceTTL after the last sign of life (the node holding
// their page died, or the network did) — and, after an owner starts
// (created, restarted, taken over), everyone counts as there until
// PresenceTTL has passed without a word.
//
// A player may claim the win when the seat to move is a person who has
// been away, and to move, for ClaimGrace (Config): that seat loses
// (ReasonAbandoned), as on time. Not in a correspondence game, where the
// deadline decides and nobody is expected to stay.

// PresenceEvery is how often a node repeats that a player's page is open;
// PresenceTTL how long a player counts as there after the last word.
const (
	PresenceEvery = 10 * time.Second
	PresenceTTL   = 25 * time.Second
)

// DefaultClaimGrace is Config.ClaimGrace's default.
const DefaultClaimGrace = 30 * time.Second

// presence is one seat's signs of life: until when each says the player is
// there. Each server holding the player's pages speaks for its own pages
// (by Command.Source), so one node's last page closing leaves the pages
// open on other nodes; the other signs — the owner's start, a move — are
// kept under "" and end when any page closes (the player left).
type presence map[string]time.Time

// noPage is the key of the signs of life that are not a page's.
const noPage = ""

// awaySince is when seat's player went (or will go) away: when the last
// sign of life that still counted ran out.
func (m *Match) awaySince(seat int) time.Time {
	var until time.Time
	for _, t := range m.room.seen[seat] {
		if t.After(until) {
			until = t
		}
	}
	return until
}

// saw notes that source says the player in seat is there until until,
// and forgets what ran out before now, but the latest (it says when the
// player went away).
func (m *Match) saw(seat int, source string, until, now time.Time) {
	p := m.room.seen[seat]
	p[source] = until
	latest := m.awaySince(seat)
	for k, t := range p {
		if t.Before(now) && !t.Equal(latest) {
			delete(p, k)
		}
	}
}

// awayNow is the players away at now, with when the others may claim.
func (m *Match) awayNow(now time.Time) []Away {
	var out []Away
	for s, se := range m.meta.Seats {
		if se.Kind != SeatHuman || now.Before(m.awaySince(s)) {
			continue
		}
		a := Away{Seat: s, Since: m.awaySince(s)}
		if at, ok := m.claimAt(s); ok {
			a.ClaimAt = at
		}
		out = append(out, a)
	}
	return out
}

// claimAt is when the others may claim the win from seat: away and to
// move for the grace, in a live game without a correspondence clock.
func (m *Match) claimAt(seat int) (time.Time, bool) {
	if m.meta.Status != Live || m.meta.Clock.Kind == ClockCorrespondence || m.st.ToMove() != seat ||
		m.meta.Seats[seat].Kind != SeatHuman {
		return time.Time{}, false
	}
	from := m.awaySince(seat)
	if m.clk.turnStart.After(from) {
		from = m.clk.turnStart
	}
	return from.Add(m.reg.cfg.ClaimGrace), true
}

// present is CmdPresence.
func (m *Match) present(u User, here bool, source string) error {
	seat, err := m.playerSeat(u)
	if err != nil {
		return err
	}
	now := m.reg.cfg.Time.Now()
	if here {
		m.saw(seat, source, now.Add(PresenceTTL), now)
	} else {
		// The last page on source closed: the player is gone but for
		// pages still open elsewhere.
		delete(m.room.seen[seat], noPage)
		m.saw(seat, source, now, now)
	}
	m.presenceChanged()
	return nil
}

// alive notes a sign of life from seat (a move).
func (m *Match) alive(seat int) {
	if seat >= 0 && seat < len(m.room.seen) {
		now := m.reg.cfg.Time.Now()
		m.saw(seat, noPage, now.Add(PresenceTTL), now)
		m.presenceChanged()
	}
}

// presenceChanged publishes who is away if that changed, and sets the
// timer for the next time it may change by itself (a player's last word
// growing old).
func (m *Match) presenceChanged() {
	now := m.reg.cfg.Time.Now()
	var away []int
	for _, a := range m.awayNow(now) {
		away = append(away, a.Seat)
	}
	if !slices.Equal(away, m.room.away) {
		m.room.away = away
		m.publishRoom(Event{Kind: EventPresence})
	}
	if m.room.timer != nil {
		m.room.timer.Stop()
		m.room.timer = nil
	}
	m.room.gen++
	var next time.Time
	for s, se := range m.meta.Seats {
		if at := m.awaySince(s); se.Kind == SeatHuman && at.After(now) && (next.IsZero() || at.Before(next)) {
			next = at
		}
	}
	if next.IsZero() || m.done {
		return
	}
	gen := m.room.gen
	m.room.timer = m.reg.cfg.Time.AfterFunc(next.Sub(now), func() {
		m.post(func() {
			if gen == m.room.gen && !m.done {
				m.presenceChanged()
			}
		})
	})
}

// claim is CmdClaim.
func (m *Match) claim(u User) error {
	seat, err := m.meta.player(u)
	if err != nil {
		return err
	}
	if m.meta.Clock.Kind == ClockCorrespondence {
		return errorf(CodeConflict, "not in a correspondence game: the deadline decides")
	}
	away := m.st.ToMove()
	if away == seat {
		return errorf(CodeConflict, "it is your turn")
	}
	now := m.reg.cfg.Time.Now()
	at, ok := m.claimAt(away)
	switch {
	case !ok:
		return errorf(CodeConflict, "the seat to move is not a person's")
	case now.Before(m.awaySince(away)):
		return errorf(CodeConflict, "your opponent is here")
	case now.Before(at):
		return errorf(CodeConflict, "your opponent has been away for less than %v; wait %v more",
			m.reg.cfg.ClaimGrace, at.Sub(now).Round(time.Second))
	}
	m.log.Info("win claimed from an absent player", "game", m.id, "seat", away, "by", seat)
	return m.finish(endOf(&m.meta, game.Outcome{}, ReasonAbandoned, m.st, away, now))
}
