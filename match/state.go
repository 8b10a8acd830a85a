package match

import (
	"fmt"
	"time"

	"github.com/tabula-games/tabula/game"
)

// InitialState builds the start of the game m describes: its start
// position, or the game's initial position for its options and seed.
func InitialState(m *Meta) (game.State, error) {
	g, err := game.Lookup(m.Game)
	if err != nil {
		return nil, err
	}
	if len(m.StartPosition) > 0 {
		return g.ParsePosition(m.StartPosition)
	}
	opts, err := game.Complete(g, m.Options)
	if err != nil {
		return nil, err
	}
	return g.New(opts, m.Seed)
}

// Replay builds the state of the game m after its first n moves (all if
// n < 0), checking every move by the rules again.
func Replay(m *Meta, moves []Move, n int) (game.State, error) {
	st, err := InitialState(m)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > len(moves) {
		n = len(moves)
	}
	for _, mv := range moves[:n] {
		if st.Outcome().Over() {
			return nil, fmt.Errorf("ply %d %q: %w", mv.Ply, mv.Text, game.ErrGameOver)
		}
		if err := game.Play(st, mv.Text); err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", mv.Ply, mv.Text, err)
		}
	}
	return st, nil
}

// SeatNames is how the game's notation names each seat in st ("black",
// "white", "1", …); the names may change during a game (the Sgolte pie
// swap exchanges colours).
func SeatNames(st game.State) []string {
	names := make([]string, st.NumPlayers())
	for i := range names {
		names[i] = st.SeatName(i)
	}
	return names
}

// Snapshot is a consistent picture of one game at one event: what every
// client message about the game is built from.
type Snapshot struct {
	Meta  Meta
	Moves []Move
	// State is a copy of the true state. It leaves the match only for the
	// server's one snapshot builder, which shows a seat nothing but
	// game.View of it (and the full position only once the game is over).
	State game.State
	// Clocks is every seat's time left, for a realtime clock.
	Clocks []ClockState
	// Room is the room as the owner holds it, chat included (the server
	// shows the chat to players only); nil for a game read from the store.
	Room *Room
}

// Seq is the snapshot's event number: events after it have higher ones.
func (s *Snapshot) Seq() int64 { return s.Meta.Version }

// StoredSnapshot is the snapshot of a game read from the store (one without
// an owner here: finished, aborted, imported, or owned elsewhere), as it
// stood at now. The game's row is read before its moves, and moves are only
// ever added, so moves beyond m.Ply were committed after the row was read:
// they are left out, and the snapshot is the game at event m.Version.
func StoredSnapshot(m Meta, moves []Move, now time.Time) (*Snapshot, error) {
	if len(moves) < m.Ply {
		return nil, fmt.Errorf("game %s: the row says %d moves, %d stored", m.ID, m.Ply, len(moves))
	}
	moves = moves[:m.Ply]
	st, err := Replay(&m, moves, -1)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", m.ID, err)
	}
	return &Snapshot{Meta: m, Moves: moves, State: st, Clocks: storedClocks(&m, moves, now)}, nil
}

// storedClocks is a live game's realtime clocks as its stored moves and
// deadline tell them at now: each seat's time after its last move, and
// the seat to move's running down to its deadline (which its owner keeps
// in the row, moved on after a takeover); nil without a running realtime
// clock.
func storedClocks(m *Meta, moves []Move, now time.Time) []ClockState {
	if m.Status != Live || m.Clock.Kind != ClockRealtime {
		return nil
	}
	c := newClocks(m.Clock, len(m.Seats), moves)
	if seat := m.ToMove; seat >= 0 && seat < len(c.remaining) && !m.Deadline.IsZero() {
		c.remaining[seat] = m.Deadline.Sub(now).Milliseconds()
	}
	c.turnStart = now
	return c.state(m.ToMove, now)
}
