package sgolte

// chainSearch finds the flip sets of merging placements. It keeps its
// results in an array rather than a slice so that it can live on the
// caller's stack: the search is recursive, and escape analysis would move
// any buffer a recursive method appends to onto the heap.
type chainSearch struct {
	g             *geometry
	opp           bitset // the enemy stones
	minflip, cont uint8
	mover         uint8 // the colour to move
	local         bool  // the group searched now has no hole
	n             int
	buf           [maxSets]bitset
	spill         []bitset // the sets past maxSets, on the heap (never seen in play)
}

// enemyGroup is a traced enemy group and whether it encloses a hole (0
// unknown, 1 no, 2 yes).
type enemyGroup struct {
	set  bitset
	hole uint8
}

// search prepares cs for the placements of the side to move in s.
func (s *State) search(cs *chainSearch) *chainSearch {
	cs.g, cs.opp, cs.minflip, cs.cont = s.geo, s.stones[s.toMove^1], s.minflip, s.cont
	cs.mover = s.toMove
	return cs
}

// cut reports whether flipping s splits its part of rem, the rest of the
// group being searched. In a group without holes (the usual case) the
// rest has none either, since every flipped stone is joined to the
// placement, outside the group, by the chain; then two neighbours on
// different arcs around s could only be joined by a path encircling the
// cells between the arcs, which would be a hole, so the arcs decide.
func (cs *chainSearch) cut(s int, rem bitset) bool {
	if cs.local {
		return cs.g.arcs(s, rem) >= 2
	}
	return cs.g.isCut(s, rem)
}

func (cs *chainSearch) record(f bitset) {
	if cs.n < maxSets {
		cs.buf[cs.n] = f
		cs.n++
		return
	}
	cs.spill = append(cs.spill, f)
}

// splits returns the distinct flip sets of a merging placement at p, sorted
// by bitset.less, given the enemy groups of three or more stones next to it
// (classified). An empty result means the placement is illegal. The result
// lives in cs until its next use.
func (cs *chainSearch) splits(p int, groups []enemyGroup) []bitset {
	cs.n, cs.spill = 0, nil
	if len(groups) == 0 {
		return nil
	}
	if cs.minflip == minGlobal {
		// All groups at once: the first length at which any group splits
		// is the fewest flips.
		cs.deepen(groups, p)
	} else {
		for i := range groups {
			cs.deepen(groups[i:i+1], p)
		}
	}
	return cs.result()
}

// classify works out once whether a group encloses a hole.
func (g *geometry) classify(e *enemyGroup) {
	if e.hole == 0 {
		e.hole = 2
		if g.holeFree(e.set) {
			e.hole = 1
		}
	}
}

// result returns the recorded flip sets, sorted and without repeats.
func (cs *chainSearch) result() []bitset {
	sets := cs.buf[:cs.n]
	if cs.spill != nil {
		sets = append(append([]bitset(nil), sets...), cs.spill...)
	}
	return sortUnique(sets)
}

func (cs *chainSearch) found() int { return cs.n + len(cs.spill) }

// deepen records the split chains of the shortest length at which any of
// groups splits, with their continuations: iterative deepening, one
// depth-first search per chain length. (A breadth-first search that keeps
// each level's chains was measured no faster: chains are short, and most of
// the work is the cut tests at the last level.)
func (cs *chainSearch) deepen(groups []enemyGroup, p int) {
	before := cs.found()
	for length := 1; ; length++ {
		alive := false
		for i := range groups {
			cs.local = groups[i].hole == 1 && holeShortcut
			if cs.chains(groups[i].set, bitset{}, cs.g.nbr[p], groups[i].set.count(), length) {
				alive = true
			}
		}
		if cs.found() > before || !alive {
			return
		}
	}
}

// chains extends a chain that has flipped `flipped` out of its group, rem
// being the connected rest of the group (n stones), by flips taken from cand, to
// exactly `left` more flips, and records every chain whose last flip splits
// rem (with its continuations). It reports whether some chain of the full
// length left a connected rest that a longer chain might still split.
func (cs *chainSearch) chains(rem, flipped, cand bitset, n, left int) (alive bool) {
	g := cs.g
	if n < left+2 {
		// After left more flips at least two stones must remain to be parts.
		return false
	}
	for c := cand.and(rem); !c.isEmpty(); {
		s := c.pop()
		cut := cs.cut(s, rem)
		rest := rem.andNot(single(s))
		if left == 1 {
			if cut {
				cs.continueFrom(flipped.or(single(s)), s, rest)
			} else if n-1 >= 3 {
				alive = true
			}
			continue
		}
		if !cut && cs.chains(rest, flipped.or(single(s)), g.nbr[s], n-1, left-1) {
			alive = true
		}
	}
	return alive
}

// continueFrom records a split chain and, as the continue option allows,
// its continuations: further flips next to the last one, each of which
// splits the part it is taken from (so the number of parts grows).
func (cs *chainSearch) continueFrom(flipped bitset, last int, rem bitset) {
	if cs.cont == contNone {
		cs.record(flipped)
		return
	}
	if cs.cont == contOptional {
		cs.record(flipped)
	}
	g := cs.g
	more := false
	for c := g.nbr[last].and(rem); !c.isEmpty(); {
		s := c.pop()
		if cs.cut(s, rem) {
			more = true
			cs.continueFrom(flipped.or(single(s)), s, rem.andNot(single(s)))
		}
	}
	if cs.cont == contMandatory && !more {
		cs.record(flipped)
	}
}

// sortUnique sorts sets and drops repeats: two chains that flip the same
// stones are one move.
func sortUnique(sets []bitset) []bitset {
	if len(sets) < 2 {
		return sets
	}
	const start = 0
	for i := start + 1; i < len(sets); i++ {
		x := sets[i]
		j := i
		for j > start && x.less(sets[j-1]) {
			sets[j] = sets[j-1]
			j--
		}
		sets[j] = x
	}
	w := start
	for i := start; i < len(sets); i++ {
		if i == start || sets[i] != sets[w-1] {
			sets[w] = sets[i]
			w++
		}
	}
	return sets[:w]
}
