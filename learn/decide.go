package learn

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// Skyjo decision puzzles. A Skyjo player never knows the face-down cards or
// the deck, so a Skyjo puzzle cannot be proved by search over one deal: it
// is posed from the player's view (the stored position is one deal sampled
// from that view; the real game's hidden cards are not kept) and its answer
// is the choice with the best expected result over deals sampled from the
// view. Decide measures that:
//
//   - Choices that are the same from the player's view are one choice: two
//     moves are equivalent when they do the same (keep the held card, or
//     discard it and flip) to cells that look alike (both face down, or
//     both face up with the same value) in columns that look alike (the
//     same other two cells, in any order). Rows and columns play no role in
//     Skyjo's scoring, so such moves are worth the same.
//   - Each sampled deal (game.HiddenInfo.Determinize, which reads only the
//     view) is played once after each choice, to the end of the round, by
//     the game's own policy for every seat (game.Policy, which also sees
//     only the view), with the same random numbers for every choice, so
//     that the choices are compared on the same deals (paired samples).
//   - A choice's value on a deal is the round's points of the other seats
//     (their mean) minus the player's: more is better.
//
// The answer is proved best in expectation under that continuation when,
// for every other choice, the mean paired difference is larger than
// MinZ standard errors of that mean. That is a statement about the policy
// the round is finished with, not about perfect play afterwards.

// MinDeals is the fewest deals a decision puzzle's proof samples.
const MinDeals = 2000

// MinZ is how many standard errors the answer's margin over every other
// choice must exceed.
const MinZ = 3.0

// Expectation is what a Skyjo decision puzzle claims about its answer; the
// proof recomputes it from Seed and Deals (the sampling is deterministic).
type Expectation struct {
	// Deals is the number of deals sampled from the player's view.
	Deals int `json:"deals"`
	// Seed seeds the sampling.
	Seed uint64 `json:"seed"`
	// Margin is the expected points a round the answer gains over the next
	// best choice (the closest one), StdErr the standard error of that mean.
	Margin float64 `json:"margin"`
	StdErr float64 `json:"stderr"`
	// Next is a move of the next best choice.
	Next string `json:"next"`
	// Choices is how many different choices the player has.
	Choices int `json:"choices"`
}

// Choice is one class of moves that are the same from the player's view,
// with the mean value of its deals.
type Choice struct {
	Moves []string
	Mean  float64
}

// Decision is Decide's measure of every choice, best first, and of the
// best one's lead over each other choice.
type Decision struct {
	Choices []Choice
	// Lead[i] and LeadErr[i] are the mean paired difference between the
	// best choice and choice i (i ≥ 1) and its standard error.
	Lead, LeadErr []float64
}

// Proved reports whether the best choice leads every other by more than
// MinZ standard errors.
func (d *Decision) Proved() bool {
	if len(d.Choices) < 2 {
		return false
	}
	for i := 1; i < len(d.Choices); i++ {
		if !(d.Lead[i] > MinZ*d.LeadErr[i]) {
			return false
		}
	}
	return true
}

// Closest is the index (≥ 1) of the choice the best leads by least.
func (d *Decision) Closest() int {
	c := 1
	for i := 2; i < len(d.Choices); i++ {
		if d.Lead[i] < d.Lead[c] {
			c = i
		}
	}
	return c
}

