package sgolte

import (
	"math"

	"github.com/tabula-games/tabula/game"
)

// Evaluate is a one-ply heuristic for seat, in [-1, 1]; a finished game is
// worth 1, 0 or -1.
//
// It scores material and threats, not the current groups: v = 2·(own
// stones − enemy stones) + (own merge cells − enemy merge cells), squashed
// by tanh over a quarter of the board. Merge cells (empty cells next to two
// or more of a side's groups) are where that side can later flip enemy
// stones. Comparing the sorted group sizes, the game's own tie-break, makes
// a poor guide before the end: a greedy player that grows one big group
// leaves itself nothing to merge, while a scattered opponent keeps merging
// and flipping chains out of it. In seeded trials the group-size greedy won
// 7 of 40 games against uniform random play, this one 100 of 100 (the test
// TestEvaluatorBeatsRandom keeps a margin).
func (s *State) Evaluate(seat int) float64 {
	if s.over() {
		o := s.Outcome()
		switch {
		case o.Status == game.Drawn:
			return 0
		case o.IsWinner(seat):
			return 1
		}
		return -1
	}
	me := s.colourOf(seat)
	empty := s.empty()
	stones := s.stones[me].count() - s.stones[me^1].count()
	merges := s.geo.mergeCells(s.stones[me], empty).count() - s.geo.mergeCells(s.stones[me^1], empty).count()
	v := float64(2*stones + merges)
	return math.Tanh(v / (float64(s.geo.cells) / 4))
}
