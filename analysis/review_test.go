package analysis

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestReviewMarksTheThrownWin: from a Sploof position black wins in 9,
// black plays a move the solver proves lost and white then wins by the
// proof. The review marks black's move a blunder with the winning move as
// the better one, marks none of white's moves, and the graph starts at the
// proven win and ends with white's result.
func TestReviewMarksTheThrownWin(t *testing.T) {
	start := solvedPosition(t)
	lost := ""
	r, err := Analyse(context.Background(), start, Options{Iters: 20000, Search: Search{Seed: 1, SolverTable: 4 << 20}}, nil)
	if err != nil || r.Exact == nil {
		t.Fatalf("no proof of the start: %v", err)
	}
	plies := 0
	for _, l := range r.Lines {
		if l.Exact != nil && l.Exact.Winner != start.ToMove() && (lost == "" || l.Exact.Plies < plies) {
			lost, plies = l.Move, l.Exact.Plies
		}
	}
	if lost == "" {
		t.Fatalf("no proven losing move among %+v", r.Lines)
	}
	after := start.Clone()
	if err := game.Play(after, lost); err != nil {
		t.Fatal(err)
	}
	r2, err := Analyse(context.Background(), after, Options{Iters: 40000, Search: Search{Seed: 1, SolverTable: 4 << 20}}, nil)
	if err != nil || r2.Exact == nil {
		t.Fatalf("no proof after %s: %v", lost, err)
	}
	moves := append([]string{lost}, r2.Exact.Line...)
	var seen []int
	rv, err := ReviewGame(context.Background(), start, moves, ReviewOptions{Iters: 2000, Search: Search{Seed: 1, SolverTable: 4 << 20}}, func(done, total int) { seen = append(seen, done) })
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Moves) != len(moves) || len(rv.Points) != len(moves)+1 || rv.Hidden {
		t.Fatalf("%d moves, %d points, hidden %v", len(rv.Moves), len(rv.Points), rv.Hidden)
	}
	if len(seen) != len(moves)+2 || seen[len(seen)-1] != len(moves)+1 {
		t.Fatalf("progress %v", seen)
	}
	first := rv.Moves[0]
	if first.Mark != Blunder || first.Before != 1 || first.After != 0 || first.Better != r.Exact.Line[0] || first.BetterLine[0] != first.Better {
		t.Fatalf("the thrown win: %+v", first)
	}
	black, white := start.ToMove(), 1-start.ToMove()
	for _, j := range rv.Moves[1:] {
		if j.Seat == white && j.Mark != Good {
			t.Fatalf("white's proven winning move marked: %+v", j)
		}
	}
	if rv.Counts[black].Blunders < 1 || rv.Counts[white] != (MarkCounts{}) {
		t.Fatalf("counts %+v", rv.Counts)
	}
	if p := rv.Points[0]; p.Win != 1 || p.Exact == nil || p.Seat != black {
		t.Fatalf("first point %+v", p)
	}
	end := rv.Points[len(rv.Points)-1]
	if end.Seat != -1 || end.Result[white] != 1 || end.Result[black] != 0 {
		t.Fatalf("last point %+v", end)
	}
}

// TestReviewRefusesIllegalMoves: a move list that breaks the rules is an
// error naming the move, not a review.
func TestReviewRefusesIllegalMoves(t *testing.T) {
	s, _ := lookup(t, "sploof").New(nil, 1)
	first := game.LegalTexts(s)[0]
	_, err := ReviewGame(context.Background(), s, []string{first, first}, ReviewOptions{Iters: 10}, nil)
	if err == nil || !bytes.Contains([]byte(err.Error()), []byte(`move 2 "`+first+`"`)) {
		t.Fatalf("err %v", err)
	}
}

// skyjoDecision plays a Skyjo game by the game's policy to a decision of
// some weight (at least three choices) from ply plies on and returns the
// state.
func skyjoDecision(t *testing.T, plies int) game.State {
	t.Helper()
	s, err := lookup(t, "skyjo").New(nil, 11)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(3)
	for i := 0; i < plies || len(s.Legal(nil)) < 3; i++ {
		s.Play(s.(game.Policy).PolicyMove(&rng))
	}
	if s.Outcome().Over() {
		t.Fatalf("ply %d: no decision of weight here", plies)
	}
	return s
}

