package agent

import (
	"sync"

	"github.com/tabula-games/tabula/game"
)

// arena is the storage a worker's tree grows in while it searches: the node
// and edge pools, the priors of progressive bias, the transposition table and
// the scratch of copying a subtree. A hard bot's arena grows to tens of MB,
// yet a bot needs it only while it thinks: a game spends most of its life
// waiting for the other side. So a worker takes an arena from a process-wide
// pool when its search begins and puts it back when its move is chosen,
// keeping between moves only the subtree it may reuse (searcher.idle). The
// pools keep their grown capacity from search to search, so a search
// allocates nothing to grow its tree once the process has warmed up, and a
// server holds about as many arenas as searches run at once, not one per
// game. A sync.Pool lets the collector take the arenas back when bots have
// stopped playing. Under a memory budget (WithBudget) a search reserves its
// arena's bytes when it takes it and each growth of its pools before
// making it (searcher.room), so the pools grow only as far as the budget
// lends.
type arena struct {
	nodes  []node
	edges  []edge
	priors []float32
	tt     *table
	// remap and order are copySubtree's scratch, indexed by source node.
	remap []int32
	order []int32
	// cut[i] says that the node at a.order[i] is copied without its edges,
	// as a leaf with its statistics: keptWithin left its children out to
	// keep the subtree within its bytes. Empty when nothing is cut.
	cut []bool
}

var arenas sync.Pool

// bytes is the arena's memory: its pools' capacities (with the scratch of
// copying a subtree, which never outgrows the node pool) and its table.
func (a *arena) bytes() int64 {
	b := int64(cap(a.nodes))*(nodeBytes+scratchBytes) + int64(cap(a.edges))*edgeBytes + int64(cap(a.priors))*priorBytes
	if a.tt != nil {
		b += int64(len(a.tt.keys)) * entryBytes
	}
	return b
}

// putArena gives a back to the pool; its user must hold no slice of it.
func putArena(a *arena) { arenas.Put(a) }

// subtree lists the nodes reachable from r in the tree (srcN, srcE)
// breadth-first, in edge order, each once (the table makes the tree a DAG),
// into a.order, sets a.remap[old] to each one's index in the copy (-1 for the
// others), and returns how many edges they have. copySubtree then writes them.
func (a *arena) subtree(srcN []node, srcE []edge, k *kept, r int32) (edges int) {
	a.startList(len(srcN), r)
	a.cut = a.cut[:0]
	for i := 0; i < len(a.order); i++ {
		nd := &srcN[a.order[i]]
		if nd.first < 0 {
			continue
		}
		edges += int(nd.nedges)
		for _, e := range srcE[nd.first : nd.first+k.stored(nd, a.order[i])] {
			if e.to >= 0 && a.remap[e.to] < 0 {
				a.remap[e.to] = int32(len(a.order))
				a.order = append(a.order, e.to)
			}
		}
	}
	return edges
}

// startList begins a list of the subtree of r in a tree of n nodes: r alone
// in a.order, every other node unlisted in a.remap.
func (a *arena) startList(n int, r int32) {
	if cap(a.remap) < n {
		a.remap = make([]int32, n)
	}
	a.remap = a.remap[:n]
	for i := range a.remap {
		a.remap[i] = -1
	}
	a.order = append(a.order[:0], r)
	a.remap[r] = 0
}

// copySubtree appends the subtree a.subtree listed to the pools (nodes,
// edges, priors), its root first, and returns them. Every node's edges stay
// contiguous and in their order, so the copy searches on exactly as the
// original would have. srcP (the priors) may be nil; k describes a source
// kept between moves (nil for a whole tree).
func (a *arena) copySubtree(nodes []node, edges []edge, priors []float32, srcN []node, srcE []edge, k *kept, srcP []float32) ([]node, []edge, []float32) {
	base := int32(len(nodes))
	for i, o := range a.order {
		nd := srcN[o]
		if a.isCut(i) {
			nd.first, nd.nedges, nd.partial = -1, 0, false
		}
		if nd.first >= 0 {
			first := int32(len(edges))
			for _, e := range srcE[nd.first : nd.first+k.stored(&nd, o)] {
				if e.to >= 0 {
					e.to = base + a.remap[e.to]
				}
				edges = append(edges, e)
			}
			for _, m := range k.untried(&nd, o) {
				edges = append(edges, edge{move: m, to: -1})
			}
			if srcP != nil {
				priors = append(priors, srcP[nd.first:nd.first+int32(nd.nedges)]...)
			}
			nd.first = first
		}
		nodes = append(nodes, nd)
	}
	nodes[base].mover = -1
	return nodes, edges, priors
}

// kept is how a worker stores the subtree it keeps between moves without
// the edges the search never tried, which are most of them (a Skjuub
// position has about fifteen moves, and the search tries a few): for each
// node the edges up to the last one the search touched are kept whole, and
// of the others, which are as expand made them, only the move.
type kept struct {
	touched []uint16    // touched[i]: node i's edges kept whole
	rest    []game.Move // the moves of the other edges, node after node
	rfirst  []int32     // rfirst[i]: node i's first move in rest
}

