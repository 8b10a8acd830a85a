package sgolte

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// noPlacementDiagram is the spec's position where neither player can place
// (only i3 is empty), rows from i down to a, each from its cell 1.
const noPlacementDiagram = `
row i:     X O . X O
row h:    X O X O O X
row g:   X X O X X X O
row f:  X X X O O O O X
row e: X X X X X X X X O
row d:  O O X X O O X O
row c:   X O O X X X X
row b:    X X O X O O
row a:     X O O O O
`

// diagramStones reads a diagram like noPlacementDiagram into stone lists.
func diagramStones(t testing.TB, diagram string) (blackStones, whiteStones string) {
	t.Helper()
	var b, w []string
	for _, line := range strings.Split(strings.TrimSpace(diagram), "\n") {
		head, cells, ok := strings.Cut(line, ":")
		if !ok {
			t.Fatalf("bad diagram line %q", line)
		}
		row := strings.TrimPrefix(head, "row ")
		for k, c := range strings.Fields(cells) {
			name := row + strconv.Itoa(k+1)
			switch c {
			case "X":
				b = append(b, name)
			case "O":
				w = append(w, name)
			}
		}
	}
	return strings.Join(b, " "), strings.Join(w, " ")
}

// TestDoublePassEndsTheGame: in the spec's position neither side can place;
// each must pass, and the second pass ends the game, won on the sorted
// group sizes.
func TestDoublePassEndsTheGame(t *testing.T) {
	bs, ws := diagramStones(t, noPlacementDiagram)
	s := posOf(t, 5, bs, ws)
	// The corpus has the same position (its "fact" lines).
	for _, l := range loadCorpus(t) {
		if l.Fact == "" {
			continue
		}
		st, err := Game.ParsePosition(l.Position)
		if err != nil {
			t.Fatal(err)
		}
		c := st.(*State)
		if c.stones != s.stones {
			t.Errorf("corpus fact position differs from the spec diagram")
		}
		if got := legalTexts(c); !reflect.DeepEqual(got, []string{"pass"}) || !reflect.DeepEqual(l.Moves, []string{"pass"}) {
			t.Errorf("corpus fact position: moves %v (corpus %v), want [pass]", got, l.Moves)
		}
	}
	if e := s.empty(); e.count() != 1 || s.geo.names[e.first()] != "i3" {
		t.Fatalf("diagram leaves %d cells empty, want only i3", e.count())
	}
	for ply, seat := range []int{0, 1} {
		if s.Outcome().Over() {
			t.Fatalf("game over after %d passes", ply)
		}
		if s.ToMove() != seat {
			t.Fatalf("ply %d: seat %d to move, want %d", ply, s.ToMove(), seat)
		}
		if got := legalTexts(s); !reflect.DeepEqual(got, []string{"pass"}) {
			t.Fatalf("ply %d: moves %v, want [pass]", ply, got)
		}
		if _, err := s.ParseMove("i3"); !errors.Is(err, game.ErrIllegal) {
			t.Fatalf("ply %d: i3 error %v, want ErrIllegal", ply, err)
		}
		if err := game.Play(s, "pass"); err != nil {
			t.Fatal(err)
		}
		// The pass count is part of the position.
		back, err := Game.ParsePosition(mustJSON(t, s))
		if err != nil || back.Hash() != s.Hash() || back.Outcome() != s.Outcome() {
			t.Fatalf("ply %d: position %s does not round-trip (%v)", ply, mustJSON(t, s), err)
		}
	}
	out := s.Outcome()
	if !out.Over() || s.ToMove() != -1 || len(s.Legal(nil)) != 0 {
		t.Fatalf("after two passes: outcome %v, to move %d, %d moves", out, s.ToMove(), len(s.Legal(nil)))
	}
	if _, err := s.ParseMove("pass"); !errors.Is(err, game.ErrGameOver) {
		t.Errorf("pass after the end: %v, want ErrGameOver", err)
	}
	ref := refFromJSON(t, mustJSON(t, s))
	wantSeat := map[int]int{refBlack: 0, refWhite: 1}[ref.winner()]
	if ref.winner() == refEmpty || out != game.WinOutcome(wantSeat) {
		t.Errorf("outcome %+v; reference sizes black %v white %v", out, ref.sizes(refBlack), ref.sizes(refWhite))
	}
}

