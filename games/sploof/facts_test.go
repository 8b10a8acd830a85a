package sploof

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/bits"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// position builds a state from level pictures (spec format, level 1 first)
// with the given stocks; the supplies are whatever makes 16 balls of each
// colour. opts are extra "key":"value" options.
func position(t *testing.T, levels [4]string, toMove string, stockW, stockB int, opts ...string) *State {
	t.Helper()
	all := strings.Join(levels[:], "")
	supW := max(0, 16-strings.Count(all, "W")-stockW)
	supB := max(0, 16-strings.Count(all, "B")-stockB)
	o := map[string]string{}
	for i := 0; i+1 < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	data, _ := json.Marshal(map[string]any{
		"game": "sploof", "levels": levels, "toMove": toMove,
		"stock":   map[string]int{"white": stockW, "black": stockB},
		"supply":  map[string]int{"white": supW, "black": supB},
		"options": o,
	})
	st, err := Game{}.ParsePosition(data)
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return st.(*State)
}

func play(t *testing.T, s game.State, moves ...string) {
	t.Helper()
	for _, m := range moves {
		if err := game.Play(s, m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
}

func lineFlags(s *State) (white, black bool) {
	occ := s.occ()
	return hasLine(s.col[White], occ), hasLine(s.col[Black], occ)
}

// Test fact: the start position has 16 legal moves: 4 placements and 12
// removals.
func TestStartHas16Moves(t *testing.T) {
	for _, first := range []string{"white", "black"} {
		s, _ := Game{}.New(game.Options{"first": first}, 0)
		got := sortedMoves(s)
		want := "*1a1 *1a3 *1a5 *1a7 *1c1 *1c7 *1e1 *1e7 *1g1 *1g3 *1g5 *1g7 1c3 1c5 1e3 1e5"
		if strings.Join(got, " ") != want {
			t.Errorf("first=%s: start moves %v, want %s", first, got, want)
		}
	}
}

// Test fact: the two-ball drop of the spec.
func TestTwoBallDrop(t *testing.T) {
	st, err := Game{}.ParsePosition([]byte(`{"game":"sploof","levels":["WBBB/BBWB/WBWR/WRWW",".BW/.WB/BB.",".W/..","."],
		"toMove":"white","stock":{"white":2,"black":1},"supply":{"white":4,"black":4}}`))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	play(t, s, "*1g3")
	// 2f4's black ball is now on 1g3, 3e5's white ball on 2f4, 3e5 empty.
	want := [4]string{"WBBB/BBWB/WBWB/WRWW", ".BW/.WW/BB.", "../..", "."}
	if got := s.Levels(); got != want {
		t.Errorf("after *1g3: %q, want %q", got, want)
	}
	if s.stock != [2]uint8{4, 1} || s.supply != [2]uint8{2, 4} {
		t.Errorf("after *1g3: stock %v supply %v, want [4 1] [2 4]", s.stock, s.supply)
	}
	if s.ToMove() != Black && !s.Outcome().Over() {
		t.Errorf("after *1g3: %s to move, want black", s.SeatName(s.ToMove()))
	}
}

// Test fact: a real game never fills the pyramid: the board holds at most
// 16 + (reds removed) ≤ 28 balls.
func TestPyramidNeverFills(t *testing.T) {
	games := 3000
	if testing.Short() {
		games = 300
	}
	most := 0
	for _, supply := range []string{"finite", "unlimited"} {
		for g := 0; g < games; g++ {
			st, _ := Game{}.New(game.Options{"supply": supply}, uint64(g))
			s := st.(*State)
			rng := game.NewRNG(uint64(g))
			var buf []game.Move
			for {
				n := popcount(s.occ())
				removed := 12 - popcount(s.red)
				if n > 16+removed || n > 28 {
					t.Fatalf("%s game %d: %d balls on the board after %d removals", supply, g, n, removed)
				}
				most = max(most, n)
				buf = s.Legal(buf[:0])
				if len(buf) == 0 {
					break
				}
				s.Play(buf[rng.IntN(len(buf))])
			}
		}
	}
	t.Logf("most balls on the board in a random game: %d of 30", most)
}

// Test fact: in uniform random play a game lasts about 29 plies.
func TestRandomGameLastsAbout29Plies(t *testing.T) {
	n := 20000
	st, _ := Game{}.New(nil, 1)
	start := st.(*State)
	rng := game.NewRNG(29)
	total := 0
	for i := 0; i < n; i++ {
		s := *start
		total += s.Playout(&rng)
	}
	mean := float64(total) / float64(n)
	t.Logf("mean random game: %.2f plies", mean)
	if mean < 28 || mean > 30 {
		t.Errorf("random games last %.2f plies on average, want about 29", mean)
	}
}

// bothLines is a position where Black's removal of the red on 1g1 drops the
// black ball on 2f2 into 1g1, completing Black's bottom row, while taking
// away the bridge (2f2, 2f4) that cut White's row 1a3…1g3.
var bothLines = [4]string{"RRRR/R.BR/WWWW/BBBR", ".../..W/..B", "../..", "."}

// Ruling: one move completing lines for both colours is a win for the mover.
func TestBothLinesMoverWins(t *testing.T) {
	s := position(t, bothLines, "black", 2, 1)
	if w, b := lineFlags(s); w || b || s.Outcome().Over() {
		t.Fatalf("set-up already has lines white=%v black=%v", w, b)
	}
	play(t, s, "*1g1")
	if w, b := lineFlags(s); !w || !b {
		t.Fatalf("after *1g1 lines white=%v black=%v, want both", w, b)
	}
	if o := s.Outcome(); o != game.WinOutcome(Black) {
		t.Errorf("outcome %+v, want a win for black, the mover", o)
	}
}

// Ruling: with bothlines=draw the same move draws.
func TestBothLinesDrawOption(t *testing.T) {
	s := position(t, bothLines, "black", 2, 1, "bothlines", "draw")
	play(t, s, "*1g1")
	if o := s.Outcome(); o.Status != game.Drawn {
		t.Errorf("outcome %+v, want a draw", o)
	}
}

// Ruling: a colour with a line wins even when the mover made it by a drop.
// Corpus line 210: Black removes 1e1, the black ball on 2d2 drops into it,
// and the bridge 2d2–2d4 that cut White's row 1a3…1g3 is gone.
func TestDropGivesOpponentTheWin(t *testing.T) {
	s := position(t, [4]string{"WBW./.BWB/WWWW/.BR.", ".B./.W./.B.", "../..", "."}, "black", 4, 8)
	play(t, s, "*1e1")
	if w, b := lineFlags(s); !w || b {
		t.Fatalf("after *1e1 lines white=%v black=%v, want white only", w, b)
	}
	if o := s.Outcome(); o != game.WinOutcome(White) {
		t.Errorf("outcome %+v, want a win for white", o)
	}
}

// Rule: two level-2 balls side by side over a contact point of a level-1
// row cut it; one crossing ball does not; edge rows cannot be bridged.
func TestBridgeCutsRow(t *testing.T) {
	for _, tc := range []struct {
		name   string
		levels [4]string
		white  bool
	}{
		{"row alone", [4]string{"RRRR/RBBR/WWWW/RRRR", ".../.../...", "../..", "."}, true},
		{"one crossing ball", [4]string{"RRRR/RBBR/WWWW/RRRR", ".../.B./...", "../..", "."}, true},
		{"bridge over 1c3-1e3", [4]string{"RRRR/RBBR/WWWW/RRRR", ".../.B./.B.", "../..", "."}, false},
		{"bridge over 1a3-1c3", [4]string{"RRRR/RBBR/WWWW/RRRR", ".../B../B..", "../..", "."}, false},
		{"bridge over 1e3-1g3", [4]string{"RRRR/RBBR/WWWW/RRRR", ".../..B/..B", "../..", "."}, false},
		{"balls side by side along the row do not cut it", [4]string{"RRRR/RBBR/WWWW/RRRR", ".../BB./...", "../..", "."}, true},
		{"edge row under level 2", [4]string{"RRRR/RBBR/RBBR/WWWW", ".../.../BBB", "../..", "."}, true},
		{"column bridged", [4]string{"RWRR/RWBR/RWBR/RWRR", ".../BB./...", "../..", "."}, false},
		{"column crossed once", [4]string{"RWRR/RWBR/RWBR/RWRR", ".../B../...", "../..", "."}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := position(t, tc.levels, "black", 0, 0, "supply", "unlimited")
			if w, _ := lineFlags(s); w != tc.white {
				t.Errorf("white line = %v, want %v", w, tc.white)
			}
		})
	}
}

// Rule: diagonal windows count the topmost ball at each point and may step
// between levels; diagonals within one level and red balls never count.
func TestDiagonalLines(t *testing.T) {
	for _, tc := range []struct {
		name   string
		levels [4]string
		white  bool
	}{
		// 1a1, 2b2, 3c3, 4d4: a staircase to the apex.
		{"stairs to the apex", [4]string{"BBBB/BBBB/BBBB/WBBB", "BBB/BBB/WBB", "BB/WB", "W"}, true},
		// 1a1, 2b2, 1c3, 2d4: a zigzag between levels 1 and 2.
		{"zigzag", [4]string{"RRRR/RBRR/RWRR/WRRR", ".../.W./W..", "../..", "."}, true},
		{"zigzag with a gap", [4]string{"RRRR/RBRR/RWRR/WRRR", ".../.../W..", "../..", "."}, false},
		// 1a1, 1c3, 1e5, 1g7 lie on a diagonal but do not touch.
		{"diagonal within level 1", [4]string{"RRRW/RRWR/RWRR/WRRR", ".../.../...", "../..", "."}, false},
		// A covered ball does not count: 3c3 (black) hides 1c3 (white).
		{"covered ball", [4]string{"BBBB/BBBB/BWBB/WBBB", ".../BW./WB.", "../B.", "."}, false},
		{"topmost ball counts", [4]string{"BBBB/BBBB/BBBB/WBBB", ".../BW./WB.", "../W.", "."}, true},
		// 1a1, 2b2, 2d4 white and a red on 1c3 between them.
		{"reds never count", [4]string{"RRRR/RBRR/RRRR/WRRR", ".../.W./W..", "../..", "."}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := position(t, tc.levels, "black", 0, 0, "supply", "unlimited")
			if w, _ := lineFlags(s); w != tc.white {
				t.Errorf("white line = %v, want %v", w, tc.white)
			}
		})
	}
}

