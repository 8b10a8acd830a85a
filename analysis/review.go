package analysis

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// A move is marked when it cost its mover at least this much win
// probability (the mover's chance before the move, with the best move,
// minus after the move played). Lichess marks chess moves at 5, 10 and 15
// points of win probability (0.1, 0.2, 0.3 of its "winning chances" in
// −1…1), computed from a deep engine's near-exact evaluations. Tabula's
// come from MCTS with cut-off playouts: two searches of one position at the
// review's 20,000 iterations differ by up to 2 points (TestMeasureReviewNoise;
// docs/ai.md, Analysis and review), and fewer iterations when a time cap
// binds differ more. Each step is therefore Lichess's plus room for that
// noise, the blunder step the most, so that the gravest word is not spent
// on the search's own wobble.
const (
	InaccuracyLoss = 0.07
	MistakeLoss    = 0.13
	BlunderLoss    = 0.22
)

// Mark is the review's word on one move.
type Mark string

// The marks, from mild to grave; the empty mark is a good move.
const (
	Good       Mark = ""
	Inaccuracy Mark = "inaccuracy"
	Mistake    Mark = "mistake"
	Blunder    Mark = "blunder"
)

// markFor is the mark of a move that lost loss of win probability.
func markFor(loss float64) Mark {
	switch {
	case loss >= BlunderLoss:
		return Blunder
	case loss >= MistakeLoss:
		return Mistake
	case loss >= InaccuracyLoss:
		return Inaccuracy
	}
	return Good
}

// ReviewOptions set a game review.
type ReviewOptions struct {
	// Iters is the search's iterations for each position of a game of
	// perfect information (default DefaultReviewIters); Time caps each
	// position's search (0: none).
	Iters int
	Time  time.Duration
	// Worlds is the number of sampled worlds for each decision of a game
	// with hidden information (default DefaultReviewWorlds).
	Worlds int
	Search
}

// Review defaults, each with its reason.
const (
	// DefaultReviewIters: 20,000 iterations put a position's estimate
	// within a few points of a much longer search (the noise test), and a
	// 60-ply game of the slowest game (Sgolte) then takes about a minute on
	// one core.
	DefaultReviewIters = 20_000
	// DefaultReviewWorlds: the hard sampling bot decides on 100 worlds;
	// its value estimates are paired (every move meets the same worlds), so
	// the differences that mark a move are far steadier than the values.
	DefaultReviewWorlds = 100
	// minJudgeVisits: a move the search tried this often has a mean worth
	// comparing with the best move's.
	minJudgeVisits = 100
	// allLines asks a review's search for every root move it tried.
	allLines = 1 << 12
	// reviewSolverNodes: a review proves positions from the end backward
	// and stops at the first that takes more than about a second.
	reviewSolverNodes = 4_000_000
)

// Review is the judgement of a whole game.
type Review struct {
	Game string `json:"game"`
	// Hidden is set for a game with hidden information: every decision
	// was judged from its mover's own view only (game.Observe), never from
	// the cards the finished game now shows.
	Hidden bool `json:"hidden"`
	// Seats names the seats at the start.
	Seats []string `json:"seats"`
	// Points has one entry per position, the start first and the end last:
	// the win-probability graph.
	Points []Point `json:"points"`
	// Moves has one entry per move of the game.
	Moves []Judgement `json:"moves"`
	// Counts is, per seat, how many inaccuracies, mistakes and blunders
	// it made.
	Counts []MarkCounts `json:"counts"`
}

// Point is one position of the game as the review sees it.
type Point struct {
	Ply int `json:"ply"`
	// Seat is the seat to move (-1 at the end); Win its win probability
	// with best play from here (its own view's estimate in a game with
	// hidden information).
	Seat int     `json:"seat"`
	Win  float64 `json:"win"`
	// Result is each seat's share of the result, at the end only.
	Result []float64 `json:"result,omitempty"`
	// Exact is the solver's proof of the position, when it has one.
	Exact *Verdict `json:"exact,omitempty"`
}

// Judgement is the review of one move.
type Judgement struct {
	Ply  int    `json:"ply"`
	Seat int    `json:"seat"`
	Move string `json:"move"`
	// Before is the mover's win probability with the best move, After with
	// the move played; Loss = Before − After (never below 0).
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	Loss   float64 `json:"loss"`
	Mark   Mark    `json:"mark,omitempty"`
	// Better is the engine's move where the move is marked, with the line
	// that follows it.
	Better     string   `json:"better,omitempty"`
	BetterLine []string `json:"betterLine,omitempty"`
}