// TestPassIsForcedNeverVoluntary: pass is the only move with no legal
// placement, and illegal otherwise.
func TestPassIsForcedNeverVoluntary(t *testing.T) {
	s := newState(t)
	if _, err := s.ParseMove("pass"); !errors.Is(err, game.ErrIllegal) {
		t.Errorf("pass on the empty board: %v, want ErrIllegal", err)
	}
	passes := 0
	for _, l := range loadCorpus(t) {
		if !reflect.DeepEqual(l.Moves, []string{"pass"}) || l.Fact != "" {
			continue
		}
		st, _ := Game.ParsePosition(l.Position)
		s := st.(*State)
		if s.empty().isEmpty() {
			t.Errorf("pass position with a full board: %s", l.Position)
		}
		if _, err := s.ParseMove("pass"); err != nil {
			t.Errorf("%s: pass rejected: %v", l.Position, err)
		}
		passes++
	}
	if passes == 0 {
		t.Fatal("no forced pass in the corpus")
	}
}

// TestOnePassDoesNotEnd: after a forced pass the other side plays on, and
// its placement clears the pass count.
func TestOnePassDoesNotEnd(t *testing.T) {
	for _, l := range loadCorpus(t) {
		if !reflect.DeepEqual(l.Moves, []string{"pass"}) || l.Fact != "" {
			continue
		}
		st, _ := Game.ParsePosition(l.Position)
		s := st.(*State)
		game.Play(s, "pass")
		ms := s.Legal(nil)
		if len(ms) == 0 || s.FormatMove(ms[0]) == "pass" {
			continue // a double pass: covered above
		}
		if s.Outcome().Over() {
			t.Fatalf("game over after one pass: %s", l.Position)
		}
		s.Play(ms[0])
		if s.passes != 0 || strings.Contains(string(mustJSON(t, s)), "passes") {
			t.Fatalf("pass count not cleared by a placement: %s", mustJSON(t, s))
		}
		return
	}
	t.Fatal("no corpus pass followed by a placement")
}

// TestFullBoardEndsWithAWinner: a full board ends the game and, with an odd
// number of cells, never in a draw; the winner is the reference's.
func TestFullBoardEndsWithAWinner(t *testing.T) {
	rng := game.NewRNG(11)
	for _, size := range []string{"5", "6", "7"} {
		for i := 0; i < 20; i++ {
			s := newState(t, "size="+size)
			for {
				ms := s.Legal(nil)
				if len(ms) == 0 {
					break
				}
				s.Play(ms[rng.IntN(len(ms))])
			}
			out := s.Outcome()
			ref := refFromJSON(t, mustJSON(t, s))
			if !ref.over() {
				t.Fatalf("engine ended a game the reference does not: %s", mustJSON(t, s))
			}
			if s.empty().isEmpty() && out.Status != game.Won {
				t.Fatalf("full board not won: %+v", out)
			}
			want := game.Outcome{Status: game.Drawn}
			if w := ref.winner(); w != refEmpty {
				want = game.WinOutcome(s.seatOf(w - 1))
			}
			if out != want {
				t.Fatalf("outcome %+v, reference %+v (%s)", out, want, mustJSON(t, s))
			}
		}
	}
}