// Rule: a red supporting two or more balls on level 2 is pinned; one that
// supports one may be removed, and that ball drops into its hole.
func TestPinnedRed(t *testing.T) {
	// 2b2 (white) and 2d2 (black) both rest on the red 1c1.
	s := position(t, [4]string{"RRRR/R..R/RWBR/RRRR", ".../.../WB.", "../..", "."}, "white", 2, 2)
	want := "*1a1 *1a3 *1a5 *1a7 *1c7 *1e1 *1e7 *1g1 *1g3 *1g5 *1g7 1c5 1e5 2f2"
	if got := strings.Join(sortedMoves(s), " "); got != want {
		t.Errorf("moves %s\nwant  %s", got, want)
	}
	if _, err := s.ParseMove("*1c1"); !errors.Is(err, game.ErrIllegal) || !strings.Contains(err.Error(), "pinned") {
		t.Errorf("*1c1: %v, want an illegal-move error saying the red is pinned", err)
	}
	play(t, s, "*1a1") // 1a1 carries 2b2 alone
	if got, want := s.Levels(), [4]string{"RRRR/R..R/RWBR/WRRR", ".../.../.B.", "../..", "."}; got != want {
		t.Errorf("after *1a1: %q", got)
	}
}

// Rule: balls may be placed on 2×2 platforms of any colour, reds included.
func TestPlacementOnAnyPlatform(t *testing.T) {
	s := position(t, [4]string{"RRRR/RBWR/RWBR/RRRR", ".../.../...", "../..", "."}, "white", 2, 2)
	got := map[string]bool{}
	for _, m := range sortedMoves(s) {
		got[m] = true
	}
	// Every level-2 point is on four balls; level 3 is not.
	for _, m := range []string{"2b2", "2b4", "2b6", "2d2", "2d4", "2d6", "2f2", "2f4", "2f6"} {
		if !got[m] {
			t.Errorf("placement %s missing from %v", m, sortedMoves(s))
		}
	}
	if got["3c3"] {
		t.Errorf("3c3 is legal without a platform")
	}
}

