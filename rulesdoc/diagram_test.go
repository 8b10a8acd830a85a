package rulesdoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// allPages lists every rules page, English first.
func allPages(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, name := range englishPages(t) {
		out = append(out, name)
		for _, lang := range languages {
			out = append(out, lang+"/"+name)
		}
	}
	return out
}

func pageDiagrams(t *testing.T, name string) []Diagram {
	t.Helper()
	src, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	ds, err := ParseDiagrams(name, string(src))
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// Every diagram of every page is a position the rules engine reads (or
// refuses, where the diagram says it must), and everything its fact lines
// state is true of that position.
func TestDiagrams(t *testing.T) {
	for _, name := range allPages(t) {
		ids := map[string]int{}
		for _, d := range pageDiagrams(t, name) {
			t.Run(fmt.Sprintf("%s:%d:%s", name, d.Line, d.ID), func(t *testing.T) {
				if game := strings.TrimSuffix(name[strings.LastIndex(name, "/")+1:], ".md"); d.Game != game {
					t.Errorf("a %s diagram on the %s page", d.Game, game)
				}
				if prev, dup := ids[d.ID]; dup {
					t.Errorf("id %q already used on line %d", d.ID, prev)
				}
				ids[d.ID] = d.Line
				checkDiagram(t, &d)
			})
		}
	}
}

func checkDiagram(t *testing.T, d *Diagram) {
	res, err := d.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	if d.Invalid != "" {
		_, _, err := d.State()
		if !strings.Contains(err.Error(), d.Invalid) {
			t.Errorf("the engine refuses the position with %q, which does not contain %q", err, d.Invalid)
		}
		if len(d.Facts) > 0 {
			t.Errorf("an invalid position has no facts to check")
		}
		return
	}
	s, _, err := d.State()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range append(slices.Clone(d.Marks), arrowEnds(t, d.Arrows)...) {
		name, _, _ = strings.Cut(name, "=")
		if !nameOnBoard(d.Game, name) {
			t.Errorf("mark or arrow %q names nothing on a %s board", name, d.Game)
		}
	}
	var legal []string
	for _, m := range s.Legal(nil) {
		legal = append(legal, s.FormatMove(m))
	}
	slices.Sort(legal)
	for _, f := range d.Facts {
		if err := checkFact(s, res.View, legal, f); err != nil {
			t.Errorf("line %d: %s%s: %v", f.Line, f.Key, strings.TrimRight(" "+f.Arg, " "), err)
		}
	}
}

func arrowEnds(t *testing.T, arrows []string) []string {
	var out []string
	for _, a := range arrows {
		from, to, ok := strings.Cut(a, ">")
		if !ok {
			t.Errorf("arrow %q: want from>to", a)
			continue
		}
		out = append(out, from, to)
	}
	return out
}

func words(v string) []string {
	if v == "none" {
		return nil
	}
	return strings.Fields(v)
}

func checkFact(s game.State, view json.RawMessage, legal []string, f Fact) error {
	switch f.Key {
	case "to-move":
		got := "nobody"
		if !s.Outcome().Over() {
			got = s.SeatName(s.ToMove())
		}
		if got != f.Value {
			return fmt.Errorf("%s is to move", got)
		}
	case "winner":
		o := s.Outcome()
		got := "nobody"
		switch o.Status {
		case game.Drawn:
			got = "draw"
		case game.Won:
			var ws []string
			for seat := range s.NumPlayers() {
				if o.IsWinner(seat) {
					ws = append(ws, s.SeatName(seat))
				}
			}
			got = strings.Join(ws, " ")
		}
		if got != f.Value {
			return fmt.Errorf("the winner is %s", got)
		}
	case "legal":
		var got []string
		for _, m := range legal {
			if f.Arg == "" || strings.HasPrefix(m, f.Arg) && !startsWithDigit(m[len(f.Arg):]) {
				got = append(got, m)
			}
		}
		want := moveList(f.Value)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			return fmt.Errorf("the legal moves are %q", got)
		}
	case "includes":
		for _, m := range moveList(f.Value) {
			if !slices.Contains(legal, m) {
				return fmt.Errorf("%q is not a legal move (legal: %q)", m, legal)
			}
		}
	case "excludes":
		for _, m := range moveList(f.Value) {
			if slices.Contains(legal, m) {
				return fmt.Errorf("%q is a legal move", m)
			}
			// And it is a move the game can write, refused for being illegal.
			if _, err := s.ParseMove(m); !errors.Is(err, game.ErrIllegal) {
				return fmt.Errorf("%q: want an illegal move, the engine says %v", m, err)
			}
		}
	case "at":
		for _, pair := range strings.Fields(f.Value) {
			name, want, ok := strings.Cut(pair, "=")
			if !ok {
				return fmt.Errorf("%q: want name=content", pair)
			}
			got, err := contents(s.Game().Name(), view, name)
			if err != nil {
				return err
			}
			if got != want {
				return fmt.Errorf("%s holds %q, not %q", name, got, want)
			}
		}
	case "active", "inactive":
		for _, sq := range strings.Fields(f.Value) {
			act, err := skjuubActive(view, sq)
			if err != nil {
				return err
			}
			if act != (f.Key == "active") {
				return fmt.Errorf("the skjuub on %s is not %s", sq, f.Key)
			}
		}
	case "scores":
		sc, ok := s.(game.Scorer)
		if !ok {
			return fmt.Errorf("%s has no scores", s.Game().Name())
		}
		var got []string
		for _, n := range sc.Scores() {
			got = append(got, strconv.Itoa(n))
		}
		if strings.Join(got, " ") != f.Value {
			return fmt.Errorf("the scores are %s", strings.Join(got, " "))
		}
	case "view":
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(view, &obj); err != nil {
			return err
		}
		got := strings.Trim(string(obj[f.Arg]), `"`)
		if got != f.Value {
			return fmt.Errorf("the view's %s is %s", f.Arg, got)
		}
	default:
		return fmt.Errorf("unknown fact")
	}
	return nil
}

