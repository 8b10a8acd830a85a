package sgolte

// The merge-cell memo. A uniform playout asks at every ply for the flip
// sets of every merge cell, and most merge cells stay merge cells for many
// plies while the enemy groups next to them stand unchanged. A merge cell's
// flip sets depend on nothing but those groups (and the rules), so the
// playout keeps each merge cell's last flip sets, per colour to move, and
// reads them back until a group next to the cell changes: the book marks
// the cells around every group it changes (groupBook.stale), and the memo
// drops what it kept for those. (A memo per start stone as well, which
// saved more instructions, was slower: its bookkeeping branched more than
// the search it spared.)

// chainMemo is a uniform playout's memo, read with its group book: one entry
// per merge cell and colour, and a ring of flip sets.
type chainMemo struct {
	cell [2][maxCells]cellMemo // by the colour to move
	good [2]bitset             // the cells whose entry holds, by the colour to move
	pool [memoPool]bitset
	pos  uint32 // slots of the ring used so far; it holds the last memoPool
}

// cellMemo is where a merge cell's last flip sets for one colour lie in the
// ring.
type cellMemo struct {
	start uint32
	n     uint8
}

// memoFlipSets is flipSets reading the enemy groups from a playout's book
// and, while they stand, the flip sets from the memo — in no set order:
// the playout counts every merge cell's and sorts only the chosen one's.
// (The book and the memo are parameters, not fields: escape analysis would
// send anything the recursive search can reach to the heap.)
func (cs *chainSearch) memoFlipSets(p int, b *groupBook, mp *chainMemo) []bitset {
	c := cs.mover
	mp.good[c] = mp.good[c].andNot(b.stale[c])
	b.stale[c] = bitset{}
	cm := &mp.cell[c][p]
	if mp.good[c].has(p) && mp.pos-cm.start <= memoPool {
		i := cm.start % memoPool
		return mp.pool[i : i+uint32(cm.n)]
	}
	cs.bookFind(p, b)
	sets := cs.distinct()
	if len(sets) > memoKeepMax {
		mp.good[c] = mp.good[c].andNot(single(p)) // too many to keep
		return sets
	}
	if room := memoPool - mp.pos%memoPool; uint32(len(sets)) > room {
		mp.pos += room // each cell's sets in one piece, to be read in place
	}
	*cm = cellMemo{start: mp.pos, n: uint8(len(sets))}
	mp.good[c] = mp.good[c].or(single(p))
	copy(mp.pool[mp.pos%memoPool:], sets)
	mp.pos += uint32(len(sets))
	return sets
}
