package match

import (
	"time"

	"github.com/tabula-games/tabula/game"
)

// Abandoned games. A game nobody plays would otherwise hold its owner, its
// bots' search trees and its place in the lobby for ever: an open game that
// nobody joins or leaves for Config.OpenExpiry is aborted, and a live game
// in which no person moves for Config.IdleExpiry ends (the person to move
// loses, as on time; a game of bots only ends without a winner). Either way
// the owner stops and the node forgets the game; its record stays in the
// store. Games with a clock end by their clock first when it runs out later.

// lastPersonAct is when a person last acted in a stored game: its last move
// by a person's seat, or else its start (live) or creation (open).
func lastPersonAct(m *Meta, moves []Move) time.Time {
	t := m.Created
	if m.Started.After(t) {
		t = m.Started
	}
	for i := len(moves) - 1; i >= 0; i-- {
		if s := moves[i].Seat; s >= 0 && s < len(m.Seats) && m.Seats[s].Kind == SeatHuman {
			if moves[i].At.After(t) {
				t = moves[i].At
			}
			break
		}
	}
	return t
}

// expiresAt is when the game expires if nobody acts before; false when it
// never does.
func (m *Match) expiresAt() (time.Time, bool) {
	var ttl time.Duration
	switch m.meta.Status {
	case Open:
		if !m.meta.Expires.IsZero() {
			return m.meta.Expires, true // a challenge: its own time
		}
		ttl = m.reg.cfg.OpenExpiry
	case Live:
		ttl = m.reg.cfg.IdleExpiry
	}
	if ttl <= 0 {
		return time.Time{}, false
	}
	at := m.active.Add(ttl)
	if m.meta.Status == Live && !m.meta.Deadline.Before(at) {
		// The clock ends the game first (a minute's grace keeps the two
		// timers apart).
		at = m.meta.Deadline.Add(time.Minute)
	}
	return at, true
}

// expired reports whether the game's time is up now.
func (m *Match) expired() bool {
	at, ok := m.expiresAt()
	return ok && !m.reg.cfg.Time.Now().Before(at)
}

// armExpiry sets the timer that ends the game when it expires. Acts in
// between do not move the timer: when it fires, it looks again.
func (m *Match) armExpiry() {
	if m.expiry != nil {
		m.expiry.Stop()
	}
	m.expiryGen++
	at, ok := m.expiresAt()
	if !ok || m.done {
		return
	}
	gen := m.expiryGen
	m.expiry = m.reg.cfg.Time.AfterFunc(max(at.Sub(m.reg.cfg.Time.Now()), 0), func() {
		m.post(func() {
			if gen != m.expiryGen || m.done {
				return
			}
			if m.expired() {
				m.expire()
			} else {
				m.armExpiry()
			}
		})
	})
}

// expire ends an abandoned game. If the store refuses, it tries again in a
// minute rather than leave the game hanging.
func (m *Match) expire() {
	now := m.reg.cfg.Time.Now()
	var err error
	switch m.meta.Status {
	case Open:
		next := m.meta.Clone()
		next.Status, next.Finished = Aborted, now
		if err = m.update(next); err == nil {
			m.log.Info("game expired", "game", m.id, "status", Open, "idle", now.Sub(m.active).Round(time.Second).String())
			m.publish(Event{Kind: EventEnd, Answer: m.challengeAnswer(AnswerExpired, 0, "")})
			m.done = true
		}
	case Live:
		forfeit := -1
		if seat := m.st.ToMove(); seat >= 0 && seat < len(m.meta.Seats) && m.meta.Seats[seat].Kind == SeatHuman {
			forfeit = seat
		}
		m.log.Info("game expired", "game", m.id, "status", Live, "idle", now.Sub(m.active).Round(time.Second).String(), "seat", forfeit)
		err = m.finish(endOf(&m.meta, game.Outcome{}, ReasonAbandoned, m.st, forfeit, now))
	}
	if err != nil && !m.done {
		gen := m.expiryGen
		m.expiry = m.reg.cfg.Time.AfterFunc(time.Minute, func() {
			m.post(func() {
				if gen == m.expiryGen && !m.done {
					m.expire()
				}
			})
		})
	}
}
