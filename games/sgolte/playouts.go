package sgolte

import "github.com/tabula-games/tabula/game"

// memoPool is the room for kept flip sets. It is a ring: old results are
// overwritten by new ones and searched again if they are asked for after
// that.
const memoPool = 512

// memoKeepMax is the most flip sets kept for one merge cell; a cell with
// more (rare: at most 66 seen in random games on size 7, 59 on size 5) is
// searched again each time.
const memoKeepMax = 64

// Playout plays uniformly random legal moves to the end of the game and
// returns the number of plies.
func (s *State) Playout(rng *game.RNG) int { return s.play(false, rng) }

// SearchPlayout implements game.SearchPlayouter: a cheaper playout policy
// for search, not uniform over moves. Each ply picks a random empty cell
// (or the swap, while it is allowed) and, if the cell merges groups, a
// random one of its flip sets; a merge cell with no legal split is struck
// off and another cell drawn. Only the chosen cell's flip sets are
// generated, where the uniform playout must generate every merge cell's to
// count the moves — most of a uniform playout's time. Self-play shows it is
// not weaker (docs/ai.md).
func (s *State) SearchPlayout(rng *game.RNG) int { return s.play(true, rng) }

// play runs a search or uniform playout, on one-word sets when the board
// fits them.
func (s *State) play(search bool, rng *game.RNG) int {
	if s.geo.cells > wordCells {
		if search {
			return s.searchPlayout(rng)
		}
		return s.playout(rng)
	}
	w := s.words()
	var n int
	if search {
		n = w.searchPlayout(rng)
	} else {
		n = w.playout(rng)
	}
	s.setWords(&w)
	return n
}

// words returns s on one-word sets, for a board of at most wordCells cells.
func (s *State) words() stateW {
	return stateW{
		rules: s.rules, geo: s.geo,
		stones: [2]word{{s.stones[black].lo}, {s.stones[white].lo}},
		toMove: s.toMove, pie: s.pie, swapped: s.swapped, passes: s.passes, placed: s.placed, hash: s.hash,
	}
}

// setWords sets s to w.
func (s *State) setWords(w *stateW) {
	*s = State{
		rules: w.rules, geo: w.geo,
		stones: [2]bitset{{lo: w.stones[black].w}, {lo: w.stones[white].w}},
		toMove: w.toMove, pie: w.pie, swapped: w.swapped, passes: w.passes, placed: w.placed, hash: w.hash,
	}
}