// Decide measures every choice of the seat to move in s over deals deals
// sampled from that seat's view (see the comment above). s must be a state
// of a game with hidden information, a policy and rounds (Skyjo).
func Decide(s game.State, deals int, seed uint64) (*Decision, error) {
	hid, ok1 := s.(game.HiddenInfo)
	_, ok2 := s.(game.Policy)
	_, ok3 := s.(game.Rounds)
	_, ok4 := s.(game.Scorer)
	if !ok1 || !ok2 || !ok3 || !ok4 {
		return nil, fmt.Errorf("%s: decisions need hidden information, a policy, rounds and scores", s.Game().Name())
	}
	seat := s.ToMove()
	classes, err := Equivalent(s)
	if err != nil {
		return nil, err
	}
	reps := make([]game.Move, len(classes))
	for i, c := range classes {
		if reps[i], err = s.ParseMove(c[0]); err != nil {
			return nil, fmt.Errorf("choice %s: %w", c[0], err)
		}
	}
	vals := make([][]float64, len(classes))
	det := s.Clone()
	for k := 0; k < deals; k++ {
		rng := game.NewRNG(seed ^ uint64(k+1)*0x9e3779b97f4a7c15)
		hid.Determinize(det, seat, &rng)
		play := rng.Uint64()
		for i, m := range reps {
			c := det.Clone()
			c.Play(m)
			prng := game.NewRNG(play)
			vals[i] = append(vals[i], roundValue(c, seat, &prng))
		}
	}
	order := make([]int, len(classes))
	means := make([]float64, len(classes))
	for i := range classes {
		order[i] = i
		means[i] = mean(vals[i])
	}
	sort.SliceStable(order, func(a, b int) bool { return means[order[a]] > means[order[b]] })
	d := &Decision{Lead: make([]float64, len(classes)), LeadErr: make([]float64, len(classes))}
	best := order[0]
	for j, i := range order {
		d.Choices = append(d.Choices, Choice{Moves: classes[i], Mean: means[i]})
		if j == 0 {
			continue
		}
		diff := make([]float64, deals)
		for k := range diff {
			diff[k] = vals[best][k] - vals[i][k]
		}
		d.Lead[j], d.LeadErr[j] = mean(diff), stdErr(diff)
	}
	return d, nil
}

// roundValue plays s to the end of its round (or of the game) with the
// game's policy for every seat and returns the other seats' mean points of
// the round minus seat's.
func roundValue(s game.State, seat int, rng *game.RNG) float64 {
	round := s.(game.Rounds).Round()
	before := s.(game.Scorer).Scores()
	pol := s.(game.Policy)
	for !s.Outcome().Over() && s.(game.Rounds).Round() == round {
		s.Play(pol.PolicyMove(rng))
	}
	after := s.(game.Scorer).Scores()
	others := 0.0
	for p := range after {
		if p != seat {
			others += float64(after[p] - before[p])
		}
	}
	return others/float64(len(after)-1) - float64(after[seat]-before[seat])
}

