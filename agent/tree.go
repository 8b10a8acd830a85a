package agent

import (
	"cmp"
	"context"
	"math"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/internal/hugepages"
)

// The search tree is two flat pools, nodes (positions) and edges (moves),
// indexed by int32: no pointers for the garbage collector to chase, nothing
// allocated per iteration. A node's edges are contiguous. With the
// transposition table, edges from different parents may lead to one node,
// so a position reached by two move orders shares its statistics (the tree
// becomes a DAG; selection then uses the node's mean for exploitation and
// the edge's own visits for exploration, as in Childs, Brodeur and Kocsis,
// "Transpositions and move groups in Monte Carlo tree search", 2008).

// node is one position of the tree.
type node struct {
	hash   uint64 // the position's hash, to rebuild the table after a re-root
	first  int32  // first edge, or -1 while unexpanded
	nedges uint16
	mover  int8 // the seat whose move led here; its rewards are averaged
	// partial says that the node's edges are the first nedges of its
	// moves in their shuffled order, not all of them (widen adds more).
	partial bool
	visits  uint32
	mean    float32 // mover's average reward
	// mm is the minimax value for seat 0, in [0,1], of the heuristic
	// evaluations below (MCTSConfig.Minimax; zero otherwise).
	mm float32
}

// edge is one move from a node.
type edge struct {
	move game.Move
	to   int32 // the node it leads to, or -1 until first taken
	// visits counts the passes through this edge; invSqrt = 1/√visits is
	// kept up to date on backpropagation so that selection, which scans
	// every edge, is one multiply-add per edge.
	visits  uint32
	invSqrt float32
}

// step is one edge taken and the node it reached.
type step struct{ edge, node int32 }

// maxDescent bounds one descent, in case a game lets a position repeat
// within the tree (the table would then make a cycle).
const maxDescent = 1000

// searcher is one worker's tree and scratch space. While it searches its
// pools are those of an arena (ar); between the moves of a game it holds only
// the subtree it may reuse, in pools of their own (idle).
type searcher struct {
	cfg   *MCTSConfig
	rng   game.RNG
	nodes []node
	edges []edge
	// priors[i] is the game's heuristic value of edges[i]'s move for its
	// mover, in [0,1], when progressive bias is on (MCTSConfig.Bias); nil
	// otherwise.
	priors []float32
	tt     *table
	ar     *arena // the arena the pools are in while searching, else nil
	// budget is what the search reserves its memory from (nil: none);
	// arenaHold is the arena's reservation, keptHold that of the subtree
	// kept between moves. degraded says that the budget refused the
	// search something (a growth of its tree, its table, keeping its
	// subtree), full that it refused a growth: the tree grows no more.
	budget              Budget
	arenaHold, keptHold hold
	degraded, full      bool
	root                int32
	// block, when set, replaces firstEdges (tests).
	block int
	// edgesOut says that the edge pool refused a widening in this search:
	// no node is widened again until the next (each try lists its moves).
	edgesOut bool
	// salt seeds, with a node's hash, the order of the node's moves
	// (movesOf); drawn once, so that a subtree kept between moves widens
	// as it would have.
	salt    uint64
	rootPos game.State // the position the tree's root stands for
	// rootPly is how many plies rootPos is below the root of the last
	// search (1 when idle kept the subtree of the move played), so that
	// reuse looks as far below that search's root as it always has.
	rootPly int
	findPos [reuseDepth]game.State // find's scratch, one per depth
	// kept describes the tree between moves when idle stored it without
	// its untried edges (nil while searching, and with progressive bias,
	// whose priors are kept for every edge).
	kept    *kept
	scratch game.State
	probe   game.State // for the heuristic priors of progressive bias
	buf     []game.Move
	path    []step
	rewards [game.MaxPlayers]float64
	iters   int
	reused  int
	plies   int // playout cut-off for this search (≤ 0: to the end)
	me      int // the seat searching, for contempt
	// exchange and contact say that this search scores positions with the
	// game's ExchangeEvaluator (MCTSConfig.seeksExchanges) or its
	// ContactEvaluator (MCTSConfig.seeksContact).
	exchange, contact bool
	// stall is the stall horizon in turns (0: none); rootSig and rootTurns
	// the root's progress, quiet the turns the game had already gone
	// without progress when the search began (game.Progress).
	stall     int
	repeats   bool    // score repeated positions as draws (game.Repetition)
	contempt  float64 // what a draw costs the searching seat (MCTSConfig.Contempt)
	rootSig   uint64
	rootTurns int
	quiet     int
}

// search searches s until ctx ends, the deadline passes or, with iters >
// 0, the worker has made iters iterations.
func (w *searcher) search(ctx context.Context, s game.State, deadline time.Time, iters int) {
	w.begin(s)
	w.run(ctx, s, deadline, iters)
}