func startsWithDigit(s string) bool { return s != "" && s[0] >= '0' && s[0] <= '9' }

// moveList splits a list of moves; a Skyjo move is two words ("flip a1"),
// written joined by "_" in a list ("flip_a1").
func moveList(v string) []string {
	var out []string
	for _, m := range words(v) {
		out = append(out, strings.ReplaceAll(m, "_", " "))
	}
	return out
}

// Each kind of fact fails when it is wrong.
func TestDiagramFactsCatchMistakes(t *testing.T) {
	src := "```diagram\ncaption: x\ngame: %s\nid: x\n%s\n%s\n```\n"
	for _, c := range []struct{ game, setup, fact string }{
		{"sgolte", `position: {"size":5,"pie":"done","black":["d4","d6"],"white":["e3","e4","e5","e6","e7"],"toMove":"black"}`, "legal d5: d5(e5)"},
		{"sgolte", `position: {"size":5,"pie":"done","black":["d4","d6"],"white":["e3","e4","e5","e6","e7"],"toMove":"black"}`, "to-move: white"},
		{"sgolte", `position: {"size":5,"pie":"done","black":["c1","e1"],"white":["d2","d3","d4","d5"],"toMove":"black"}`, "includes: d1"},
		{"sgolte", `position: {"size":5,"pie":"done","black":["d4","d6"],"white":["e3","e4","e5","e6","e7"],"toMove":"black"}`, "excludes: d5(e5)"},
		{"sgolte", `position: {"size":5,"pie":"done","black":["d4","d6"],"white":["e3","e4","e5","e6","e7"],"toMove":"black"}`, "excludes: zz9"},
		{"sgolte", "moves: e5", "at: e5=white"},
		{"sgolte", "moves: e5", "winner: black"},
		{"sgolte", "moves: e5", "scores: 0 1"},
		{"sploof", "options: first=white", "at: 1a1=W"},
		{"sploof", "options: first=white", "legal: 1c3"},
		{"skjuub", `position: {"board":{"b2":"1E","c2":"1E"},"pool":[9,11],"toMove":2}`, "active: b2"},
		{"skjuub", `position: {"board":{"b2":"1E"},"pool":[10,11],"toMove":2}`, "inactive: b2"},
		{"skjuub", `position: {"board":{"b2":"1E"},"pool":[10,11],"toMove":2}`, "view phase: bonus"},
		{"skyjo", "seed: 7\nmoves: flip a1 flip b2 flip a1 flip c3", "at: p0:a1=?"},
		{"skyjo", "seed: 7\nmoves: flip a1 flip b2 flip a1 flip c3", "includes: flip_d3"},
	} {
		ds, err := ParseDiagrams("test.md", fmt.Sprintf(src, c.game, c.setup, c.fact))
		if err != nil {
			t.Fatal(err)
		}
		d := &ds[0]
		s, _, err := d.State()
		if err != nil {
			t.Fatalf("%s %s: %v", c.game, c.setup, err)
		}
		res, err := d.Resolve()
		if err != nil {
			t.Fatal(err)
		}
		var legal []string
		for _, m := range s.Legal(nil) {
			legal = append(legal, s.FormatMove(m))
		}
		slices.Sort(legal)
		if err := checkFact(s, res.View, legal, d.Facts[0]); err == nil {
			t.Errorf("%s: the wrong fact %q passes", c.game, c.fact)
		}
	}
}

// A diagram marked invalid must be refused by the engine.
func TestDiagramInvalidMustBeRefused(t *testing.T) {
	ds, err := ParseDiagrams("test.md", "```diagram\ncaption: x\ngame: skjuub\nid: x\nposition: {\"board\":{\"b2\":\"1E\"},\"pool\":[10,11],\"toMove\":2}\ninvalid: collide\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ds[0].Resolve(); err == nil {
		t.Error("a valid position marked invalid resolves")
	}
}

// The moves the page shows as the last move are the moves as written.
func TestDiagramMovesAsPlayed(t *testing.T) {
	ds, err := ParseDiagrams("test.md", "```diagram\ncaption: x\ngame: sgolte\nid: x\nmoves: d4 e5 d6 e4 c4 e6 d5(e5)\n```\n")
	if err != nil {
		t.Fatal(err)
	}
	r, err := ds[0].Resolve()
	if err != nil {
		t.Fatal(err)
	}
	last := r.Moves[len(r.Moves)-1]
	if len(r.Moves) != 7 || last.Move != "d5(e5)" || last.Seat != 0 || r.Moves[1].Seat != 1 {
		t.Errorf("moves %+v, want 7 ending with d5(e5) by seat 0", r.Moves)
	}
}