func mean(x []float64) float64 {
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// stdErr is the standard error of the mean of x (sample standard deviation
// over √n).
func stdErr(x []float64) float64 {
	m := mean(x)
	ss := 0.0
	for _, v := range x {
		ss += (v - m) * (v - m)
	}
	return math.Sqrt(ss/float64(len(x)-1)) / math.Sqrt(float64(len(x)))
}

// Equivalent groups the legal moves of the seat to move in s (a Skyjo state
// holding a card: every move swaps or flips a cell) into classes that are
// the same from the player's view (see the comment above), each class in
// the engine's notation, ordered by its first move.
func Equivalent(s game.State) ([][]string, error) {
	view, err := game.View(s, s.ToMove())
	if err != nil {
		return nil, err
	}
	var v struct {
		Players []struct {
			Grid [][]any `json:"grid"`
		} `json:"players"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		return nil, fmt.Errorf("view: %w", err)
	}
	if s.ToMove() >= len(v.Players) {
		return nil, fmt.Errorf("view: no grid for seat %d", s.ToMove())
	}
	grid := v.Players[s.ToMove()].Grid
	cell := func(col, row int) string { return fmt.Sprint(grid[row][col]) }
	byKey := map[string][]string{}
	var keys []string
	for _, mv := range game.LegalTexts(s) {
		verb, pos, ok := strings.Cut(mv, " ")
		if !ok || (verb != "swap" && verb != "flip") || len(pos) != 2 {
			return nil, fmt.Errorf("move %q: a decision puzzle is posed while a card is held (swap or flip only)", mv)
		}
		col, row := int(pos[0]-'a'), int(pos[1]-'1')
		if col < 0 || col > 3 || row < 0 || row > 2 || len(grid) != 3 || len(grid[row]) != 4 {
			return nil, fmt.Errorf("move %q: no such cell in the view", mv)
		}
		var others []string
		for r := 0; r < 3; r++ {
			if r != row {
				others = append(others, cell(col, r))
			}
		}
		slices.Sort(others)
		k := verb + " " + cell(col, row) + " beside " + strings.Join(others, ",")
		if byKey[k] == nil {
			keys = append(keys, k)
		}
		byKey[k] = append(byKey[k], mv)
	}
	out := make([][]string, 0, len(keys))
	for _, k := range keys {
		out = append(out, byKey[k])
	}
	return out, nil
}

// CheckDecision proves what a Skyjo decision puzzle claims: the position is
// valid with a card held, Accept is exactly the class of moves equivalent
// to Line's single move, and Decide over Expect.Deals deals (at least
// MinDeals) from Expect.Seed finds that class best, leading every other
// choice by more than MinZ standard errors, with the margin, its standard
// error, the next best choice and the number of choices the puzzle states
// (to 0.01 points).
func CheckDecision(g game.Game, pz *Puzzle) error {
	s, err := g.ParsePosition(pz.Position)
	if err != nil {
		return fmt.Errorf("position: %w", err)
	}
	if s.Outcome().Over() {
		return fmt.Errorf("the game is already over")
	}
	e := pz.Expect
	if e == nil || e.Deals < MinDeals {
		return fmt.Errorf("a decision puzzle needs its expectation over at least %d deals", MinDeals)
	}
	if pz.Plies != 1 || len(pz.Line) != 1 {
		return fmt.Errorf("a decision puzzle is one move: plies %d, line %v", pz.Plies, pz.Line)
	}
	d, err := Decide(s, e.Deals, e.Seed)
	if err != nil {
		return err
	}
	if !d.Proved() {
		return fmt.Errorf("the best choice %v does not lead every other by %.0f standard errors (leads %v, errors %v)", d.Choices[0].Moves, MinZ, d.Lead, d.LeadErr)
	}
	best := d.Choices[0].Moves
	if !slices.Contains(best, pz.Line[0]) || !slices.Equal(best, pz.Accept) {
		return fmt.Errorf("the best choice is %v, the puzzle says %s and accepts %v", best, pz.Line[0], pz.Accept)
	}
	c := d.Closest()
	near := func(a, b float64) bool { return math.Abs(a-b) < 0.005+1e-9 }
	if !near(e.Margin, round2(d.Lead[c])) || !near(e.StdErr, round2(d.LeadErr[c])) || !slices.Contains(d.Choices[c].Moves, e.Next) || e.Choices != len(d.Choices) {
		return fmt.Errorf("the puzzle says margin %.2f ± %.2f over %s of %d choices; measured %.2f ± %.2f over %v of %d",
			e.Margin, e.StdErr, e.Next, e.Choices, d.Lead[c], d.LeadErr[c], d.Choices[c].Moves, len(d.Choices))
	}
	return nil
}

func round2(x float64) float64 { return math.Round(x*100) / 100 }

// DecisionPuzzle builds the puzzle of the decision of the seat to move in
// s when Decide proves its best choice over deals deals: the stored position
// is one deal sampled from the player's view with seed (not s's own hidden
// cards). ok is false when no choice is proved best.
func DecisionPuzzle(s game.State, deals int, seed uint64) (pz Puzzle, ok bool, err error) {
	sampled := s.Clone()
	rng := game.NewRNG(seed)
	s.(game.HiddenInfo).Determinize(sampled, s.ToMove(), &rng)
	d, err := Decide(sampled, deals, seed)
	if err != nil || !d.Proved() {
		return Puzzle{}, false, err
	}
	pos, err := sampled.MarshalPosition()
	if err != nil {
		return Puzzle{}, false, err
	}
	c := d.Closest()
	best := d.Choices[0].Moves
	pz = Puzzle{Position: pos, Plies: 1, Line: []string{best[0]}, Accept: best,
		Expect: &Expectation{Deals: deals, Seed: seed, Margin: round2(d.Lead[c]), StdErr: round2(d.LeadErr[c]), Next: d.Choices[c].Moves[0], Choices: len(d.Choices)}}
	pz.Kind = PuzzleKind(sampled, pz.Line)
	pz.Difficulty = DecisionDifficulty(pz.Expect.Margin)
	return pz, true, nil
}