// TestSkyjoReviewUsesOnlyTheMoversView is the information barrier of the
// review: two true states that differ in cards the mover cannot see, but
// give it the same view, get the same judgement of the same decision. A
// judge that looked at the true state could not pass: the two states'
// futures differ (checked below by playing the policy on them).
func TestSkyjoReviewUsesOnlyTheMoversView(t *testing.T) {
	for _, plies := range []int{9, 20, 31} {
		s := skyjoDecision(t, plies)
		mover := s.ToMove()
		other := s.Clone()
		rng := game.NewRNG(99)
		s.(game.HiddenInfo).Determinize(other, mover, &rng)
		v1, err1 := game.View(s, mover)
		v2, err2 := game.View(other, mover)
		if err1 != nil || err2 != nil || !bytes.Equal(v1, v2) {
			t.Fatalf("ply %d: the two states show the mover different views", plies)
		}
		p1, _ := s.MarshalPosition()
		p2, _ := other.MarshalPosition()
		if bytes.Equal(p1, p2) {
			t.Fatalf("ply %d: the two true states are the same", plies)
		}
		if truth(s, mover) == truth(other, mover) {
			t.Fatalf("ply %d: the hidden cards do not change the policy's result; the test would prove nothing", plies)
		}
		m := s.(game.Policy).PolicyMove(&rng)
		j1, err := JudgeDecision(context.Background(), s, m, 30, 5)
		if err != nil {
			t.Fatal(err)
		}
		j2, err := JudgeDecision(context.Background(), other, m, 30, 5)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(j1, j2) {
			t.Fatalf("ply %d: the same view judged differently:\n%+v\n%+v", plies, j1, j2)
		}
	}
}

// truth is what a judge that cheated would see: the mover's result when
// the policy plays on the true state itself, over fixed rollouts.
func truth(s game.State, mover int) float64 {
	sum := 0.0
	for k := uint64(0); k < 20; k++ {
		c := s.Clone()
		rng := game.NewRNG(k)
		for i := 0; i < 2000 && !c.Outcome().Over(); i++ {
			c.Play(c.(game.Policy).PolicyMove(&rng))
		}
		if e, ok := c.(game.Evaluator); ok && !c.Outcome().Over() {
			sum += e.Evaluate(mover)
			continue
		}
		sum += c.Outcome().Reward(mover, c.NumPlayers())
	}
	return sum
}

