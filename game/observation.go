package game

import (
	"encoding/json"
	"fmt"
)

// Observation is what one seat may know of a game at one moment, and the
// only thing an agent is handed. It is built by Observe and is a snapshot:
// the caller may go on playing its own state.
//
// For a game that hides nothing it holds a copy of the state. For a game
// with hidden information it holds the seat's view and one world sampled
// from that view alone (HiddenInfo.Determinize): every hidden card in the
// world is a guess, and nothing in an Observation refers to the true state.
// An agent therefore cannot read what its seat may not see, whatever it
// does with what it is given — the barrier is in the types, not a promise.
type Observation struct {
	seat  int
	view  json.RawMessage // the seat's view; nil for a game that hides nothing (World's position is the view)
	world State
}

// observeSeed seeds the one world an Observation carries. Any fixed seed
// does: by HiddenInfo.Determinize's contract the world is then a function of
// the view alone, so two states with the same view give equal observations.
const observeSeed = 0x0b5e7e

// Observe returns what seat may know of s. s is not modified and is not
// referred to by the result.
func Observe(s State, seat int) (Observation, error) {
	if !Hidden(s) {
		return Observation{seat: seat, world: s.Clone()}, nil
	}
	view, err := View(s, seat)
	if err != nil {
		return Observation{}, err
	}
	world := s.Clone()
	rng := NewRNG(observeSeed)
	s.(HiddenInfo).Determinize(world, seat, &rng)
	return Observation{seat: seat, view: view, world: world}, nil
}

// Seat is the seat the observation is for.
func (o Observation) Seat() int { return o.seat }

// Game is the game being played.
func (o Observation) Game() Game { return o.world.Game() }

// Hidden reports whether the game keeps information from the seat, so that
// World is a sample rather than the position itself.
func (o Observation) Hidden() bool { return o.view != nil }

// View is the JSON the seat may see: its view, or the position JSON for a
// game that hides nothing. It is what the bot protocol sends.
func (o Observation) View() (json.RawMessage, error) {
	if o.world == nil {
		return nil, fmt.Errorf("game: empty observation")
	}
	if o.view != nil {
		return o.view, nil
	}
	return o.world.MarshalPosition()
}

// World is a full state to read and search: the position itself when
// nothing is hidden, otherwise one world consistent with the seat's view.
// Everything the seat may see is true in it — the seat to move, the legal
// moves (the same Move values as in the true state), the scores — and
// everything else is a guess. It belongs to the observation: Clone it
// before playing moves on it.
func (o Observation) World() State { return o.world }

// Sample overwrites dst (a state of the same game) with a fresh world
// consistent with the seat's view, drawn with rng; for a game that hides
// nothing, with the position itself. Search over hidden information draws
// one per iteration.
func (o Observation) Sample(dst State, rng *RNG) {
	if h, ok := o.world.(HiddenInfo); ok && o.view != nil {
		h.Determinize(dst, o.seat, rng)
		return
	}
	dst.CopyFrom(o.world)
}
