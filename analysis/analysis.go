// Package analysis is what the engine sees: the analysis board's live search
// of one position (the evaluation, the top lines with their visit shares, and
// for a game with an exact solver the proof) and the review of a finished
// game (every position evaluated, the moves that threw win probability away
// marked, with the better move). It sits above agent/ and knows nothing of
// HTTP: `tabula analyse`, `tabula review` and the server's analysis API all
// call it.
package analysis

import (
	"context"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// Options set one analysis of a position.
type Options struct {
	// Time is the whole search's budget (0: until ctx ends or Iters is
	// reached); Iters bounds the search's iterations per worker (0: none).
	// At least one of Time, Iters or a context that ends must stop it.
	Time  time.Duration
	Iters int
	// Interval is how often a report is made while searching (default
	// DefaultInterval).
	Interval time.Duration
	// Lines is how many root moves a report shows (default 3); Depth how
	// long each line may be (default DefaultDepth).
	Lines, Depth int
	Search
}

// Search is how an analysis and a review search: the settings they share.
type Search struct {
	// Workers is the number of search goroutines (default 1).
	Workers int
	// MaxNodes bounds each worker's tree (default agent.DefaultMaxNodes).
	MaxNodes int
	// Seed makes the search reproducible.
	Seed uint64
	// SolverNodes is the exact solver's budget in positions over the whole
	// analysis (a review: for each position), for a game that has one (0:
	// the default; < 0: no solver). SolverTable is its table's size in
	// bytes (0: DefaultSolverTable).
	SolverNodes int64
	SolverTable int
	// Gate, when set, is called before each slice of search and the
	// release it returns after: a server makes analysis wait there for
	// its compute pool (bots' moves first, a fair share per user), and
	// ends it by returning an error.
	Gate func(ctx context.Context) (release func(), err error)
}

// Defaults, each with its reason.
const (
	// DefaultInterval: four reports a second move the bars smoothly
	// without the reports costing anything next to the search.
	DefaultInterval = 250 * time.Millisecond
	// DefaultDepth: lines longer than ten plies are mostly noise at the
	// visit counts an analysis of seconds reaches.
	DefaultDepth = 10
	// DefaultSolverNodes: about ten seconds of Sploof's solver on one
	// core, enough for positions from about ply 14 on; earlier positions
	// stay unproven rather than holding a worker for minutes.
	DefaultSolverNodes = 40_000_000
	// DefaultSolverTable: 32 MiB holds the proofs of an analysis's
	// positions, and a node runs only a few analyses at once.
	DefaultSolverTable = 32 << 20
	// firstSolverSlice is the solver's first budget; each later slice
	// doubles it, so a quick proof comes at once and a slow one costs at
	// most twice the work of one call (the table keeps what earlier
	// slices found).
	firstSolverSlice = 1 << 17
	// iterSlice is a slice's iterations per worker when the budget is in
	// iterations.
	iterSlice = 4096
)

// Report is the analysis as it stands: what a CLI prints and the server
// streams.
type Report struct {
	Game string `json:"game"`
	// ToMove is the seat to move and Seat how the notation names it.
	ToMove int    `json:"toMove"`
	Seat   string `json:"seat"`
	// Win is the side to move's win probability (a draw counts half): 1
	// or 0 when the position is proven, else the search's estimate.
	Win   float64  `json:"win"`
	Lines []Line   `json:"lines"`
	Exact *Verdict `json:"exact,omitempty"`
	// Solved is what the game's book of positions solved ahead of time
	// knows of the position (Sploof: the proof from the start), when it
	// knows it: who wins, not in how many plies.
	Solved *Solved `json:"solved,omitempty"`
	// Iterations and Millis are the search's work so far; SolverNodes the
	// exact solver's.
	Iterations  int   `json:"iterations"`
	Millis      int64 `json:"ms"`
	SolverNodes int64 `json:"solverNodes,omitempty"`
	// Done is set on the last report of a search.
	Done bool `json:"done"`
}

// Line is one of the best moves and what follows it.
type Line struct {
	Move string `json:"move"`
	// Visits and Share: how often the search tried the move, and its part
	// of all tries at the root.
	Visits int     `json:"visits"`
	Share  float64 `json:"share"`
	// Win is the side to move's win probability after the move.
	Win float64 `json:"win"`
	// PV is the line: the move, then the expected replies.
	PV []string `json:"pv"`
	// Exact is the solver's verdict on the position after the move, when
	// it has one.
	Exact *Verdict `json:"exact,omitempty"`
}

// Verdict is a proven result: who wins with best play, in how many plies,
// and a line that proves it.
type Verdict struct {
	Winner     int      `json:"winner"`
	WinnerName string   `json:"winnerName"`
	Plies      int      `json:"plies"`
	Line       []string `json:"line"`
	// Text is the verdict in English: "White wins in 7 plies".
	Text string `json:"text"`
}

// Solved is a result known ahead of time (game.LookUpBook).
type Solved struct {
	Winner     int    `json:"winner"`
	WinnerName string `json:"winnerName"`
	// Move is the proof's move where the winner is to move, else "".
	Move string `json:"move,omitempty"`
	// Source says where the proof is, for people to read.
	Source string `json:"source"`
}

// solvedOf is what s's game's book knows of s, or nil.
func solvedOf(s game.State) *Solved {
	b, ok := game.LookUpBook(s)
	if !ok {
		return nil
	}
	v := &Solved{Winner: b.Winner, WinnerName: s.SeatName(b.Winner), Source: b.Source}
	if b.HasMove {
		v.Move = s.FormatMove(b.Move)
	}
	return v
}

// verdict turns a solver's proof of s into a Verdict.
func verdict(s game.State, sol game.Solution) *Verdict {
	name := s.SeatName(sol.Winner)
	unit := "plies"
	if sol.Plies == 1 {
		unit = "ply"
	}
	return &Verdict{
		Winner: sol.Winner, WinnerName: name, Plies: sol.Plies, Line: game.LineTexts(s, sol.Line),
		Text: fmt.Sprintf("%s wins in %d %s", capitalise(name), sol.Plies, unit),
	}
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return string(s[0]&^0x20) + s[1:]
}

// CanAnalyse reports why s cannot be searched on the analysis board, or nil:
// the board searches the true position, which a game with hidden
// information must not show (its review judges from each seat's view
// instead), and a finished game has nothing left to search.
func CanAnalyse(s game.State) error {
	if game.Hidden(s) {
		return fmt.Errorf("%s hides information: the analysis board is for games of perfect information (a finished game can be reviewed)", s.Game().Title())
	}
	if s.Outcome().Over() {
		return fmt.Errorf("the game is over at this position: %w", game.ErrGameOver)
	}
	return nil
}

// Analyse searches s and calls report (which may be nil) with the analysis
// as it stands every Interval and once more at the end (Done set), until
// ctx ends or the budget is spent. It returns the last report. An ended ctx
// is not an error: the analysis so far is the answer.
func Analyse(ctx context.Context, s game.State, opt Options, report func(Report)) (Report, error) {
	if err := CanAnalyse(s); err != nil {
		return Report{}, err
	}
	if opt.Time <= 0 && opt.Iters <= 0 && ctx.Done() == nil {
		return Report{}, fmt.Errorf("analysis: no budget: set a time, iterations or a context that ends")
	}
	opt.defaults()
	e, err := newEngine(s, opt)
	if err != nil {
		return Report{}, err
	}
	start := time.Now()
	var end time.Time
	if opt.Time > 0 {
		end = start.Add(opt.Time)
	}
	for {
		release := func() {}
		if opt.Gate != nil {
			var err error
			if release, err = opt.Gate(ctx); err != nil {
				break
			}
		}
		slice := opt.Interval
		if !end.IsZero() {
			slice = min(slice, time.Until(end))
		}
		left := 0
		if opt.Iters > 0 {
			left = opt.Iters - e.iters()
		}
		last := !end.IsZero() && slice >= time.Until(end)
		if opt.Iters > 0 {
			// Reproducible: slices of a fixed number of iterations, the
			// solver bounded by nodes alone, so that neither the load of
			// the machine nor the clock changes the answer.
			last = last || left <= iterSlice
			left = min(left, iterSlice)
			if opt.Time <= 0 {
				slice = 0
			}
		}
		if slice > 0 || left > 0 {
			e.search(ctx, slice, left)
			e.solve(ctx, slice, last)
		}
		release()
		finished := ctx.Err() != nil || (!end.IsZero() && !time.Now().Before(end)) || (opt.Iters > 0 && e.iters() >= opt.Iters)
		r := e.report(finished, time.Since(start))
		if report != nil {
			report(r)
		}
		if finished {
			return r, nil
		}
	}
	r := e.report(true, time.Since(start))
	if report != nil {
		report(r)
	}
	return r, nil
}

func (o *Options) defaults() {
	if o.Interval <= 0 {
		o.Interval = DefaultInterval
	}
	if o.Lines <= 0 {
		o.Lines = 3
	}
	if o.Depth <= 0 {
		o.Depth = DefaultDepth
	}
	if o.SolverNodes == 0 {
		o.SolverNodes = DefaultSolverNodes
	}
	if o.SolverTable <= 0 {
		o.SolverTable = DefaultSolverTable
	}
}

// engine is one position's search and, where the game has one, its exact
// solver.
type engine struct {
	s      game.State
	opt    Options
	mcts   *agent.Analysis
	solver game.Solver
	// spent and slice are the solver's nodes so far and its next budget;
	// exact is its proof of s, and children its proofs of the moves shown.
	spent, slice int64
	exact        *Verdict
	children     map[string]*Verdict
	solved       *Solved
}

func newEngine(s game.State, opt Options) (*engine, error) {
	cfg := agent.MCTSConfig{Workers: opt.Workers, MaxNodes: opt.MaxNodes}
	// The tree takes its moves as the game's strongest bot does: in
	// Skjuub a block at a time, or a long analysis stops growing its tree
	// early (docs/ai.md, "Skjuub's tree stops expanding").
	if hard, ok := agent.LevelConfig(s.Game().Name(), "hard"); ok {
		cfg.EdgeBlocks = hard.EdgeBlocks
	}
	a, err := agent.NewAnalysis(s, cfg, opt.Seed)
	if err != nil {
		return nil, err
	}
	e := &engine{s: s.Clone(), opt: opt, mcts: a, slice: firstSolverSlice, children: map[string]*Verdict{}, solved: solvedOf(s)}
	// A position of the game's book is solved already: near Sploof's start,
	// where the book is, the solver would spend its whole budget (seconds of
	// a core, on the opening every visitor of the board starts from) and
	// prove nothing.
	if opt.SolverNodes > 0 && game.HasSolver(s.Game().Name()) && e.solved == nil {
		if e.solver, err = game.NewSolver(s.Game().Name(), opt.SolverTable); err != nil {
			e.solver = nil
		}
	}
	return e, nil
}

func (e *engine) iters() int {
	if w := max(e.opt.Workers, 1); w > 1 {
		return e.mcts.Iterations() / w
	}
	return e.mcts.Iterations()
}

func (e *engine) search(ctx context.Context, d time.Duration, iters int) {
	e.mcts.Run(ctx, d, iters)
}

// solve gives the solver one slice of its budget (the last slice: all that
// is left): first the position, then once it is proven the positions after
// the moves the report shows.
func (e *engine) solve(ctx context.Context, d time.Duration, last bool) {
	if e.solver == nil || e.spent >= e.opt.SolverNodes {
		return
	}
	if d > 0 {
		// The solver must not hold up the reports for long.
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 2*d)
		defer cancel()
	}
	budget := e.opt.SolverNodes - e.spent
	if !last {
		budget = min(budget, e.slice)
	}
	if e.slice < e.opt.SolverNodes {
		e.slice *= 2
	}
	if e.exact == nil {
		sol, err := e.solver.Solve(ctx, e.s, budget)
		e.spent += sol.Nodes
		if err != nil {
			e.solver = nil // a position or options the solver does not take
			return
		}
		if !sol.Proven {
			return
		}
		e.exact = verdict(e.s, sol)
	}
	for _, l := range e.mcts.Lines(e.opt.Lines, 1) {
		text := e.s.FormatMove(l.Move)
		if _, done := e.children[text]; done {
			continue
		}
		c := e.s.Clone()
		c.Play(l.Move)
		// A proof of the position after the move is a proof of the move:
		// one ply longer, the move first.
		var sol game.Solution
		if o := c.Outcome(); o.Over() {
			sol = game.Solution{Proven: o.Status == game.Won, Winner: firstWinner(c, o)}
		} else {
			left := min(budget, e.opt.SolverNodes-e.spent)
			if left <= 0 {
				return
			}
			var err error
			sol, err = e.solver.Solve(ctx, c, left)
			e.spent += sol.Nodes
			if err != nil || !sol.Proven {
				return
			}
		}
		if !sol.Proven {
			continue
		}
		sol.Plies++
		sol.Line = append([]game.Move{l.Move}, sol.Line...)
		e.children[text] = verdict(e.s, sol)
	}
}

