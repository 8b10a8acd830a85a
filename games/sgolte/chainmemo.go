package sgolte

// The chain memo. A uniform playout asks at every ply for the flip sets of
// every merge cell, and most of its time went into finding them again:
// enemy groups often stay as they are for several plies, and neighbouring
// merge cells start chains from the same stones. A chain's first flip
// touches the placement, but from there on nothing about it depends on the
// placement: the chains from a stone s of group G, of any given length, are
// a property of G and s alone. So the book keeps, for each stone, what the
// search from it found — the shortest length at which a chain from it splits
// its group, with those chains' flip sets (continuations included), or the
// lengths at which none does — stamped with its group's stamp. A merge
// cell's flip sets are then the shortest of its start stones' results,
// combined: the same deepening as chainSearch.deepen, one start stone at a
// time, each length searched at most once per group and stone.

// memoPool is the room for kept flip sets. It is a ring: old results are
// overwritten by new ones and searched again if they are asked for after
// that. A playout of the largest board keeps a few hundred.
const memoPool = 512

// memoKeepMax is the most flip sets kept for one stone; a stone with more
// (never seen in random play) is searched again each time.
const memoKeepMax = 64

// startMemo is what the search from one stone found, for its group as
// stamped.
type startMemo struct {
	stamp uint32 // the group's stamp when this was found
	start uint32 // the position of its flip sets in the pool's sequence
	n     uint8  // how many there are
	kept  bool   // whether they were kept (not too many)
	tried uint8  // no chain from the stone of length 1…tried splits the group
	found uint8  // the length of the shortest splitting chains (0 while unknown)
	dead  bool   // no chain longer than tried can split the group either
}

// chainMemo is a uniform playout's memo, read with its group book: one
// entry per stone, one per merge cell and colour, and a ring of flip sets.
type chainMemo struct {
	of   [maxCells]startMemo
	cell [2][maxCells]cellMemo // by the colour to move
	pool [memoPool]bitset
	pos  uint32 // flip sets written so far; the pool holds the last memoPool
}

// memoFlipSets is flipSets reading the enemy groups from a playout's book
// and what it can from the memo. (The book and the memo are parameters,
// not fields: escape analysis would send anything the recursive search can
// reach to the heap.)
func (cs *chainSearch) memoFlipSets(p int, b *groupBook, mp *chainMemo) []bitset {
	g := cs.g
	cs.n, cs.spill = 0, nil
	var ids [3]uint8 // six neighbours hold at most three enemy groups
	var key [3]uint32
	n := 0
	for rest := g.nbr[p].and(cs.opp); !rest.isEmpty(); {
		i := b.id[rest.first()]
		set := b.grp[i].set
		rest = rest.andNot(set)
		if set.count() >= 3 {
			// Taking stones out of two or fewer leaves at most one part.
			ids[n], key[n] = i, b.stamp[i]
			n++
		}
	}
	if n == 0 {
		return nil
	}
	cm := &mp.cell[cs.mover][p]
	if cm.key == key && mp.intact(cm.start) {
		mp.recall(cs, cm.start, cm.n)
		return cs.buf[:cs.n]
	}
	var sorted bool
	if cs.minflip == minGlobal {
		sorted = cs.splitsFrom(b, mp, ids[:n], p)
	} else {
		// Each group's shortest chains; one group's alone may be sorted.
		sorted = true
		sources := 0
		for k := 0; k < n; k++ {
			before := cs.n
			if !cs.splitsFrom(b, mp, ids[k:k+1], p) {
				sorted = false
			}
			if cs.n > before {
				sources++
			}
		}
		sorted = sorted && sources <= 1
	}
	sets := cs.buf[:cs.n]
	if !sorted || cs.spill != nil {
		sets = cs.result()
	}
	*cm = cellMemo{key: key}
	if len(sets) <= memoKeepMax {
		cm.start, cm.n = mp.keep(sets)
	} else {
		cm.key = [3]uint32{} // too many to keep: never matches
	}
	return sets
}

// cellMemo is a merge cell's last flip sets for one colour, keyed by the
// stamps of the enemy groups next to it (in the order of their first
// stones): while they stand, so do its flip sets.
type cellMemo struct {
	key   [3]uint32
	start uint32
	n     uint8
}

