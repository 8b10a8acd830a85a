// Package solve is Sploof's exact solver: negamax with alpha-beta over the
// rules' bitboards, a transposition table keyed on the position reduced
// under the pyramid's 8 symmetries, immediate wins first and blocks next,
// and null-window probes that find first who wins, then how fast. It proves
// a position won or lost under the default rules (supply=finite,
// bothlines=mover: no draws, a side without a move loses) and gives the
// length of the rest of the game with best play — the winner hurrying, the
// loser holding out — and the line that proves it.
//
// Beside it: the layered retrograde database (retro.go), and the win/loss
// solver that decides only who wins (winloss.go) with its checkpoint of one
// layer (checkpoint.go) and the winner's strategy with an independent
// checker (strategy.go, strategycheck.go) — see docs/solving.md.
//
// The ideas follow Pascal Pons' "Solving Connect 4" (score = how early the
// game ends, null windows in a dichotomy biased towards short wins, a
// bounds table) and John Tromp's Connect-4 work; the code is this package's.
package solve

import (
	"context"
	"errors"
	"fmt"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// DefaultTableBytes is the table size when none is given: 64 MiB, 4M
// entries, enough for positions from about ply 12 in seconds.
const DefaultTableBytes = 64 << 20

// pollEvery: the context and the node budget are checked every this many
// nodes plus one (a power of two less one).
const pollEvery = 1<<12 - 1

func init() {
	game.RegisterSolver("sploof", func(tableBytes int) game.Solver { return New(tableBytes) })
}

// Solver solves Sploof positions. It keeps its table between calls, so the
// positions of one game are solved faster one after the other. It is not
// safe for concurrent use.
type Solver struct {
	tableBytes int
	tt         *table
	order      moveOrder

	nodes   int64
	limit   int64 // stop once nodes exceeds it (0: no limit)
	ctx     context.Context
	stopped bool
}

// New returns a solver whose table takes about tableBytes (0: the default);
// the table is allocated on first use.
func New(tableBytes int) *Solver {
	if tableBytes <= 0 {
		tableBytes = DefaultTableBytes
	}
	return &Solver{tableBytes: tableBytes}
}

// errStopped reports a search cut short by its budget.
var errStopped = errors.New("sploof solver: budget spent")

// Solve implements game.Solver for Sploof states played with the default
// rules.
func (s *Solver) Solve(ctx context.Context, st game.State, maxNodes int64) (game.Solution, error) {
	ss, ok := st.(*sploof.State)
	if !ok {
		return game.Solution{}, fmt.Errorf("sploof solver: not a sploof position")
	}
	if st.Outcome().Over() {
		return game.Solution{}, fmt.Errorf("sploof solver: %w", game.ErrGameOver)
	}
	if !ss.DefaultRules() {
		return game.Solution{}, fmt.Errorf("sploof solver: only the default rules (supply=finite, bothlines=mover) are solved")
	}
	n, err := nodeFromBits(ss.Bits())
	if err != nil {
		return game.Solution{}, fmt.Errorf("sploof solver: %w", err)
	}
	s.start(ctx, maxNodes)
	v, err := s.value(&n)
	sol := game.Solution{Nodes: s.nodes}
	if err != nil {
		return sol, nil
	}
	sol.Proven = true
	sol.Winner, sol.Plies = outcome(&n, v)
	s.limit = 0 // the line costs little once the table holds the proof
	for _, m := range s.line(n, v) {
		sol.Line = append(sol.Line, game.Move(m))
	}
	sol.Nodes = s.nodes
	return sol, nil
}

// Reset implements game.Solver: the table and the move order are emptied, the
// table's memory kept.
func (s *Solver) Reset() {
	if s.tt != nil {
		s.tt.clear()
	}
	s.order = moveOrder{}
}

// start resets the counters for a new call.
func (s *Solver) start(ctx context.Context, maxNodes int64) {
	if s.tt == nil {
		s.tt = newTable(s.tableBytes)
	}
	if ctx == nil {
		ctx = context.Background()
	}
	s.ctx, s.limit, s.nodes, s.stopped = ctx, maxNodes, 0, false
}

// poll stops the search when the budget is spent or the context is done.
func (s *Solver) poll() {
	if s.limit > 0 && s.nodes > s.limit || s.ctx.Err() != nil {
		s.stopped = true
	}
}

// outcome reads a score of n: the winning colour and the plies left.
func outcome(n *node, v int) (winner, plies int) {
	winner = int(n.turn)
	if v < 0 {
		winner, v = 1-winner, -v
	}
	return winner, scoreBase - v - int(n.ply)
}

// value is the exact score of n, found by null-window probes: a dichotomy
// over the possible scores that tries the extremes (a quick win, a quick
// loss) first, where probes are cheap, as Pons does for Connect 4.
func (s *Solver) value(n *node) (int, error) {
	occ := n.occ()
	if pm, rm := n.moveMasks(occ); pm|rm == 0 {
		return -(scoreBase - int(n.ply)), nil
	}
	lo, hi := -winNow(n), winNow(n)
	for lo < hi {
		med := lo + (hi-lo)/2
		if med <= 0 && lo/2 < med {
			med = lo / 2
		} else if med >= 0 && hi/2 > med {
			med = hi / 2
		}
		r := s.search(n, med, med+1)
		if s.stopped {
			return 0, errStopped
		}
		if r <= med {
			hi = r
		} else {
			lo = r
		}
	}
	return lo, nil
}

// line is the proving line from n, whose score is v: at each step a move
// whose result keeps the score (the winner's fastest, the loser's longest),
// found by a narrow probe of each child, the table's move first. It stops
// early only if the budget runs out.
func (s *Solver) line(n node, v int) []uint8 {
	var out []uint8
	for {
		occ := n.occ()
		pm, rm := n.moveMasks(occ)
		if pm|rm == 0 {
			return out
		}
		var cand []uint8
		key, sym := n.key()
		if e := s.tt.get(key); e != nil && e.move != noMove {
			cand = append(cand, mapMove(inv[sym], e.move))
		}
		for m := rm; m != 0; m &= m - 1 {
			cand = append(cand, uint8(sploof.RemoveFlag+trailing(m)))
		}
		for m := pm; m != 0; m &= m - 1 {
			cand = append(cand, uint8(trailing(m)))
		}
		found := false
		for _, m := range cand {
			c := n
			var cv int // the child's score for its side to move
			res := c.play(m)
			switch res {
			case 1:
				cv = -winNow(&n)
			case -1:
				cv = winNow(&n)
			default:
				cv = s.search(&c, -v-1, -v+1)
				if s.stopped {
					return out
				}
			}
			if cv == -v {
				out = append(out, m)
				if res != 0 {
					return out
				}
				n, v, found = c, -v, true
				break
			}
		}
		if !found {
			return out // cannot happen when v is n's score
		}
	}
}