// TestWinnerBySortedGroupSizes: the largest groups are compared first, then
// the next, a missing group counting as 0; identical lists draw.
func TestWinnerBySortedGroupSizes(t *testing.T) {
	cases := []struct {
		black, white string
		want         int // 1 black, -1 white, 0 draw
	}{
		{"a1 a2 a3", "c1 c2", 1},                   // [3] vs [2]
		{"a1 a2", "c1 c2 c3", -1},                  // [2] vs [3]
		{"a1 a2 a3 c1", "e1 e2 e3", 1},             // [3,1] vs [3]: missing counts 0
		{"a1 a2 a3 c1", "e1 e2 e3 g1 g2", -1},      // [3,1] vs [3,2]
		{"a1 a2 a3 c1 c5", "e1 e2 e3 g1 g2", -1},   // [3,1,1] vs [3,2]
		{"a1 a2 c1 c2 e1", "a4 a5 c5 c6 e5", 0},    // [2,2,1] vs [2,2,1]
		{"a1 a2 a3 a4 c1", "e1 e2 e3 g1 g3 i1", 1}, // [4,1] vs [3,1,1,1]
	}
	for _, c := range cases {
		s := posOf(t, 5, c.black, c.white)
		if got := compareGroups(s.geo, s.stones[black], s.stones[white]); got != c.want {
			t.Errorf("black %s / white %s: %d, want %d (reference sizes %v / %v)", c.black, c.white, got, c.want,
				refFromJSON(t, mustJSON(t, s)).sizes(refBlack), refFromJSON(t, mustJSON(t, s)).sizes(refWhite))
		}
	}
	// A draw needs a double-pass end with equal lists.
	s := posOf(t, 5, "a1 a2 c1 c2 e1", "a4 a5 c5 c6 e5", "passes=2")
	if out := s.Outcome(); out.Status != game.Drawn {
		t.Errorf("equal lists after two passes: %+v, want a draw", out)
	}
}

// TestPieSwap: White's answer to Black's first stone may be swap; the board
// stays, the seats exchange colours, White (now seat 0) moves, and the
// position records the swap.
func TestPieSwap(t *testing.T) {
	s := newState(t)
	if _, err := s.ParseMove("swap"); !errors.Is(err, game.ErrIllegal) {
		t.Errorf("swap before Black's stone: %v, want ErrIllegal", err)
	}
	if err := game.Play(s, "e5"); err != nil {
		t.Fatal(err)
	}
	if got := legalTexts(s); len(got) != 61 || !contains2(got, "swap") {
		t.Fatalf("White's first moves: %d, swap present %v; want 60 placements and swap", len(got), contains2(got, "swap"))
	}
	if err := game.Play(s, "swap"); err != nil {
		t.Fatal(err)
	}
	if s.ToMove() != 0 || s.SeatName(0) != "white" || s.SeatName(1) != "black" {
		t.Errorf("after swap: seat %d to move, seat names %s/%s; want seat 0 = white to move",
			s.ToMove(), s.SeatName(0), s.SeatName(1))
	}
	want := `{"game":"sgolte","size":5,"black":["e5"],"white":[],"toMove":"white","pie":"done","swapped":true,"minflip":"global","continue":"optional"}`
	if got := string(mustJSON(t, s)); got != want {
		t.Errorf("position after swap\n  %s\nwant\n  %s", got, want)
	}
	if contains2(legalTexts(s), "swap") {
		t.Error("swap offered twice")
	}
	back, err := Game.ParsePosition([]byte(want))
	if err != nil || back.SeatName(0) != "white" || back.ToMove() != 0 || back.Hash() != s.Hash() {
		t.Errorf("swapped position does not read back: %v", err)
	}
	// After a swap the winner is the seat that plays the winning colour.
	bs, ws := diagramStones(t, noPlacementDiagram)
	end := posOf(t, 5, bs, ws, "swapped=true", "passes=2")
	ref := refFromJSON(t, mustJSON(t, end))
	if w := ref.winner(); end.Outcome() != game.WinOutcome((w-1)^1) {
		t.Errorf("swapped game: outcome %+v, winning colour %d", end.Outcome(), w)
	}
}

// TestPieAnsweredByPlacement: a White placement closes the pie rule, and
// pie=off never offers swap.
func TestPieAnsweredByPlacement(t *testing.T) {
	s := newState(t)
	game.Play(s, "e5")
	game.Play(s, "e4")
	if s.pie != pieDone || contains2(legalTexts(s), "swap") {
		t.Error("swap still possible after White placed")
	}
	off := newState(t, "pie=off")
	game.Play(off, "e5")
	if contains2(legalTexts(off), "swap") || len(legalTexts(off)) != 60 {
		t.Error("pie=off offers swap")
	}
	if !strings.Contains(string(mustJSON(t, off)), `"pie":"off"`) {
		t.Errorf("pie=off position: %s", mustJSON(t, off))
	}
}

