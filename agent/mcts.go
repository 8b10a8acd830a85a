package agent

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/tabula-games/tabula/game"
)

// SeekMode says when a search scores positions with one of the game's
// searching-seat heuristics: exchanges (MCTSConfig.Exchange) or contact
// (MCTSConfig.Contact). Against greedy Skjuub's search drew less when it
// sought exchanges, and in self-play at every move it leaned weaker
// (docs/ai.md, "What decides Skjuub's draws"); a player ahead trades down,
// one behind does not.
type SeekMode uint8

const (
	// SeekOff scores positions with the game's Evaluator.
	SeekOff SeekMode = iota
	// SeekOn seeks at every move.
	SeekOn
	// SeekAhead seeks at the moves whose position has the searching seat
	// ahead (game.Leader), for the whole of that move's search.
	SeekAhead
	// SeekNotBehind seeks at the moves whose position does not have the
	// other side ahead: when ahead and when even. Early in a game the
	// sides are mostly even, and at the hard level's budget seeking
	// exchanges so lost self-play as at every move (docs/ai.md).
	SeekNotBehind
	// SeekStalled seeks at the moves where the game has gone half its
	// stall horizon without progress, where StallBoost boosts: before
	// that the search is the level's, move for move. Most of Skjuub's
	// draws with greedy are locks in which nothing has changed for
	// dozens of turns (docs/ai.md, "Contact"), and most games never stall.
	SeekStalled
)

// seekModeNames are the modes as an agent spec names them (exchange=NAME,
// contact=NAME) and the log of a match shows them.
var seekModeNames = [...]string{
	SeekOff:       "off",
	SeekOn:        "on",
	SeekAhead:     "ahead",
	SeekNotBehind: "notbehind",
	SeekStalled:   "stalled",
}

// String is the mode's name in an agent spec.
func (m SeekMode) String() string {
	if int(m) < len(seekModeNames) {
		return seekModeNames[m]
	}
	return fmt.Sprintf("SeekMode(%d)", m)
}

// at says whether a search of s for seat me seeks in this mode. It is
// chosen once a move, so that every position of one search is scored on
// one scale; a subtree kept from the last move keeps the values it was
// searched with. A game without a game.Leader is never ahead; stalled says
// the game has gone half its stall horizon without progress (halfStalled).
func (m SeekMode) at(s game.State, me int, stalled bool) bool {
	switch m {
	case SeekOn:
		return true
	case SeekStalled:
		return stalled
	case SeekAhead, SeekNotBehind:
		l, ok := s.(game.Leader)
		if !ok {
			return false
		}
		if m == SeekAhead {
			return l.Ahead(me)
		}
		return !l.Ahead(1 - me)
	}
	return false
}

// seeksExchanges says whether a search of s for seat me scores positions
// with the game's game.ExchangeEvaluator.
func (c *MCTSConfig) seeksExchanges(s game.State, me int, stalled bool) bool {
	_, ok := s.(game.ExchangeEvaluator)
	return ok && c.Exchange.at(s, me, stalled)
}

