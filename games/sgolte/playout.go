package sgolte

import "github.com/tabula-games/tabula/game"

// playoutGen is the scratch space of a playout: one ply's merge cells with
// a legal split and the count of each one's flip sets, the chain search and
// the kept groups.
type playoutGen struct {
	cells [maxCells]uint8
	sets  [maxCells]int32
	cs    chainSearch
	book  groupBook
}

// uniformGen is a uniform playout's scratch space: the search playout's and
// the merge-cell memo, which pays only when every merge cell is searched at
// every ply.
type uniformGen struct {
	playoutGen
	memo chainMemo
}

// playout is Playout.
func (s *State) playout(rng *game.RNG) int {
	var ug uniformGen
	ug.book.init(s)
	plies := 0
	for !s.over() {
		s.randomPly(&ug.playoutGen, rng, &ug.memo)
		plies++
	}
	return plies
}

// randomPly plays one uniformly random legal move. It draws from the same
// list as Legal (each plain placement, each flip set of each merging
// placement, swap, or the forced pass), counting each merge cell's flip sets
// and asking again only for the chosen cell's (from the memo, or searched
// again: the search is deterministic) rather than copying every set at every
// ply. It reads the groups from the book and keeps it up to date, and with a
// memo reads from that what it can.
func (s *State) randomPly(pg *playoutGen, rng *game.RNG, memo *chainMemo) {
	book := &pg.book
	empty := s.empty()
	merges := book.mergeCells(int(s.toMove), empty)
	plain := empty.andNot(merges)
	cs := s.search(&pg.cs)
	// A merge cell with no enemy group of three stones next to it is
	// illegal: skip the search that would say so.
	nSets, nCells := 0, 0
	for m := merges.and(book.nearBig(int(s.toMove) ^ 1)); !m.isEmpty(); {
		p := m.pop()
		if n := len(cs.cellFlipSets(p, book, memo)); n > 0 {
			pg.cells[nCells], pg.sets[nCells] = uint8(p), int32(n)
			nCells++
			nSets += n
		}
	}
	nPlain := plain.count()
	total := nPlain + nSets
	if s.canSwap() {
		total++
	}
	if total == 0 {
		s.pass()
		return
	}
	r := rng.IntN(total)
	if r >= nPlain+nSets {
		s.swap()
		return
	}
	var p int
	var flips bitset
	if r < nPlain {
		p = plain.nth(r)
	} else {
		r -= nPlain
		k := 0
		for r >= int(pg.sets[k]) {
			r -= int(pg.sets[k])
			k++
		}
		p = int(pg.cells[k])
		flips = sortUnique(cs.cellFlipSets(p, book, memo))[r] // in Legal's order
	}
	book.place(s, int(s.toMove), p, flips)
	s.place(p, flips)
}

// cellFlipSets is the flip sets of the merge cell p, from the memo when
// there is one (then in no set order: sortUnique puts them in Legal's).
func (cs *chainSearch) cellFlipSets(p int, book *groupBook, memo *chainMemo) []bitset {
	if memo != nil {
		return cs.memoFlipSets(p, book, memo)
	}
	return cs.bookFlipSets(p, book)
}

// searchPlayout is SearchPlayout.
func (s *State) searchPlayout(rng *game.RNG) int {
	var pg playoutGen
	pg.book.init(s)
	plies := 0
	for !s.over() {
		s.cellPly(&pg, rng)
		plies++
	}
	return plies
}

// cellPly plays one move of SearchPlayout.
func (s *State) cellPly(pg *playoutGen, rng *game.RNG) {
	book := &pg.book
	empty := s.empty()
	c := int(s.toMove)
	cs := s.search(&pg.cs)
	swap := 0
	if s.canSwap() {
		swap = 1
	}
	cand := empty
	for n := cand.count(); n+swap > 0; n-- {
		r := rng.IntN(n + swap)
		if r == n {
			s.swap()
			return
		}
		p := cand.nth(r)
		var flips bitset
		if book.merges(s, c, p) {
			sets := cs.bookFlipSets(p, book)
			if len(sets) == 0 {
				cand = cand.andNot(single(p))
				continue
			}
			flips = sets[rng.IntN(len(sets))]
		}
		book.place(s, c, p, flips)
		s.place(p, flips)
		return
	}
	s.pass()
}