// TestSkyjoReview: a Skyjo game's review judges every decision from the
// mover's view (Hidden set), one point per position, values in range.
func TestSkyjoReview(t *testing.T) {
	s, _ := lookup(t, "skyjo").New(nil, 11)
	start := s.Clone()
	rng := game.NewRNG(3)
	var moves []string
	for i := 0; i < 12; i++ {
		m := s.(game.Policy).PolicyMove(&rng)
		moves = append(moves, s.FormatMove(m))
		s.Play(m)
	}
	rv, err := ReviewGame(context.Background(), start, moves, ReviewOptions{Worlds: 8, Search: Search{Seed: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !rv.Hidden || len(rv.Moves) != 12 || len(rv.Points) != 13 {
		t.Fatalf("hidden %v, %d moves, %d points", rv.Hidden, len(rv.Moves), len(rv.Points))
	}
	for i, j := range rv.Moves {
		if j.Ply != i || j.Move != moves[i] || j.Before < 0 || j.Before > 1 || j.After < 0 || j.After > j.Before+1e-9 || j.Loss != j.Before-j.After && j.Loss != 0 {
			t.Fatalf("move %d: %+v", i, j)
		}
		if j.Mark != Good && j.Better == "" {
			t.Fatalf("a marked move without a better one: %+v", j)
		}
	}
}

// TestSkyjoReviewNeverChargesTheSameChoice: at the start of a round every
// face-down card is the same to the player, so no opening flip loses
// anything, whichever card it turns — the review charged most of them a
// few points of sampling noise before (and marked some "flip c1 ?! better
// flip b3"). With columns=on the second flip is a real choice between the
// first card's column and another, and the moves within each stay one
// choice.
func TestSkyjoReviewNeverChargesTheSameChoice(t *testing.T) {
	seeds := []uint64{1, 2}
	if testing.Short() {
		// One deal: each of its opening flips is judged, and the noise
		// this test guards against charged most of them on any deal.
		seeds = seeds[:1]
	}
	for _, seed := range seeds {
		s, err := lookup(t, "skyjo").New(nil, seed)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.Legal(nil) {
			j, err := JudgeDecision(context.Background(), s, m, 40, seed)
			if err != nil {
				t.Fatal(err)
			}
			if j.Loss != 0 || j.Mark != Good || j.Before != j.After {
				t.Fatalf("seed %d: the opening %s charged: %+v", seed, j.Move, j)
			}
		}
	}
	s, err := lookup(t, "skyjo").New(game.Options{"columns": "on"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if err := game.Play(s, "flip b2"); err != nil {
		t.Fatal(err)
	}
	// The second opening flip: beside b2 or not, one choice (the cards
	// are dealt independently; the column matters only in turns to come).
	view, _ := game.View(s, 0)
	texts := game.LegalTexts(s)
	if _, k := sameForMover(view, 0, texts); k != 1 {
		t.Fatalf("%d choices among the second opening flips %v, want 1", k, texts)
	}
	// Once the opening is over, a face-down card beside a face-up one is
	// another choice than one in a column all face down: the swaps onto
	// the mover's face-down cards (after a draw) fall into two choices or more.
	for texts := game.LegalTexts(s); strings.HasPrefix(texts[0], "flip "); texts = game.LegalTexts(s) {
		if err := game.Play(s, texts[0]); err != nil {
			t.Fatal(err)
		}
	}
	if err := game.Play(s, "draw"); err != nil {
		t.Fatal(err)
	}
	mover := s.ToMove()
	view, _ = game.View(s, mover)
	var v struct {
		Players []struct {
			Grid [][]json.RawMessage `json:"grid"`
		} `json:"players"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		t.Fatal(err)
	}
	var swaps []string // onto a face-down card
	for _, tx := range game.LegalTexts(s) {
		if cell, ok := strings.CutPrefix(tx, "swap "); ok && string(v.Players[mover].Grid[cell[1]-'1'][cell[0]-'a']) == `"?"` {
			swaps = append(swaps, tx)
		}
	}
	if _, k := sameForMover(view, mover, swaps); len(swaps) != 10 || k < 2 {
		t.Fatalf("%d choices among the swaps onto face-down cards %v after the opening, want those beside a face-up card apart from those in a column all face down", k, swaps)
	}
}

func indexOf(xs []string, x string) int {
	for i, v := range xs {
		if v == x {
			return i
		}
	}
	return -1
}

// TestSameForMoverKeepsRealChoices: moves the player can tell apart stay
// apart — taking and drawing, a swap of a face-up card against a swap of a
// face-down one, two face-up cards — and a game other than Skyjo is never
// grouped.
func TestSameForMoverKeepsRealChoices(t *testing.T) {
	view := []byte(`{"game":"skyjo","toMove":0,"players":[{"grid":[[5,"?","?","x"],["?","?",5,"x"],["?","?","?","x"]]}],"options":{"columns":"on"}}`)
	texts := []string{"swap a1", "swap a2", "swap b1", "swap b2", "swap c2", "flip a2", "flip b3", "flip c1", "flip c3", "swap d1"}
	class, _ := sameForMover(view, 0, texts)
	same := func(a, b string) bool { return class[indexOf(texts, a)] == class[indexOf(texts, b)] }
	for _, c := range [][2]string{{"swap a2", "swap c1"}, {"flip a2", "flip c1"}, {"flip a2", "flip c3"}} {
		if indexOf(texts, c[0]) >= 0 && indexOf(texts, c[1]) >= 0 && !same(c[0], c[1]) {
			t.Errorf("%s and %s are the same to the player (columns 5,?,? both)", c[0], c[1])
		}
	}
	for _, c := range [][2]string{{"swap a1", "swap a2"}, {"swap a2", "swap b1"}, {"flip a2", "flip b3"}, {"swap a1", "swap c2"}, {"swap a2", "flip a2"}, {"swap d1", "swap a1"}} {
		if same(c[0], c[1]) {
			t.Errorf("%s and %s grouped, but the player can tell them apart", c[0], c[1])
		}
	}
	if _, k := sameForMover([]byte(`{"game":"other","players":[{"grid":[["?","?","?"],["?","?","?"],["?","?","?"]]}]}`), 0, []string{"flip a1", "flip b1"}); k != 2 {
		t.Errorf("another game's moves grouped")
	}
}

// TestSkyjoReviewStillMarksABlunder: the noise threshold does not hide a
// real mistake — throwing away a face-up card of -2 or less for a drawn 10
// or more (flipping instead would have kept it) is marked.
func TestSkyjoReviewStillMarksABlunder(t *testing.T) {
	found := 0
	for seed := uint64(1); seed < 40 && found < 2; seed++ {
		s, _ := lookup(t, "skyjo").New(nil, seed)
		rng := game.NewRNG(seed)
		for ply := 0; ply < 60 && !s.Outcome().Over(); ply++ {
			if bad := badSwap(t, s); bad != "" {
				m, _ := s.ParseMove(bad)
				j, err := JudgeDecision(context.Background(), s, m, DefaultReviewWorlds, seed)
				if err != nil {
					t.Fatal(err)
				}
				if j.Mark == Good || j.Better == "" {
					t.Fatalf("seed %d ply %d: %s not marked: %+v", seed, ply, bad, j)
				}
				found++
				break
			}
			s.Play(s.(game.Policy).PolicyMove(&rng))
		}
	}
	if found == 0 {
		t.Fatal("no position with a bad swap found")
	}
}

// badSwap is a swap of a face-up card of -2 or less for a held card of 10 or
// more in the mover's grid, read from its view ("" if there is none).
func badSwap(t *testing.T, s game.State) string {
	view, err := game.View(s, s.ToMove())
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Phase   string `json:"phase"`
		Held    *int   `json:"held"`
		Players []struct {
			Grid [][]json.RawMessage `json:"grid"`
		} `json:"players"`
	}
	if json.Unmarshal(view, &v) != nil || v.Phase != "drawn" || v.Held == nil || *v.Held < 10 {
		return ""
	}
	g := v.Players[s.ToMove()].Grid
	for r := range g {
		for c := range g[r] {
			var n int
			if json.Unmarshal(g[r][c], &n) == nil && n <= -2 {
				return "swap " + string(rune('a'+c)) + string(rune('1'+r))
			}
		}
	}
	return ""
}