// stored is how many of node i's edges are in the edge pool: all of them
// in a whole tree (k nil).
func (k *kept) stored(nd *node, i int32) int32 {
	if k == nil {
		return int32(nd.nedges)
	}
	return int32(k.touched[i])
}

// untried is the moves of node i's edges that are not in the edge pool.
func (k *kept) untried(nd *node, i int32) []game.Move {
	if k == nil || nd.first < 0 {
		return nil
	}
	f := k.rfirst[i]
	return k.rest[f : f+int32(nd.nedges)-int32(k.touched[i])]
}

// keptSize is how many edges of the subtree a.subtree listed keep copies
// whole (touched) and how many it stores by their move only (rest).
func (a *arena) keptSize(srcN []node, srcE []edge) (touched, rest int) {
	for i, o := range a.order {
		if nd := &srcN[o]; nd.first >= 0 && !a.isCut(i) {
			t := touchedPrefix(srcE[nd.first : nd.first+int32(nd.nedges)])
			touched += t
			rest += int(nd.nedges) - t
		}
	}
	return touched, rest
}

// keptBytes is the memory of a subtree kept between moves: its nodes, its
// touched edges, its other edges' moves and two indexes a node (kept).
func keptBytes(nodes, touched, rest int) int64 {
	return int64(nodes)*keptNodeBytes + int64(touched)*edgeBytes + int64(rest)*moveBytes
}

// keptNodeBytes is a kept node with its two indexes (kept.touched and
// kept.rfirst).
const keptNodeBytes = nodeBytes + 2 + 4

// keep copies the subtree a.subtree listed out of the arena's tree (srcN,
// srcE) into pools of its own, exactly sized (ne touched edges and nr
// others, as keptSize counted), storing untried edges by their move only.
func (a *arena) keep(srcN []node, srcE []edge, ne, nr int) ([]node, []edge, *kept) {
	nodes := make([]node, 0, len(a.order))
	edges := make([]edge, 0, ne)
	k := &kept{touched: make([]uint16, len(a.order)), rest: make([]game.Move, 0, nr), rfirst: make([]int32, len(a.order))}
	for i, o := range a.order {
		nd := srcN[o]
		k.rfirst[i] = int32(len(k.rest))
		if a.isCut(i) {
			nd.first, nd.nedges, nd.partial = -1, 0, false
		}
		if nd.first >= 0 {
			es := srcE[nd.first : nd.first+int32(nd.nedges)]
			t := touchedPrefix(es)
			nd.first = int32(len(edges))
			for _, e := range es[:t] {
				if e.to >= 0 {
					e.to = a.remap[e.to]
				}
				edges = append(edges, e)
			}
			for _, e := range es[t:] {
				k.rest = append(k.rest, e.move)
			}
			k.touched[i] = uint16(t)
		}
		nodes = append(nodes, nd)
	}
	nodes[0].mover = -1
	return nodes, edges, k
}

// touchedPrefix is how many of es run up to the last edge the search has
// touched; the edges after it are as expand made them.
func touchedPrefix(es []edge) int {
	for t := len(es); t > 0; t-- {
		if e := es[t-1]; e != (edge{move: e.move, to: -1}) {
			return t
		}
	}
	return 0
}

// isCut reports whether the node at a.order[i] is to be copied as a leaf.
func (a *arena) isCut(i int) bool { return i < len(a.cut) && a.cut[i] }

// keptWithin lists the subtree of r as subtree does, breadth-first, but only
// as much of it as fits in limit bytes: a node whose edges and new children
// would pass the limit is kept as a leaf (a.cut), with its visits and mean,
// and the search that reaches it again expands it afresh. Breadth-first
// keeps what the next search uses most — the root's replies and theirs,
// which hold most of the visits — and every node listed is reachable from r
// through nodes that are not cut. nodeCost is what one node kept costs,
// edgeCost what a node's edges do; it returns the bytes listed.
func (a *arena) keptWithin(srcN []node, srcE []edge, r int32, limit, nodeCost int64, edgeCost func([]edge) int64) int64 {
	a.startList(len(srcN), r)
	a.cut = append(a.cut[:0], false)
	size := nodeCost
	for i := 0; i < len(a.order); i++ {
		nd := &srcN[a.order[i]]
		if nd.first < 0 {
			continue
		}
		es := srcE[nd.first : nd.first+int32(nd.nedges)]
		grow := edgeCost(es)
		for _, e := range es {
			if e.to >= 0 && a.remap[e.to] < 0 {
				grow += nodeCost
				a.remap[e.to] = -2 // counted once, though two edges lead to it
			}
		}
		if size+grow > limit {
			a.cut[i] = true
			for _, e := range es {
				if e.to >= 0 && a.remap[e.to] == -2 {
					a.remap[e.to] = -1
				}
			}
			continue
		}
		size += grow
		for _, e := range es {
			if e.to >= 0 && a.remap[e.to] == -2 {
				a.remap[e.to] = int32(len(a.order))
				a.order = append(a.order, e.to)
				a.cut = append(a.cut, false)
			}
		}
	}
	return size
}