// begin prepares a search of s: the root (a reused subtree or a fresh
// tree), the table, the scratch state and the counters.
func (w *searcher) begin(s game.State) {
	w.iters, w.reused, w.edgesOut = 0, 0, false
	w.me = s.ToMove()
	stalled := halfStalled(s, w.cfg.Stall, w.quiet)
	w.exchange = w.cfg.seeksExchanges(s, w.me, stalled)
	w.contact = w.cfg.seeksContact(s, w.me, stalled)
	w.plies = w.cfg.PlayoutPlies
	if h, ok := s.(game.SearchHints); ok && w.plies == 0 {
		w.plies = h.PlayoutPlies()
	}
	w.contempt = max(w.cfg.Contempt, 0)
	if c, ok := s.(game.DrawContempt); ok && w.cfg.Contempt == 0 {
		w.contempt = c.SearchContempt()
	}
	_, rep := s.(game.Repetition)
	w.repeats = rep && !w.cfg.NoRepetition
	w.stall = 0
	if p, ok := s.(game.Progress); ok && w.cfg.Stall >= 0 {
		w.stall = w.cfg.Stall
		if w.stall == 0 {
			w.stall = p.StallTurns()
		}
		w.rootSig, w.rootTurns = p.Progress()
	}
	w.prepareRoot(s)
	if w.scratch == nil {
		w.scratch = s.Clone()
	}
}

// run iterates on the tree begin prepared for s until ctx is done, the
// deadline passes (zero: none) or w.iters reaches limit (0: none). It may be
// called again to search on: the analysis board searches in slices.
func (w *searcher) run(ctx context.Context, s game.State, deadline time.Time, limit int) {
	n := s.NumPlayers()
	for start := w.iters; ; {
		if (w.iters-start)&(checkEvery-1) == 0 && w.iters > start {
			if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				return
			}
		}
		if limit > 0 && w.iters >= limit {
			return
		}
		w.iterate(s, n)
		w.iters++
	}
}

// prepareRoot reuses the subtree for s when s is a few plies below the
// previous root, and otherwise starts a fresh tree.
func (w *searcher) prepareRoot(s game.State) {
	if !w.cfg.NoReuse && w.rootPos != nil && len(w.nodes) > 0 {
		if r := w.find(w.root, w.rootPos, s, reuseDepth-w.rootPly); r >= 0 && w.reroot(r) {
			w.rootPos.CopyFrom(s)
			w.widenTo(w.root, s, true) // a root has all its moves
			w.rootPly = 0
			w.reused = int(w.nodes[0].visits)
			return
		}
	}
	w.acquire()
	w.keptHold.release() // what was kept, if anything, is not reused
	w.nodes = append(w.nodes[:0], node{hash: s.Hash(), first: -1, mover: -1})
	w.edges, w.priors = w.edges[:0], w.priors[:0]
	w.root, w.rootPly = 0, 0
	if w.tt != nil {
		w.tt.clear()
		w.tt.put(s.Hash(), 0)
	}
	if w.rootPos == nil {
		w.rootPos = s.Clone()
	} else {
		w.rootPos.CopyFrom(s)
	}
}

// acquire makes the worker's pools an arena's, taking one from the pool
// unless it holds one (an analysis keeps its arena for its whole life).
// Whatever the worker held between moves is left for the caller to read.
//
// The arena's memory is reserved from the worker's budget: an arena from
// the pool larger than the budget lends now is left to the collector for a
// new, empty one, and a table the budget cannot lend is done without (the
// search then shares no transpositions). The pools then grow by
// reservations too (room).
func (w *searcher) acquire() {
	if w.ar != nil {
		return
	}
	w.degraded, w.full = false, false
	a, _ := arenas.Get().(*arena)
	if a == nil {
		a = &arena{}
	}
	table := !w.cfg.NoTT
	if a.tt != nil && (!table || len(a.tt.keys) != tableSize(w.cfg.MaxNodes)) {
		a.tt = nil // not the table this search wants: it would only be held
	}
	if !w.arenaHold.take(w.budget, a.bytes(), false) {
		a = &arena{}
		w.arenaHold.take(w.budget, 0, false)
		w.degraded = true
	}
	if table && a.tt == nil {
		if w.arenaHold.grow(int64(tableSize(w.cfg.MaxNodes)) * entryBytes) {
			a.tt = newTable(w.cfg.MaxNodes)
		} else {
			w.degraded = true
		}
	}
	w.ar = a
	w.nodes, w.edges, w.priors, w.kept = a.nodes[:0], a.edges[:0], a.priors[:0], nil
	w.tt = a.tt
}