// keep writes sets into the pool and returns where they are.
func (mp *chainMemo) keep(sets []bitset) (start uint32, n uint8) {
	start = mp.pos
	for _, f := range sets {
		mp.pool[mp.pos%memoPool] = f
		mp.pos++
	}
	return start, uint8(len(sets))
}

// intact reports whether the flip sets kept from start are still in the
// pool, not yet overwritten (no more than memoKeepMax of them).
func (mp *chainMemo) intact(start uint32) bool {
	return mp.pos-start <= memoPool
}

// recall records the n flip sets kept from start.
func (mp *chainMemo) recall(cs *chainSearch, start uint32, n uint8) {
	for k := uint32(0); k < uint32(n); k++ {
		cs.record(mp.pool[(start+k)%memoPool])
	}
}

// memoFor returns the memo of stone s of group i, emptied if it was found
// for another group or an earlier state of this one.
func (mp *chainMemo) memoFor(b *groupBook, s int, i uint8) *startMemo {
	m := &mp.of[s]
	if m.stamp != b.stamp[i] {
		*m = startMemo{stamp: b.stamp[i]}
	}
	return m
}

// startStone is a stone next to the placement where a chain may begin.
type startStone struct {
	s   int
	grp uint8
	m   *startMemo
}

// splitsFrom records the shortest split chains that start next to p in the
// groups ids, searching only the lengths the memo does not know yet: the
// deepening of chainSearch.deepen, start stone by start stone. A start's
// memo knows that its chains of length 1…tried do not split, and either
// the shortest length that does (found) or that none does (dead). It
// reports whether what it recorded is sorted and free of repeats (as it is
// when it all comes from one start).
func (cs *chainSearch) splitsFrom(b *groupBook, mp *chainMemo, ids []uint8, p int) (sorted bool) {
	var starts [6]startStone
	n := 0
	for _, i := range ids {
		for st := cs.g.nbr[p].and(b.grp[i].set); !st.isEmpty(); {
			s := st.pop()
			starts[n] = startStone{s, i, mp.memoFor(b, s, i)}
			n++
		}
	}
	for {
		// The fewest flips at which some start splits or is not known yet.
		length := 0
		for _, st := range starts[:n] {
			l := int(st.m.found)
			if l == 0 {
				if st.m.dead {
					continue
				}
				l = int(st.m.tried) + 1
			}
			if length == 0 || l < length {
				length = l
			}
		}
		if length == 0 {
			return true // no chain from here splits
		}
		searched := false
		for _, st := range starts[:n] {
			if st.m.found == 0 && !st.m.dead && int(st.m.tried)+1 == length {
				cs.extend(b, mp, st)
				searched = true
			}
		}
		if !searched {
			return cs.gather(b, mp, starts[:n], length) <= 1
		}
	}
}

// extend searches the chains from a start one flip longer than its memo
// has tried, and keeps what it finds.
func (cs *chainSearch) extend(b *groupBook, mp *chainMemo, st startStone) {
	m := st.m
	length := int(m.tried) + 1
	n0, spilled := cs.n, len(cs.spill)
	alive := cs.from(b, st, length)
	if cs.n == n0 && len(cs.spill) == spilled {
		m.tried = uint8(length)
		m.dead = !alive
		return
	}
	m.found = uint8(length)
	sets := sortUnique(cs.buf[n0:cs.n])
	if len(cs.spill) == spilled && len(sets) <= memoKeepMax {
		m.start, m.n = mp.keep(sets)
		m.kept = true
	}
	// gather records them again.
	cs.n, cs.spill = n0, cs.spill[:spilled:spilled]
}

// from records the split chains of exactly length flips from a start, as
// deepen does for all start stones at once.
func (cs *chainSearch) from(b *groupBook, st startStone, length int) (alive bool) {
	e := &b.grp[st.grp]
	cs.g.classify(e)
	cs.into(e)
	return cs.chains(e.set, bitset{}, single(st.s), e.set.count(), length)
}

// gather records the flip sets of the starts whose shortest split chains
// have the given length, from the memo while the pool still holds them, and
// returns how many starts it took them from.
func (cs *chainSearch) gather(b *groupBook, mp *chainMemo, starts []startStone, length int) (from int) {
	for _, st := range starts {
		m := st.m
		if int(m.found) != length {
			continue
		}
		from++
		if !m.kept || !mp.intact(m.start) {
			cs.from(b, st, length)
			from++ // not sorted
			continue
		}
		mp.recall(cs, m.start, m.n)
	}
	return from
}
