package match

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Conditional moves (issue 27, point 9): in a correspondence game a player
// whose opponent is to move may leave lines "if they play X, I play Y (and
// if then Z, W …)". When the opponent's move is the first of a stored line,
// the game's owner plays the line's reply at once through commit — the
// same path as a move the player sends, so clocks, events and the stored
// moves are those of a normal move — and keeps the rest of the line; any
// other move clears the lines. The lines live in the store (Conditionals),
// not in the owner, so that an owner that takes the game over after a
// failover finds them.
//
// Exactly once: an entry carries the ply at which it was saved (the
// opponent to move). The owner only plays a reply when the game has
// exactly one move more than the entry's ply — the opponent's — and the
// reply is written with the next ply, which the journal refuses twice. An
// owner that dies after the reply but before storing what is left of the
// lines leaves an entry whose ply is behind the game: the next owner walks
// it over the moves already played (advance) instead of replaying it.

// Bounds of the lines one seat may keep.
const (
	MaxConditionalLines = 20 // lines per seat
	MaxConditionalPlies = 10 // moves per line, both seats' together
	MaxConditionalMove  = 64 // bytes of one move's text
)

// Conditional is one seat's conditional moves in one game.
type Conditional struct {
	Game string
	Seat int
	// Ply is the number of moves played when the lines were saved (or
	// last advanced): the opponent is to move at Ply.
	Ply int
	// Lines are the lines, each the opponent's move, then this seat's
	// reply, alternately, in the game's notation.
	Lines   [][]string
	Created time.Time
}

// Conditionals keeps the conditional moves of the games (the store).
type Conditionals interface {
	// Conditional is the seat's entry in game, nil (and no error) if none.
	Conditional(ctx context.Context, game string, seat int) (*Conditional, error)
	// SetConditional replaces the entry of c's game and seat.
	SetConditional(ctx context.Context, c Conditional) error
	// DropConditional deletes the seat's entry; none is not an error.
	DropConditional(ctx context.Context, game string, seat int) error
}

// ConditionalsAllowed says whether a game offers conditional moves: a live
// two-seat correspondence game without hidden information (a line's reply
// must not depend on what the player cannot see, nor on chance).
func ConditionalsAllowed(m *Meta, st game.State) error {
	switch {
	case m.Status != Live:
		return errors.New("the game is not live")
	case m.Clock.Kind != ClockCorrespondence:
		return errors.New("conditional moves are for correspondence games")
	case len(m.Seats) != 2:
		return errors.New("conditional moves are for two-player games")
	case game.Hidden(st):
		return errors.New("conditional moves are not offered in a game of hidden information")
	}
	return nil
}

// CheckConditional checks lines for seat in the position st, the opponent
// to move: every line is played out on a copy, the opponent's move legal,
// then seat's, alternately. It returns the lines with each move in the
// game's own spelling (as the move list shows it), or an error that names
// the first line and move that fail.
func CheckConditional(st game.State, seat int, lines [][]string) ([][]string, error) {
	if len(lines) == 0 || len(lines) > MaxConditionalLines {
		return nil, fmt.Errorf("want 1 to %d lines, got %d", MaxConditionalLines, len(lines))
	}
	if st.ToMove() < 0 || st.ToMove() == seat {
		return nil, errors.New("conditional moves are saved while the opponent is to move")
	}
	out := make([][]string, len(lines))
	replies := map[string]string{} // the reply to each first move: one only
	pos := st.Clone()
	for i, line := range lines {
		if len(line) < 2 || len(line) > MaxConditionalPlies || len(line)%2 != 0 {
			return nil, fmt.Errorf("line %d: want an even number of moves from 2 to %d (their move, your reply, …), got %d", i+1, MaxConditionalPlies, len(line))
		}
		pos.CopyFrom(st)
		out[i] = make([]string, len(line))
		for j, text := range line {
			if len(text) == 0 || len(text) > MaxConditionalMove {
				return nil, fmt.Errorf("line %d, move %d: empty or too long", i+1, j+1)
			}
			mine := j%2 == 1
			if toMove := pos.ToMove(); toMove < 0 || (toMove == seat) != mine {
				return nil, fmt.Errorf("line %d, move %d: it would not be %s turn", i+1, j+1, map[bool]string{true: "your", false: "your opponent's"}[mine])
			}
			mv, err := pos.ParseMove(text)
			if err != nil {
				return nil, fmt.Errorf("line %d, move %d: %q is not legal there", i+1, j+1, text)
			}
			out[i][j] = pos.FormatMove(mv)
			pos.Play(mv)
			if j < len(line)-1 && pos.Outcome().Over() {
				return nil, fmt.Errorf("line %d, move %d: the game is over there", i+1, j+1)
			}
		}
		if r, ok := replies[out[i][0]]; ok && r != out[i][1] {
			return nil, fmt.Errorf("line %d: two different replies to %s", i+1, out[i][0])
		}
		replies[out[i][0]] = out[i][1]
	}
	return out, nil
}

