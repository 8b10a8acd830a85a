package sploof

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

// corpusLine is one line of testdata/sploof.jsonl, a conformance corpus
// whose answers come from two independent engines.
type corpusLine struct {
	Position json.RawMessage             `json:"position"`
	Moves    []string                    `json:"moves"`
	Lines    struct{ White, Black bool } `json:"lines"`
	After    map[string]json.RawMessage  `json:"after"`
	Set      string                      `json:"set"`
	Game     *int                        `json:"game"`
	Ply      int                         `json:"ply"`
	Played   string                      `json:"played"`
}

func loadCorpus(t *testing.T) []corpusLine {
	t.Helper()
	return gametest.ReadJSONL[corpusLine](t, "testdata/sploof.jsonl")
}

// bareState is the part of a position the corpus states: the spec's fields.
type bareState struct {
	Levels []string       `json:"levels"`
	ToMove string         `json:"toMove"`
	Stock  map[string]int `json:"stock"`
	Supply map[string]int `json:"supply"`
}

func bare(t testing.TB, data []byte) bareState {
	t.Helper()
	var b bareState
	if err := json.Unmarshal(data, &b); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return b
}

func sameBare(a, b bareState) bool {
	return strings.Join(a.Levels, " ") == strings.Join(b.Levels, " ") && a.ToMove == b.ToMove &&
		a.Stock["white"] == b.Stock["white"] && a.Stock["black"] == b.Stock["black"] &&
		a.Supply["white"] == b.Supply["white"] && a.Supply["black"] == b.Supply["black"]
}

func sortedMoves(s game.State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	sort.Strings(out)
	return out
}

// TestCorpus: for every line, the legal moves (as a set), both line flags of
// the position as given, and every listed position after a removal.
func TestCorpus(t *testing.T) {
	lines := loadCorpus(t)
	if len(lines) != 4151 {
		t.Fatalf("corpus has %d lines, want 4151", len(lines))
	}
	diffs := 0
	report := func(i int, format string, args ...any) {
		t.Helper()
		diffs++
		if diffs <= 20 {
			t.Errorf("line %d (%s): "+format, append([]any{i + 1, lines[i].Set}, args...)...)
		}
	}
	for i, l := range lines {
		st, err := Game{}.ParsePosition(l.Position)
		if err != nil {
			report(i, "ParsePosition: %v", err)
			continue
		}
		s := st.(*State)
		want := append([]string(nil), l.Moves...)
		sort.Strings(want)
		if got := sortedMoves(s); strings.Join(got, " ") != strings.Join(want, " ") {
			report(i, "moves\n got  %v\n want %v\n %s", got, want, l.Position)
		}
		occ := s.occ()
		if w, b := hasLine(s.col[White], occ), hasLine(s.col[Black], occ); w != l.Lines.White || b != l.Lines.Black {
			report(i, "lines white=%v black=%v, want %v %v\n %s", w, b, l.Lines.White, l.Lines.Black, l.Position)
		}
		// The result the spec gives the position as it stands: a line wins
		// (both: the colour not to move made them), no move loses.
		toMove := map[string]int{"white": White, "black": Black}[bare(t, l.Position).ToMove]
		wantOut := game.Outcome{}
		switch {
		case l.Lines.White && l.Lines.Black:
			wantOut = game.WinOutcome(1 - toMove)
		case l.Lines.White:
			wantOut = game.WinOutcome(White)
		case l.Lines.Black:
			wantOut = game.WinOutcome(Black)
		case len(l.Moves) == 0:
			wantOut = game.WinOutcome(1 - toMove)
		}
		if s.Outcome() != wantOut {
			report(i, "outcome %+v, wantOut %+v", s.Outcome(), wantOut)
		}
		for mv, pos := range l.After {
			c := s.Clone()
			if err := game.Play(c, mv); err != nil {
				report(i, "%s: %v", mv, err)
				continue
			}
			got, _ := c.MarshalPosition()
			if g, w := bare(t, got), bare(t, pos); !sameBare(g, w) {
				report(i, "after %s\n got  %s\n want %s", mv, got, pos)
			}
		}
	}
	if diffs > 0 {
		t.Errorf("%d differences from the corpus", diffs)
	}
}

// TestCorpusGames replays the corpus's complete games: each played move
// leads to the next line's position, and a game ends where the corpus's
// game ends.
func TestCorpusGames(t *testing.T) {
	lines := loadCorpus(t)
	var prev game.State
	prevGame := -1
	games := 0
	for i, l := range lines {
		if l.Game == nil {
			continue
		}
		st, err := Game{}.ParsePosition(l.Position)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if *l.Game == prevGame && prev != nil {
			got, _ := prev.MarshalPosition()
			if g, w := bare(t, got), bare(t, l.Position); !sameBare(g, w) {
				t.Errorf("line %d: game %d ply %d: replay gives\n %s\nwant\n %s", i+1, *l.Game, l.Ply, got, l.Position)
			}
		} else {
			games++
			if l.Ply != 0 {
				t.Errorf("line %d: game %d starts at ply %d", i+1, *l.Game, l.Ply)
			}
		}
		prevGame = *l.Game
		prev = nil
		if l.Played != "" {
			prev = st.Clone()
			if err := game.Play(prev, l.Played); err != nil {
				t.Errorf("line %d: play %q: %v", i+1, l.Played, err)
				prev = nil
			}
		} else if !st.Outcome().Over() {
			t.Errorf("line %d: game %d ends at ply %d but the position is not over", i+1, *l.Game, l.Ply)
		}
	}
	if games == 0 {
		t.Fatal("no complete games in the corpus")
	}
}