// room makes the pools able to hold nodes nodes and edges edges without
// growing as they are appended to, and reports whether they can: within
// MCTSConfig.MaxNodes (four edges a node), and within what the budget
// lends. A pool grows to twice its size, or to what is asked, each growth
// reserved before it is made; once the budget has refused one, the search
// grows no more (the tree is full, as at MaxNodes: it is searched on
// without growing). The first minNodes nodes are grown even when the
// budget refuses them, unreserved, so that a search always has a tree.
func (w *searcher) room(nodes, edges int) bool {
	nc, ec := cap(w.nodes), cap(w.edges)
	if nodes <= nc && edges <= ec && (w.cfg.Bias <= 0 || edges <= cap(w.priors)) {
		return true
	}
	if w.full || nodes > w.cfg.MaxNodes || edges > 4*w.cfg.MaxNodes {
		return false
	}
	nn, ne := nc, ec
	if nodes > nc {
		nn = min(max(2*nc, nodes, minGrow), w.cfg.MaxNodes)
	}
	if edges > ec {
		ne = min(max(2*ec, edges, 4*minGrow), 4*w.cfg.MaxNodes)
	}
	np := cap(w.priors)
	if w.cfg.Bias > 0 {
		np = max(np, ne)
	}
	delta := int64(nn-nc)*(nodeBytes+scratchBytes) + int64(ne-ec)*edgeBytes + int64(np-cap(w.priors))*priorBytes
	if !w.arenaHold.grow(delta) {
		w.degraded = true
		if nn > minNodes || ne > 4*minNodes {
			w.full = true
			return false
		}
	}
	// The pools are read at random, a node and its edges at every step of
	// every descent: 2 MiB pages spare most of those reads a TLB miss, and a
	// growing pool a page fault every 4 KiB (docs/ai.md).
	if nn > nc {
		w.nodes = append(hugepages.Advise(make([]node, 0, nn)), w.nodes...)
	}
	if ne > ec {
		w.edges = append(hugepages.Advise(make([]edge, 0, ne)), w.edges...)
	}
	if np > cap(w.priors) {
		w.priors = append(make([]float32, 0, np), w.priors...)
	}
	return true
}

// release gives the arena back to the pool, keeping no slice of it, and
// its bytes back to the budget.
func (w *searcher) release() {
	if w.ar == nil {
		return
	}
	w.ar.nodes, w.ar.edges, w.ar.priors = w.nodes[:0], w.edges[:0], w.priors[:0]
	putArena(w.ar)
	w.arenaHold.release()
	w.ar, w.tt = nil, nil
	w.nodes, w.edges, w.priors = nil, nil, nil
}

// rest lets go of everything the worker holds between moves — its arena
// if it kept one, the subtree it kept — so that its next search starts a
// fresh tree.
func (w *searcher) rest() {
	w.release()
	w.keptHold.release()
	w.nodes, w.edges, w.priors, w.kept, w.root = nil, nil, nil, nil, 0
}

// idle is what the worker keeps once the agent has chosen mv in s, the
// position its tree's root stands for: the subtree of mv (every reply of
// the opponent the search looked at), copied out of the arena, which goes
// back to the pool. The next search finds the position reached below it
// exactly as it would have below the whole tree — reuse looks no deeper and
// keeps the same subtree — so the bot plays the same moves and holds only a
// part of its tree while it waits.
func (w *searcher) idle(mv game.Move, s game.State) {
	if w.ar == nil {
		return
	}
	keep := int32(-1)
	if r := &w.nodes[w.root]; r.first >= 0 && !w.cfg.NoReuse && s != nil {
		for _, e := range w.edges[r.first : r.first+int32(r.nedges)] {
			if e.move == mv {
				keep = e.to
			}
		}
	}
	var nodes []node
	var edges []edge
	var priors []float32
	var k *kept
	w.keptHold.release()
	if keep >= 0 {
		// The subtree is reserved from the budget as kept; when it does
		// not fit, nothing is kept and the next search starts afresh. It
		// is kept within the config's bytes (keepBytes): below that, the
		// nodes whose children would pass it are kept as leaves.
		withPriors := w.priors != nil && len(w.priors) == len(w.edges) && w.cfg.Bias > 0
		var size int64
		var ne, touched, rest int
		if withPriors {
			size = w.ar.keptWithin(w.nodes, w.edges, keep, w.cfg.keepBytes(), nodeBytes, func(es []edge) int64 {
				return int64(len(es)) * (edgeBytes + priorBytes)
			})
			ne = int((size - int64(len(w.ar.order))*nodeBytes) / (edgeBytes + priorBytes))
		} else {
			size = w.ar.keptWithin(w.nodes, w.edges, keep, w.cfg.keepBytes(), keptNodeBytes, func(es []edge) int64 {
				t := touchedPrefix(es)
				return int64(t)*edgeBytes + int64(len(es)-t)*moveBytes
			})
			touched, rest = w.ar.keptSize(w.nodes, w.edges)
		}
		switch {
		case !w.keptHold.take(w.budget, size, true):
			w.degraded = true
		case withPriors:
			nodes = make([]node, 0, len(w.ar.order))
			edges = make([]edge, 0, ne)
			priors = make([]float32, 0, ne)
			nodes, edges, priors = w.ar.copySubtree(nodes, edges, priors, w.nodes, w.edges, nil, w.priors)
		default:
			nodes, edges, k = w.ar.keep(w.nodes, w.edges, touched, rest)
		}
		if nodes != nil {
			w.rootPos.CopyFrom(s)
			w.rootPos.Play(mv)
		}
	}
	w.release()
	w.nodes, w.edges, w.priors, w.kept, w.root, w.rootPly = nodes, edges, priors, k, 0, 1
}

