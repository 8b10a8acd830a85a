package solve

// The win/loss solver: who wins, not how fast. The exact search (search.go)
// must tell a win in 21 plies from one in 23, so most of its probes need
// positions searched again at other windows; asking only "does the side to
// move win?" is one null window at the who-wins threshold, every position
// is won or lost outright, and a table entry is a fact that ends the search
// below it whatever the window. That is what deciding the start needs.

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/tabula-games/tabula/games/sploof"
)

// DefaultWinLossTableBytes is the win/loss table's size when none is given:
// 16 GiB, 2^31 entries, sized for a machine of 24 GB that runs little else.
const DefaultWinLossTableBytes = 16 << 30

// WinLossOptions tune a win/loss search.
type WinLossOptions struct {
	// TableBytes is the shared table's size (0: DefaultWinLossTableBytes).
	TableBytes int64
	// Workers is the number of goroutines searching (0: GOMAXPROCS). They
	// share the table; all but the first take the moves near the root in
	// another order, so they work on other subtrees and find each other's
	// results in the table (lazy SMP).
	Workers int
	// ETCPly: at positions before this ply, look every child up in the
	// table before searching any (enhanced transposition cutoff); 0: never.
	ETCPly int
	// NoThreats turns off the ordering of threats (placements that leave
	// the mover a winning point) before other moves, for measurements.
	NoThreats bool
	// Checkpoint, when set, is consulted and filled at the positions of its
	// layer.
	Checkpoint *Checkpoint
	// MaxNodes stops the search once the workers have searched this many
	// positions together (0: no limit).
	MaxNodes int64
}

// WinLoss is the win/loss solver. Its table is kept between calls; it is
// safe for one call at a time.
type WinLoss struct {
	opt   WinLossOptions
	tt    *wlTable
	nodes atomic.Int64
	stop  atomic.Bool
}

// NoMove is WinLossResult.Move when there is none.
const NoMove = noMove

// ErrWinLossStopped reports a search cut short by its context or budget.
var ErrWinLossStopped = errors.New("sploof win/loss solver: stopped before a result")

// NewWinLoss returns a win/loss solver; its table is allocated at once.
func NewWinLoss(opt WinLossOptions) *WinLoss {
	if opt.TableBytes <= 0 {
		opt.TableBytes = DefaultWinLossTableBytes
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	return &WinLoss{opt: opt, tt: newWLTable(opt.TableBytes)}
}

// Nodes is the number of positions the workers have searched in all calls.
func (s *WinLoss) Nodes() int64 { return s.nodes.Load() }

// TableEntries is the table's capacity.
func (s *WinLoss) TableEntries() int { return s.tt.entries() }

// WinLossResult is a decided position.
type WinLossResult struct {
	Winner int   // the seat that wins with best play
	Move   uint8 // with the side to move winning: a winning move (a sploof.Move); otherwise noMove
	Nodes  int64 // positions searched by this call
}

// Solve decides st: which seat wins with best play. It refuses positions
// the solver cannot take (other rules, a finished game, irregular counts).
func (s *WinLoss) Solve(ctx context.Context, st *sploof.State) (WinLossResult, error) {
	if !st.DefaultRules() {
		return WinLossResult{}, fmt.Errorf("sploof win/loss solver: only the default rules (supply=finite, bothlines=mover) are solved")
	}
	if st.Outcome().Over() {
		return WinLossResult{}, fmt.Errorf("sploof win/loss solver: the game is over")
	}
	n, err := nodeFromBits(st.Bits())
	if err != nil {
		return WinLossResult{}, fmt.Errorf("sploof win/loss solver: %w", err)
	}
	win, move, nodes, err := s.solveNode(ctx, &n)
	if err != nil {
		return WinLossResult{Nodes: nodes}, err
	}
	r := WinLossResult{Winner: int(n.turn), Move: move, Nodes: nodes}
	if !win {
		r.Winner = 1 - r.Winner
	}
	return r, nil
}

// solveNode runs the workers on n until one of them decides it.
func (s *WinLoss) solveNode(ctx context.Context, n *node) (win bool, move uint8, nodes int64, err error) {
	nodes0 := s.nodes.Load()
	s.stop.Store(false)
	var once sync.Once
	var wg sync.WaitGroup
	done := false
	for id := 0; id < s.opt.Workers; id++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &wlWorker{s: s, id: id, ctx: ctx, rootPly: n.ply}
			root := *n
			v, m := w.root(&root)
			w.flush()
			if !w.stopped {
				once.Do(func() { win, move, done = v, m, true })
				s.stop.Store(true) // the others may stop: the answer is in
			}
		}()
	}
	wg.Wait()
	nodes = s.nodes.Load() - nodes0
	if !done {
		return false, noMove, nodes, ErrWinLossStopped
	}
	return win, move, nodes, nil
}

