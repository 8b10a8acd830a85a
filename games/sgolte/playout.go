package sgolte

import "github.com/tabula-games/tabula/game"

// maxPlayoutSets is the room for one ply's merging moves in a playout, on
// the stack; a ply with more spills to the heap.
const maxPlayoutSets = 256

// Playout plays uniformly random legal moves to the end of the game and
// returns the number of plies. It draws from the same move list as Legal
// (each plain placement, each flip set of each merging placement, swap, or
// the forced pass) but keeps the flip sets it generates instead of making
// Play regenerate them.
func (s *State) Playout(rng *game.RNG) int {
	var setBuf [maxPlayoutSets]bitset
	var cellBuf [maxPlayoutSets]uint8
	var cs chainSearch
	plies := 0
	for !s.over() {
		empty := s.empty()
		merges := s.geo.mergeCells(s.stones[s.toMove], empty)
		plain := empty.andNot(merges)
		sets, cells := setBuf[:0], cellBuf[:0]
		for m := merges; !m.isEmpty(); {
			p := m.pop()
			for _, f := range s.setsAt(p, &cs) {
				sets = append(sets, f)
				cells = append(cells, uint8(p))
			}
		}
		nPlain := plain.count()
		total := nPlain + len(sets)
		swap := s.canSwap()
		if swap {
			total++
		}
		plies++
		if total == 0 {
			s.Play(movePass)
			continue
		}
		r := rng.IntN(total)
		switch {
		case r < nPlain:
			s.place(plain.nth(r), bitset{})
		case r < nPlain+len(sets):
			r -= nPlain
			s.place(int(cells[r]), sets[r])
		default:
			s.Play(moveSwap)
		}
	}
	return plies
}