// reroot makes node r of the tree the worker kept between moves the root of
// a tree in a fresh arena: r's subtree, copied breadth-first, and the table
// rebuilt from it. It reports false, with the arena taken and nothing
// copied, when the tree kept is larger than the arena the budget lent.
func (w *searcher) reroot(r int32) bool {
	srcN, srcE, srcP, k := w.nodes, w.edges, w.priors, w.kept
	// A worker whose last search ended without idle still holds its
	// arena, and the tree it keeps is in it: copy into another.
	held, heldHold := w.ar, w.arenaHold
	w.ar, w.arenaHold = nil, hold{}
	w.acquire()
	defer heldHold.release()
	edges := len(srcE)
	if k != nil {
		edges += len(k.rest)
	}
	if !w.room(len(srcN), edges) {
		if held != nil {
			held.nodes, held.edges, held.priors = srcN[:0], srcE[:0], srcP[:0]
			putArena(held)
		}
		return false
	}
	w.ar.subtree(srcN, srcE, k, r)
	if w.cfg.Bias <= 0 || len(srcP) != len(srcE) {
		srcP = nil
	}
	w.nodes, w.edges, w.priors = w.ar.copySubtree(w.nodes[:0], w.edges[:0], w.priors[:0], srcN, srcE, k, srcP)
	w.kept = nil
	w.keptHold.release()
	if held != nil {
		held.nodes, held.edges, held.priors = srcN[:0], srcE[:0], srcP[:0]
		putArena(held)
	}
	w.root = 0
	if w.tt != nil {
		w.tt.clear()
		for i, nd := range w.nodes {
			w.tt.put(nd.hash, int32(i))
		}
	}
	return true
}

// find looks below node n (standing for position at) for a node whose
// position equals target, comparing hashes, up to depth plies down.
func (w *searcher) find(n int32, at, target game.State, depth int) int32 {
	if at.Hash() == target.Hash() && at.ToMove() == target.ToMove() {
		return n
	}
	nd := w.nodes[n]
	if depth == 0 || nd.first < 0 {
		return -1
	}
	if w.findPos[depth-1] == nil {
		w.findPos[depth-1] = at.Clone()
	}
	child := w.findPos[depth-1]
	for _, e := range w.edges[nd.first : nd.first+w.kept.stored(&nd, n)] {
		if e.to < 0 {
			continue
		}
		child.CopyFrom(at)
		child.Play(e.move)
		if r := w.find(e.to, child, target, depth-1); r >= 0 {
			return r
		}
	}
	return -1
}

// iterate runs one selection–expansion–playout–backpropagation pass.
func (w *searcher) iterate(root game.State, n int) {
	s := w.scratch
	s.CopyFrom(root)
	w.path = append(w.path[:0], step{-1, w.root})
	cur := w.root
	repeated := false
	for depth := 0; depth < maxDescent; depth++ {
		if s.Outcome().Over() {
			break
		}
		nd := &w.nodes[cur]
		if nd.first < 0 {
			if nd.visits == 0 && cur != w.root {
				break // a new leaf: play out from here first
			}
			if !w.expand(cur, s) {
				break // the pools are full: play out from here
			}
			nd = &w.nodes[cur]
		}
		e := w.selectEdge(nd, !w.edgesOut)
		if e < 0 {
			// Every edge it has was tried: the node's next moves.
			if e = w.widen(cur, s); e < 0 {
				e = w.selectEdge(&w.nodes[cur], false)
			}
		}
		mover := int8(s.ToMove())
		s.Play(w.edges[e].move)
		to := w.edges[e].to
		if to < 0 {
			if to = w.resolve(s, mover); to < 0 {
				w.path = append(w.path, step{e, -1})
				break // the pools are full
			}
			w.edges[e].to = to
		}
		w.path = append(w.path, step{e, to})
		cur = to
		if w.repeats && s.(game.Repetition).Repeated() {
			repeated = true
			break
		}
		if w.stalledInTree(s) {
			repeated = true // a draw as well
			break
		}
	}
	if repeated {
		w.drawn(n)
	} else {
		w.playout(s, n)
	}
	for _, st := range w.path {
		if st.edge >= 0 {
			e := &w.edges[st.edge]
			e.visits++
			e.invSqrt = float32(1 / math.Sqrt(float64(e.visits)))
		}
		if st.node >= 0 {
			nd := &w.nodes[st.node]
			nd.visits++
			if nd.mover >= 0 {
				nd.mean += (float32(w.rewards[nd.mover]) - nd.mean) / float32(nd.visits)
			}
		}
	}
	if w.cfg.Minimax > 0 && n == 2 {
		w.backupMinimax()
	}
}

