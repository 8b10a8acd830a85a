package agent

import (
	"context"
	"math"
	"sync"
	"time"

	"github.com/tabula-games/tabula/game"
)

// MCTSConfig sets an MCTS agent's budget and behaviour.
type MCTSConfig struct {
	// Time is the thinking time per move; Iters the number of iterations
	// per move and worker. When both are set the first one reached stops
	// the search; when neither is, DefaultIters applies.
	Time  time.Duration
	Iters int
	// C is the UCT exploration constant (rewards are in [0,1]).
	C float64
	// Workers is the number of goroutines searching independent trees whose
	// root statistics are merged (root parallelism). 0 means 1.
	Workers int
	// Temperature > 0 picks the move at random with probability
	// proportional to visits^(1/Temperature) instead of the most visited
	// one: the "noise" of the easy levels.
	Temperature float64
	// Epsilon is the chance of playing a uniformly random legal move
	// instead of searching: the blunders that make the easy level easy.
	Epsilon float64
	// PlayoutPlies > 0 cuts playouts after that many plies and scores the
	// position with the game's Evaluator (for games whose full random
	// playouts are slow or uninformative); -1 plays to the end; 0 takes
	// the game's game.SearchHints, or plays to the end.
	PlayoutPlies int
	// MaxNodes bounds each worker's tree; when it is full the search keeps
	// going without growing the tree.
	MaxNodes int
	// NoReuse switches off keeping the subtree of the position reached
	// between two moves.
	NoReuse bool
}

// Named defaults, each with its reason.
const (
	// DefaultC is the exploration constant tuned by self-play (see
	// docs/ai.md): smaller than the textbook √2 because rewards are in
	// [0,1] and the games' branching factors are large.
	DefaultC = 0.7
	// DefaultIters applies when a config sets no budget at all.
	DefaultIters = 10000
	// DefaultMaxNodes keeps a worker's tree near 50 MB (24-byte nodes).
	DefaultMaxNodes = 2 << 20
	// checkEvery: the clock and the context are read every this many
	// iterations (a power of two), so they cost nothing measurable.
	checkEvery = 128
	// reuseDepth is how many plies below the previous root the agent looks
	// for the new position when reusing its tree (the opponent's reply,
	// plus multi-ply turns).
	reuseDepth = 4
)

// MCTS is a UCT searcher. Each worker keeps its own tree between moves of
// one game and reuses the subtree of the position actually reached.
type MCTS struct {
	cfg     MCTSConfig
	name    string
	rng     game.RNG
	workers []*searcher
	// LastStats describes the most recent search, for bench and tests.
	LastStats SearchStats
}

// SearchStats reports what one Choose did.
type SearchStats struct {
	Iterations int           // summed over workers
	Elapsed    time.Duration // wall-clock time
	Reused     int           // root visits inherited from the previous search
}