// Ruling: with the finite supply a red may be removed only while the
// supply holds two balls of the remover's colour; supply=unlimited lifts it.
func TestFiniteSupply(t *testing.T) {
	levels := [4]string{"RRRR/RWWR/RBBR/RRRR", ".../.../...", "../..", "."}
	s := position(t, levels, "white", 13, 2) // white supply 16-2-13 = 1
	for _, m := range sortedMoves(s) {
		if m[0] == '*' {
			t.Fatalf("removal %s legal with 1 ball in the supply", m)
		}
	}
	if _, err := s.ParseMove("*1a1"); !errors.Is(err, game.ErrIllegal) || !strings.Contains(err.Error(), "supply") {
		t.Errorf("*1a1: %v, want an illegal-move error about the supply", err)
	}
	u := position(t, levels, "white", 13, 2, "supply", "unlimited")
	if u.supply[White] != 1 {
		t.Fatalf("supply %d", u.supply[White])
	}
	play(t, u, "*1a1")
	if u.stock[White] != 15 || u.supply[White] != 0 {
		t.Errorf("unlimited: after *1a1 stock %d supply %d, want 15 and 0", u.stock[White], u.supply[White])
	}
}

// Rule: a player to move with no legal move loses.
func TestNoLegalMoveLoses(t *testing.T) {
	for _, tc := range []struct {
		name string
		pos  string
	}{
		// No ball in stock and no red left.
		{"no stock, no reds", `{"game":"sploof","levels":["..../.WB./.BW./....",".../.../...","../..","."],
			"toMove":"white","stock":{"white":0,"black":1},"supply":{"white":14,"black":13}}`},
		// No ball in stock, and every red pinned under level 2 (corners
		// carry one level-2 point only, so they hold no reds here).
		{"every red pinned", `{"game":"sploof","levels":["WRRB/RBWR/RWBR/BRRW","BWB/W.W/BWB","../..","."],
			"toMove":"white","stock":{"white":0,"black":1},"supply":{"white":8,"black":7}}`},
		// No ball in stock and one ball in the supply: no red may go.
		{"supply exhausted", `{"game":"sploof","levels":["RWWR/WBBW/WBBW/RWWR","WWW/WBW/WBW","../..","."],
			"toMove":"white","stock":{"white":0,"black":1},"supply":{"white":1,"black":9}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustParse(t, tc.pos)
			if w, b := lineFlags(s); w || b {
				t.Fatalf("set-up has lines white=%v black=%v", w, b)
			}
			if len(s.Legal(nil)) != 0 {
				t.Fatalf("white has moves %v", sortedMoves(s))
			}
			if o := s.Outcome(); o != game.WinOutcome(Black) || s.ToMove() != -1 {
				t.Errorf("outcome %+v, to move %d: want black to win", o, s.ToMove())
			}
		})
	}
	// With supply=unlimited the empty supply does not stop a removal.
	u := mustParse(t, `{"game":"sploof","levels":["RWWR/WBBW/WBBW/RWWR","WWW/WBW/WBW","../..","."],
		"toMove":"white","stock":{"white":0,"black":1},"supply":{"white":1,"black":9},"options":{"supply":"unlimited"}}`)
	if u.Outcome().Over() || strings.Join(sortedMoves(u), " ") != "*1a1 *1a7 *1g1 *1g7" {
		t.Errorf("supply=unlimited: moves %v, outcome %+v", sortedMoves(u), u.Outcome())
	}
	// The same, reached by a move: White places, and Black has no ball in
	// stock and no red to remove.
	s := mustParse(t, `{"game":"sploof","levels":["..../.WB./.BW./....",".../.../...","../..","."],
		"toMove":"white","stock":{"white":1,"black":0},"supply":{"white":13,"black":14}}`)
	play(t, s, "1a1")
	if o := s.Outcome(); o != game.WinOutcome(White) {
		t.Errorf("after 1a1: outcome %+v, want white to win (black cannot move)", o)
	}
}

func mustParse(t *testing.T, text string) *State {
	t.Helper()
	st, err := Game{}.ParsePosition([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

// Option first: white and black start as asked; random is decided by the
// seed, the same seed always giving the same first player, and the choice is
// recorded in the position.
func TestFirstPlayer(t *testing.T) {
	for _, first := range []string{"white", "black"} {
		s, err := Game{}.New(game.Options{"first": first}, 7)
		if err != nil {
			t.Fatal(err)
		}
		if s.SeatName(s.ToMove()) != first {
			t.Errorf("first=%s: %s to move", first, s.SeatName(s.ToMove()))
		}
	}
	seen := map[int]int{}
	for seed := uint64(0); seed < 200; seed++ {
		a, _ := Game{}.New(nil, seed)
		b, _ := Game{}.New(game.Options{"first": "random"}, seed)
		if a.ToMove() != b.ToMove() {
			t.Fatalf("seed %d: first player differs between two games", seed)
		}
		seen[a.ToMove()]++
		p, _ := a.MarshalPosition()
		if !strings.Contains(string(p), fmt.Sprintf(`"first":"%s"`, a.SeatName(a.ToMove()))) {
			t.Errorf("seed %d: the first player is not recorded: %s", seed, p)
		}
	}
	if seen[White] < 70 || seen[Black] < 70 {
		t.Errorf("first=random over 200 seeds: %v", seen)
	}
	// The record survives the game.
	s, _ := Game{}.New(game.Options{"first": "black"}, 0)
	play(t, s, "1c3", "*1a1")
	p, _ := s.MarshalPosition()
	if !strings.Contains(string(p), `"first":"black"`) {
		t.Errorf("position after two moves: %s", p)
	}
	if _, err := (Game{}).ParsePosition([]byte(strings.Replace(string(p), `"first":"black"`, `"first":"white"`, 1))); err == nil {
		t.Errorf("a position whose first player contradicts first=black was accepted")
	}
}

// Seats: seat 0 is White, seat 1 Black, whoever moves first.
func TestSeats(t *testing.T) {
	s, _ := Game{}.New(game.Options{"first": "black"}, 0)
	if s.SeatName(0) != "white" || s.SeatName(1) != "black" || s.ToMove() != 1 || s.NumPlayers() != 2 {
		t.Errorf("seats %q %q, to move %d", s.SeatName(0), s.SeatName(1), s.ToMove())
	}
}

// Notation: level h, row r, column c is h, letter a+2c+h-1, row 2r+h.
func TestPointNames(t *testing.T) {
	var want []string
	for h := 1; h <= 4; h++ {
		for r := 0; r < 5-h; r++ {
			for c := 0; c < 5-h; c++ {
				want = append(want, fmt.Sprintf("%d%c%d", h, 'a'+2*c+h-1, 2*r+h))
			}
		}
	}
	var got []string
	for p := 0; p < numPoints; p++ {
		got = append(got, PointName(p))
	}
	sort.Strings(want)
	sort.Strings(got)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("points %v\nwant %v", got, want)
	}
	for _, spec := range []string{"1a1", "1c1", "1e1", "1g1", "1g7", "2b2", "2f6", "3c3", "3e3", "3c5", "3e5", "4d4"} {
		if p, ok := parsePoint(spec); !ok || PointName(p) != spec {
			t.Errorf("point %s does not read back", spec)
		}
	}
	for _, bad := range []string{"1b1", "1a2", "2a2", "2b1", "3d4", "4c3", "1h1", "0a1", "5d4", "4d", "4d44"} {
		if _, ok := parsePoint(bad); ok {
			t.Errorf("%s read as a point", bad)
		}
	}
}

// Legal lists removals then placements, each by point: that is byte order
// of the notation, the order of tabula moves.
func TestLegalIsSortedNotation(t *testing.T) {
	for _, st := range randomStates(t, 300) {
		var got []string
		for _, m := range st.Legal(nil) {
			got = append(got, st.FormatMove(m))
		}
		if !sort.StringsAreSorted(got) {
			t.Fatalf("Legal order %v is not byte order", got)
		}
	}
}

func randomStates(t *testing.T, n int) []*State {
	t.Helper()
	var out []*State
	rng := game.NewRNG(5)
	for g := uint64(0); len(out) < n; g++ {
		st, _ := Game{}.New(nil, g)
		s := st.(*State)
		for len(out) < n {
			out = append(out, s.Clone().(*State))
			ms := s.Legal(nil)
			if len(ms) == 0 {
				break
			}
			s.Play(ms[rng.IntN(len(ms))])
		}
	}
	return out
}

// Moves: the notation reads back, with an upper-case column letter and
// spaces around it; errors say unreadable or illegal.
func TestParseMove(t *testing.T) {
	s, _ := Game{}.New(game.Options{"first": "white"}, 0)
	for _, tc := range []struct {
		text string
		want string
		err  error
	}{
		{"1c3", "1c3", nil},
		{" 1C3 ", "1c3", nil},
		{"*1a1", "*1a1", nil},
		{"*1A7", "*1a7", nil},
		{"1a1", "", game.ErrIllegal},  // occupied by a red
		{"2b2", "", game.ErrIllegal},  // no platform
		{"*1c3", "", game.ErrIllegal}, // no red there
		{"*2b2", "", game.ErrIllegal},
		{"1a2", "", game.ErrSyntax},
		{"1c3*", "", game.ErrSyntax},
		{"c3", "", game.ErrSyntax},
		{"", "", game.ErrSyntax},
	} {
		m, err := s.ParseMove(tc.text)
		switch {
		case tc.err == nil && (err != nil || s.FormatMove(m) != tc.want):
			t.Errorf("ParseMove(%q) = %q, %v; want %q", tc.text, s.FormatMove(m), err, tc.want)
		case tc.err != nil && !errors.Is(err, tc.err):
			t.Errorf("ParseMove(%q): %v, want %v", tc.text, err, tc.err)
		}
	}
	over := position(t, [4]string{"RRRR/R..R/R..R/WWWW", ".../.../...", "../..", "."}, "black", 2, 2)
	if _, err := over.ParseMove("1c3"); !errors.Is(err, game.ErrGameOver) || !errors.Is(err, game.ErrIllegal) {
		t.Errorf("move after the end: %v", err)
	}
}

// Position text: the spec's example is the start position, and reads back
// unchanged with its options.
func TestSpecPositionText(t *testing.T) {
	s := mustParse(t, `{"game":"sploof","levels":["RRRR/R..R/R..R/RRRR",".../.../...","../..","."],"toMove":"white",
		"stock":{"white":2,"black":2},"supply":{"white":14,"black":14}}`)
	start, _ := Game{}.New(game.Options{"first": "white"}, 0)
	if s.Hash() != start.Hash() || s.Levels() != start.(*State).Levels() {
		t.Errorf("the spec's position text is not the start position")
	}
	got, _ := s.MarshalPosition()
	want := `{"game":"sploof","levels":["RRRR/R..R/R..R/RRRR",".../.../...","../..","."],"toMove":"white",` +
		`"stock":{"white":2,"black":2},"supply":{"white":14,"black":14},` +
		`"options":{"bothlines":"mover","first":"random","supply":"finite"}}`
	if string(got) != want {
		t.Errorf("MarshalPosition:\n got %s\nwant %s", got, want)
	}
}

// ParsePosition rejects what cannot stand, with game.ErrPosition.
func TestParsePositionRejects(t *testing.T) {
	ok := `{"game":"sploof","levels":["RRRR/R..R/R..R/RRRR",".../.../...","../..","."],"toMove":"white","stock":{"white":2,"black":2},"supply":{"white":14,"black":14}}`
	mustParse(t, ok)
	for name, text := range map[string]string{
		"not json":         `{`,
		"other game":       strings.Replace(ok, `"sploof"`, `"sgolte"`, 1),
		"floating ball":    strings.Replace(ok, `"../..","."`, `"../W.","."`, 1),
		"ball over a hole": strings.Replace(ok, `".../.../..."`, `".../.W./..."`, 1),
		"red on level 2":   strings.Replace(strings.Replace(ok, `"R..R/R..R"`, `"RWBR/RBWR"`, 1), `".../.../..."`, `".../.R./..."`, 1),
		"bad letter":       strings.Replace(ok, `R..R/R..R`, `R..R/R.xR`, 1),
		"short row":        strings.Replace(ok, `R..R/R..R`, `R..R/R.R`, 1),
		"three levels":     strings.Replace(ok, `,"."]`, `]`, 1),
		"bad toMove":       strings.Replace(ok, `"toMove":"white"`, `"toMove":"red"`, 1),
		"missing stock":    strings.Replace(ok, `"stock":{"white":2,"black":2},`, ``, 1),
		"half a stock":     strings.Replace(ok, `"stock":{"white":2,"black":2}`, `"stock":{"white":2}`, 1),
		"negative stock":   strings.Replace(ok, `"stock":{"white":2,`, `"stock":{"white":-2,`, 1),
		"17 white balls":   strings.Replace(ok, `"stock":{"white":2,`, `"stock":{"white":3,`, 1),
		"unknown field":    strings.Replace(ok, `"game"`, `"ply":3,"game"`, 1),
		"unknown option":   strings.Replace(ok, `"game"`, `"options":{"size":"5"},"game"`, 1),
		"bad option":       strings.Replace(ok, `"game"`, `"options":{"supply":"none"},"game"`, 1),
		"bad first":        strings.Replace(ok, `"game"`, `"first":"red","game"`, 1),
		"trailing text":    ok + `{}`,
		"stock overflow":   unlimitedStock(232),
	} {
		if _, err := (Game{}).ParsePosition([]byte(text)); !errors.Is(err, game.ErrPosition) {
			t.Errorf("%s: %v, want game.ErrPosition", name, err)
		}
	}
}

// The position as given may already be over: a line, or both lines (the
// colour not to move made them).
func TestParsedPositionOutcome(t *testing.T) {
	s := position(t, [4]string{"RRRR/R..R/R..R/WWWW", ".../.../...", "../..", "."}, "black", 2, 2)
	if s.Outcome() != game.WinOutcome(White) || s.ToMove() != -1 || len(s.Legal(nil)) != 0 {
		t.Errorf("white line: outcome %+v to move %d", s.Outcome(), s.ToMove())
	}
	both := [4]string{"BBBB/R..R/R..R/WWWW", ".../.../...", "../..", "."}
	if o := position(t, both, "black", 2, 2).Outcome(); o != game.WinOutcome(White) {
		t.Errorf("both lines, black to move: %+v, want white (the mover) to win", o)
	}
	if o := position(t, both, "white", 2, 2, "bothlines", "draw").Outcome(); o.Status != game.Drawn {
		t.Errorf("both lines with bothlines=draw: %+v", o)
	}
}

// The fast line check equals the window-by-window definition and the
// model's, on random and on dense random boards.
func TestLineCheckAgreesWithWindows(t *testing.T) {
	rng := game.NewRNG(77)
	check := func(col [2]uint32, red uint32) {
		occ := col[0] | col[1] | red
		s := State{col: col, red: red}
		lv := s.Levels()
		m := modelFromJSON(lv[:], "white", nil, nil)
		for c := 0; c < 2; c++ {
			fast, slow, mod := hasLine(col[c], occ), hasLineSlow(col[c], occ), m.line(modelLetter[c])
			if fast != slow || fast != mod {
				t.Fatalf("%v colour %d: hasLine %v, windows %v, model %v", lv, c, fast, slow, mod)
			}
		}
	}
	for i := 0; i < 20000; i++ {
		// A random stack: fill points in order, each supported point
		// taken with some probability, coloured at random.
		var col [2]uint32
		var red uint32
		density := rng.IntN(100)
		for p := 0; p < numPoints; p++ {
			occ := col[0] | col[1] | red
			if supported(occ)&(1<<p) == 0 || rng.IntN(100) >= density {
				continue
			}
			switch k := rng.IntN(5); {
			case k == 4 && p < 16:
				red |= 1 << p
			case k%2 == 0:
				col[0] |= 1 << p
			default:
				col[1] |= 1 << p
			}
		}
		check(col, red)
	}
	for _, s := range randomStates(t, 2000) {
		check(s.col, s.red)
	}
}

// The 24 windows: 8 level-1 rows and columns of 4 holes, 16 diagonals of 4
// positions.
func TestWindows(t *testing.T) {
	for i, w := range windows {
		positions := map[[2]int]bool{}
		for m := w.pts; m != 0; m &= m - 1 {
			p := points[bits.TrailingZeros32(m)]
			positions[[2]int{p.x, p.y}] = true
		}
		if len(positions) != 4 {
			t.Errorf("window %d has %d positions", i, len(positions))
		}
		if i < 8 && w.pts&^level1 != 0 {
			t.Errorf("row/column window %d leaves level 1", i)
		}
	}
}

func popcount(m uint32) int {
	n := 0
	for ; m != 0; m &= m - 1 {
		n++
	}
	return n
}

// The specialised playout plays exactly the games game.RandomPlayout plays
// with the same generator.
func TestPlayoutMatchesRandomPlayout(t *testing.T) {
	for _, o := range []game.Options{nil, {"supply": "unlimited", "bothlines": "draw"}} {
		for seed := uint64(0); seed < 500; seed++ {
			a, _ := Game{}.New(o, seed)
			b := a.Clone()
			r1, r2 := game.NewRNG(seed), game.NewRNG(seed)
			n1 := a.(*State).Playout(&r1)
			_, n2 := game.RandomPlayout(b, &r2, nil)
			p1, _ := a.MarshalPosition()
			p2, _ := b.MarshalPosition()
			if n1 != n2 || string(p1) != string(p2) || a.Hash() != b.Hash() || a.Outcome() != b.Outcome() {
				t.Fatalf("seed %d: playout %d plies %s %+v, RandomPlayout %d plies %s %+v", seed, n1, p1, a.Outcome(), n2, p2, b.Outcome())
			}
		}
	}
}

func unlimitedStock(n int) string {
	return fmt.Sprintf(`{"game":"sploof","levels":["RRRR/R..R/R..R/RRRR",".../.../...","../..","."],"toMove":"white",`+
		`"stock":{"white":%d,"black":2},"supply":{"white":14,"black":14},"options":{"supply":"unlimited"}}`, n)
}

// With supply=unlimited a stock may be large, but every position reachable
// from one that reads back must read back too: stock + 2×reds ≤ 255.
func TestLargeStockRoundTrip(t *testing.T) {
	if _, err := (Game{}).ParsePosition([]byte(unlimitedStock(232))); err == nil ||
		!strings.Contains(err.Error(), "stock of white is 232, want 0…231 (with supply=unlimited Tabula keeps stock + 2×reds at most 255)") {
		t.Errorf("a stock of 232 beside 12 reds: %v", err)
	}
	s := mustParse(t, unlimitedStock(231)) // 231 + 2×12 = 255
	rng := game.NewRNG(1)
	for !s.Outcome().Over() {
		ms := s.Legal(nil)
		s.Play(ms[rng.IntN(len(ms))])
		p, _ := s.MarshalPosition()
		if _, err := (Game{}).ParsePosition(p); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
	}
}
