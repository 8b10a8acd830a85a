package sgolte

type shiftMask struct {
	by   uint
	mask bitset
}

// step returns the cells whose forward step-d neighbour is in set.
func (g *geometry) step(d int, set bitset) bitset {
	var out bitset
	for _, sm := range g.fwd[d] {
		out = out.or(set.shr(sm.by).and(sm.mask))
	}
	return out
}

// holeFree reports whether a group encloses nothing: no cell outside it is
// cut off from the edge of the board by it. By Euler's formula for the
// triangles of the cell lattice, a connected group has
// cells - links + triangles = 1 - holes.
func (g *geometry) holeFree(grp bitset) bool {
	e0, e1, e2 := g.step(0, grp).and(grp), g.step(1, grp).and(grp), g.step(2, grp).and(grp)
	links := e0.count() + e1.count() + e2.count()
	triangles := e0.and(e1).count() + e1.and(e2).count()
	return grp.count()-links+triangles == 1
}

// enclosed returns the cells outside grp that grp cuts off from the edge of
// the board: its holes.
func (g *geometry) enclosed(grp bitset) bitset {
	free := g.all.andNot(grp)
	reach := free.and(g.edge)
	for {
		// Whole frontiers at a time: the cells outside a group are many,
		// and few steps from the edge.
		next := g.spread(reach).and(free)
		if next == reach {
			return free.andNot(reach)
		}
		reach = next
	}
}

// spread returns set with every cell next to it.
func (g *geometry) spread(set bitset) bitset {
	out := set
	for d := range g.fwd {
		for _, sm := range g.fwd[d] {
			out = out.or(set.shr(sm.by).and(sm.mask)).or(set.and(sm.mask).shl(sm.by))
		}
	}
	return out
}

// dilate returns the cells next to any cell of set.
func (g *geometry) dilate(set bitset) bitset {
	var out bitset
	for !set.isEmpty() {
		out = out.or(g.nbr[set.pop()])
	}
	return out
}

// component returns the connected part of within that contains seed, and
// the cells next to it. It takes one cell at a time off a work set rather
// than dilating whole frontiers: groups are small, and this loop has no
// calls in it.
func (g *geometry) component(seed int, within bitset) (comp, halo bitset) {
	comp = single(seed)
	work := comp
	for !work.isEmpty() {
		nb := g.nbr[work.pop()]
		halo = halo.or(nb)
		add := nb.and(within).andNot(comp)
		comp = comp.or(add)
		work = work.or(add)
	}
	return comp, halo
}

// reachesAll reports whether the connected part of within around seed
// contains every cell of targets; it stops as soon as it does.
func (g *geometry) reachesAll(seed int, within, targets bitset) bool {
	comp := single(seed)
	work := comp
	for !work.isEmpty() {
		add := g.nbr[work.pop()].and(within).andNot(comp)
		if add.isEmpty() {
			continue
		}
		comp = comp.or(add)
		if targets.subsetOf(comp) {
			return true
		}
		work = work.or(add)
	}
	return targets.subsetOf(comp)
}

// isCut reports whether taking cell c out of set (which holds c) splits the
// connected part of set around c into two or more parts.
//
// When that part encloses no hole, a cheaper exact test exists (see
// chainSearch.cut): two neighbours on different arcs around c could only
// be joined by a path that, with c, encircles the cells between the arcs.
func (g *geometry) isCut(c int, set bitset) bool {
	nb := g.nbr[c].and(set)
	if k := nb.count(); k <= 1 || k >= 5 {
		// No neighbour left behind, one, or all but one around c: they
		// cannot fall apart.
		return false
	}
	if g.arcs(c, set) <= 1 {
		// The neighbours left behind touch each other around c.
		return false
	}
	return !g.reachesAll(nb.first(), set.andNot(single(c)), nb)
}

// mergeCells returns the empty cells next to two or more distinct groups of
// own: the placements that trigger a split.
func (g *geometry) mergeCells(own, empty bitset) bitset {
	var once, twice bitset
	for rest := own; !rest.isEmpty(); {
		grp, halo := g.component(rest.first(), own)
		rest = rest.andNot(grp)
		h := halo.and(empty)
		twice = twice.or(once.and(h))
		once = once.or(h)
	}
	return twice
}
