package skjuub

import "github.com/tabula-games/tabula/game"

// maxMoves bounds the legal actions of any position: 144 placements, at
// most 11 active pieces × (10 slides + 2 tumbles + 2 quarter turns), 10
// pick-ups and a pass.
const maxMoves = 144 + 11*14 + 10 + 1

// Playout plays uniformly random legal actions to the end of the game, in
// place, and returns the number of plies. It draws exactly as
// game.RandomPlayout does (same move order, one IntN per ply), so both give
// the same game for the same generator; it only skips the interface calls
// and the caller's buffer.
func (s *State) Playout(rng *game.RNG) int {
	var buf [maxMoves]game.Move
	var m masks
	plies := 0
	for !s.out.Over() {
		m.compute(&s.b, s.r)
		moves := s.legal(buf[:0], &m)
		s.Play(moves[rng.IntN(len(moves))])
		plies++
	}
	return plies
}