// seeksContact says whether a search of s for seat me scores positions
// with the game's game.ContactEvaluator.
func (c *MCTSConfig) seeksContact(s game.State, me int, stalled bool) bool {
	_, ok := s.(game.ContactEvaluator)
	return ok && c.Contact.at(s, me, stalled)
}

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
	// EdgeBlocks gives a node its moves as edges a block at a time
	// (widen) instead of all at once when it is expanded: the same search
	// until the edge pool (four edges a node) runs out, which it then does
	// much later or never — with all at once Skjuub's hard level expands no
	// node after the first 36,000 of its 272,000 iterations from the start.
	// Skjuub's medium and hard levels have it on, where self-play showed
	// the longer-growing tree no weaker; elsewhere it is off (docs/ai.md).
	EdgeBlocks bool
	// KeepBytes bounds the subtree each worker keeps between moves (0:
	// DefaultKeepBytes; below 0: no bound): what a game holds while it
	// waits for its next move.
	KeepBytes int64
	// UniformPlayouts makes playouts uniformly random even where the game
	// offers search a cheaper policy (game.SearchPlayouter).
	UniformPlayouts bool
	// PlayoutK > 1 guides cut-off playouts (PlayoutPlies > 0) with the
	// game's Evaluator: each playout move is the best of PlayoutK random
	// legal moves.
	PlayoutK int
	// Bias > 0 turns on progressive bias: new moves are scored by the
	// game's Evaluator, tried best first, and get bias·prior/(visits+1)
	// added to their UCT value.
	Bias float64
	// Minimax > 0 mixes implicit minimax backups into selection (Lanctot
	// et al., 2014): each node keeps the minimax value of the heuristic
	// evaluations of its subtree's positions, and an edge's value is
	// (1−Minimax)·mean + Minimax·that value. Two-player games only.
	Minimax float64
	// Exchange says at which moves the search scores positions, at the
	// playouts' cut-off and in the minimax backups, with the game's
	// game.ExchangeEvaluator (where it has one): the searching seat seeks
	// exchanges. Off by default.
	Exchange SeekMode
	// Contact says at which moves the search scores positions, at the
	// playouts' cut-off and in the minimax backups, with the game's
	// game.ContactEvaluator (where it has one): the searching seat seeks
	// positions where the two sides' pieces can meet. Not with Exchange:
	// the two are ways of scoring the same positions. Off by default.
	Contact SeekMode
	// Contempt is how much less than an even share the searching seat
	// counts a draw (its opponents count it that much more): above 0 the
	// bot avoids repetitions and plays on for a win against a weaker
	// opponent, as chess engines do. 0 takes the game's
	// game.DrawContempt (none where the game has none); below 0 is none.
	Contempt float64
	// NoTT switches off the transposition table: every path gets its own
	// nodes even where two move orders reach one position.
	NoTT bool
	// Solver lets the game's exact solver (game.RegisterSolver; Sploof has
	// one) try each position before the search: a proven position is
	// played from the proof — the fastest win, or when lost the longest
	// resistance — and the search runs only when the proof does not come
	// within the solver's budget. Games without a solver ignore it.
	Solver bool
	// KeepSolver makes the agent keep its own solver, table and all,
	// between the moves of its game, as bots did before the tables were
	// pooled (solvers.go): later proofs reuse what earlier moves taught
	// the table, and a waiting game holds it. For measuring the pool.
	KeepSolver bool
	// SolverNodes bounds the solver's nodes per move (0: DefaultSolverNodes).
	// With a time budget the solver also stops after SolverShare of it; the
	// search gets what is left.
	SolverNodes int64
	// Stall is how many turns without progress the search counts as a
	// draw in games that report their progress (game.Progress): 0 takes
	// the game's StallTurns, -1 switches it off.
	Stall int
	// StallPlayoutsOnly applies the stall horizon only at a playout's end,
	// as the search did before December 2026, instead of wherever a line
	// of the tree reaches it (stalledInTree); for measuring the change.
	StallPlayoutsOnly bool
	// NoRepetition switches off scoring a line that repeats a position as
	// a draw in games that draw on repetition (game.Repetition).
	NoRepetition bool
	// StallBoost multiplies the move's budget, iterations and time cap
	// alike, when the game has gone half its stall horizon without
	// progress (game.Progress): a game that the shuffling would draw is
	// worth a longer look, since the line that breaks the lock (Skjuub: a
	// sacrifice for a quarter turn, then the hunt) is deeper than the
	// normal budget sees (docs/ai.md). Whoever is ahead: boosting only
	// where Skjuub's measure (game.Leader) has the bot ahead would have
	// missed three of the hard level's ten draws with greedy entirely.
	// 0 or 1: never.
	StallBoost int
	// Stuck brings the heuristic's value of a position in which the
	// searching seat can make no progress on its own (Skjuub: no pool, no
	// move that sacrifices or captures) toward the draw's, by this share
	// (0…1; 0: never).
	Stuck float64
}