// leafValue is position s's value for seat 0 in [0,1] for the implicit
// minimax backups: its result when the game is over (a draw as the search
// scores one), otherwise the game's heuristic.
func (w *searcher) leafValue(s game.State) float32 {
	if o := s.Outcome(); o.Over() {
		if o.Status == game.Drawn {
			w.drawn(2)
			return float32(w.rewards[0])
		}
		return float32(o.Reward(0, 2))
	}
	if e, ok := s.(game.Evaluator); ok {
		return float32((w.evaluate(s, e) + 1) / 2)
	}
	return 0.5
}

// evaluate is the heuristic of s for seat 0 as the search scores it: the
// game's contact-seeking one where this search seeks contact, its
// exchange-seeking one where it seeks exchanges, else e's; brought toward the
// draw where the searching seat is stuck (MCTSConfig.Stuck).
func (w *searcher) evaluate(s game.State, e game.Evaluator) float64 {
	v := w.heuristic(s, e)
	if w.cfg.Stuck > 0 {
		// Both callers evaluate only positions still in play.
		if st, ok := s.(game.Stuck); ok && st.Stuck(w.me) {
			draw := w.drawValue()
			v = draw + (v-draw)*(1-w.cfg.Stuck)
		}
	}
	return v
}

// drawValue is a draw's value for seat 0 on the heuristic's scale
// (2·reward − 1), with the contempt for the searching seat as drawn scores it.
func (w *searcher) drawValue() float64 {
	if w.me == 0 {
		return -2 * w.contempt
	}
	return 2 * w.contempt
}

// heuristic is evaluate's value before the pull toward the draw.
func (w *searcher) heuristic(s game.State, e game.Evaluator) float64 {
	if w.contact {
		if x, ok := s.(game.ContactEvaluator); ok {
			return x.EvaluateContact(0, w.me)
		}
	}
	if w.exchange {
		if x, ok := s.(game.ExchangeEvaluator); ok {
			return x.EvaluateExchange(0, w.me)
		}
	}
	return e.Evaluate(0)
}

// backupMinimax updates the minimax values of the nodes of the last
// descent, from the deepest up, until one does not change.
func (w *searcher) backupMinimax() {
	for k := len(w.path) - 2; k >= 0; k-- {
		i, child := w.path[k].node, w.path[k+1].node
		if i < 0 || child < 0 {
			continue
		}
		nd := &w.nodes[i]
		if nd.first < 0 {
			return
		}
		max0 := w.nodes[child].mover == 0
		best, seen := float32(0), false
		for _, e := range w.edges[nd.first : nd.first+int32(nd.nedges)] {
			if e.to < 0 || e.visits == 0 {
				continue
			}
			v := w.nodes[e.to].mm
			if !seen || max0 && v > best || !max0 && v < best {
				best, seen = v, true
			}
		}
		if !seen || nd.mm == best {
			return
		}
		nd.mm = best
	}
}

// resolve returns the node for position s, reached by mover's move: the
// table's node for it when there is one, else a new node. It returns -1 when
// the pool is full.
func (w *searcher) resolve(s game.State, mover int8) int32 {
	h := s.Hash()
	if w.tt != nil {
		if i, ok := w.tt.get(h); ok && w.nodes[i].mover == mover {
			return i
		}
	}
	if len(w.nodes) >= w.cfg.MaxNodes || len(w.nodes) == cap(w.nodes) && !w.room(len(w.nodes)+1, 0) {
		return -1
	}
	i := int32(len(w.nodes))
	w.nodes = append(w.nodes, node{hash: h, first: -1, mover: mover})
	if w.cfg.Minimax > 0 {
		w.nodes[i].mm = w.leafValue(s)
	}
	if w.tt != nil {
		w.tt.put(h, i)
	}
	return i
}

