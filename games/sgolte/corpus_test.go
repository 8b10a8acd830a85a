package sgolte

import (
	"encoding/json"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game/gametest"
)

// corpusLine is one line of testdata/sgolte.jsonl (copied from the shared
// conformance corpus, whose answers come from independent references).
type corpusLine struct {
	Position  json.RawMessage `json:"position"`
	Moves     []string        `json:"moves"`
	Vector    int             `json:"vector"`
	Placement string          `json:"placement"`
	Results   []string        `json:"results"`
	Fact      string          `json:"fact"`
}

func loadCorpus(t testing.TB) []corpusLine {
	t.Helper()
	return gametest.ReadJSONL[corpusLine](t, "testdata/sgolte.jsonl")
}

// legalTexts returns the formatted legal moves of a state, sorted.
func legalTexts(s *State) []string {
	var out []string
	for _, m := range s.Legal(nil) {
		out = append(out, s.FormatMove(m))
	}
	sort.Strings(out)
	return out
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// diff lists what is only in want and only in got (both sorted).
func diff(want, got []string) (missing, extra []string) {
	w := map[string]bool{}
	for _, x := range want {
		w[x] = true
	}
	g := map[string]bool{}
	for _, x := range got {
		g[x] = true
		if !w[x] {
			extra = append(extra, x)
		}
	}
	for _, x := range want {
		if !g[x] {
			missing = append(missing, x)
		}
	}
	return missing, extra
}

// TestCorpus: for every corpus position the legal moves are exactly the
// listed ones, compared as sets.
func TestCorpus(t *testing.T) {
	lines := loadCorpus(t)
	if len(lines) != 2408 {
		t.Fatalf("corpus has %d lines, want 2408", len(lines))
	}
	bad := 0
	for i, l := range lines {
		st, err := Game.ParsePosition(l.Position)
		if err != nil {
			t.Errorf("line %d: %v", i+1, err)
			continue
		}
		got := legalTexts(st.(*State))
		missing, extra := diff(sorted(l.Moves), got)
		if len(missing)+len(extra) > 0 {
			bad++
			if bad <= 10 {
				t.Errorf("line %d %s:\n  missing %v\n  extra   %v", i+1, l.Position, missing, extra)
			}
		}
	}
	if bad > 0 {
		t.Errorf("%d of %d corpus positions differ", bad, len(lines))
	}
}

// TestCorpusParsesEveryListedMove: every corpus move, also with its flips
// written in reverse order, parses to a legal move whose canonical text is
// the corpus text.
func TestCorpusParsesEveryListedMove(t *testing.T) {
	for i, l := range loadCorpus(t) {
		st, err := Game.ParsePosition(l.Position)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		s := st.(*State)
		for _, txt := range l.Moves {
			for _, in := range []string{txt, reverseFlips(txt)} {
				m, err := s.ParseMove(in)
				if err != nil {
					t.Fatalf("line %d: ParseMove(%q): %v", i+1, in, err)
				}
				if got := s.FormatMove(m); got != txt {
					t.Fatalf("line %d: ParseMove(%q) formats as %q, want %q", i+1, in, got, txt)
				}
			}
		}
	}
}

// reverseFlips writes d4(e3,e4) as d4(e4,e3).
func reverseFlips(txt string) string {
	head, tail, ok := strings.Cut(txt, "(")
	if !ok {
		return txt
	}
	cells := strings.Split(strings.TrimSuffix(tail, ")"), ",")
	for i, j := 0, len(cells)-1; i < j; i, j = i+1, j-1 {
		cells[i], cells[j] = cells[j], cells[i]
	}
	return head + "(" + strings.Join(cells, ",") + ")"
}

// TestReferenceMatchesCorpus checks the test's own brute-force reference
// against the independent corpus, so that it can be trusted where the
// corpus has no answers (other options, perft).
func TestReferenceMatchesCorpus(t *testing.T) {
	lines := loadCorpus(t)
	step := 1
	if testing.Short() {
		step = 10
	}
	for i := 0; i < len(lines); i += step {
		l := lines[i]
		got := refFromJSON(t, l.Position).moves()
		if missing, extra := diff(sorted(l.Moves), got); len(missing)+len(extra) > 0 {
			t.Fatalf("line %d: reference differs from the corpus:\n  missing %v\n  extra   %v", i+1, missing, extra)
		}
	}
}

// optionVariants are the non-default rule readings, written into positions.
var optionVariants = [][2]string{
	{"group", "optional"}, {"global", "mandatory"}, {"global", "none"},
	{"group", "mandatory"}, {"group", "none"},
}

// withOptions rewrites a corpus position under other minflip/continue options.
func withOptions(t testing.TB, pos json.RawMessage, minflip, cont string) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(pos, &m); err != nil {
		t.Fatal(err)
	}
	m["minflip"], m["continue"] = minflip, cont
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCorpusPositionsUnderEveryOption: on every corpus position, under every
// other reading of minflip and continue, the engine's moves are the
// reference's.
func TestCorpusPositionsUnderEveryOption(t *testing.T) {
	lines := loadCorpus(t)
	step := 1
	if testing.Short() {
		step = 10
	}
	for _, v := range optionVariants {
		t.Run(v[0]+"-"+v[1], func(t *testing.T) {
			for i := 0; i < len(lines); i += step {
				pos := withOptions(t, lines[i].Position, v[0], v[1])
				st, err := Game.ParsePosition(pos)
				if err != nil {
					t.Fatal(err)
				}
				want := refFromJSON(t, pos).moves()
				if missing, extra := diff(want, legalTexts(st.(*State))); len(missing)+len(extra) > 0 {
					t.Fatalf("line %d under %v:\n  missing %v\n  extra   %v", i+1, v, missing, extra)
				}
			}
		})
	}
}