// Named defaults, each with its reason.
const (
	// DefaultC is the exploration constant tuned by self-play (see
	// docs/ai.md): smaller than the textbook √2 because rewards are in
	// [0,1] and the games' branching factors are large.
	DefaultC = 0.7
	// DefaultIters applies when a config sets no budget at all.
	DefaultIters = 10000
	// DefaultMaxNodes bounds a worker's tree: 512k nodes (32 bytes) and
	// up to four edges per node (16 bytes) is at most about 50 MB, plus a
	// 12 MB transposition table. A search makes one node per iteration at
	// most; in Skjuub, whose positions have fifteen to a hundred moves,
	// the edges run out first (EdgeBlocks). The tree grows in an arena
	// taken from a pool for the search only (arena.go); between moves a
	// bot keeps the subtree of its move.
	DefaultMaxNodes = 1 << 19
	// DefaultKeepBytes is what each worker may keep between moves: a game
	// of two hard bots (two workers each) then holds at most 4 MiB of
	// trees while it waits. Unbounded, the subtree of the move played grew
	// with the search — 16-30 MiB a game from the twentieth ply of a
	// Skjuub game between hard bots, up to 7 MiB at 30,000 iterations a
	// worker — while the next search uses mostly its top (docs/ai.md,
	// Memory of the bots).
	DefaultKeepBytes = 1 << 20
	// checkEvery: the clock and the context are read every this many
	// iterations (a power of two), so they cost nothing measurable.
	checkEvery = 128
	// reuseDepth is how many plies below the previous root the agent looks
	// for the new position when reusing its tree (the opponent's reply,
	// plus multi-ply turns).
	reuseDepth = 4
	// DefaultSolverNodes bounds the solver's work per move: about a second
	// of one core, enough to prove Sploof positions from about ply 14 of a
	// game between strong bots (they last 20 to 30 plies).
	DefaultSolverNodes = 1 << 21
	// SolverShare is the part of a time budget the solver may take before
	// the search gets the rest: small, so that where the solver cannot
	// reach (the opening) the search loses little.
	SolverShare = 0.25
	// SolverTableBytes is the solver's table: 32 MiB, held by a bot
	// only while it moves, taken emptied from a pool the games share
	// (solvers.go).
	SolverTableBytes = 32 << 20
)

// keepBytes is the bound on the subtree a worker keeps (KeepBytes).
func (c *MCTSConfig) keepBytes() int64 {
	switch {
	case c.KeepBytes == 0:
		return DefaultKeepBytes
	case c.KeepBytes < 0:
		return math.MaxInt64
	}
	return c.KeepBytes
}

// MCTS is a UCT searcher. Each worker keeps its own tree between moves of
// one game and reuses the subtree of the position actually reached.
type MCTS struct {
	cfg     MCTSConfig
	name    string
	rng     game.RNG
	workers []*searcher
	// noSolver is set when the game has no exact solver or it refuses
	// the game's positions.
	noSolver bool
	// own is the solver a KeepSolver agent keeps between moves, ownSize
	// its table's bytes and ownHold their reservation (kept).
	own     game.Solver
	ownSize int
	ownHold hold
	// mu guards choosing and restLater: a Rest asked for while Choose
	// runs (a server drops the agents of a game that ended meanwhile)
	// happens when Choose returns.
	mu        sync.Mutex
	choosing  bool
	restLater bool
	// LastStats describes the most recent search, for bench and tests.
	LastStats SearchStats
	// progress is what the agent has seen of the game's progress
	// (game.Progress) over its moves, for the search's stall horizon.
	progress progressSeen
	// keepWhole (tests) keeps each worker's whole tree and arena between
	// moves instead of the chosen move's subtree, as the agent did before
	// idle: the tests hold the two to the same moves.
	keepWhole bool
}