// firstEdges is how many of its moves a node gets as edges when it is
// expanded with MCTSConfig.EdgeBlocks; widen doubles them once all have
// been tried. UCT tries every edge of a node before it returns to any, in
// the order expand gave them, so a node whose moves come a block at a time
// is searched exactly as one that had them all — but a Skjuub position has
// fifteen to a hundred moves and the search tries a few of most nodes',
// and with all of them as edges the pool (four edges a node) runs out a
// few tens of thousands of iterations into a search, after which the tree
// expands no node.
const firstEdges = 8

// movesOf leaves the legal moves of node i's position s in w.buf, in the
// node's own shuffled order: drawn from the node's hash and the worker's
// salt, so that widen finds the moves in the order expand gave them.
func (w *searcher) movesOf(i int32, s game.State) {
	w.buf = s.Legal(w.buf[:0])
	if w.salt == 0 {
		w.salt = w.rng.Uint64() | 1
	}
	r := game.NewRNG(w.nodes[i].hash ^ w.salt)
	for k := len(w.buf) - 1; k > 0; k-- {
		j := r.IntN(k + 1)
		w.buf[k], w.buf[j] = w.buf[j], w.buf[k]
	}
}

// expand adds the edges of node i (whose position is s): all its moves in
// random order, or with MCTSConfig.EdgeBlocks the first firstEdges in the
// node's own order — all of them at the root (whose moves the workers'
// results are merged by) and with progressive bias (which orders all of
// them by their priors). It reports false when the pool has no room.
func (w *searcher) expand(i int32, s game.State) bool {
	n := 0
	if w.cfg.EdgeBlocks {
		w.movesOf(i, s)
		n = len(w.buf)
		if w.cfg.Bias <= 0 && i != w.root {
			n = min(n, cmp.Or(w.block, firstEdges))
		}
	} else {
		w.buf = s.Legal(w.buf[:0])
		n = len(w.buf)
		// Shuffle so that untried moves are tried in random order.
		for k := len(w.buf) - 1; k > 0; k-- {
			j := w.rng.IntN(k + 1)
			w.buf[k], w.buf[j] = w.buf[j], w.buf[k]
		}
	}
	if len(w.edges)+n > 4*w.cfg.MaxNodes || len(w.buf) > math.MaxUint16 || !w.room(0, len(w.edges)+n) {
		return false
	}
	first := int32(len(w.edges))
	for _, m := range w.buf[:n] {
		w.edges = append(w.edges, edge{move: m, to: -1})
	}
	w.nodes[i].partial = n < len(w.buf)
	if w.cfg.Bias > 0 {
		for len(w.priors) < len(w.edges) {
			w.priors = append(w.priors, 0)
		}
		w.setPriors(w.edges[first:], w.priors[first:], s)
	}
	w.nodes[i].first = first
	w.nodes[i].nedges = uint16(n)
	return true
}

// widen gives node i (whose position is s), all of whose edges have been
// tried, twice as many of its moves — all of them with all true — in a new
// block at the end of the edge pool, the tried edges copied first with their
// statistics; the old block is left unused. It returns the first new edge,
// or -1 when the pool has no room.
func (w *searcher) widen(i int32, s game.State) int32 {
	return w.widenTo(i, s, false)
}

// widenTo is widen, with all: every move at once (a new root's).
func (w *searcher) widenTo(i int32, s game.State, all bool) int32 {
	nd := &w.nodes[i]
	if !nd.partial || nd.first < 0 {
		return -1
	}
	old := int(nd.nedges)
	w.movesOf(i, s)
	n := min(2*old, len(w.buf))
	if all {
		n = len(w.buf)
	}
	prev := w.edges[nd.first : nd.first+int32(old)]
	if n <= old || !sameMoves(prev, w.buf[:old]) {
		// Not the moves expand gave it (cannot happen while positions
		// with one hash have one list of moves): search it as it is.
		nd.partial = false
		return -1
	}
	if len(w.edges)+n > 4*w.cfg.MaxNodes || !w.room(0, len(w.edges)+n) {
		w.edgesOut = true
		return -1
	}
	nd = &w.nodes[i]
	first := int32(len(w.edges))
	// room left the capacity: appending does not move the block copied.
	w.edges = append(w.edges, w.edges[nd.first:nd.first+int32(old)]...)
	for _, m := range w.buf[old:n] {
		w.edges = append(w.edges, edge{move: m, to: -1})
	}
	nd.first, nd.nedges, nd.partial = first, uint16(n), n < len(w.buf)
	return first + int32(old)
}

// sameMoves reports whether es are the edges of moves ms, in order.
func sameMoves(es []edge, ms []game.Move) bool {
	for k := range es {
		if es[k].move != ms[k] {
			return false
		}
	}
	return true
}