// MarkCounts counts one seat's marked moves.
type MarkCounts struct {
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
}

// ReviewGame replays moves from start (checking each against the rules) and
// judges every one. progress, when set, is told after each position how
// many of the total are done. A game with hidden information is judged one
// decision at a time from the mover's observation alone.
func ReviewGame(ctx context.Context, start game.State, moves []string, opt ReviewOptions, progress func(done, total int)) (*Review, error) {
	states := []game.State{start.Clone()}
	st := start.Clone()
	played := make([]game.Move, len(moves))
	for i, text := range moves {
		if st.Outcome().Over() {
			return nil, fmt.Errorf("move %d %q: %w", i+1, text, game.ErrGameOver)
		}
		m, err := st.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("move %d %q: %w", i+1, text, err)
		}
		played[i] = m
		st.Play(m)
		states = append(states, st.Clone())
	}
	if opt.Iters <= 0 {
		opt.Iters = DefaultReviewIters
	}
	if opt.Worlds <= 0 {
		opt.Worlds = DefaultReviewWorlds
	}
	if opt.SolverNodes == 0 {
		opt.SolverNodes = reviewSolverNodes
	}
	n := start.NumPlayers()
	rv := &Review{Game: start.Game().Name(), Hidden: game.Hidden(start), Counts: make([]MarkCounts, n)}
	for seat := 0; seat < n; seat++ {
		rv.Seats = append(rv.Seats, start.SeatName(seat))
	}
	total := len(states)
	if rv.Hidden {
		if err := reviewHidden(ctx, rv, states, played, opt, progress); err != nil {
			return nil, err
		}
	} else if err := reviewOpen(ctx, rv, states, played, opt, progress); err != nil {
		return nil, err
	}
	end := states[len(states)-1]
	last := Point{Ply: len(moves), Seat: end.ToMove(), Win: 0.5}
	if o := end.Outcome(); o.Over() {
		last.Seat, last.Win = -1, 0
		for seat := 0; seat < n; seat++ {
			last.Result = append(last.Result, o.Reward(seat, n))
		}
	} else if len(rv.Points) == len(moves)+1 {
		last = rv.Points[len(moves)]
	}
	rv.Points = append(rv.Points[:len(moves)], last)
	for _, j := range rv.Moves {
		c := &rv.Counts[j.Seat]
		switch j.Mark {
		case Inaccuracy:
			c.Inaccuracies++
		case Mistake:
			c.Mistakes++
		case Blunder:
			c.Blunders++
		}
	}
	if progress != nil {
		progress(total, total)
	}
	return rv, nil
}

