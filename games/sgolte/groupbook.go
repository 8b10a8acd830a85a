package sgolte

// groupBook keeps the groups of both colours, with the cells around each,
// up to date move by move, so that a playout need not trace every group
// again at every ply: a placement merges the mover's groups it touches
// (with the flipped stones), and a split replaces one enemy group by the
// parts of what is left of it. Group ids are small numbers, kept in a
// bitset of free ids.
type groupBook struct {
	id   [maxCells]uint8 // the group of each stone
	grp  [maxCells]enemyGroup
	halo [maxCells]bitset // the cells next to each group
	live [2]bitset        // the ids in use, by colour
	big  [2]bitset        // the ids of groups of three or more stones, by colour
	free bitset
	// touch counts, by colour, the groups whose halo holds each cell, in
	// two bit planes (ones and twos, modulo 4: a cell touches at most three
	// groups of a colour), kept as groups come and go so that the merge cells
	// (the empty cells touching two or more) are read off at every ply
	// instead of gathered from every group's halo; bigTouch counts the
	// groups of three or more stones alike.
	touch, bigTouch [2][2]bitset
	// stale[c] holds the cells next to a group of the other colour that has
	// changed (grown, joined others, split or gone) since the chain memo
	// last looked (chainmemo.go): what it kept for them, with c to move,
	// no longer holds. Only groups of three or more stones, before or
	// after, count: no split takes stones from a smaller one.
	stale [2]bitset
}

// init traces every group of s.
func (b *groupBook) init(s *State) {
	b.stale = [2]bitset{s.geo.all, s.geo.all}
	b.live, b.big, b.touch, b.bigTouch = [2]bitset{}, [2]bitset{}, [2][2]bitset{}, [2][2]bitset{}
	b.free = s.geo.all // there are never more groups than cells
	for c := 0; c < 2; c++ {
		for rest := s.stones[c]; !rest.isEmpty(); {
			grp, halo := s.geo.component(rest.first(), s.stones[c])
			rest = rest.andNot(grp)
			b.add(c, grp, halo, 0)
		}
	}
}

// add books a new group; hole is its enemyGroup.hole when known (1), else 0.
func (b *groupBook) add(colour int, set, halo bitset, hole uint8) {
	i := b.free.pop()
	b.live[colour] = b.live[colour].or(single(i))
	b.grp[i] = enemyGroup{set: set, hole: hole}
	b.halo[i] = halo
	countIn(&b.touch[colour], halo)
	if set.count() >= 3 {
		b.big[colour] = b.big[colour].or(single(i))
		countIn(&b.bigTouch[colour], halo)
		b.stale[colour^1] = b.stale[colour^1].or(halo)
	}
	for c := set; !c.isEmpty(); {
		b.id[c.pop()] = uint8(i)
	}
}

func (b *groupBook) drop(colour, i int) {
	if b.big[colour].has(i) {
		b.stale[colour^1] = b.stale[colour^1].or(b.halo[i])
		uncountIn(&b.bigTouch[colour], b.halo[i])
	}
	b.live[colour] = b.live[colour].andNot(single(i))
	b.big[colour] = b.big[colour].andNot(single(i))
	b.free = b.free.or(single(i))
	uncountIn(&b.touch[colour], b.halo[i])
}

// countIn adds one to the count in t (two bit planes) of every cell of halo.
func countIn(t *[2]bitset, halo bitset) {
	t[1] = t[1].xor(t[0].and(halo))
	t[0] = t[0].xor(halo)
}

// uncountIn takes one from the count in t of every cell of halo.
func uncountIn(t *[2]bitset, halo bitset) {
	t[1] = t[1].xor(halo.andNot(t[0]))
	t[0] = t[0].xor(halo)
}

// mergeCells is geometry.mergeCells from the touch counts.
func (b *groupBook) mergeCells(colour int, empty bitset) bitset {
	return b.touch[colour][1].and(empty)
}

// nearBig returns the cells next to a group of colour with three or more
// stones: the only places where a merge by the other colour can split one.
func (b *groupBook) nearBig(colour int) bitset {
	return b.bigTouch[colour][0].or(b.bigTouch[colour][1])
}

