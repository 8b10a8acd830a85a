package skyjo

import (
	"slices"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// allDown is a grid of face-down cards for layouts where the values do not
// matter (no equal columns).
const allDown = "?1 ?2 ?3 ?4 / ?5 ?6 ?7 ?8 / ?9 ?10 ?11 ?12"

func TestDeckComposition(t *testing.T) {
	var count [15]int
	sum := 0
	for _, c := range fullDeck {
		count[c+2]++
		sum += int(c)
	}
	want := [15]int{5, 10, 15, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
	if count != want || len(fullDeck) != 150 {
		t.Errorf("deck by value from −2: %v, want %v", count, want)
	}
	if sum != -2*5-1*10+10*78 {
		t.Errorf("deck sums to %d", sum)
	}
}

func TestDeal(t *testing.T) {
	for n := 2; n <= 8; n++ {
		s, err := NewState(game.Options{"players": string(rune('0' + n))}, uint64(n))
		if err != nil {
			t.Fatal(err)
		}
		if s.phase != phaseFlips || s.toMove != 0 || s.round != 1 || s.starter != -1 {
			t.Errorf("%d players: phase %v, to move %d, round %d, starter %d", n, s.phase, s.toMove, s.round, s.starter)
		}
		if int(s.deckN) != 150-12*n-1 || s.discN != 1 {
			t.Errorf("%d players: deck %d, discard %d", n, s.deckN, s.discN)
		}
		for p := 0; p < n; p++ {
			if s.up[p] != 0 || s.gone[p] != 0 {
				t.Errorf("%d players: seat %d not dealt face down", n, p)
			}
		}
		// The record's deal is the grids (seat by seat, a1 a2 a3 b1 …),
		// then the first discard, then the deck from its top.
		rec := s.ChanceRecord()
		if !rec.Complete || len(rec.Events) != 1 || rec.Events[0].Kind != "deal" {
			t.Fatalf("%d players: record %+v", n, rec)
		}
		cards := rec.Events[0].Cards
		for p := 0; p < n; p++ {
			for i := 0; i < 12; i++ {
				if int(s.cards[p][i]) != cards[12*p+i] {
					t.Fatalf("%d players: seat %d %s is %d, the record deals %d", n, p, posName(i), s.cards[p][i], cards[12*p+i])
				}
			}
		}
		if int(s.disc[0]) != cards[12*n] {
			t.Errorf("first discard %d, record %d", s.disc[0], cards[12*n])
		}
		for i := 0; i < int(s.deckN); i++ {
			if int(s.deck[int(s.deckN)-1-i]) != cards[12*n+1+i] {
				t.Fatalf("deck card %d differs from the record", i)
			}
		}
	}
}

func TestSameSeedSameGame(t *testing.T) {
	a, _ := NewState(game.Options{"players": "4"}, 77)
	b, _ := NewState(game.Options{"players": "4"}, 77)
	c, _ := NewState(game.Options{"players": "4"}, 78)
	ra, rb := game.NewRNG(5), game.NewRNG(5)
	a.Playout(&ra)
	b.Playout(&rb)
	pa, _ := a.MarshalPosition()
	pb, _ := b.MarshalPosition()
	if string(pa) != string(pb) {
		t.Error("same seed and decisions, different games")
	}
	a2, _ := NewState(game.Options{"players": "4"}, 77)
	if a2.deck == c.deck {
		t.Error("different seeds, same deal")
	}
}

func TestInitialFlipsInSeatOrder(t *testing.T) {
	s, _ := NewState(game.Options{"players": "3"}, 9)
	for seat := 0; seat < 3; seat++ {
		for k := 0; k < 2; k++ {
			if s.ToMove() != seat || s.phase != phaseFlips {
				t.Fatalf("flip %d of seat %d: seat %d to move in %s", k+1, seat, s.ToMove(), phaseNames[s.phase])
			}
			moves := s.Legal(nil)
			if len(moves) != 12-k {
				t.Fatalf("seat %d flip %d: %d moves, want %d flips", seat, k+1, len(moves), 12-k)
			}
			for _, m := range moves {
				if m >= gridCards {
					t.Fatalf("%s during the initial flips", s.FormatMove(m))
				}
			}
			play(t, s, []string{"flip b2", "flip c3"}[k])
			if s.up[seat]&(1<<pos(t, "b2")) == 0 {
				t.Fatalf("seat %d: b2 not face up after flipping it", seat)
			}
		}
	}
}

// flipsLayout is a 3-player round at the start of the initial flips.
func flipsLayout(t *testing.T, opts game.Options, grids ...string) *State {
	s := build(t, layout{opts: opts, grids: grids, discard: []int{5}})
	s.phase, s.starter = phaseFlips, -1
	valid(t, s)
	return s
}

func TestStarterRound1HighestSumEarliestSeatOnTie(t *testing.T) {
	s := flipsLayout(t, nil,
		"?3 ?0 ?0 ?0 / ?4 ?6 ?6 ?6 / ?7 ?7 ?7 ?7",        // a1+a2 = 7
		"?5 ?0 ?0 ?0 / ?4 ?8 ?8 ?8 / ?9 ?9 ?9 ?9",        // 9
		"?6 ?0 ?0 ?0 / ?3 ?10 ?10 ?10 / ?11 ?11 ?11 ?11", // 9: tied with seat 1, later in seat order
	)
	for seat := 0; seat < 3; seat++ {
		play(t, s, "flip a1", "flip a2")
	}
	if s.phase != phaseChoose || s.ToMove() != 1 || s.starter != 1 {
		t.Errorf("after the flips: %s, seat %d to move, want choose by seat 1", phaseNames[s.phase], s.ToMove())
	}
}

// scoreGrid is a fully face-up grid with only column a left, summing to
// a+b+c (the three must not be equal).
func scoreGrid(a, b, c int) string {
	return itoa(a) + " x x x / " + itoa(b) + " x x x / " + itoa(c) + " x x x"
}

func itoa(v int) string { return string(appendInt(nil, v)) }

func appendInt(b []byte, v int) []byte {
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	if v >= 10 {
		b = appendInt(b, v/10)
	}
	return append(b, byte('0'+v%10))
}

// roundEnd builds a round ready to be scored: every grid as given, ender
// set, and scores it (normal: the final lap closed; otherwise the house rule
// cut it). It returns the state after scoring and the round's scores.
func roundEnd(t *testing.T, opts game.Options, ender int, normal bool, totals []int, grids ...string) (*State, []int) {
	t.Helper()
	s := build(t, layout{opts: opts, grids: grids, discard: []int{5}})
	s.ender = int8(ender)
	s.toMove = int8((ender + 1) % len(grids))
	for p, v := range totals {
		s.totals[p] = int32(v)
	}
	before := s.totals
	s.endRound(normal)
	got := make([]int, len(grids))
	for p := range got {
		got[p] = int(s.totals[p] - before[p])
	}
	return s, got
}

func TestDoublingEnderNotStrictlyLowest(t *testing.T) {
	cases := []struct {
		name   string
		opts   game.Options
		ender  int
		normal bool
		grids  []string
		want   []int
	}{
		{"not lowest, positive: doubled", nil, 0, true,
			[]string{scoreGrid(4, 3, 3), scoreGrid(2, 2, 1)}, []int{20, 5}},
		{"strictly lowest: not doubled", nil, 0, true,
			[]string{scoreGrid(2, 2, 1), scoreGrid(4, 3, 3)}, []int{5, 10}},
		{"tie for lowest doubles the ender", nil, 1, true,
			[]string{scoreGrid(4, 3, 3), scoreGrid(4, 3, 3), scoreGrid(12, 11, 10)}, []int{10, 20, 33}},
		{"not lowest, negative, by default (the spec's printed rule): not doubled", nil, 0, true,
			[]string{scoreGrid(-2, -1, 0), scoreGrid(-2, -2, -1)}, []int{-3, -5}},
		{"not lowest, negative, double=positive: not doubled", game.Options{"double": "positive"}, 0, true,
			[]string{scoreGrid(-2, -1, 0), scoreGrid(-2, -2, -1)}, []int{-3, -5}},
		{"not lowest, zero, double=positive: not doubled", game.Options{"double": "positive"}, 0, true,
			[]string{scoreGrid(1, -1, 0), scoreGrid(-1, 0, 0)}, []int{0, -1}},
		{"not lowest, negative, double=always: doubled", game.Options{"double": "always"}, 0, true,
			[]string{scoreGrid(-2, -1, 0), scoreGrid(-2, -2, -1)}, []int{-6, -5}},
		{"not lowest, positive, double=always: doubled", game.Options{"double": "always"}, 0, true,
			[]string{scoreGrid(4, 3, 3), scoreGrid(2, 2, 1)}, []int{20, 5}},
		{"strictly lowest, double=always: not doubled", game.Options{"double": "always"}, 0, true,
			[]string{scoreGrid(-2, -2, -1), scoreGrid(-2, -1, 0)}, []int{-5, -3}},
		{"house-rule end: nobody doubled", nil, 0, false,
			[]string{scoreGrid(4, 3, 3), scoreGrid(2, 2, 1)}, []int{10, 5}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := roundEnd(t, c.opts, c.ender, c.normal, nil, c.grids...)
			if !equalInts(got, c.want) {
				t.Errorf("round scores %v, want %v", got, c.want)
			}
		})
	}
}

func TestStarterWinnerRule(t *testing.T) {
	// Round winner = lowest round score after doubling, earliest seat on a
	// tie; the ender (seat 0) is doubled out of the lead.
	s, got := roundEnd(t, nil, 0, true, nil, scoreGrid(2, 1, 0), scoreGrid(4, 3, 3), scoreGrid(2, 1, 0))
	if !equalInts(got, []int{6, 10, 3}) {
		t.Fatalf("scores %v", got)
	}
	if s.round != 2 || s.phase != phaseFlips || s.starter != 2 || s.ToMove() != 0 {
		t.Fatalf("round %d %s starter %d to move %d, want round 2 flips by seat 0, seat 2 starting", s.round, phaseNames[s.phase], s.starter, s.ToMove())
	}
	for seat := 0; seat < 3; seat++ {
		play(t, s, "flip a1", "flip b1")
	}
	if s.ToMove() != 2 || s.phase != phaseChoose {
		t.Errorf("after the flips seat %d to move, want the previous round's winner, seat 2", s.ToMove())
	}
	// Tie for the lowest: the earliest seat.
	s, _ = roundEnd(t, nil, 2, true, nil, scoreGrid(2, 1, 0), scoreGrid(2, 1, 0), scoreGrid(4, 3, 3))
	if s.starter != 0 {
		t.Errorf("tied winners 0 and 1: starter %d, want 0", s.starter)
	}
}

func TestStarterFinisherRule(t *testing.T) {
	opts := game.Options{"starter": "finisher"}
	s, _ := roundEnd(t, opts, 1, true, nil, scoreGrid(2, 1, 0), scoreGrid(4, 3, 3), scoreGrid(2, 1, 0))
	if s.starter != 1 {
		t.Errorf("starter=finisher: starter %d, want the ender, seat 1", s.starter)
	}
	// A round cut by the house rule before anyone ended it: the winner.
	s, _ = roundEnd(t, opts, -1, false, nil, scoreGrid(2, 1, 0), scoreGrid(4, 3, 3), scoreGrid(1, 1, 0))
	if s.starter != 2 {
		t.Errorf("starter=finisher without an ender: starter %d, want the round winner, seat 2", s.starter)
	}
}

func TestGameEndsWhenATotalReachesTarget(t *testing.T) {
	s, _ := roundEnd(t, nil, -1, false, []int{95, 50}, scoreGrid(2, 2, 1), scoreGrid(4, 3, 3))
	if !s.Outcome().Over() || s.Outcome() != game.WinOutcome(1) || s.ToMove() != -1 {
		t.Errorf("totals %v: outcome %+v, to move %d", s.totals[:2], s.Outcome(), s.ToMove())
	}
	if len(s.Legal(nil)) != 0 {
		t.Error("legal moves after the game ended")
	}
	s, _ = roundEnd(t, nil, -1, false, []int{94, 50}, scoreGrid(2, 2, 1), scoreGrid(4, 3, 3))
	if s.Outcome().Over() {
		t.Error("99 is below the target of 100")
	}
	s, _ = roundEnd(t, game.Options{"target": "60"}, -1, false, []int{50, 10}, scoreGrid(4, 3, 3), scoreGrid(4, 3, 3))
	if !s.Outcome().Over() {
		t.Error("target=60: 60 reached, game not over")
	}
}

func TestSharedWinOnTiedLowestTotals(t *testing.T) {
	s, _ := roundEnd(t, nil, -1, false, []int{90, 30, 35}, scoreGrid(5, 4, 3), scoreGrid(2, 2, 1), scoreGrid(1, 0, -1))
	if s.Outcome() != game.WinOutcome(1, 2) {
		t.Errorf("totals %v: outcome %+v, want seats 1 and 2 sharing the win", s.totals[:3], s.Outcome())
	}
	if r := s.Outcome().Reward(1, 3); r != 0.5 {
		t.Errorf("shared win reward %v", r)
	}
}

func TestTakeThenSwapFaceDown(t *testing.T) {
	s := build(t, layout{grids: []string{"1 2 ?9 4 / ?5 6 7 8 / 9 10 11 ?12", allDown}, discard: []int{3, 0}, deck: []int{11}})
	valid(t, s)
	if got := s.Legal(nil); len(got) != 2 || got[0] != moveTake || got[1] != moveDraw {
		t.Fatalf("a turn begins with %v, want take, draw", got)
	}
	play(t, s, "take")
	if s.phase != phaseTook || s.held != 0 || !equalInts(discard(s), []int{3}) {
		t.Fatalf("after take: %s, held %d, discard %v", phaseNames[s.phase], s.held, discard(s))
	}
	if got := s.Legal(nil); len(got) != 12 {
		t.Fatalf("after take: %d moves, want a swap with each of 12 cards", len(got))
	}
	if _, err := s.ParseMove("flip a2"); err == nil {
		t.Fatal("a taken card cannot be discarded for a flip")
	}
	play(t, s, "swap c1") // face-down 9
	if s.cards[0][pos(t, "c1")] != 0 || s.up[0]&(1<<pos(t, "c1")) == 0 {
		t.Error("the taken card is not face up at c1")
	}
	if !equalInts(discard(s), []int{3, 9}) || s.ToMove() != 1 || s.phase != phaseChoose || s.turn != 1 {
		t.Errorf("after the swap: discard %v, seat %d to move in %s", discard(s), s.ToMove(), phaseNames[s.phase])
	}
}

func TestDrawThenDiscardAndFlip(t *testing.T) {
	s := build(t, layout{grids: []string{"1 2 ?9 4 / ?5 6 7 8 / 9 10 11 ?12", allDown}, discard: []int{3}, deck: []int{11, 7}})
	deck := s.deckN
	play(t, s, "draw")
	if s.phase != phaseDrawn || s.held != 11 || s.deckN != deck-1 {
		t.Fatalf("after draw: %s, held %d", phaseNames[s.phase], s.held)
	}
	var flips, swaps int
	for _, m := range s.Legal(nil) {
		if m < gridCards {
			flips++
		} else {
			swaps++
		}
	}
	if flips != 3 || swaps != 12 {
		t.Fatalf("after draw: %d flips and %d swaps, want 3 and 12", flips, swaps)
	}
	if _, err := s.ParseMove("flip a1"); err == nil {
		t.Fatal("flipping a face-up card accepted")
	}
	play(t, s, "flip a2")
	if !equalInts(discard(s), []int{3, 11}) || s.up[0]&(1<<pos(t, "a2")) == 0 || s.cards[0][pos(t, "a2")] != 5 {
		t.Errorf("after the flip: discard %v", discard(s))
	}
	// Swapping a drawn card with a face-up one.
	play(t, s, "draw", "swap a1")
	if !equalInts(topOf(discard(s), 1), []int{1}) || s.cards[1][0] != 7 || s.up[1]&1 == 0 {
		t.Errorf("swap of a drawn card: discard %v", discard(s))
	}
}

func TestColumnClearedBySwapPutsSwappedOutCardUnderColumnCards(t *testing.T) {
	for _, how := range []string{"take", "draw"} {
		t.Run(how, func(t *testing.T) {
			l := layout{grids: []string{"7 1 2 3 / 7 ?4 ?5 ?6 / ?9 ?8 ?10 ?11", allDown}, discard: []int{3}, deck: []int{7}}
			if how == "take" {
				l.discard, l.deck = []int{3, 7}, nil
			}
			s := build(t, l)
			valid(t, s)
			play(t, s, how, "swap a3")
			if s.gone[0] != colA || s.up[0]&colA != 0 {
				t.Fatalf("column a not removed: gone %03x", s.gone[0])
			}
			if got := discard(s); !equalInts(got, []int{3, 9, 7, 7, 7}) {
				t.Errorf("discard pile %v, want 3 9 7 7 7 (the swapped-out 9 under the column's three 7s)", got)
			}
			for _, m := range s.Legal(nil) {
				_ = m
			}
			// The next player may take one of the column's cards.
			play(t, s, "take")
			if s.held != 7 {
				t.Errorf("next player takes %d, want 7", s.held)
			}
		})
	}
}

func TestColumnClearedByFlip(t *testing.T) {
	s := build(t, layout{grids: []string{"1 2 4 3 / 1 ?4 4 ?6 / ?9 ?8 ?4 ?11", allDown}, discard: []int{3}, deck: []int{11}})
	play(t, s, "draw", "flip c3")
	if s.gone[0] != colC {
		t.Fatalf("column c not removed: gone %03x", s.gone[0])
	}
	if got := discard(s); !equalInts(got, []int{3, 11, 4, 4, 4}) {
		t.Errorf("discard %v, want 3 11 4 4 4", got)
	}
}

func TestColumnsOff(t *testing.T) {
	s := build(t, layout{opts: game.Options{"columns": "off"}, grids: []string{"7 1 2 3 / 7 ?4 ?5 ?6 / ?9 ?8 ?10 ?11", allDown}, discard: []int{3, 7}})
	play(t, s, "take", "swap a3")
	if s.gone[0] != 0 || !equalInts(discard(s), []int{3, 9}) {
		t.Errorf("columns=off: gone %03x, discard %v", s.gone[0], discard(s))
	}
}

func TestRemovedColumnIsNoLongerPlayedOrScored(t *testing.T) {
	s := build(t, layout{grids: []string{"x 1 2 3 / x ?4 ?5 ?6 / x ?8 ?9 ?10", allDown}, discard: []int{0}})
	valid(t, s)
	play(t, s, "take")
	for _, m := range s.Legal(nil) {
		if i := int(m - moveSwap); i < 3 {
			t.Fatalf("%s offered on a removed column", s.FormatMove(m))
		}
	}
	if _, err := s.ParseMove("swap a1"); err == nil {
		t.Error("swap into a removed column accepted")
	}
	if got := s.sumUp(0); got != 1+2+3 {
		t.Errorf("sum of face-up cards %d", got)
	}
}

func TestEndingTheRoundAndFinalLap(t *testing.T) {
	s := build(t, layout{
		grids:   []string{"1 2 3 4 / 2 3 4 5 / 3 4 5 ?6", allDown, allDown},
		discard: []int{5}, deck: []int{12, 11, 10, 9},
	})
	play(t, s, "draw", "flip d3") // seat 0 has no face-down card left: it ended the round
	if s.ender != 0 || s.ToMove() != 1 {
		t.Fatalf("ender %d, seat %d to move", s.ender, s.ToMove())
	}
	v, _ := s.View(0)
	if !contains(string(v), `"finalLap":true`) || !contains(string(v), `"ended":true`) {
		t.Errorf("view does not show the final lap: %s", v)
	}
	play(t, s, "draw", "flip a1") // seat 1's last turn
	if s.ToMove() != 2 || s.round != 1 {
		t.Fatalf("after seat 1: seat %d to move in round %d, want seat 2 in round 1", s.ToMove(), s.round)
	}
	play(t, s, "take", "swap a1") // seat 2's last turn; the ender does not play again
	if s.round != 2 || s.phase != phaseFlips {
		t.Errorf("round %d %s after the final lap, want round 2's flips", s.round, phaseNames[s.phase])
	}
}

func TestColumnsFormedAtFinalRevealAreRemovedBeforeScoring(t *testing.T) {
	s := build(t, layout{
		opts: game.Options{"target": "1"}, // the game ends with this round, so the reveal stays on the table
		grids: []string{
			"1 2 3 4 / 2 3 4 5 / 3 4 5 ?6",
			"?1 ?2 8 ?3 / ?1 ?2 ?8 ?3 / ?2 ?5 ?8 ?4",
		},
		discard: []int{5}, deck: []int{0, 12},
	})
	valid(t, s)
	play(t, s, "draw", "swap d3") // seat 0 ends the round: 1+2+3+4+2+3+4+5+3+4+5+0 = 36
	play(t, s, "draw", "flip a1") // seat 1's last turn: discards 12
	if !s.Outcome().Over() {
		t.Fatal("game not over")
	}
	if s.gone[1] != colC {
		t.Errorf("seat 1: column c (8 8 8 after the reveal) not removed: gone %03x", s.gone[1])
	}
	// Seat 1 scores 1+1+2 + 2+2+5 + 3+3+4 = 23 without column c; seat 0
	// ended the round without the lowest score: 36 doubled.
	if s.totals[0] != 72 || s.totals[1] != 23 {
		t.Errorf("totals %v, want 72 23", s.totals[:2])
	}
	if got := discard(s); !equalInts(got, []int{5, 6, 12, 8, 8, 8}) {
		t.Errorf("discard %v, want 5 6 12 8 8 8", got)
	}
	if s.Outcome() != game.WinOutcome(1) {
		t.Errorf("outcome %+v", s.Outcome())
	}
	v, _ := s.View(0)
	for _, want := range []string{`"phase":"game_over"`, `"toMove":-1`, `"finalLap":false`, `"total":72,"ended":true`, `"held":null`} {
		if !contains(string(v), want) {
			t.Errorf("game-over view lacks %s: %s", want, v)
		}
	}
}

func TestDeckReshuffleKeepsTopDiscard(t *testing.T) {
	s := build(t, layout{grids: []string{allDown, allDown}, discard: []int{4}, deck: []int{9}, restInDiscard: true})
	valid(t, s)
	before := discard(s) // the pile that will be reshuffled: all of it, once 9 lies on top
	play(t, s, "draw")
	if s.deckN != 0 {
		t.Fatalf("deck %d after drawing its last card", s.deckN)
	}
	play(t, s, "flip a1") // 9 goes on the pile, the deck is empty: reshuffle
	if !equalInts(discard(s), []int{9}) {
		t.Errorf("discard after the reshuffle %v, want only the top card 9", discard(s))
	}
	if s.reshuffles != 1 || int(s.deckN) != len(before) || s.ToMove() != 1 || s.phase != phaseChoose {
		t.Fatalf("reshuffles %d, deck %d (want %d), seat %d to move", s.reshuffles, s.deckN, len(before), s.ToMove())
	}
	deck := make([]int, s.deckN)
	for i := range deck {
		deck[i] = int(s.deck[i])
	}
	slices.Sort(deck)
	slices.Sort(before)
	if !equalInts(deck, before) {
		t.Error("the new deck is not the old discard pile")
	}
}

func TestTerminationSecondRunOut(t *testing.T) {
	// Seat 2 has ended the round; seat 0 empties the deck for the second
	// time: the round ends at once, seat 1 does not play, nobody doubled.
	s := build(t, layout{
		grids:   []string{"1 2 3 4 / 2 3 4 5 / 3 4 5 ?6", "0 0 1 1 / 1 1 0 0 / 2 0 ?1 ?0", "10 11 12 10 / 11 12 10 11 / 12 10 11 12"},
		opts:    game.Options{"target": "1000"},
		discard: []int{4}, deck: []int{9}, restInDiscard: true,
	})
	s.ender, s.reshuffles = 2, 1
	valid(t, s)
	play(t, s, "draw", "swap a1")
	if s.round != 2 {
		t.Fatalf("round %d, want the round over", s.round)
	}
	// Seat 0: 9+2+3+4 + 2+3+4+5 + 3+4+5+6 = 50; seat 1: 7; seat 2: 132,
	// not lowest but not doubled.
	if got := s.totals[:3]; got[0] != 50 || got[1] != 7 || got[2] != 132 {
		t.Errorf("totals %v, want 50 7 132 (nobody doubled)", got)
	}
}

func TestTerminationMaxTurns(t *testing.T) {
	s := build(t, layout{
		opts:    game.Options{"maxturns": "2", "target": "1000"},
		grids:   []string{"1 2 3 4 / 2 3 4 5 / 3 4 5 ?6", "0 0 1 1 / 1 1 0 0 / 2 0 ?1 ?0", "10 11 12 10 / 11 12 10 11 / 12 10 11 12"},
		discard: []int{4}, deck: []int{9},
	})
	s.ender, s.turn = 2, 5 // 2 turns × 3 players = 6
	valid(t, s)
	play(t, s, "draw", "swap a1")
	if s.round != 2 {
		t.Fatalf("round %d after the 6th turn, want the round over", s.round)
	}
	if got := s.totals[:3]; got[0] != 50 || got[1] != 7 || got[2] != 132 {
		t.Errorf("totals %v, want 50 7 132 (nobody doubled)", got)
	}
	// From the start: with maxturns=1 a 2-player round lasts 2 turns.
	g, _ := NewState(game.Options{"maxturns": "1"}, 3)
	play(t, g, "flip a1", "flip a2", "flip a1", "flip a2", "draw", "swap b1", "draw", "swap b1")
	if g.round != 2 {
		t.Errorf("maxturns=1: round %d after 2 turns, want 2", g.round)
	}
}

func TestFullGames2And8Players(t *testing.T) {
	for _, n := range []string{"2", "8"} {
		for seed := uint64(0); seed < 50; seed++ {
			for _, chooser := range []func(*State, *game.RNG, []game.Move) game.Move{randomChoice, policyChoice} {
				s, _ := NewState(game.Options{"players": n}, seed)
				rng := game.NewRNG(seed)
				plies := 0
				for !s.Outcome().Over() {
					s.Play(chooser(s, &rng, nil))
					if plies++; plies > 20000 {
						t.Fatalf("%s players seed %d: no end", n, seed)
					}
				}
				low, reached := s.totals[0], false
				for p := 0; p < s.NumPlayers(); p++ {
					low = min(low, s.totals[p])
					reached = reached || s.totals[p] >= 100
				}
				if !reached {
					t.Fatalf("%s players: game over with totals %v", n, s.totals)
				}
				for p := 0; p < s.NumPlayers(); p++ {
					if s.Outcome().IsWinner(p) != (s.totals[p] == low) {
						t.Fatalf("%s players: winners %b with totals %v", n, s.winners, s.totals)
					}
				}
			}
		}
	}
}

func contains(s, sub string) bool { return len(s) >= len(sub) && index(s, sub) >= 0 }

func index(s, sub string) int {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return i
		}
	}
	return -1
}