// wlWorker is one goroutine's search: its own history and node count.
type wlWorker struct {
	s       *WinLoss
	id      int
	ctx     context.Context
	rootPly uint8
	order   moveOrder
	nodes   int64 // searched by this worker
	flushed int64 // of them, added to s.nodes
	stopped bool
}

// flush adds the worker's nodes to the solver's count.
func (w *wlWorker) flush() {
	w.s.nodes.Add(w.nodes - w.flushed)
	w.flushed = w.nodes
}

// poll flushes the count and stops on a done context, a spent budget or
// another worker's answer.
func (w *wlWorker) poll() {
	w.flush()
	if w.s.stop.Load() || w.ctx.Err() != nil || w.s.opt.MaxNodes > 0 && w.s.nodes.Load() >= w.s.opt.MaxNodes {
		w.stopped = true
	}
}

// root decides n and returns a winning move when the side to move wins.
func (w *wlWorker) root(n *node) (bool, uint8) {
	win := w.wins(n)
	if w.stopped || !win {
		return win, noMove
	}
	key, sym := n.key()
	if v, m, ok := w.s.tt.get(key); ok && v && m != noMove {
		return true, mapMove(inv[sym], m)
	}
	// An immediate win is not stored; find it.
	occ := n.occ()
	pm, rm := n.moveMasks(occ)
	for m := pm; m != 0; m &= m - 1 {
		c := *n
		if c.place(trailing(m), occ) {
			return true, uint8(trailing(m))
		}
	}
	for m := rm; m != 0; m &= m - 1 {
		c := *n
		if c.play(uint8(sploof.RemoveFlag+trailing(m))) == 1 {
			return true, uint8(sploof.RemoveFlag + trailing(m))
		}
	}
	return true, noMove
}

// perturbPlies: the helpers (workers other than the first) take their
// moves in another order at positions this close to the root.
const perturbPlies = 6

