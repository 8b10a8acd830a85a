package agent

import (
	"context"
	"errors"
	"sort"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Analysis is an MCTS search of one position that runs in slices and can be
// read between them: the engine of the analysis board and the game review.
// It searches the true state, so it is only for games that hide nothing
// (a game with hidden information is judged from a seat's view with
// SampleValues). It is not safe for concurrent use.
type Analysis struct {
	root    game.State
	workers []*searcher
	cfg     MCTSConfig
	elapsed time.Duration
}

// RootLine is one root move of an analysis with what the search thinks of it.
type RootLine struct {
	Move game.Move
	// Visits is the number of times the search tried the move (summed over
	// the workers); Share is its part of all root visits.
	Visits int
	Share  float64
	// Value is the mover's average reward after the move, in [0,1]: for a
	// two-seat game without draws, the mover's win probability as the
	// search sees it.
	Value float64
	// PV is the principal line: the move, then the most visited reply at
	// each ply below it, as far as the tree is sure enough (minPVVisits).
	PV []game.Move
}

// minPVVisits is how many visits a move needs to extend a principal line:
// below it the tree has barely looked and the move says little.
const minPVVisits = 8

// ErrHidden is returned for a position of a game with hidden information,
// which a search of the true state must not look at.
var ErrHidden = errors.New("agent: the game hides information; analyse it from a seat's view")

// NewAnalysis prepares an analysis of s (which it copies) with cfg's
// exploration, playout and tree settings; its budget fields are ignored
// (Run is given each slice's budget).
func NewAnalysis(s game.State, cfg MCTSConfig, seed uint64) (*Analysis, error) {
	if game.Hidden(s) {
		return nil, ErrHidden
	}
	if s.Outcome().Over() {
		return nil, game.ErrGameOver
	}
	if cfg.C == 0 {
		cfg.C = DefaultC
	}
	if cfg.Workers <= 0 {
		cfg.Workers = 1
	}
	if cfg.MaxNodes == 0 {
		cfg.MaxNodes = DefaultMaxNodes
	}
	cfg.Temperature, cfg.Epsilon, cfg.Contempt, cfg.Stall = 0, 0, -1, -1
	a := &Analysis{root: s.Clone(), cfg: cfg}
	rng := game.NewRNG(seed)
	for i := 0; i < cfg.Workers; i++ {
		w := &searcher{cfg: &a.cfg, rng: rng.Split()}
		w.begin(a.root)
		a.workers = append(a.workers, w)
	}
	return a, nil
}

// Run searches on until ctx is done, d has passed (0: no time limit) or
// every worker has made iters more iterations (0: no limit); at least one
// limit must be set. Between two calls the analysis may be read.
func (a *Analysis) Run(ctx context.Context, d time.Duration, iters int) {
	if d <= 0 && iters <= 0 && ctx.Done() == nil {
		return // nothing would stop it
	}
	start := time.Now()
	stop := deadline(start, d)
	parallel(ctx, len(a.workers), func(i int) {
		w := a.workers[i]
		limit := 0
		if iters > 0 {
			limit = w.iters + iters
		}
		w.run(ctx, a.root, stop, limit)
	})
	a.elapsed += time.Since(start)
}

// Iterations is the number of iterations so far, summed over the workers.
func (a *Analysis) Iterations() int {
	n := 0
	for _, w := range a.workers {
		n += w.iters
	}
	return n
}

// Nodes is the number of nodes in the workers' trees: how far the search
// has grown (it stops growing when a tree is full).
func (a *Analysis) Nodes() int {
	n := 0
	for _, w := range a.workers {
		n += len(w.nodes)
	}
	return n
}

// Elapsed is the time spent in Run so far.
func (a *Analysis) Elapsed() time.Duration { return a.elapsed }

// Lines returns the root moves the search has tried, most visited first
// (at most k of them; k ≤ 0: all), each with its principal line of at most
// depth plies.
func (a *Analysis) Lines(k, depth int) []RootLine {
	type acc struct {
		visits      int
		sum         float64 // Σ visits·value over the workers
		best, bestV int     // the worker that tried the move most, and how often
	}
	byMove := map[game.Move]*acc{}
	var order []game.Move
	total := 0
	for wi, w := range a.workers {
		r := &w.nodes[w.root]
		if r.first < 0 {
			continue
		}
		for _, e := range w.edges[r.first : r.first+int32(r.nedges)] {
			if e.visits == 0 || e.to < 0 {
				continue
			}
			c := byMove[e.move]
			if c == nil {
				c = &acc{best: -1}
				byMove[e.move] = c
				order = append(order, e.move)
			}
			v := int(e.visits)
			c.visits += v
			c.sum += float64(v) * float64(w.nodes[e.to].mean)
			if v > c.bestV {
				c.best, c.bestV = wi, v
			}
			total += v
		}
	}
	sort.SliceStable(order, func(i, j int) bool { return byMove[order[i]].visits > byMove[order[j]].visits })
	if k > 0 && len(order) > k {
		order = order[:k]
	}
	out := make([]RootLine, 0, len(order))
	for _, m := range order {
		c := byMove[m]
		l := RootLine{Move: m, Visits: c.visits, Value: c.sum / float64(c.visits)}
		if total > 0 {
			l.Share = float64(c.visits) / float64(total)
		}
		l.PV = a.workers[c.best].pv(m, depth)
		out = append(out, l)
	}
	return out
}

// pv is the principal line of root move m in w's tree: m, then the most
// visited edge below it while the tree has looked enough.
func (w *searcher) pv(m game.Move, depth int) []game.Move {
	line := []game.Move{m}
	r := &w.nodes[w.root]
	cur := int32(-1)
	for _, e := range w.edges[r.first : r.first+int32(r.nedges)] {
		if e.move == m {
			cur = e.to
		}
	}
	for len(line) < depth && cur >= 0 {
		nd := &w.nodes[cur]
		if nd.first < 0 {
			break
		}
		best := -1
		var bestV uint32
		for k, e := range w.edges[nd.first : nd.first+int32(nd.nedges)] {
			if e.to >= 0 && e.visits > bestV {
				best, bestV = k, e.visits
			}
		}
		if best < 0 || bestV < minPVVisits {
			break
		}
		e := w.edges[nd.first+int32(best)]
		line = append(line, e.move)
		cur = e.to
	}
	return line
}
