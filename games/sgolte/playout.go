package sgolte

import "github.com/tabula-games/tabula/game"

// maxPlayoutSets is the room for one ply's merging moves in a playout, on
// the stack; a ply with more spills to the heap.
const maxPlayoutSets = 256

// playoutGen is the scratch space of a playout: one ply's merging moves
// (flip set and placement cell), the chain search and the kept groups.
type playoutGen struct {
	sets  [maxPlayoutSets]bitset
	cells [maxPlayoutSets]uint8
	cs    chainSearch
	book  groupBook
}

// uniformGen is a uniform playout's scratch space: the search playout's and
// the chain memo, which pays only when every merge cell is searched at
// every ply.
type uniformGen struct {
	playoutGen
	memo chainMemo
}

// Playout plays uniformly random legal moves to the end of the game and
// returns the number of plies.
func (s *State) Playout(rng *game.RNG) int {
	var ug uniformGen
	ug.book.init(s)
	plies := 0
	for !s.over() {
		s.randomPly(&ug.playoutGen, rng, &ug.book, &ug.memo)
		plies++
	}
	return plies
}

// randomPly plays one uniformly random legal move. It draws from the same
// list as Legal (each plain placement, each flip set of each merging
// placement, swap, or the forced pass) but keeps the flip sets it generates
// instead of making Play regenerate them. With a book it reads the groups
// from it and keeps it up to date, and with a memo as well, reads from that
// what it can; without, it traces the groups.
func (s *State) randomPly(pg *playoutGen, rng *game.RNG, book *groupBook, memo *chainMemo) {
	empty := s.empty()
	var merges bitset
	if book != nil {
		merges = book.mergeCells(int(s.toMove), empty)
	} else {
		merges = s.geo.mergeCells(s.stones[s.toMove], empty)
	}
	plain := empty.andNot(merges)
	sets, cells := pg.sets[:0], pg.cells[:0]
	cs := s.search(&pg.cs)
	splittable := merges
	if book != nil {
		// A merge cell with no enemy group of three stones next to it is
		// illegal: skip the search that would say so.
		splittable = merges.and(book.nearBig(int(s.toMove) ^ 1))
	}
	for m := splittable; !m.isEmpty(); {
		p := m.pop()
		var fs []bitset
		if memo != nil {
			fs = cs.memoFlipSets(p, book, memo)
		} else {
			fs = cs.flipSetsIn(p, book)
		}
		for _, f := range fs {
			sets = append(sets, f)
			cells = append(cells, uint8(p))
		}
	}
	nPlain := plain.count()
	total := nPlain + len(sets)
	if s.canSwap() {
		total++
	}
	if total == 0 {
		s.Play(movePass)
		return
	}
	r := rng.IntN(total)
	if r >= nPlain+len(sets) {
		s.Play(moveSwap)
		return
	}
	var p int
	var flips bitset
	if r < nPlain {
		p = plain.nth(r)
	} else {
		p, flips = int(cells[r-nPlain]), sets[r-nPlain]
	}
	if book != nil {
		book.place(s, int(s.toMove), p, flips)
	}
	s.place(p, flips)
}

// SearchPlayout implements game.SearchPlayouter: a cheaper playout policy
// for search, not uniform over moves. Each ply picks a random empty cell
// (or the swap, while it is allowed) and, if the cell merges groups, a
// random one of its flip sets; a merge cell with no legal split is struck
// off and another cell drawn. Only the chosen cell's flip sets are
// generated, where the uniform playout must generate every merge cell's to
// count the moves — most of a uniform playout's time. Self-play shows it is
// not weaker (docs/ai.md).
func (s *State) SearchPlayout(rng *game.RNG) int {
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
			s.Play(moveSwap)
			return
		}
		p := cand.nth(r)
		var flips bitset
		if book.merges(s, c, p) {
			sets := cs.flipSetsIn(p, book)
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
	s.Play(movePass)
}
