package record

import (
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// Setup is where a record's moves start: the game, the state before the
// first move, and how it was made — Options and Seed for a game the rules
// dealt, FromStart for a start position of the record's own.
type Setup struct {
	Game      game.Game
	State     game.State
	Options   game.Options // complete, for a dealt game
	Seed      uint64
	FromStart bool
}

// StartState builds the state before the record's first move: its start
// position if it has one, else the game dealt from its options and seed.
func (r *Record) StartState() (Setup, error) {
	g, err := game.Lookup(r.Game)
	if err != nil {
		return Setup{}, errorf(UnknownGame, err, "record: unknown game %q", r.Game)
	}
	switch {
	case len(r.Start) > 0:
		st, err := g.ParsePosition(r.Start)
		if err != nil {
			return Setup{}, errorf(BadStart, err, "record start: %v", err)
		}
		return Setup{Game: g, State: st, FromStart: true}, nil
	case r.Seed != "":
		seed, err := strconv.ParseUint(r.Seed, 10, 64)
		if err != nil {
			return Setup{}, errorf(BadSeed, err, "record seed %q: want an unsigned integer", r.Seed)
		}
		opts, err := game.Complete(g, r.Options)
		if err != nil {
			return Setup{}, errorf(BadOptions, err, "record: %v", err)
		}
		st, err := g.New(opts, seed)
		if err != nil {
			return Setup{}, errorf(BadOptions, err, "record: %v", err)
		}
		return Setup{Game: g, State: st, Options: opts, Seed: seed}, nil
	}
	return Setup{}, errorf(NoStart, nil, "a record needs its seed or its start position to replay")
}

// Replay plays the record's moves on st, checking each against the rules,
// and returns them as played: numbered from 0, with the seat that made
// each and its canonical notation (At as the record has it). st ends in
// the position the moves reach.
func (r *Record) Replay(st game.State) ([]Move, error) {
	out := make([]Move, 0, len(r.Moves))
	for i, m := range r.Moves {
		if st.Outcome().Over() {
			return out, errorf(IllegalMove, game.ErrGameOver, "ply %d %q: the game is already over", i, m.Move)
		}
		seat := st.ToMove()
		mv, err := st.ParseMove(m.Move)
		if err != nil {
			return out, errorf(IllegalMove, err, "ply %d %q: %v", i, m.Move, err)
		}
		text := st.FormatMove(mv)
		st.Play(mv)
		out = append(out, Move{Ply: i, Seat: seat, Move: text, At: m.At})
	}
	return out, nil
}

// ResultOf is the result the rules give a finished state (nil while it
// goes on): won or drawn, the winning seats, the scores where the game
// keeps them.
func ResultOf(st game.State) *Result {
	out := st.Outcome()
	if !out.Over() {
		return nil
	}
	res := &Result{Status: "drawn", Winners: []int{}, Reason: "normal"}
	if out.Status == game.Won {
		res.Status = "won"
		for seat := 0; seat < st.NumPlayers(); seat++ {
			if out.IsWinner(seat) {
				res.Winners = append(res.Winners, seat)
			}
		}
	}
	if sc, ok := st.(game.Scorer); ok {
		res.Scores = sc.Scores()
	}
	return res
}