// advance walks c over the moves played since it was saved: each pair (the
// opponent's move, seat's reply) keeps the lines that begin with it, less
// those two moves. It returns the lines and ply that remain; no lines when
// the game left them all, or went back before them (a takeback).
func advance(c *Conditional, moves []Move) ([][]string, int) {
	lines, p := c.Lines, c.Ply
	if p > len(moves) {
		return nil, p
	}
	for p+2 <= len(moves) && len(lines) > 0 {
		var kept [][]string
		for _, l := range lines {
			if len(l) > 2 && l[0] == moves[p].Text && l[1] == moves[p+1].Text && moves[p+1].Seat == c.Seat {
				kept = append(kept, l[2:])
			}
		}
		lines, p = kept, p+2
	}
	return lines, p
}

// Remaining is what is left of c after the game's moves: the lines its
// owner keeps once it has played them through (nil: none). The owner plays
// a stored reply and only then rewrites the entry, so a reader between the
// two must be shown this, not the entry as stored.
func (c *Conditional) Remaining(moves []Move) *Conditional {
	lines, p := advance(c, moves)
	if len(lines) == 0 || p > len(moves) {
		return nil
	}
	r := *c
	r.Lines, r.Ply = lines, p
	return &r
}

// condState serialises the owner's work on the stored lines: one read and
// write at a time, again if a turn came meanwhile.
type condState struct{ busy, again bool }

// maybeConditional runs, after each turn, the seat to move's stored lines
// (if any): the read and the writes happen off the owner's goroutine, the
// move itself on it (playConditional). A takeback needs nothing more: the
// seat's lines were saved at a ply the game has gone back before, and the
// seat is to move before the game reaches that ply again, when advance
// finds them past the game and they are dropped.
func (m *Match) maybeConditional() {
	book := m.reg.cfg.Conditionals
	if book == nil || m.done || ConditionalsAllowed(&m.meta, m.st) != nil {
		return
	}
	seat := m.st.ToMove()
	if seat < 0 || seat >= len(m.meta.Seats) || m.meta.Seats[seat].Kind != SeatHuman {
		return
	}
	if m.cond.busy {
		m.cond.again = true
		return
	}
	m.cond.busy = true
	go func() {
		defer m.post(func() {
			m.cond.busy = false
			if m.cond.again {
				m.cond.again = false
				m.maybeConditional()
			}
		})
		ctx, cancel := context.WithTimeout(m.reg.ctx, storeTimeout)
		defer cancel()
		c, err := book.Conditional(ctx, m.id, seat)
		if err != nil {
			m.log.Error("read conditional moves", "game", m.id, "seat", seat, "err", err)
			return
		}
		if c == nil {
			return
		}
		var next *Conditional
		write := false
		done := make(chan struct{})
		m.post(func() { defer close(done); next, write = m.playConditional(seat, c) })
		select {
		case <-done:
		case <-m.quit:
			return
		}
		switch {
		case !write:
		case next == nil:
			if err := book.DropConditional(ctx, m.id, seat); err != nil {
				m.log.Error("drop conditional moves", "game", m.id, "seat", seat, "err", err)
			}
		default:
			if err := book.SetConditional(ctx, *next); err != nil {
				m.log.Error("keep conditional moves", "game", m.id, "seat", seat, "err", err)
			}
		}
	}()
}

// playConditional runs on the owner's goroutine: it plays seat's stored
// reply if the opponent's last move is the first of one of c's lines. It
// returns what to store afterwards (nil: delete) and whether to write.
func (m *Match) playConditional(seat int, c *Conditional) (*Conditional, bool) {
	if m.done || m.meta.Status != Live || m.st.ToMove() != seat {
		return nil, false // the turn passed meanwhile: the next run sees it
	}
	lines, p := advance(c, m.moves)
	if len(lines) == 0 || p != len(m.moves)-1 || m.moves[p].Seat == seat {
		return nil, true
	}
	var reply string
	var rest [][]string
	for _, l := range lines {
		if l[0] != m.moves[p].Text {
			continue
		}
		if reply == "" {
			reply = l[1]
		}
		if l[1] == reply && len(l) > 2 {
			rest = append(rest, l[2:])
		}
	}
	if reply == "" {
		return nil, true // they played something else: the lines are done
	}
	mv, err := m.st.ParseMove(reply)
	if err != nil {
		m.log.Warn("conditional reply not legal", "game", m.id, "seat", seat, "ply", len(m.moves))
		return nil, true
	}
	rec, err := m.commit(seat, mv)
	if err != nil {
		// Nothing was played: the entry stays as it was, and the player
		// may move by hand.
		m.log.Error("conditional move", "game", m.id, "seat", seat, "err", err)
		return nil, false
	}
	m.active = rec.At
	if len(rest) == 0 {
		return nil, true
	}
	return &Conditional{Game: m.id, Seat: seat, Ply: p + 2, Lines: rest, Created: c.Created}, true
}
