package match

import (
	"context"
	"errors"

	"github.com/tabula-games/tabula/agent"
)

// takeBack takes back every move from ply keep on (offers.go says who may
// and when) and sets the game where it stood before them: its position, the
// seat to move and the clocks. The realtime clocks go back to the times the
// kept moves left (each seat's clock is stored with its moves, so a
// restarted owner rebuilds the same ones), and the seat to move starts its
// turn now. The store drops the moves first; only then does the owner
// change.
func (m *Match) takeBack(keep int) error {
	had := len(m.moves)
	st, err := Replay(&m.meta, m.moves, keep)
	if err != nil {
		m.log.Error("take back: replay", "game", m.id, "err", err)
		return errUnavailable
	}
	now := m.reg.cfg.Time.Now()
	kept := m.moves[:keep:keep]
	clk := newClocks(m.meta.Clock, len(m.meta.Seats), kept)
	toMove := st.ToMove()
	turn := Turn{ToMove: toMove, Deadline: clk.deadline(toMove, now)}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := m.reg.cfg.Journal.TakeBack(ctx, m.id, had, keep, turn); err != nil {
		if errors.Is(err, ErrDeposed) {
			return m.deposed("take back")
		}
		if errors.Is(err, ErrConflict) {
			m.log.Error("takeback conflict: game changed outside its owner", "game", m.id, "ply", had)
			m.retire()
			return errorf(CodeConflict, "the game changed meanwhile; reconnect")
		}
		return m.storeFailed("take back", err)
	}
	m.st, m.next, m.moves, m.clk = st, st.Clone(), kept, clk
	m.clk.turnStart = now
	m.meta.Ply, m.meta.ToMove, m.meta.Deadline = keep, toMove, turn.Deadline
	m.meta.Version++
	m.clearOffers()
	m.forgetBots()
	m.log.Info("moves taken back", "game", m.id, "from", had, "to", keep)
	m.publish(m.withSight(Event{Kind: EventTakeback}))
	m.afterTurn()
	return nil
}

// forgetBots cancels a bot decision in flight (it was for a position that
// is gone) and drops the bots' agents, whose search trees are for it too;
// each bot starts afresh at its next turn.
func (m *Match) forgetBots() {
	thinking := -1
	if m.bots.busy {
		// Its goroutine still holds the agent and closes it on return.
		m.bots.cancel()
		thinking = m.bots.seat
	}
	for seat, a := range m.bots.agents {
		if seat != thinking {
			agent.Close(a)
		}
		delete(m.bots.agents, seat)
	}
	m.bots.busy, m.bots.cancel = false, nil
	m.bots.gen++
}