// firstWinner is the lowest seat among o's winners.
func firstWinner(s game.State, o game.Outcome) int {
	for seat := 0; seat < s.NumPlayers(); seat++ {
		if o.IsWinner(seat) {
			return seat
		}
	}
	return -1
}

func (e *engine) report(done bool, elapsed time.Duration) Report {
	seat := e.s.ToMove()
	r := Report{
		Game: e.s.Game().Name(), ToMove: seat, Seat: e.s.SeatName(seat), Iterations: e.mcts.Iterations(),
		Millis: elapsed.Milliseconds(), SolverNodes: e.spent, Done: done, Exact: e.exact, Solved: e.solved, Lines: []Line{},
	}
	for _, l := range e.mcts.Lines(e.opt.Lines, e.opt.Depth) {
		pv := game.LineTexts(e.s, l.PV)
		ln := Line{Move: pv[0], Visits: l.Visits, Share: l.Share, Win: l.Value, PV: pv, Exact: e.children[pv[0]]}
		if ln.Exact != nil {
			ln.Win = winOf(ln.Exact, seat)
		} else if e.solved != nil && e.solved.Move == ln.Move {
			ln.Win = 1 // the proof's move keeps the win
		}
		r.Lines = append(r.Lines, ln)
	}
	switch {
	case e.exact != nil:
		r.Win = winOf(e.exact, seat)
	case e.solved != nil:
		r.Win = 0
		if e.solved.Winner == seat {
			r.Win = 1
		}
	case len(r.Lines) > 0:
		r.Win = r.Lines[0].Win
	default:
		r.Win = 0.5
	}
	return r
}

// winOf is seat's win probability under a proven verdict.
func winOf(v *Verdict, seat int) float64 {
	if v.Winner == seat {
		return 1
	}
	return 0
}