// SearchStats reports what one Choose did.
type SearchStats struct {
	Iterations int           // summed over workers
	Workers    int           // how many searched (WithCores may leave some out)
	Elapsed    time.Duration // wall-clock time
	Reused     int           // root visits inherited from the previous search
	Nodes      int           // nodes in the trees when the search ended, summed over workers
	// SolverNodes is what the exact solver spent; Proven says that it
	// proved the position and its proof chose the move (then Iterations
	// is 0: no search ran).
	SolverNodes int64
	Proven      bool
	// Book says that the move came from the game's book of positions
	// solved ahead of time (game.LookUpBook); Proven is then set too.
	Book bool
	// Degraded says that the node's memory budget (WithBudget) could not
	// lend this search all it asks for: a worker grew a tree smaller than
	// MaxNodes, or the solver had a smaller table or none.
	Degraded bool
	// Boosted says that the game had stalled and the search had
	// StallBoost times its budget.
	Boosted bool
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

// Cores is how many goroutines a search runs at once.
func (m *MCTS) Cores() int { return len(m.workers) }

// Choose implements Agent.
func (m *MCTS) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	m.mu.Lock()
	m.choosing = true
	m.mu.Unlock()
	defer func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		m.choosing = false
		if m.restLater {
			m.restLater = false
			m.rest()
		}
	}()
	s := obs.World()
	legal, forced, done, err := opening(s, &m.rng, m.cfg.Epsilon)
	if done {
		return forced, err
	}
	start := time.Now()
	budget := BudgetIn(ctx)
	var solverNodes int64
	degraded := false
	inBook := false
	if m.cfg.Solver {
		// A position solved ahead of time: the book's move keeps the win,
		// found in no time, where the solver might not prove it in its
		// budget (Sploof's start: Black's moves of the proof).
		var e game.BookEntry
		if e, inBook = game.LookUpBook(s); inBook && e.HasMove && e.Winner == s.ToMove() {
			m.LastStats = SearchStats{Elapsed: time.Since(start), Proven: true, Book: true}
			return e.Move, nil
		}
	}
	// The loser of a book position is not given to the exact solver: the
	// book's positions were decided in hours, and within its budget the
	// solver proves none (Sploof: its whole 2 million nodes, half a second,
	// at each of White's moves of the book), which the search can use.
	if m.cfg.Solver && !m.noSolver && !inBook {
		mv, nodes, proven, short := m.solve(ctx, s, start, budget)
		degraded = short
		if proven {
			m.LastStats = SearchStats{Elapsed: time.Since(start), SolverNodes: nodes, Proven: true, Degraded: degraded}
			return mv, nil
		}
		solverNodes = nodes
	}
	quiet := m.progress.quiet(s)
	boost := m.stallBoost(s, quiet)
	stop := deadline(start, m.cfg.Time*time.Duration(boost))
	for _, w := range m.workers {
		w.quiet, w.budget = quiet, budget
	}
	n := searching(ctx, len(m.workers))
	for i, w := range m.workers[n:] {
		// Sitting this one out: its tree would be stale next time.
		w.rest()
		m.workers[n+i] = &searcher{cfg: &m.cfg, rng: w.rng}
	}
	// Fewer workers than the agent has share its whole iteration budget.
	iters := (m.cfg.Iters*boost*len(m.workers) + n - 1) / n
	parallel(ctx, n, func(i int) { m.workers[i].search(ctx, s, stop, iters) })
	// Merge the root children of the workers that searched by move.
	visits := make(map[game.Move]float64, len(legal))
	stats := SearchStats{Elapsed: time.Since(start), SolverNodes: solverNodes, Workers: n, Degraded: degraded, Boosted: boost > 1}
	for _, w := range m.workers[:n] {
		stats.Iterations += w.iters
		stats.Reused += w.reused
		stats.Nodes += len(w.nodes)
		stats.Degraded = stats.Degraded || w.degraded
		r := &w.nodes[w.root]
		for _, e := range w.edges[r.first : r.first+int32(r.nedges)] {
			visits[e.move] += float64(e.visits)
		}
	}
	m.LastStats = stats
	if err := ctx.Err(); err != nil && stats.Iterations == 0 {
		for _, w := range m.workers[:n] {
			w.idle(0, nil)
		}
		return 0, err
	}
	mv := m.pick(legal, visits)
	for _, w := range m.workers[:n] {
		if !m.keepWhole {
			w.idle(mv, s)
		}
	}
	return mv, nil
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