// NewMCTS returns an MCTS agent.
func NewMCTS(cfg MCTSConfig, seed uint64) *MCTS {
	if cfg.C == 0 {
		cfg.C = DefaultC
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.Time == 0 && cfg.Iters == 0 {
		cfg.Iters = DefaultIters
	}
	if cfg.MaxNodes == 0 {
		cfg.MaxNodes = DefaultMaxNodes
	}
	m := &MCTS{cfg: cfg, rng: game.NewRNG(seed), name: "mcts:" + budgetText(cfg)}
	for i := 0; i < cfg.Workers; i++ {
		m.workers = append(m.workers, &searcher{cfg: &m.cfg, rng: m.rng.Split()})
	}
	return m
}

// Name implements Agent.
func (m *MCTS) Name() string { return m.name }

// Choose implements Agent.
func (m *MCTS) Choose(ctx context.Context, s game.State) (game.Move, error) {
	if s.Outcome().Over() {
		return 0, game.ErrGameOver
	}
	legal := s.Legal(nil)
	if len(legal) == 1 {
		return legal[0], nil
	}
	if m.cfg.Epsilon > 0 && m.rng.Float64() < m.cfg.Epsilon {
		return legal[m.rng.IntN(len(legal))], nil
	}
	start := time.Now()
	var deadline time.Time
	if m.cfg.Time > 0 {
		deadline = start.Add(m.cfg.Time)
	}
	var wg sync.WaitGroup
	for _, w := range m.workers {
		wg.Add(1)
		go func(w *searcher) {
			defer wg.Done()
			w.search(ctx, s, deadline)
		}(w)
	}
	wg.Wait()
	// Merge the root children of every worker by move.
	visits := make(map[game.Move]float64, len(legal))
	stats := SearchStats{Elapsed: time.Since(start)}
	for _, w := range m.workers {
		stats.Iterations += w.iters
		stats.Reused += w.reused
		r := &w.nodes[w.root]
		for i := r.child; i < r.child+int32(r.nchild); i++ {
			visits[w.nodes[i].move] += float64(w.nodes[i].visits)
		}
	}
	m.LastStats = stats
	if err := ctx.Err(); err != nil && stats.Iterations == 0 {
		return 0, err
	}
	return m.pick(legal, visits), nil
}

// pick chooses among the root moves by visits: the most visited, or with
// a temperature a visit-weighted random one.
func (m *MCTS) pick(legal []game.Move, visits map[game.Move]float64) game.Move {
	best, bestV := legal[0], -1.0
	if m.cfg.Temperature > 0 {
		total := 0.0
		w := make([]float64, len(legal))
		for i, mv := range legal {
			w[i] = math.Pow(visits[mv]+1, 1/m.cfg.Temperature)
			total += w[i]
		}
		x := m.rng.Float64() * total
		for i, mv := range legal {
			if x -= w[i]; x < 0 {
				return mv
			}
		}
		return legal[len(legal)-1]
	}
	for _, mv := range legal {
		if v := visits[mv]; v > bestV {
			best, bestV = mv, v
		}
	}
	return best
}

// node is one tree node: the move that led to it and the statistics of the
// seat that played that move. Children of a node are contiguous in the
// pool, so a node needs no per-node slice (24 bytes, no pointers for the
// garbage collector to chase).
type node struct {
	move   game.Move
	child  int32 // first child, or -1 while unexpanded
	nchild uint16
	mover  int8 // the seat that played move
	visits uint32
	// mean is mover's average reward and invSqrt 1/√visits, both kept up
	// to date on backpropagation so that selection, which scans every
	// child, is one multiply-add per child instead of a division and a
	// square root.
	mean    float32
	invSqrt float32
}

// searcher is one worker's tree and scratch space.
type searcher struct {
	cfg     *MCTSConfig
	rng     game.RNG
	nodes   []node
	root    int32
	rootPos game.State // the position the tree's root stands for
	scratch game.State
	probe   game.State
	buf     []game.Move
	path    []int32
	rewards [game.MaxPlayers]float64
	iters   int
	reused  int
	plies   int // playout cut-off for this search (≤ 0: to the end)
}

func (w *searcher) search(ctx context.Context, s game.State, deadline time.Time) {
	w.iters, w.reused = 0, 0
	w.plies = w.cfg.PlayoutPlies
	if h, ok := s.(game.SearchHints); ok && w.plies == 0 {
		w.plies = h.PlayoutPlies()
	}
	w.prepareRoot(s)
	if w.scratch == nil {
		w.scratch = s.Clone()
	}
	n := s.NumPlayers()
	for {
		if w.iters&(checkEvery-1) == 0 && w.iters > 0 {
			if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
				return
			}
		}
		if w.cfg.Iters > 0 && w.iters >= w.cfg.Iters {
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
		if r := w.find(w.root, w.rootPos, s, reuseDepth); r >= 0 {
			w.compact(r)
			w.rootPos.CopyFrom(s)
			w.reused = int(w.nodes[0].visits)
			return
		}
	}
	if cap(w.nodes) == 0 {
		w.nodes = make([]node, 0, 1<<14)
	}
	w.nodes = append(w.nodes[:0], node{child: -1, mover: -1})
	w.root = 0
	if w.rootPos == nil {
		w.rootPos = s.Clone()
	} else {
		w.rootPos.CopyFrom(s)
	}
}

// compact keeps only the subtree under r, which becomes the root at index
// 0. Copying breadth-first keeps every node's children contiguous.
func (w *searcher) compact(r int32) {
	old := w.nodes
	out := make([]node, 1, max(1<<14, len(old)/2))
	out[0] = old[r]
	for i := 0; i < len(out); i++ {
		nd := &out[i]
		if nd.child < 0 {
			continue
		}
		first := int32(len(out))
		out = append(out, old[nd.child:nd.child+int32(nd.nchild)]...)
		out[i].child = first
	}
	out[0].mover = -1
	w.nodes, w.root = out, 0
}

// find looks below node n (standing for position at) for a node whose
// position equals target, comparing hashes, up to depth plies down.
func (w *searcher) find(n int32, at, target game.State, depth int) int32 {
	if at.Hash() == target.Hash() && at.ToMove() == target.ToMove() {
		return n
	}
	nd := w.nodes[n]
	if depth == 0 || nd.child < 0 {
		return -1
	}
	child := at.Clone()
	for i := nd.child; i < nd.child+int32(nd.nchild); i++ {
		child.CopyFrom(at)
		child.Play(w.nodes[i].move)
		if r := w.find(i, child, target, depth-1); r >= 0 {
			return r
		}
	}
	return -1
}

// iterate runs one selection–expansion–playout–backpropagation pass.
func (w *searcher) iterate(root game.State, n int) {
	s := w.scratch
	s.CopyFrom(root)
	w.path = append(w.path[:0], w.root)
	cur := w.root
	for {
		nd := &w.nodes[cur]
		if s.Outcome().Over() {
			break
		}
		if nd.child < 0 {
			if nd.visits == 0 && cur != w.root {
				break // a new leaf: play out from here first
			}
			if !w.expand(cur, s) {
				break // the pool is full: play out from here
			}
			nd = &w.nodes[cur]
		}
		cur = w.selectChild(nd)
		s.Play(w.nodes[cur].move)
		w.path = append(w.path, cur)
	}
	w.playout(s, n)
	for _, i := range w.path {
		nd := &w.nodes[i]
		nd.visits++
		nd.invSqrt = float32(1 / math.Sqrt(float64(nd.visits)))
		if nd.mover >= 0 {
			nd.mean += (float32(w.rewards[nd.mover]) - nd.mean) / float32(nd.visits)
		}
	}
}

// expand adds all children of node i (whose position is s). It reports
// false when the pool has no room.
func (w *searcher) expand(i int32, s game.State) bool {
	w.buf = s.Legal(w.buf[:0])
	if len(w.nodes)+len(w.buf) > w.cfg.MaxNodes || len(w.buf) > math.MaxUint16 {
		return false
	}
	first := int32(len(w.nodes))
	mover := int8(s.ToMove())
	// Shuffle so that unvisited children are tried in random order.
	for k := len(w.buf) - 1; k > 0; k-- {
		j := w.rng.IntN(k + 1)
		w.buf[k], w.buf[j] = w.buf[j], w.buf[k]
	}
	for _, m := range w.buf {
		w.nodes = append(w.nodes, node{move: m, child: -1, mover: mover})
	}
	w.nodes[i].child = first
	w.nodes[i].nchild = uint16(len(w.buf))
	return true
}

// selectChild applies UCT: the first unvisited child, else the child with
// the best mean reward plus exploration bonus.
func (w *searcher) selectChild(p *node) int32 {
	explore := float32(w.cfg.C * math.Sqrt(math.Log(float64(p.visits)+1)))
	best, bestV := p.child, float32(math.Inf(-1))
	children := w.nodes[p.child : p.child+int32(p.nchild)]
	for k := range children {
		c := &children[k]
		if c.visits == 0 {
			return p.child + int32(k)
		}
		if v := c.mean + explore*c.invSqrt; v > bestV {
			best, bestV = p.child+int32(k), v
		}
	}
	return best
}

// playout finishes the game from s at random (or cuts it short and asks the
// game's heuristic) and leaves each seat's reward in w.rewards.
func (w *searcher) playout(s game.State, n int) {
	if w.plies > 0 {
		for k := 0; k < w.plies; k++ {
			w.buf = s.Legal(w.buf[:0])
			if len(w.buf) == 0 {
				break
			}
			s.Play(w.buf[w.rng.IntN(len(w.buf))])
		}
		if o := s.Outcome(); !o.Over() {
			if e, ok := s.(game.Evaluator); ok && n == 2 {
				v := (e.Evaluate(0) + 1) / 2
				w.rewards[0], w.rewards[1] = v, 1-v
				return
			}
		}
	}
	if !s.Outcome().Over() {
		if p, ok := s.(game.Playouter); ok {
			p.Playout(&w.rng)
		} else {
			w.buf, _ = game.RandomPlayout(s, &w.rng, w.buf)
		}
	}
	o := s.Outcome()
	for seat := 0; seat < n; seat++ {
		w.rewards[seat] = o.Reward(seat, n)
	}
}
