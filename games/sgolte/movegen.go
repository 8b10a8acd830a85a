package sgolte

import "github.com/tabula-games/tabula/game"

// Move numbers. A placement is its cell in the low 7 bits; a merging
// placement adds 1 + the index of its flip set in the sorted list of that
// placement's flip sets (bitset.less order), so that Play can find the set
// again by regenerating the sets of that one cell. Plain placements, which
// are most moves, cost Play nothing extra.
const (
	cellBits           = 7
	cellMask           = 1<<cellBits - 1
	movePass game.Move = 1 << 30
	moveSwap game.Move = 1<<30 | 1
)

// maxSets is the room for one placement's flip sets kept on the stack; more
// sets than that (never seen in random play) spill to the heap.
const maxSets = 128

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

// maxGroups bounds the enemy groups a search remembers; past it, groups are
// traced again each time. One stone from each group of a colour gives cells
// no two of which touch, at most about a third of the board (43 on size 7),
// so the bound is not reached.
const maxGroups = 64

// chainSearch finds the flip sets of the merging placements of one
// position. It remembers the enemy groups it has traced, since neighbouring
// placements usually touch the same ones. It keeps its results in an array
// rather than a slice so that it can live on the caller's stack: the search
// is recursive, and escape analysis would move any buffer a recursive
// method appends to onto the heap.
type chainSearch struct {
	g             *geometry
	opp           bitset // the enemy stones
	minflip, cont uint8
	mover         uint8  // the colour to move
	known         bitset // enemy stones whose group is in groups
	ngroups       int
	groups        [maxGroups]enemyGroup
	groupIdx      [maxCells]uint8 // index in groups of each known stone
	local         bool            // the group searched now has no hole
	n             int
	buf           [maxSets]bitset
	spill         []bitset // the sets past maxSets, on the heap (never seen in play)
}

// holeShortcut enables the arc test of chainSearch.cut; tests turn it off
// to check the flood-fill path against it.
var holeShortcut = true

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
	cs.known, cs.ngroups = bitset{}, 0
	return cs
}

// groupOf returns the enemy group holding stone c: traced and remembered in
// cs.groups (or in spare when they are full).
func (cs *chainSearch) groupOf(c int, spare *enemyGroup) *enemyGroup {
	if cs.known.has(c) {
		return &cs.groups[cs.groupIdx[c]]
	}
	grp, _ := cs.g.component(c, cs.opp)
	if cs.ngroups == maxGroups {
		*spare = enemyGroup{set: grp}
		return spare
	}
	for b := grp; !b.isEmpty(); {
		cs.groupIdx[b.pop()] = uint8(cs.ngroups)
	}
	cs.known = cs.known.or(grp)
	e := &cs.groups[cs.ngroups]
	*e = enemyGroup{set: grp}
	cs.ngroups++
	return e
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

// flipSets returns the distinct flip sets of a merging placement at p,
// sorted by bitset.less. An empty result means the placement is illegal.
// The result lives in cs until its next use.
func (cs *chainSearch) flipSets(p int) []bitset { return cs.flipSetsIn(p, nil) }

// flipSetsIn is flipSets reading the enemy groups from a playout's book,
// when there is one. (The book is a parameter, not a field: escape
// analysis would send anything the recursive search can reach to the heap.)
func (cs *chainSearch) flipSetsIn(p int, book *groupBook) []bitset {
	g := cs.g
	cs.n, cs.spill = 0, nil
	var groups [3]enemyGroup // six neighbours hold at most three enemy groups
	var spare enemyGroup
	n := 0
	for rest := g.nbr[p].and(cs.opp); !rest.isEmpty(); {
		var e *enemyGroup
		if book != nil {
			e = &book.grp[book.id[rest.first()]]
		} else {
			e = cs.groupOf(rest.first(), &spare)
		}
		rest = rest.andNot(e.set)
		if e.set.count() >= 3 {
			// Taking stones out of two or fewer leaves at most one part.
			g.classify(e)
			groups[n] = *e
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if cs.minflip == minGlobal {
		// All groups at once: the first length at which any group splits
		// is the fewest flips.
		cs.deepen(groups[:n], p)
	} else {
		for i := 0; i < n; i++ {
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

func (s *State) Legal(dst []game.Move) []game.Move {
	if s.over() {
		return dst
	}
	n0 := len(dst)
	empty := s.empty()
	merges := s.geo.mergeCells(s.stones[s.toMove], empty)
	cs := s.search(new(chainSearch))
	for e := empty; !e.isEmpty(); {
		p := e.pop()
		if !merges.has(p) {
			dst = append(dst, game.Move(p))
			continue
		}
		sets := cs.flipSets(p)
		for i := range sets {
			dst = append(dst, game.Move(p|(i+1)<<cellBits))
		}
	}
	if s.pie == piePending && s.toMove == white {
		dst = append(dst, moveSwap)
	}
	if len(dst) == n0 {
		dst = append(dst, movePass)
	}
	return dst
}

// hasPlacement reports whether the side to move has a legal placement.
func (s *State) hasPlacement() bool {
	empty := s.empty()
	merges := s.geo.mergeCells(s.stones[s.toMove], empty)
	if !empty.andNot(merges).isEmpty() {
		return true
	}
	cs := s.search(new(chainSearch))
	for m := merges; !m.isEmpty(); {
		if len(cs.flipSets(m.pop())) > 0 {
			return true
		}
	}
	return false
}

func (s *State) Play(m game.Move) {
	switch m {
	case movePass:
		s.setPasses(s.passes + 1)
		s.toMove ^= 1
		s.hash ^= zWhite
		return
	case moveSwap:
		// The board stays; the seats exchange colours and White, now the
		// first player, moves on.
		s.swapped = !s.swapped
		s.hash ^= zSwapped
		s.setPie(pieDone)
		return
	}
	p := int(m & cellMask)
	var flips bitset
	if idx := int(m>>cellBits) - 1; idx >= 0 {
		flips = s.search(new(chainSearch)).flipSets(p)[idx]
	}
	s.place(p, flips)
}

// place puts a stone of the side to move on p and flips the enemy stones in
// flips.
func (s *State) place(p int, flips bitset) {
	c := int(s.toMove)
	s.stones[c] = s.stones[c].or(single(p)).or(flips)
	s.stones[c^1] = s.stones[c^1].andNot(flips)
	h := s.hash ^ zStone[c][p] ^ zWhite
	for f := flips; !f.isEmpty(); {
		i := f.pop()
		h ^= zStone[0][i] ^ zStone[1][i]
	}
	s.hash = h
	s.placed++
	if s.passes != 0 {
		s.setPasses(0)
	}
	if s.pie == piePending && c == white {
		s.setPie(pieDone)
	}
	s.toMove ^= 1
}

func (s *State) setPasses(n uint8) {
	s.hash ^= zPasses[s.passes] ^ zPasses[n]
	s.passes = n
}

func (s *State) setPie(p uint8) {
	s.hash ^= zPie[s.pie] ^ zPie[p]
	s.pie = p
}