// wins reports whether the side to move in n wins. When the worker is
// stopped the result means nothing.
func (w *wlWorker) wins(n *node) bool {
	w.nodes++
	if w.nodes&pollEvery == 0 {
		w.poll()
	}
	if w.stopped {
		return false
	}
	occ := n.occ()
	pm, rm := n.moveMasks(occ)
	if pm|rm == 0 {
		return false // no move: lost
	}
	t := n.turn
	own := n.col[t]
	for m := pm; m != 0; m &= m - 1 {
		b := m & -m
		if sploof.HasLine(own|b, occ|b) {
			return true
		}
	}
	var kids [12]node
	var kidMove [12]uint8
	nk := 0
	for m := rm; m != 0; m &= m - 1 {
		p := trailing(m)
		kids[nk] = *n
		switch kids[nk].play(uint8(sploof.RemoveFlag + p)) {
		case 1:
			return true
		case -1:
			continue // completes only the other colour's line: lost
		}
		kidMove[nk] = uint8(sploof.RemoveFlag + p)
		nk++
	}
	opp := 1 - t
	theirs := n.col[opp]
	// The opponent's winning points: a placement elsewhere that leaves one
	// of them winning loses at once, so it is not even tried.
	var block uint32
	if n.stock[opp] > 0 {
		for m := pm; m != 0; m &= m - 1 {
			b := m & -m
			if sploof.HasLine(theirs|b, occ|b) {
				block |= b
			}
		}
	}
	if block != 0 {
		for m := pm; m != 0; m &= m - 1 {
			q := m & -m
			for r := block &^ q; r != 0; r &= r - 1 {
				b := r & -r
				if sploof.HasLine(theirs|b, occ|q|b) {
					pm &^= q // the opponent still wins on b
					break
				}
			}
		}
	}
	if pm == 0 && nk == 0 {
		return false
	}

	key, sym := n.key()
	if v, _, ok := w.s.tt.get(key); ok {
		return v
	}
	ck := w.s.opt.Checkpoint
	rank := -1
	if ck != nil && n.ply == ck.Ply {
		rank = ck.rank(key)
		if rank >= 0 {
			if known, win := ck.get(rank); known {
				return win
			}
		}
	}

	// Order: placements on the opponent's winning points, then moves by
	// how many winning points they leave the mover (the opponent must
	// answer them), then the move that last refuted at this ply (killer),
	// then by history.
	var moves [sploof.NumPoints + 12]uint8
	var prio [sploof.NumPoints + 12]uint64
	nm := 0
	// A threat needs a ball to complete it with after the move: a placement
	// uses one, a removal none.
	canThreat := !w.s.opt.NoThreats && n.stock[t] > 0
	perturb := w.id > 0 && n.ply < w.rootPly+perturbPlies
	for i := 0; i < nk; i++ {
		pr := w.order.learnt(t, n.ply, kidMove[i])
		if canThreat {
			pr |= threatPrio(threats(kids[i].col[t], kids[i].occ()))
		}
		moves[nm], prio[nm] = uint8(i), pr
		nm++
	}
	for m := pm; m != 0; m &= m - 1 {
		p := trailing(m)
		q := uint32(1) << p
		pr := w.order.learnt(t, n.ply, uint8(p))
		if perturb {
			pr = mix(key, uint64(p)<<8|uint64(w.id)) >> 8
		}
		if block&q != 0 {
			pr |= prioBlock
		} else if canThreat && n.stock[t] > 1 {
			pr |= threatPrio(threats(own|q, occ|q))
		}
		moves[nm], prio[nm] = uint8(32+p), pr
		nm++
	}

	// A child on the checkpoint's layer that it knows lost for its side to
	// move is a win here, searched or not: without this look, a run that
	// takes its moves in another order than the runs that filled the
	// checkpoint would search other children first and lose much of what
	// they decided.
	if ck != nil && n.ply+1 == ck.Ply {
		for i := 0; i < nm; i++ {
			c := w.child(n, moves[i], &kids, occ)
			if c.ply != ck.Ply {
				continue
			}
			ckey, _ := c.key()
			if r := ck.rank(ckey); r >= 0 {
				if known, win := ck.get(r); known && !win {
					w.store(n, key, sym, rank, true, moveOf(moves[i], &kidMove), 1)
					return true
				}
			}
		}
	}

	// Enhanced transposition cutoff: a child the table knows lost for its
	// side to move is a win here, without searching the others first.
	if int(n.ply) < w.s.opt.ETCPly {
		for i := 0; i < nm; i++ {
			c := w.child(n, moves[i], &kids, occ)
			ck, _ := c.key()
			if v, _, ok := w.s.tt.get(ck); ok && !v {
				m := moveOf(moves[i], &kidMove)
				w.store(n, key, sym, rank, true, m, 1)
				return true
			}
		}
	}

	nodes0 := w.nodes
	// The child lives outside the loop: declared inside, its address passed
	// down the recursion would move it to the heap (an allocation a node).
	var c node
	for i := 0; i < nm; i++ {
		j := i
		for k := i + 1; k < nm; k++ {
			if prio[k] > prio[j] {
				j = k
			}
		}
		moves[i], moves[j] = moves[j], moves[i]
		prio[i], prio[j] = prio[j], prio[i]
		c = w.child(n, moves[i], &kids, occ)
		cw := w.wins(&c)
		if w.stopped {
			return false
		}
		if !cw {
			m := moveOf(moves[i], &kidMove)
			w.order.refuted(t, n.ply, m)
			w.store(n, key, sym, rank, true, m, w.nodes-nodes0)
			return true
		}
	}
	w.store(n, key, sym, rank, false, noMove, w.nodes-nodes0)
	return false
}

// child is the position after move entry c of wins' list.
func (w *wlWorker) child(n *node, c uint8, kids *[12]node, occ uint32) node {
	if c < 32 {
		return kids[c]
	}
	ch := *n
	ch.place(int(c-32), occ)
	return ch
}

// store records n's result in the table and, at the checkpoint's layer, in
// the checkpoint.
func (w *wlWorker) store(n *node, key uint64, sym, rank int, win bool, move uint8, nodes int64) {
	if move != noMove {
		move = mapMove(sym, move)
	}
	w.s.tt.put(key, win, move, nodes)
	if rank >= 0 {
		w.s.opt.Checkpoint.set(rank, win)
	}
}

// mix is a 64-bit hash (splitmix64's finaliser) for the helpers' orders.
func mix(a, b uint64) uint64 {
	x := a ^ b*0x9e3779b97f4a7c15
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
