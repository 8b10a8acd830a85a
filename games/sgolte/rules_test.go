package sgolte

import (
	"encoding/json"
	"errors"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// posOf builds a state from stone lists, Black to move, pie done, with
// optional extra JSON fields such as `"minflip":"group"`.
func posOf(t testing.TB, size int, blackStones, whiteStones string, extra ...string) *State {
	t.Helper()
	j := map[string]any{
		"game": "sgolte", "size": size, "toMove": "black", "pie": "done",
		"black": strings.Fields(blackStones), "white": strings.Fields(whiteStones),
	}
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		var x any
		if json.Unmarshal([]byte(v), &x) != nil {
			x = v // a bare word: a string
		}
		j[k] = x
	}
	data, err := json.Marshal(j)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Game.ParsePosition(data)
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return s.(*State)
}

// resultsFor lists the legal moves that place on cell, sorted.
func resultsFor(s *State, cell string) []string {
	var out []string
	for _, m := range legalTexts(s) {
		if m == cell || strings.HasPrefix(m, cell+"(") {
			out = append(out, m)
		}
	}
	return out
}

// TestSpecVectors is the spec's table of test vectors, with every option
// variant it mentions.
func TestSpecVectors(t *testing.T) {
	cases := []struct {
		name         string
		black, white string
		opts         []string
		place        string
		want         []string
	}{
		{"1", "d4 d6", "e3 e4 e5 e6 e7", nil, "d5", []string{"d5(e5)", "d5(e6)"}},
		{"2 touches only the end of a line", "c1 e1", "d2 d3 d4 d5", nil, "d1", nil},
		{"3", "b3 c5", "c3 c4 d3 d4 d5 e4 e5", nil, "b4", []string{"b4(c4,d3,d4)", "b4(c4,d4,e4)", "b4(c4,d4,e5)"}},
		{"4 merge with no adjacent enemy group", "e3 e5", "a1", nil, "e4", nil},
		{"5 minflip=global", "d4 f5", "d6 e6 f6 e3 e4 f3 f4", nil, "e5", []string{"e5(e6)"}},
		{"5 minflip=group", "d4 f5", "d6 e6 f6 e3 e4 f3 f4", []string{"minflip=group"}, "e5", []string{"e5(e4,f3)", "e5(e6)"}},
		{"6 continue=optional", "d3 d5", "e2 e3 e4 e5 e6 f3", nil, "d4", []string{"d4(e3,e4)", "d4(e4)", "d4(e5)"}},
		{"6 continue=mandatory", "d3 d5", "e2 e3 e4 e5 e6 f3", []string{"continue=mandatory"}, "d4", []string{"d4(e3,e4)", "d4(e5)"}},
		// Not in the spec's table: the third reading of rule 4 on vector 6,
		// where the split ends the flipping.
		{"6 continue=none", "d3 d5", "e2 e3 e4 e5 e6 f3", []string{"continue=none"}, "d4", []string{"d4(e4)", "d4(e5)"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := posOf(t, 5, c.black, c.white, c.opts...)
			if got := resultsFor(s, c.place); !reflect.DeepEqual(got, c.want) {
				t.Errorf("moves at %s = %v, want %v", c.place, got, c.want)
			}
			if c.want == nil {
				_, err := s.ParseMove(c.place)
				if !errors.Is(err, game.ErrIllegal) {
					t.Errorf("ParseMove(%q) error %v, want ErrIllegal", c.place, err)
				}
			}
		})
	}
}

// TestSpecVectorsInCorpus: the corpus carries the same vectors; they agree
// with the table above (a typo in either would show).
func TestSpecVectorsInCorpus(t *testing.T) {
	n := 0
	for _, l := range loadCorpus(t) {
		if l.Vector == 0 {
			continue
		}
		n++
		st, err := Game.ParsePosition(l.Position)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := resultsFor(st.(*State), l.Placement), sorted(l.Results); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("vector %d: %v, want %v", l.Vector, got, want)
		}
	}
	if n != 6 {
		t.Errorf("found %d vectors in the corpus, want 6", n)
	}
}