// place records a placement at p by colour c flipping flips (before the
// state itself changes: s still shows the position before the move).
func (b *groupBook) place(s *State, c, p int, flips bitset) {
	g := s.geo
	if !flips.isEmpty() {
		// The split group gives way to its parts. The parts of a group
		// without holes have none: what a part could enclose is joined to
		// the edge by the rest of the board, the flipped chain and the
		// placement, as before.
		old := int(b.id[flips.first()])
		rest := b.grp[old].set.andNot(flips)
		hole := uint8(0)
		if b.grp[old].hole == 1 {
			hole = 1
		}
		b.drop(c^1, old)
		for !rest.isEmpty() {
			part, halo := g.component(rest.first(), rest)
			rest = rest.andNot(part)
			b.add(c^1, part, halo, hole)
		}
	}
	// The new stones and every own group they touch become one group,
	// kept under the id of the largest so that fewer stones are relabelled.
	added := flips.or(single(p))
	touch := g.dilate(added)
	set, halo := added, touch
	base, baseSize := -1, 0
	var ids bitset
	// Whether the new group has holes, by Euler's formula, while every group
	// it joins is known to have none (each then counts 1): each stone added
	// next to a arcs of the stones so far adds 1-a (a full ring 1).
	euler, known := 0, true
	for t := touch.and(s.stones[c]); !t.isEmpty(); {
		i := int(b.id[t.pop()])
		if ids.has(i) {
			continue
		}
		euler++
		known = known && b.grp[i].hole == 1
		ids = ids.or(single(i))
		set = set.or(b.grp[i].set)
		halo = halo.or(b.halo[i])
		if n := b.grp[i].set.count(); n > baseSize {
			base, baseSize = i, n
		}
	}
	hole := uint8(0)
	if known {
		so := s.stones[c]
		for a := added; !a.isEmpty(); {
			x := a.pop()
			if !g.nbr[x].subsetOf(so) || g.edge.has(x) {
				euler -= g.arcs(x, so)
			}
			euler++
			so = so.or(single(x))
		}
		if euler == 1 {
			hole = 1
		}
	}
	if base < 0 {
		b.add(c, set, halo, hole)
		return
	}
	relabel := set.andNot(b.grp[base].set)
	for ids = ids.andNot(single(base)); !ids.isEmpty(); {
		b.drop(c, ids.pop())
	}
	b.grp[base] = enemyGroup{set: set, hole: hole}
	uncountIn(&b.touch[c], b.halo[base])
	countIn(&b.touch[c], halo)
	if b.big[c].has(base) {
		uncountIn(&b.bigTouch[c], b.halo[base])
	}
	b.halo[base] = halo
	if set.count() >= 3 {
		b.big[c] = b.big[c].or(single(base))
		countIn(&b.bigTouch[c], halo)
		b.stale[c^1] = b.stale[c^1].or(halo) // the joined groups' cells are among these
	}
	for !relabel.isEmpty() {
		b.id[relabel.pop()] = uint8(base)
	}
}

// merges reports whether a stone of colour on the empty cell p would touch
// two or more of its groups: one cell's test, where mergeCells finds them
// all.
func (b *groupBook) merges(s *State, colour, p int) bool {
	n := s.geo.nbr[p].and(s.stones[colour])
	if n.isEmpty() {
		return false
	}
	return !n.andNot(b.grp[b.id[n.first()]].set).isEmpty()
}

// bookFlipSets returns the distinct flip sets of a merging placement at p
// (see chainSearch.splits), reading the enemy groups from the book. (The
// book is a parameter, not a field: escape analysis would send anything the
// recursive search can reach to the heap.)
func (cs *chainSearch) bookFlipSets(p int, b *groupBook) []bitset {
	cs.bookFind(p, b)
	return cs.result()
}

// bookFind is find reading the enemy groups from the book.
func (cs *chainSearch) bookFind(p int, b *groupBook) {
	var groups [3]enemyGroup // six neighbours hold at most three enemy groups
	n := 0
	for rest := cs.g.nbr[p].and(cs.opp); !rest.isEmpty(); {
		e := &b.grp[b.id[rest.first()]]
		rest = rest.andNot(e.set)
		if e.set.count() >= 3 {
			// Taking stones out of two or fewer leaves at most one part.
			cs.g.classify(e)
			groups[n] = *e
			n++
		}
	}
	cs.find(p, groups[:n])
}