// reviewOpen reviews a game of perfect information: each position is
// searched as on the analysis board, and a move's cost is the mover's win
// probability before it (with the engine's best move) minus after it (the
// next position's evaluation, seen from the mover). The engine's own
// choice is never marked, whatever the noise between two searches says.
func reviewOpen(ctx context.Context, rv *Review, states []game.State, played []game.Move, opt ReviewOptions, progress func(done, total int)) error {
	exact := proveBackward(ctx, states, opt)
	reports := make([]*Report, len(states))
	for i, s := range states {
		if progress != nil {
			progress(i, len(states))
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if s.Outcome().Over() {
			rv.Points = append(rv.Points, Point{Ply: i, Seat: -1})
			continue
		}
		r, err := Analyse(ctx, s, Options{
			Iters: opt.Iters, Time: opt.Time, Interval: time.Hour, Lines: allLines, Search: Search{Workers: opt.Workers, MaxNodes: opt.MaxNodes, Seed: opt.Seed + uint64(i), SolverNodes: -1, Gate: opt.Gate},
		}, nil)
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if v := exact[i]; v != nil {
			r.Exact, r.Win = v, winOf(v, r.ToMove)
		}
		reports[i] = &r
		rv.Points = append(rv.Points, Point{Ply: i, Seat: r.ToMove, Win: r.Win, Exact: r.Exact})
	}
	for i, m := range played {
		s, next := states[i], states[i+1]
		mover := s.ToMove()
		j := Judgement{Ply: i, Seat: mover, Move: s.FormatMove(m), Before: reports[i].Win}
		j.After = afterMove(j.Move, next, reports[i], reports[i+1], mover)
		best := ""
		if len(reports[i].Lines) > 0 {
			best = reports[i].Lines[0].Move
		}
		if ex := reports[i].Exact; ex != nil && len(ex.Line) > 0 {
			best = ex.Line[0]
		}
		judge(&j, best, reports[i])
		rv.Moves = append(rv.Moves, j)
	}
	return nil
}

// proveBackward proves what the game's exact solver can of states, from the
// end backward with one solver (its table keeps each proof for the position
// before), until a position is not proven within the budget: earlier ones
// are harder still. A game without a solver gets no proofs.
func proveBackward(ctx context.Context, states []game.State, opt ReviewOptions) []*Verdict {
	exact := make([]*Verdict, len(states))
	name := states[0].Game().Name()
	if opt.SolverNodes < 0 || !game.HasSolver(name) {
		return exact
	}
	table := opt.SolverTable
	if table <= 0 {
		table = DefaultSolverTable
	}
	solver, err := game.NewSolver(name, table)
	if err != nil {
		return exact
	}
	for i := len(states) - 1; i >= 0; i-- {
		s := states[i]
		if s.Outcome().Over() {
			continue
		}
		release, err := gate(ctx, opt.Gate)
		if err != nil {
			break
		}
		sol, err := solver.Solve(ctx, s, opt.SolverNodes)
		release()
		if err != nil || !sol.Proven {
			break
		}
		exact[i] = verdict(s, sol)
	}
	return exact
}

// afterMove is mover's win probability after the move played (text), which
// led to next. It is read where Before was, in the search of the position
// before the move, when that search tried the move enough: two searches of
// consecutive positions each see the side to move a little better off than
// it is (a search's best move's mean is the largest of several noisy
// means), so comparing them would charge every move, the best included,
// with both searches' optimism. A proof of next, and a move the search
// hardly tried, are read from next (the latter is bad news either way).
func afterMove(text string, next game.State, before, after *Report, mover int) float64 {
	if next.Outcome().Over() || (after != nil && after.Exact != nil) {
		return winAfter(next, after, mover)
	}
	if before.Exact == nil {
		for _, l := range before.Lines {
			if l.Move == text && l.Visits >= minJudgeVisits {
				return l.Win
			}
		}
	}
	return winAfter(next, after, mover)
}

// winAfter is mover's win probability in next, whose report is r (nil
// when next is over).
func winAfter(next game.State, r *Report, mover int) float64 {
	if o := next.Outcome(); o.Over() {
		return o.Reward(mover, next.NumPlayers())
	}
	if r.ToMove == mover {
		return r.Win
	}
	// Two seats: what one gains the other loses (a draw is half each).
	return 1 - r.Win
}

// judge sets a judgement's loss and mark, and the better move when it is
// marked. best is the engine's move in the position (r's first line, or the
// proof's first move).
func judge(j *Judgement, best string, r *Report) {
	j.Loss = math.Max(j.Before-j.After, 0)
	if j.Move == best {
		j.Loss = 0
	}
	j.Mark = markFor(j.Loss)
	if j.Mark == Good || best == "" {
		return
	}
	j.Better = best
	if r == nil {
		return
	}
	switch {
	case r.Exact != nil && len(r.Exact.Line) > 0 && r.Exact.Line[0] == best:
		j.BetterLine = r.Exact.Line
	case len(r.Lines) > 0 && r.Lines[0].Move == best:
		j.BetterLine = r.Lines[0].PV
	}
}

// reviewHidden reviews a game with hidden information one decision at a
// time, from the mover's observation only (game.Observe: its view and a
// world sampled from it): the sampling search values every legal move on
// the same sampled worlds, the best of them is the mover's chance before
// the move and the played one's value its chance after. Nothing the mover
// could not see at that moment enters the judgement, so two games that
// differ only in cards the mover could not see are judged alike.
func reviewHidden(ctx context.Context, rv *Review, states []game.State, played []game.Move, opt ReviewOptions, progress func(done, total int)) error {
	for i, m := range played {
		if progress != nil {
			progress(i, len(states))
		}
		s := states[i]
		mover := s.ToMove()
		release, err := gate(ctx, opt.Gate)
		if err != nil {
			return err
		}
		j, err := JudgeDecision(ctx, s, m, opt.Worlds, opt.Seed+uint64(i))
		release()
		if err != nil {
			return err
		}
		j.Ply = i
		rv.Points = append(rv.Points, Point{Ply: i, Seat: mover, Win: j.Before})
		rv.Moves = append(rv.Moves, j)
	}
	return nil
}

// JudgeDecision judges move m of the seat to move in s from that seat's
// observation alone (game.Observe), with the sampling search on worlds
// sampled worlds in each of two independent runs seeded from seed. The true
// state s is used for nothing but the observation: the same view, move and
// seed give the same judgement.
//
// Sampling values are noisy, and the best of several noisy values is
// optimistic (the winner's curse), so a loss read off one run marks good
// moves: in Skyjo every opening flip "lost" a few points to whichever
// face-down card one run happened to like. Three things keep the judgement
// honest (docs/ai.md, Analysis and review):
//   - moves that are the same from the mover's view (sameForMover) form one
//     choice, valued by their mean, so choosing among them is never marked;
//   - the loss is cross-checked: the best choice of each run is valued in the
//     other run, whose noise did not pick it;
//   - the position's own noise is measured by the two runs' disagreement
//     about every choice (floored by hiddenNoiseFloor), and a decision is
//     marked only when its loss exceeds hiddenNoiseZ times that noise.
func JudgeDecision(ctx context.Context, s game.State, m game.Move, worlds int, seed uint64) (Judgement, error) {
	j, _, err := judgeHidden(ctx, s, m, worlds, seed)
	return j, err
}

// judgeHidden is JudgeDecision that also returns the position's measured
// noise (before the floor).
func judgeHidden(ctx context.Context, s game.State, m game.Move, worlds int, seed uint64) (Judgement, float64, error) {
	mover := s.ToMove()
	text := s.FormatMove(m)
	obs, err := game.Observe(s, mover)
	if err != nil {
		return Judgement{}, 0, err
	}
	view, err := obs.View()
	if err != nil {
		return Judgement{}, 0, err
	}
	runA, err := agent.SampleValues(ctx, obs, worlds, seed)
	if err != nil {
		return Judgement{}, 0, err
	}
	runB, err := agent.SampleValues(ctx, obs, worlds, seed^secondRunSeed)
	if err != nil {
		return Judgement{}, 0, err
	}
	world := obs.World()
	texts := make([]string, len(runA))
	played := -1
	for i, v := range runA {
		texts[i] = world.FormatMove(v.Move)
		if texts[i] == text {
			played = i
		}
	}
	if played < 0 || len(runB) != len(runA) {
		return Judgement{}, 0, fmt.Errorf("move %q is not among the legal moves of seat %d's view", text, mover)
	}
	class, k := sameForMover(view, mover, texts)
	a, b := classMeans(runA, class, k), classMeans(runB, class, k)
	p := class[played]
	j := Judgement{Seat: mover, Move: text, After: (a[p] + b[p]) / 2}
	bestA, bestB := argmax(a), argmax(b)
	// Each run's best choice valued by the other run: an unbiased loss.
	loss := ((b[bestA] - b[p]) + (a[bestB] - a[p])) / 2
	measured := hiddenNoise(a, b, p)
	noise := math.Max(measured, hiddenNoiseFloor)
	j.Before = j.After + math.Max(loss, 0)
	j.Loss = j.Before - j.After
	if j.Loss <= hiddenNoiseZ*noise/math.Sqrt2 || k < 2 {
		// Within the noise (the cross-checked loss is the mean of two runs'
		// differences, whose spread is noise/√2): not a finding.
		return j, measured, nil
	}
	j.Mark = markFor(j.Loss)
	if j.Mark != Good {
		best := bestA
		if a[bestB]+b[bestB] > a[bestA]+b[bestA] {
			best = bestB
		}
		for i, c := range class {
			if c == best {
				j.Better = texts[i]
				break
			}
		}
	}
	return j, measured, nil
}

const (
	// secondRunSeed derives the seed of a decision's second, independent
	// sampling run from its first.
	secondRunSeed = 0x9e3779b97f4a7c15
	// hiddenNoiseZ: a hidden-information decision is marked only when its
	// loss is more than this many standard errors of the loss (a one-sided
	// 0.13% chance for a move as good as the best, under normal noise).
	hiddenNoiseZ = 3.0
	// hiddenNoiseFloor is the least noise a position is credited with: the
	// median, over the positions of reviewed games, of one run's spread of
	// a difference between two choices (docs/ai.md; TestMeasureSkyjoReviewNoise),
	// so that a position whose few choices happened to agree in the two runs
	// is not believed to be noiseless.
	hiddenNoiseFloor = 0.015
)

// hiddenNoise is the position's own noise measured by two runs: the
// standard deviation of one run's estimate of a choice's difference from
// the played choice p, pooled over every other choice (the two runs are
// independent, so a difference's disagreement between them has twice its
// variance). 0 when there is no other choice.
func hiddenNoise(a, b []float64, p int) float64 {
	sum, n := 0.0, 0
	for c := range a {
		if c == p {
			continue
		}
		d := (a[c] - a[p]) - (b[c] - b[p])
		sum += d * d / 2
		n++
	}
	if n == 0 {
		return 0
	}
	return math.Sqrt(sum / float64(n))
}

// classMeans is the mean value of each of k choices (class[i] is move i's).
func classMeans(vals []agent.MoveValue, class []int, k int) []float64 {
	sum := make([]float64, k)
	n := make([]float64, k)
	for i, v := range vals {
		sum[class[i]] += v.Value
		n[class[i]]++
	}
	for c := range sum {
		sum[c] /= n[c]
	}
	return sum
}

func argmax(x []float64) int {
	best := 0
	for i, v := range x {
		if v > x[best] {
			best = i
		}
	}
	return best
}

// sameForMover groups moves (their texts, in one order) into the choices
// the mover can tell apart, returning each move's choice and the number of
// choices. Only Skyjo's grids have such moves today: a flip (or a swap) of
// a face-down card is the same, from the player's view, as the same move on
// another face-down card whose column shows the same cards — the player
// knows nothing that tells the two apart, and only a column's contents
// matter to the rules (three equal cards leave; with columns=off not even
// that, and every face-down card is alike). Every other move is a choice of
// its own. In the round's first flips (phase initial_flips, before any
// card is drawn) every face-down card is alike, whatever its column shows:
// the cards are dealt independently, so a card turned up says nothing of
// the face-down ones beside it, and what a column's contents will be worth
// is decided by turns not yet played — too little for the review's sampled
// worlds to tell apart from their noise (a second opening flip, beside the
// first or not, was marked an inaccuracy in one game of twelve). view is
// the mover's view (JSON).
func sameForMover(view []byte, mover int, texts []string) ([]int, int) {
	var v struct {
		Game    string `json:"game"`
		Players []struct {
			Grid [][]json.RawMessage `json:"grid"`
		} `json:"players"`
		Options struct {
			Columns string `json:"columns"`
		} `json:"options"`
		Phase string `json:"phase"`
	}
	cols := map[int]string{} // column → its cells, sorted, for a grid game
	if json.Unmarshal(view, &v) == nil && v.Game == "skyjo" && mover >= 0 && mover < len(v.Players) {
		g := v.Players[mover].Grid
		for c := 0; len(g) == 3 && c < len(g[0]); c++ {
			cells := make([]string, 0, 3)
			for r := 0; r < 3 && c < len(g[r]); r++ {
				cells = append(cells, string(g[r][c]))
			}
			sort.Strings(cells)
			cols[c] = strings.Join(cells, ",")
		}
	}
	key := func(t string) string {
		verb, cell, ok := strings.Cut(t, " ")
		if !ok || len(cell) != 2 || len(cols) == 0 {
			return t
		}
		c, r := int(cell[0]-'a'), int(cell[1]-'1')
		col, ok := cols[c]
		if !ok || r < 0 || r > 2 || string(v.Players[mover].Grid[r][c]) != `"?"` {
			return t
		}
		if v.Options.Columns == "off" || v.Phase == "initial_flips" {
			return verb + " ?"
		}
		// The face-down card's column without it: what the move leaves
		// beside the card it turns up or throws away.
		return verb + " ? beside " + strings.Replace(col, `"?"`, "", 1)
	}
	class := make([]int, len(texts))
	ids := map[string]int{}
	for i, t := range texts {
		k := key(t)
		id, ok := ids[k]
		if !ok {
			id = len(ids)
			ids[k] = id
		}
		class[i] = id
	}
	return class, len(ids)
}

// gate passes through g when it is set.
func gate(ctx context.Context, g func(context.Context) (func(), error)) (func(), error) {
	if g == nil {
		return func() {}, ctx.Err()
	}
	return g(ctx)
}