// setPriors scores each new edge with the game's heuristic (the greedy
// agent's view of the move) and orders the edges best first, so that the
// search tries the moves the heuristic likes first and leans toward them
// until visits speak louder (progressive bias).
func (w *searcher) setPriors(es []edge, ps []float32, s game.State) {
	if _, ok := s.(game.Evaluator); !ok {
		return
	}
	if w.probe == nil {
		w.probe = s.Clone()
	}
	me, n := s.ToMove(), s.NumPlayers()
	for k := range es {
		w.probe.CopyFrom(s)
		w.probe.Play(es[k].move)
		ps[k] = float32((Value(w.probe, me, n) + 2) / 4)
	}
	// Insertion sort: move lists are short, and it keeps the shuffled order
	// among equals.
	for k := 1; k < len(es); k++ {
		for j := k; j > 0 && ps[j] > ps[j-1]; j-- {
			es[j], es[j-1] = es[j-1], es[j]
			ps[j], ps[j-1] = ps[j-1], ps[j]
		}
	}
}

// sqrtLogs[v] is √ln(v+1), the visits' part of UCT's exploration term, for
// the visit counts of most nodes a descent passes: a logarithm per node
// descended through was 7% of a Sploof search. The same float64 as the
// call, so the same moves.
var sqrtLogs = func() (t [2048]float64) {
	for v := range t {
		t[v] = math.Sqrt(math.Log(float64(v) + 1))
	}
	return t
}()

// sqrtLog is √ln(v+1).
func sqrtLog(v uint32) float64 {
	if v < uint32(len(sqrtLogs)) {
		return sqrtLogs[v]
	}
	return math.Sqrt(math.Log(float64(v) + 1))
}

// selectEdge applies UCT: the first untried edge, else the edge with the
// best mean of the position it leads to plus an exploration bonus from
// the edge's own visits. With widen it returns -1 for a partial node whose
// edges have all been tried (the caller gives it more).
func (w *searcher) selectEdge(p *node, widen bool) int32 {
	explore := float32(w.cfg.C * sqrtLog(p.visits))
	best, bestV := p.first, float32(math.Inf(-1))
	es := w.edges[p.first : p.first+int32(p.nedges)]
	bias, imb := float32(w.cfg.Bias), float32(w.cfg.Minimax)
	for k := range es {
		e := &es[k]
		if e.visits == 0 || e.to < 0 {
			return p.first + int32(k)
		}
		c := &w.nodes[e.to]
		v := c.mean + explore*e.invSqrt
		if imb > 0 {
			mm := c.mm
			if c.mover == 1 {
				mm = 1 - mm
			}
			v += imb * (mm - c.mean)
		}
		if bias > 0 {
			v += bias * w.priors[p.first+int32(k)] / float32(e.visits+1)
		}
		if v > bestV {
			best, bestV = p.first+int32(k), v
		}
	}
	if widen && p.partial {
		return -1 // all tried: the caller widens the node
	}
	return best
}

// playout finishes the game from s at random (or cuts it short and asks the
// game's heuristic) and leaves each seat's reward in w.rewards.
func (w *searcher) playout(s game.State, n int) {
	if len(w.path) > 1 && w.stalledInTree(s) {
		w.drawn(n) // a leaf reached past the pools' end
		return
	}
	if w.plies > 0 {
		_, guided := s.(game.Evaluator)
		guided = guided && w.cfg.PlayoutK > 1
		// Unguided, a game that draws a random move directly spares the
		// list (the same draws: game.RandomMover).
		rm, direct := s.(game.RandomMover)
		direct = direct && !guided
		for k := 0; k < w.plies; k++ {
			if direct {
				m, ok := rm.RandomMove(&w.rng)
				if !ok {
					break
				}
				s.Play(m)
				continue
			}
			w.buf = s.Legal(w.buf[:0])
			if len(w.buf) == 0 {
				break
			}
			m := w.buf[w.rng.IntN(len(w.buf))]
			if guided {
				m = w.tournament(s, m)
			}
			s.Play(m)
		}
		if o := s.Outcome(); !o.Over() {
			if w.stalled(s) {
				w.drawn(n)
				return
			}
			if e, ok := s.(game.Evaluator); ok && n == 2 {
				v := (w.evaluate(s, e) + 1) / 2
				w.rewards[0], w.rewards[1] = v, 1-v
				return
			}
		}
	}
	if !s.Outcome().Over() {
		if p, ok := s.(game.SearchPlayouter); ok && !w.cfg.UniformPlayouts {
			p.SearchPlayout(&w.rng)
		} else if p, ok := s.(game.Playouter); ok {
			p.Playout(&w.rng)
		} else {
			w.buf, _ = game.RandomPlayout(s, &w.rng, w.buf)
		}
	}
	o := s.Outcome()
	if o.Status == game.Drawn {
		w.drawn(n)
		return
	}
	for seat := 0; seat < n; seat++ {
		w.rewards[seat] = o.Reward(seat, n)
	}
}

