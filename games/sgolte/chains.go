package sgolte

import "math/bits"

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
	// The group searched now when it encloses holes (see holedCut): the
	// group, the placement, and its holes, each a connected region of the
	// cells it encloses; nholes is -1 when cut must flood instead.
	p      int
	grp    bitset
	inner  bitset // every cell the group encloses
	holes  [maxHoles]bitset
	nholes int
	// deepen's chains of the last length and of this one.
	pre [2][maxPrefixes]chainPrefix
	// The regions the chain joins (holedCut), for the chain joinedFor.
	joined      uint
	joinedFor   bitset
	joinedKnown bool
	n           int
	buf         [maxSets]bitset
	spill       []bitset // the sets past maxSets, on the heap (never seen in play)
}

// chainPrefix is a chain that splits nothing yet: its flipped stones, the
// last of them (noCell before the first, which is taken next to the
// placement), and its group's index in the search.
type chainPrefix struct {
	flipped bitset
	last    uint8
	grp     uint8
}

// enemyGroup is a traced enemy group and whether it encloses a hole (0
// unknown, 1 no, 2 yes), with the cells it encloses when it does.
type enemyGroup struct {
	set   bitset
	inner bitset
	hole  uint8
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
//
// That arc test (cs.local) is written out where the chains are walked, and
// cut is called only for the other groups: the arc test is most of what a
// search does, and cut with both tests in it is too large for the compiler
// to inline (the three copies of that test, by hand, made playouts 4%
// faster).
func (cs *chainSearch) cut(s int, rem, flipped bitset) bool {
	if cs.nholes >= 0 {
		return cs.holedCut(s, rem, flipped)
	}
	return cs.g.isCut(s, rem)
}

// holedCut is cut in a group that encloses holes, where two arcs around s
// may be joined the long way round a hole, without a flood. The cells
// outside rem fall into regions: the outside, each hole, and the region of
// the placement and the flipped stones, which joins every region the chain
// touches. The runs of s's neighbours outside rem (its gaps, one between
// each two arcs) each lie in one region, and taking s out of rem joins the
// regions of its gaps into one; by Euler's formula (cells - links +
// triangles = parts - holes) s's part of rem then falls into a-k+1 parts,
// for a arcs whose gaps lie in k distinct regions. So s splits it exactly
// when two of its gaps lie in one region.
func (cs *chainSearch) holedCut(s int, rem, flipped bitset) bool {
	g := cs.g
	a := g.arcs(s, rem)
	if a <= 1 {
		return false
	}
	if !cs.joinedKnown || cs.joinedFor != flipped {
		// The chain's region, asked for again with each stone next to it.
		cs.joined = cs.regions(g.dilate(flipped).or(single(cs.p)).andNot(cs.grp))
		if !flipped.and(g.edge).isEmpty() {
			cs.joined |= outsideRegion
		}
		cs.joinedFor, cs.joinedKnown = flipped, true
	}
	joined := cs.joined
	gap := g.nbr[s].andNot(rem)
	touched := cs.regions(gap.andNot(flipped))
	if g.edge.has(s) {
		touched |= outsideRegion
	}
	k := bits.OnesCount(touched &^ joined)
	if touched&joined != 0 || !gap.and(flipped).isEmpty() {
		k++
	}
	return a > k
}

// regions returns the regions (holes by index, outsideRegion) that hold a
// cell of cells, which lie outside the group searched now.
func (cs *chainSearch) regions(cells bitset) uint {
	var r uint
	for j := 0; j < cs.nholes; j++ {
		if !cs.holes[j].and(cells).isEmpty() {
			r |= 1 << j
		}
	}
	if !cells.andNot(cs.inner).isEmpty() {
		r |= outsideRegion
	}
	return r
}

// prepare sets cs up to search group e from the placement p.
func (cs *chainSearch) prepare(e *enemyGroup, p int) {
	cs.local = e.hole == 1 && holeShortcut
	cs.nholes = -1
	if e.hole != 2 || !holeShortcut {
		return
	}
	cs.p, cs.grp, cs.inner, cs.joinedKnown = p, e.set, e.inner, false
	n := 0
	for rest := e.inner; !rest.isEmpty(); n++ {
		if n == maxHoles {
			return
		}
		h, _ := cs.g.component(rest.first(), rest)
		cs.holes[n] = h
		rest = rest.andNot(h)
	}
	cs.nholes = n
}

func (cs *chainSearch) record(f bitset) {
	if cs.n < maxSets {
		cs.buf[cs.n] = f
		cs.n++
		return
	}
	cs.spill = append(cs.spill, f)
}

// find records in cs the flip sets of a merging placement at p, given the
// enemy groups of three or more stones next to it (classified), in the
// order the search meets them and with repeats: result returns them sorted
// by bitset.less and distinct, distinct without the sort. None means the
// placement is illegal. They live in cs until its next use.
func (cs *chainSearch) find(p int, groups []enemyGroup) {
	cs.n, cs.spill = 0, nil
	if len(groups) == 0 {
		return
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
}

// classify works out once whether a group encloses a hole, and which
// cells it encloses.
func (g *geometry) classify(e *enemyGroup) {
	if e.hole == 0 {
		e.hole = 2
		if g.holeFree(e.set) {
			e.hole = 1
		} else {
			e.inner = g.enclosed(e.set)
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

// distinct returns the recorded flip sets without repeats, in the order
// found: what counting them needs, without result's sort (which took a
// twentieth of a uniform playout: most of its comparisons mispredicted,
// where the equality tests here are nearly all false).
func (cs *chainSearch) distinct() []bitset {
	sets := cs.buf[:cs.n]
	if cs.spill != nil {
		sets = append(append([]bitset(nil), sets...), cs.spill...)
	}
	w := 0
next:
	for i := range sets {
		for j := 0; j < w; j++ {
			if sets[j] == sets[i] {
				continue next
			}
		}
		sets[w] = sets[i]
		w++
	}
	return sets[:w]
}

func (cs *chainSearch) found() int { return cs.n + len(cs.spill) }

// deepen records the split chains of the shortest length at which any of
// groups splits, with their continuations, searching the chains of each
// length in turn.
func (cs *chainSearch) deepen(groups []enemyGroup, p int) {
	before := cs.found()
	// Each length's chains extend the last length's that split nothing, so
	// those are kept (a frontier, each group's together) rather than found
	// again; past maxPrefixes of them the search goes on depth-first.
	cur, next := &cs.pre[0], &cs.pre[1]
	ncur := 0
	for i := range groups {
		cur[ncur] = chainPrefix{last: noCell, grp: uint8(i)}
		ncur++
	}
	for length := 1; ; length++ {
		nnext, prepared := 0, -1
		for k := 0; k < ncur; k++ {
			e := &cur[k]
			grp := &groups[e.grp]
			size := grp.set.count()
			if size < length+2 {
				// After length flips at least two stones must remain to be parts.
				continue
			}
			if int(e.grp) != prepared {
				cs.prepare(grp, p)
				prepared = int(e.grp)
			}
			g := cs.g
			rem := grp.set.andNot(e.flipped)
			cand := g.nbr[p]
			if e.last != noCell {
				cand = g.nbr[e.last]
			}
			for c := cand.and(rem); !c.isEmpty(); {
				s := c.pop()
				var cut bool
				if cs.local {
					cut = g.arcs(s, rem) >= 2
				} else {
					cut = cs.cut(s, rem, e.flipped)
				}
				switch {
				case cut:
					cs.continueFrom(e.flipped.or(single(s)), s, rem.andNot(single(s)))
				case size-length < 3:
					// Too few stones left for a longer chain to split.
				case nnext == prefixLimit:
					// This length again, depth-first (what it recorded
					// already it records twice: the result drops repeats).
					cs.deepenFrom(groups, p, length, before)
					return
				default:
					next[nnext] = chainPrefix{flipped: e.flipped.or(single(s)), last: uint8(s), grp: e.grp}
					nnext++
				}
			}
		}
		if cs.found() > before || nnext == 0 {
			return
		}
		cur, next, ncur = next, cur, nnext
	}
}

// deepenFrom is deepen from the given chain length on, one depth-first
// search per length: for a frontier too large to keep.
func (cs *chainSearch) deepenFrom(groups []enemyGroup, p, length, before int) {
	for ; ; length++ {
		alive := false
		for i := range groups {
			cs.prepare(&groups[i], p)
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
		var cut bool
		if cs.local {
			cut = g.arcs(s, rem) >= 2
		} else {
			cut = cs.cut(s, rem, flipped)
		}
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
		if cs.local && g.arcs(s, rem) >= 2 || !cs.local && cs.cut(s, rem, flipped) {
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