func contains2(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestPositionJSON: the spec's example reads, writes back with the options
// added, and bad positions are rejected as ErrPosition.
func TestPositionJSON(t *testing.T) {
	in := `{"game":"sgolte","size":5,"black":["d4","d6"],"white":["e3","e4"],"toMove":"black","pie":"done"}`
	s, err := Game.ParsePosition([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"game":"sgolte","size":5,"black":["d4","d6"],"white":["e3","e4"],"toMove":"black","pie":"done","minflip":"global","continue":"optional"}`
	if got, _ := s.MarshalPosition(); string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	opts := `{"game":"sgolte","size":6,"black":["k6"],"white":[],"toMove":"white","pie":"pending","minflip":"group","continue":"none"}`
	s, err = Game.ParsePosition([]byte(opts))
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := s.MarshalPosition(); string(got) != opts {
		t.Errorf("got  %s\nwant %s", got, opts)
	}
	bad := []string{
		``, `{`, `[]`, `{"game":"sgolte"}`,
		`{"game":"sploof","size":5,"black":[],"white":[],"toMove":"black","pie":"done"}`,
		`{"game":"sgolte","size":4,"black":[],"white":[],"toMove":"black","pie":"done"}`,
		`{"game":"sgolte","size":5,"black":["j1"],"white":[],"toMove":"black","pie":"done"}`,
		`{"game":"sgolte","size":5,"black":["a6"],"white":[],"toMove":"black","pie":"done"}`,
		`{"game":"sgolte","size":5,"black":["a1"],"white":["a1"],"toMove":"black","pie":"done"}`,
		`{"game":"sgolte","size":5,"black":["a1","a1"],"white":[],"toMove":"black","pie":"done"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"red","pie":"done"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"maybe"}`,
		`{"game":"sgolte","size":5,"black":["a1","a2"],"white":[],"toMove":"white","pie":"pending"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"off","swapped":true}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"done","passes":3}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"done","minflip":"local"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"done","continue":"always"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"done","colour":"x"}`,
		`{"game":"sgolte","size":5,"black":[],"white":[],"toMove":"black","pie":"done"} {}`,
	}
	for _, b := range bad {
		if _, err := Game.ParsePosition([]byte(b)); !errors.Is(err, game.ErrPosition) {
			t.Errorf("ParsePosition(%s): %v, want ErrPosition", b, err)
		}
	}
}

// TestOptions: the spec's options with their defaults; bad values rejected.
func TestOptions(t *testing.T) {
	got := game.Defaults(Game).String()
	if got != "continue=optional,minflip=global,pie=on,size=5" {
		t.Errorf("defaults %s", got)
	}
	for _, bad := range []string{"size=8", "minflip=any", "continue=yes", "pie=maybe", "colour=red"} {
		if _, err := game.ParseOptions(Game, []string{bad}); !errors.Is(err, game.ErrOption) {
			t.Errorf("option %s: %v, want ErrOption", bad, err)
		}
	}
	s, err := Game.New(nil, 0)
	if err != nil || s.(*State).size != 5 || s.(*State).pie != piePending {
		t.Errorf("New(nil): %v", err)
	}
	s, _ = Game.New(game.Options{"size": "7", "pie": "off"}, 0)
	if len(s.Legal(nil)) != 127 {
		t.Errorf("size 7: %d first moves, want 127", len(s.Legal(nil)))
	}
}

// TestScores: each seat's score is the largest group of its colour.
func TestScores(t *testing.T) {
	s := posOf(t, 5, "a1 a2 a3 c1", "e1 e2")
	if got := s.Scores(); !reflect.DeepEqual(got, []int{3, 2}) {
		t.Errorf("scores %v, want [3 2]", got)
	}
	s = posOf(t, 5, "a1 a2 a3 c1", "e1 e2", "swapped=true")
	if got := s.Scores(); !reflect.DeepEqual(got, []int{2, 3}) {
		t.Errorf("swapped scores %v, want [2 3]", got)
	}
}
