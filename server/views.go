package server

import (
	"encoding/json"
	"fmt"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// This file is the only place that decides what of a game state leaves the
// server. Everything a client receives about a position goes through
// game.View (the barrier, defined once in the game package); the full
// position (positionOf) and chance outcomes (chanceOf) are released only
// for finished games or games without hidden information.

// positionOf is the full position: only for finished games or games
// without hidden information.
func positionOf(st game.State, meta *match.Meta) json.RawMessage {
	if game.Hidden(st) && !over(meta) {
		return nil
	}
	b, err := st.MarshalPosition()
	if err != nil {
		return nil
	}
	return b
}

func over(meta *match.Meta) bool {
	return meta.Status == match.Finished || meta.Status == match.Imported
}

// chanceOf returns the game's record of chance outcomes if it keeps one.
func chanceOf(st game.State) json.RawMessage {
	c, ok := st.(game.ChanceRecorder)
	if !ok {
		return nil
	}
	b, err := c.ChanceJSON()
	if err != nil {
		return nil
	}
	return b
}

// initialState builds the start of a game from its metadata.
func initialState(g game.Game, meta *match.Meta) (game.State, error) {
	if len(meta.StartPosition) > 0 {
		return g.ParsePosition(meta.StartPosition)
	}
	opts, err := game.Complete(g, meta.Options)
	if err != nil {
		return nil, err
	}
	return g.New(opts, meta.Seed)
}

// replay builds the state after the first n moves (all if n < 0),
// re-validating every move.
func replay(meta *match.Meta, moves []match.Move, n int) (game.State, error) {
	g, err := game.Lookup(meta.Game)
	if err != nil {
		return nil, err
	}
	st, err := initialState(g, meta)
	if err != nil {
		return nil, err
	}
	if n < 0 || n > len(moves) {
		n = len(moves)
	}
	for _, m := range moves[:n] {
		if st.Outcome().Over() {
			return nil, fmt.Errorf("ply %d %q: %w", m.Ply, m.Text, game.ErrGameOver)
		}
		if err := game.Play(st, m.Text); err != nil {
			return nil, fmt.Errorf("ply %d %q: %w", m.Ply, m.Text, err)
		}
	}
	return st, nil
}

// scoresOf returns the game's scores if it keeps any.
func scoresOf(st game.State) []int {
	if sc, ok := st.(game.Scorer); ok {
		return sc.Scores()
	}
	return nil
}
