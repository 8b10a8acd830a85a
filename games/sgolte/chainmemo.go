package sgolte

// The merge-cell memo. A uniform playout asks at every ply for the flip
// sets of every merge cell, and most merge cells stay merge cells for many
// plies while the enemy groups next to them stand unchanged. A merge cell's
// flip sets depend on nothing but those groups (and the rules), so the
// playout keeps each merge cell's last flip sets, per colour to move, keyed
// by the stamps of the enemy groups next to it (groupBook.stamp), and reads
// them back while the key holds. (A memo per start stone as well, which
// saved more instructions, was slower: its bookkeeping branched more than
// the search it spared.)

// chainMemo is a uniform playout's memo, read with its group book: one entry
// per merge cell and colour, and a ring of flip sets.
type chainMemo struct {
	cell [2][maxCells]cellMemo // by the colour to move
	pool [memoPool]bitset
	pos  uint32 // flip sets written so far; the pool holds the last memoPool
}

// cellMemo is a merge cell's last flip sets for one colour, keyed by the
// stamps of the enemy groups next to it (in the order of their first
// stones): while they stand, so do its flip sets.
type cellMemo struct {
	key   [3]uint32
	start uint32
	n     uint8
}

// memoFlipSets is flipSets reading the enemy groups from a playout's book
// and, while they stand, the flip sets from the memo. (The book and the memo
// are parameters, not fields: escape analysis would send anything the
// recursive search can reach to the heap.)
func (cs *chainSearch) memoFlipSets(p int, b *groupBook, mp *chainMemo) []bitset {
	var key [3]uint32 // six neighbours hold at most three enemy groups
	n := 0
	for rest := cs.g.nbr[p].and(cs.opp); !rest.isEmpty(); {
		i := b.id[rest.first()]
		set := b.grp[i].set
		rest = rest.andNot(set)
		if set.count() >= 3 {
			// Taking stones out of two or fewer leaves at most one part.
			key[n] = b.stamp[i]
			n++
		}
	}
	if n == 0 {
		return nil
	}
	cm := &mp.cell[cs.mover][p]
	if cm.key == key && mp.pos-cm.start <= memoPool {
		cs.n, cs.spill = 0, nil
		for k := uint32(0); k < uint32(cm.n); k++ {
			cs.record(mp.pool[(cm.start+k)%memoPool])
		}
		return cs.buf[:cs.n]
	}
	sets := cs.bookFlipSets(p, b)
	*cm = cellMemo{key: key}
	if len(sets) > memoKeepMax {
		cm.key = [3]uint32{} // too many to keep: never matches
		return sets
	}
	cm.start, cm.n = mp.pos, uint8(len(sets))
	for _, f := range sets {
		mp.pool[mp.pos%memoPool] = f
		mp.pos++
	}
	return sets
}