// TestNeighbourExamples: the spec's examples of touching cells.
func TestNeighbourExamples(t *testing.T) {
	g := geometryFor(5)
	for cell, want := range map[string]string{
		"e5": "d4 d5 e4 e6 f4 f5",
		"a1": "a2 b1 b2",
		"i5": "h5 h6 i4",
	} {
		c, ok := g.parseCell(cell)
		if !ok {
			t.Fatalf("no cell %s", cell)
		}
		var got []string
		for b := g.nbr[c]; !b.isEmpty(); {
			got = append(got, g.names[b.pop()])
		}
		if strings.Join(got, " ") != want {
			t.Errorf("%s touches %v, want %s", cell, got, want)
		}
	}
}

// TestBoardSizes: 61, 91 and 127 cells named a1…, rows from the bottom,
// with the spec's row lengths on size 5; the engine's neighbours are the
// reference's (built from the spec's row rules) on every size.
func TestBoardSizes(t *testing.T) {
	for size, cells := range map[int]int{5: 61, 6: 91, 7: 127} {
		g := geometryFor(size)
		ref := newRefBoard(size)
		if g.cells != cells || len(ref.names) != cells {
			t.Fatalf("size %d: %d cells (reference %d), want %d", size, g.cells, len(ref.names), cells)
		}
		for i := 0; i < g.cells; i++ {
			if g.names[i] != ref.names[i] {
				t.Fatalf("size %d: cell %d is %s, reference %s", size, i, g.names[i], ref.names[i])
			}
			var want []string
			for _, j := range ref.nbrs[i] {
				want = append(want, ref.names[j])
			}
			sort.Strings(want)
			var got []string
			for b := g.nbr[i]; !b.isEmpty(); {
				got = append(got, g.names[b.pop()])
			}
			sort.Strings(got)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("size %d: %s touches %v, reference %v", size, g.names[i], got, want)
			}
		}
	}
	rows := "a1-a5 b1-b6 c1-c7 d1-d8 e1-e9 f1-f8 g1-g7 h1-h6 i1-i5"
	g := geometryFor(5)
	var got []string
	for r := 0; r < g.rows; r++ {
		got = append(got, g.names[g.rowStart[r]]+"-"+g.names[g.rowStart[r]+g.rowLen[r]-1])
	}
	if strings.Join(got, " ") != rows {
		t.Errorf("size 5 rows %v, want %s", got, rows)
	}
}

// TestPlainPlacementFlipsNothing: a placement touching at most one friendly
// group flips nothing, even next to enemy stones it could split.
func TestPlainPlacementFlipsNothing(t *testing.T) {
	// d5 touches one black group (d4) and the white line it could split.
	s := posOf(t, 5, "d4", "e3 e4 e5 e6 e7")
	if got := resultsFor(s, "d5"); !reflect.DeepEqual(got, []string{"d5"}) {
		t.Fatalf("moves at d5 = %v, want [d5]", got)
	}
	if _, err := s.ParseMove("d5(e5)"); !errors.Is(err, game.ErrIllegal) {
		t.Errorf("d5(e5) accepted (%v), want ErrIllegal", err)
	}
	if err := game.Play(s, "d5"); err != nil {
		t.Fatal(err)
	}
	if s.stones[white].count() != 5 || s.stones[black].count() != 2 {
		t.Errorf("after d5: %d black, %d white, want 2 and 5", s.stones[black].count(), s.stones[white].count())
	}
}

// TestMergeCountsDistinctGroups: two neighbours from the same group are one
// group, so the placement is plain.
func TestMergeCountsDistinctGroups(t *testing.T) {
	// d4 touches d3 and c3, which are one group.
	s := posOf(t, 5, "d3 c3", "e4 e5 e6")
	if got := resultsFor(s, "d4"); !reflect.DeepEqual(got, []string{"d4"}) {
		t.Fatalf("moves at d4 = %v, want [d4]", got)
	}
}

// TestMergeMustListFlips: a merging placement written without its flips is
// illegal, and a wrong set of flips is illegal.
func TestMergeMustListFlips(t *testing.T) {
	s := posOf(t, 5, "d4 d6", "e3 e4 e5 e6 e7")
	for _, txt := range []string{"d5", "d5(e4)", "d5(e5,e6)", "d5(a1)"} {
		if _, err := s.ParseMove(txt); !errors.Is(err, game.ErrIllegal) {
			t.Errorf("ParseMove(%q) error %v, want ErrIllegal", txt, err)
		}
	}
}