// stalledInTree reports whether a line of the tree has reached the stall
// horizon without progress: it is a draw there, as a repetition is, and
// nothing below it is searched. Checked only at a playout's end (as before
// December 2026), the horizon let a playout's random plies out of the
// stall: one of them that sacrificed or blundered a piece for the side
// holding the draw made "progress", and the heuristic after it showed a
// waiting line worth nearly as much as the lead (0.77 where the draw was
// 0.25, in a Skjuub stall of 160 turns), so the bot kept waiting until
// the 300-turn draw.
//
// A line of k moves has gone at most k turns, so a search whose game has
// not stood still for the horizon less the line's length skips the game's
// Progress (in Skjuub it derives the position's masks) in every descent.
func (w *searcher) stalledInTree(s game.State) bool {
	if w.cfg.StallPlayoutsOnly || w.stall <= 0 || w.quiet+len(w.path)-1 < w.stall {
		return false
	}
	return !s.Outcome().Over() && w.stalled(s)
}

// drawn leaves a draw's rewards in w.rewards: an even share, less the
// contempt for the searching seat.
func (w *searcher) drawn(n int) {
	for seat := 0; seat < n; seat++ {
		w.rewards[seat] = 1 / float64(n)
		if w.contempt == 0 {
			continue
		}
		if seat == w.me {
			w.rewards[seat] -= w.contempt
		} else {
			w.rewards[seat] += w.contempt / float64(n-1)
		}
	}
}

// stalled reports whether the line to s has gone the stall horizon's turns
// without progress: nothing changed since the root, and the turns since the
// root plus those the game had already gone quiet reach the horizon.
func (w *searcher) stalled(s game.State) bool {
	if w.stall <= 0 {
		return false
	}
	sig, turns := s.(game.Progress).Progress()
	return sig == w.rootSig && w.quiet+turns-w.rootTurns >= w.stall
}

// tournament picks a playout move by a small tournament: first, then
// PlayoutK-1 more random legal moves of s (w.buf), and the one whose result
// the game's heuristic likes best for the mover wins. It makes playouts
// look like play — a player who sees a capture usually takes it — at a
// fraction of the cost of scoring every move.
func (w *searcher) tournament(s game.State, first game.Move) game.Move {
	if w.probe == nil {
		w.probe = s.Clone()
	}
	me := s.ToMove()
	best, bestV := first, math.Inf(-1)
	for k := 0; k < w.cfg.PlayoutK; k++ {
		m := first
		if k > 0 {
			m = w.buf[w.rng.IntN(len(w.buf))]
		}
		w.probe.CopyFrom(s)
		w.probe.Play(m)
		v := 2.0 // a move that ends the game in the mover's favour beats any heuristic
		if o := w.probe.Outcome(); !o.Over() {
			v = w.probe.(game.Evaluator).Evaluate(me)
		} else if !o.IsWinner(me) {
			v = -2
		}
		if v > bestV {
			best, bestV = m, v
		}
	}
	return best
}

// table is a transposition table: position hash → node, open addressing
// with linear probing over a fixed power-of-two array. It is a cache: when
// a short probe finds no room the position simply gets no entry (it then
// gets its own node, which is always correct, only less shared).
type table struct {
	keys []uint64 // 0 = empty (a real hash of 0 is nudged to 1)
	vals []int32
	mask uint64
}

// probeLimit bounds a lookup; a full neighbourhood means no entry.
const probeLimit = 8

// maxTable caps the table at 1M entries (12 MB): beyond that a bigger
// tree shares a little less, which costs less than the memory would.
const maxTable = 1 << 20

// tableSize is the table's entries for a tree of maxNodes nodes.
func tableSize(maxNodes int) int {
	size := 1
	for size < 2*maxNodes && size < maxTable {
		size <<= 1
	}
	return size
}

func newTable(maxNodes int) *table {
	size := tableSize(maxNodes)
	return &table{keys: hugepages.Advise(make([]uint64, size)), vals: hugepages.Advise(make([]int32, size)), mask: uint64(size - 1)}
}

func (t *table) clear() { clear(t.keys) }

func key(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

func (t *table) get(h uint64) (int32, bool) {
	k := key(h)
	for i, p := 0, k&t.mask; i < probeLimit; i, p = i+1, (p+1)&t.mask {
		switch t.keys[p] {
		case k:
			return t.vals[p], true
		case 0:
			return 0, false
		}
	}
	return 0, false
}

func (t *table) put(h uint64, v int32) {
	k := key(h)
	for i, p := 0, k&t.mask; i < probeLimit; i, p = i+1, (p+1)&t.mask {
		if t.keys[p] == 0 || t.keys[p] == k {
			t.keys[p], t.vals[p] = k, v
			return
		}
	}
}