// Rest implements Rester: the agent lets go of the subtrees its workers
// keep (and with KeepSolver of its solver's table), and gives their memory
// back to the budget. Its next move searches from a fresh tree. Called
// while Choose runs, it happens when Choose returns.
func (m *MCTS) Rest() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.choosing {
		m.restLater = true
		return
	}
	m.rest()
}

func (m *MCTS) rest() {
	for _, w := range m.workers {
		w.rest()
	}
	m.dropOwnSolver()
}

// dropOwnSolver lets go of the solver a KeepSolver agent keeps, table and
// all: the next move starts from an empty table, as the game's first did.
func (m *MCTS) dropOwnSolver() {
	m.own, m.ownSize = nil, 0
	m.ownHold.release()
}

// Close implements Closer: Rest, for an agent that will not move again.
func (m *MCTS) Close() error {
	m.Rest()
	return nil
}

// solverTableSizes are the solver tables a bot asks its budget for, in
// turn: SolverTableBytes, then an eighth of it on a node whose budget is
// nearly spent.
var solverTableSizes = [...]int{SolverTableBytes, SolverTableBytes / 8}

// solve gives the game's exact solver its share of the move's budget. It
// returns the proof's first move when the position is proven — the line of
// best play, in which the winner takes the fastest win and the loser the
// longest resistance — and the nodes spent either way. The solver, with its
// table, is taken from the process's pool for this move and given back when
// it ends (solvers.go), its table reserved from budget meanwhile (with
// KeepSolver the agent keeps it, reserved as kept, until Rest); short says
// that the budget lent a smaller table than SolverTableBytes, or none (the
// solver then sits this move out).
func (m *MCTS) solve(ctx context.Context, s game.State, start time.Time, budget Budget) (mv game.Move, nodes int64, proven, short bool) {
	name := s.Game().Name()
	if !game.HasSolver(name) {
		m.noSolver = true
		return 0, 0, false, false
	}
	solver, size := m.own, m.ownSize
	if solver == nil {
		h, kept := new(hold), m.cfg.KeepSolver
		if kept {
			h = &m.ownHold
		}
		for _, b := range solverTableSizes {
			if h.take(budget, int64(b), kept) {
				size = b
				break
			}
		}
		if size == 0 {
			return 0, 0, false, true
		}
		var err error
		if solver, err = takeSolver(name, size); err != nil {
			h.release()
			m.noSolver = true
			return 0, 0, false, false
		}
		if kept {
			m.own, m.ownSize = solver, size
		} else {
			defer h.release()
			defer putSolver(name, size, solver)
		}
	}
	short = size < SolverTableBytes
	if m.cfg.Time > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, start.Add(time.Duration(float64(m.cfg.Time)*SolverShare)))
		defer cancel()
	}
	limit := m.cfg.SolverNodes
	if limit <= 0 {
		limit = DefaultSolverNodes
	}
	sol, err := solver.Solve(ctx, s, limit)
	if err != nil {
		// Options or a position the solver does not take: it will not
		// take the rest of this game's either.
		m.noSolver = true
		m.dropOwnSolver()
		return 0, sol.Nodes, false, short
	}
	if !sol.Proven || len(sol.Line) == 0 {
		return 0, sol.Nodes, false, short
	}
	return sol.Line[0], sol.Nodes, true, short
}