// TestFlipsJoinOtherGroups: flipped stones become ordinary stones of the
// mover and may join other friendly groups, which triggers no second split.
func TestFlipsJoinOtherGroups(t *testing.T) {
	// Vector 1 with a black stone on f5, which touches e5 and e6 but not d5:
	// the placement merges d4 and d6 only, and either flip then joins f5.
	s := posOf(t, 5, "d4 d6 f5", "e3 e4 e5 e6 e7")
	if got := resultsFor(s, "d5"); !reflect.DeepEqual(got, []string{"d5(e5)", "d5(e6)"}) {
		t.Fatalf("moves at d5 = %v", got)
	}
	for _, mv := range []string{"d5(e5)", "d5(e6)"} {
		c := s.Clone().(*State)
		if err := game.Play(c, mv); err != nil {
			t.Fatal(err)
		}
		pos, _ := c.MarshalPosition()
		ref := refFromJSON(t, pos)
		if got := ref.sizes(refBlack); !reflect.DeepEqual(got, []int{5}) {
			t.Errorf("after %s black groups %v, want [5]", mv, got)
		}
		if c.stones[white].count() != 4 || c.ToMove() != 1 {
			t.Errorf("after %s: %d white stones, seat %d to move; want 4 and White", mv, c.stones[white].count(), c.ToMove())
		}
	}
}

// TestSameFlipSetIsOneMove: two chains that flip the same stones in a
// different order are one move. The reference lists chains before merging
// them by set; find placements where two chains share a set, and check that
// the engine lists that set once.
func TestSameFlipSetIsOneMove(t *testing.T) {
	found := 0
	for _, l := range loadCorpus(t)[:400] {
		ref := refFromJSON(t, l.Position)
		st, _ := Game.ParsePosition(l.Position)
		s := st.(*State)
		for c := range ref.cell {
			if ref.cell[c] != refEmpty {
				continue
			}
			counts := map[string]int{}
			for _, ch := range ref.minimalChains(c) {
				counts[ref.format(c, ch.cells)]++
			}
			for txt, n := range counts {
				if n < 2 {
					continue
				}
				found++
				got := 0
				for _, m := range legalTexts(s) {
					if m == txt {
						got++
					}
				}
				if got != 1 {
					t.Errorf("%s: %s listed %d times, want once", l.Position, txt, got)
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no placement with two chains flipping the same set in the first 400 corpus positions")
	}
}

// TestAnyFlipOrderAccepted: input may list the flips in any order; output is
// canonical (row letter, then number).
func TestAnyFlipOrderAccepted(t *testing.T) {
	s := posOf(t, 5, "b3 c5", "c3 c4 d3 d4 d5 e4 e5")
	for _, txt := range []string{"b4(d4,d3,c4)", "b4(d3,c4,d4)", " B4( c4 , d3 , d4 ) "} {
		m, err := s.ParseMove(txt)
		if err != nil {
			t.Fatalf("ParseMove(%q): %v", txt, err)
		}
		if got := s.FormatMove(m); got != "b4(c4,d3,d4)" {
			t.Errorf("ParseMove(%q) formats as %q", txt, got)
		}
	}
	for _, txt := range []string{"b4(c4,c4,d3,d4)", "b4(c4,d3,d4", "b4()", "b4(c4;d3;d4)", "b04", "j1", "a6", "b4(c4,d3,d04)"} {
		if _, err := s.ParseMove(txt); !errors.Is(err, game.ErrSyntax) {
			t.Errorf("ParseMove(%q) error %v, want ErrSyntax", txt, err)
		}
	}
}

// TestCanonicalFlipOrderOnBigBoards: numbers past 9 sort numerically (a
// flip on g10 comes after g9), as the spec orders by row then number.
func TestCanonicalFlipOrderOnBigBoards(t *testing.T) {
	// Size 7, middle row g has 13 cells. Black f9 and f11 merge at f10,
	// whose neighbours on g are g10 and g11; white holds g8…g13.
	s := posOf(t, 7, "f9 f11", "g8 g9 g10 g11 g12 g13 h9")
	ref := refFromJSON(t, mustJSON(t, s))
	want := []string{}
	for _, m := range ref.moves() {
		if strings.HasPrefix(m, "f10(") {
			want = append(want, m)
		}
	}
	if len(want) == 0 {
		t.Fatal("test position has no merge at f10")
	}
	if got := resultsFor(s, "f10"); !reflect.DeepEqual(got, want) {
		t.Errorf("moves at f10 = %v, reference %v", got, want)
	}
}

func mustJSON(t testing.TB, s *State) []byte {
	t.Helper()
	p, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	return p
}
