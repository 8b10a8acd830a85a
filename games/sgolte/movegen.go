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
// sets than that (never seen in random play: at most 66, on size 7) spill to
// the heap.
const maxSets = 128

// maxHoles is the most holes of a group that holedCut tells apart; a group
// with more (a lattice of single empty cells) is cut by flooding.
const maxHoles = 8

// outsideRegion is the bit of the outside in a set of regions (holedCut):
// the cells outside a group that reach the edge of the board, and the edge.
const outsideRegion = 1 << maxHoles

// maxPrefixes is the most chains of one length that chainSearch.deepen keeps
// to extend; with more it searches depth-first.
const maxPrefixes = 32

// prefixLimit is maxPrefixes; tests lower it to check the depth-first
// search against the breadth-first one.
var prefixLimit = maxPrefixes

// maxGroups bounds the enemy groups a search remembers; past it, groups are
// traced again each time. One stone from each group of a colour gives cells
// no two of which touch, at most about a third of the board (43 on size 7);
// random games of 1,500 a size had at most 16 on size 5 and 28 on size 7. A
// larger bound is a larger tracer to clear at every Legal.
const maxGroups = 32

// holeShortcut enables the arc test of chainSearch.cut; tests turn it off
// to check the flood-fill path against it.
var holeShortcut = true

// tracer is a chainSearch that traces the enemy groups itself, for Legal
// and Play, which have no playout's book. It remembers the groups it has
// traced, since neighbouring placements usually touch the same ones.
type tracer struct {
	chainSearch
	known    bitset // enemy stones whose group is in groups
	ngroups  int
	groups   [maxGroups]enemyGroup
	groupIdx [maxCells]uint8 // index in groups of each known stone
}

// init prepares t for the placements of the side to move in s.
func (t *tracer) init(s *State) *tracer {
	s.search(&t.chainSearch)
	t.known, t.ngroups = bitset{}, 0
	return t
}

// groupOf returns the enemy group holding stone c: traced and remembered in
// t.groups (or in spare when they are full).
func (t *tracer) groupOf(c int, spare *enemyGroup) *enemyGroup {
	if t.known.has(c) {
		return &t.groups[t.groupIdx[c]]
	}
	grp, _ := t.g.component(c, t.opp)
	if t.ngroups == maxGroups {
		*spare = enemyGroup{set: grp}
		return spare
	}
	for b := grp; !b.isEmpty(); {
		t.groupIdx[b.pop()] = uint8(t.ngroups)
	}
	t.known = t.known.or(grp)
	e := &t.groups[t.ngroups]
	*e = enemyGroup{set: grp}
	t.ngroups++
	return e
}

// flipSets returns the distinct flip sets of a merging placement at p, sorted
// by bitset.less (see chainSearch.find).
func (t *tracer) flipSets(p int) []bitset {
	var groups [3]enemyGroup // six neighbours hold at most three enemy groups
	var spare enemyGroup
	n := 0
	for rest := t.g.nbr[p].and(t.opp); !rest.isEmpty(); {
		e := t.groupOf(rest.first(), &spare)
		rest = rest.andNot(e.set)
		if e.set.count() >= 3 {
			// Taking stones out of two or fewer leaves at most one part.
			t.g.classify(e)
			groups[n] = *e
			n++
		}
	}
	t.find(p, groups[:n])
	return t.result()
}

func (s *State) Legal(dst []game.Move) []game.Move {
	if s.over() {
		return dst
	}
	n0 := len(dst)
	empty := s.empty()
	merges := s.geo.mergeCells(s.stones[s.toMove], empty)
	var t tracer
	t.init(s)
	for e := empty; !e.isEmpty(); {
		p := e.pop()
		if !merges.has(p) {
			dst = append(dst, game.Move(p))
			continue
		}
		sets := t.flipSets(p)
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
	var t tracer
	t.init(s)
	for m := merges; !m.isEmpty(); {
		if len(t.flipSets(m.pop())) > 0 {
			return true
		}
	}
	return false
}

func (s *State) Play(m game.Move) {
	switch m {
	case movePass:
		s.pass()
		return
	case moveSwap:
		s.swap()
		return
	}
	p := int(m & cellMask)
	var flips bitset
	if idx := int(m>>cellBits) - 1; idx >= 0 {
		var t tracer
		flips = t.init(s).flipSets(p)[idx]
	}
	s.place(p, flips)
}
