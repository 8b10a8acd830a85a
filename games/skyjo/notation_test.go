package skyjo

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/tabula-games/tabula/game"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestNotation(t *testing.T) {
	s := build(t, layout{grids: []string{"1 2 ?9 4 / ?5 6 7 8 / 9 10 11 ?12", allDown}, discard: []int{3}, deck: []int{11}})
	play(t, s, "draw")
	cases := []struct {
		in   string
		want string // canonical text, "" for an error
		err  error
	}{
		{"swap c1", "swap c1", nil},
		{"SWAP C1", "swap c1", nil},
		{"  swap   a3 ", "swap a3", nil},
		{"flip c1", "flip c1", nil},
		{"flip d3", "flip d3", nil},
		{"flip a1", "", game.ErrIllegal}, // face up
		{"take", "", game.ErrIllegal},    // a card is already held
		{"draw", "", game.ErrIllegal},
		{"swap e1", "", game.ErrSyntax},
		{"swap a4", "", game.ErrSyntax},
		{"swap", "", game.ErrSyntax},
		{"flip a1 a2", "", game.ErrSyntax},
		{"pass", "", game.ErrSyntax},
		{"", "", game.ErrSyntax},
	}
	for _, c := range cases {
		m, err := s.ParseMove(c.in)
		switch {
		case c.err != nil && !errors.Is(err, c.err):
			t.Errorf("ParseMove(%q) = %v, want an error wrapping %v", c.in, err, c.err)
		case c.err == nil && err != nil:
			t.Errorf("ParseMove(%q): %v", c.in, err)
		case c.err == nil && s.FormatMove(m) != c.want:
			t.Errorf("ParseMove(%q) formats as %q, want %q", c.in, s.FormatMove(m), c.want)
		}
	}
	// Every position name round-trips, in the a–d / 1–3 layout.
	for i := 0; i < gridCards; i++ {
		if j, ok := parsePos(posName(i)); !ok || j != i {
			t.Errorf("position %d: %q parses to %d", i, posName(i), j)
		}
	}
	if posName(pos(t, "b3")) != "b3" || pos(t, "b3") != 1*3+2 {
		t.Error("b3 is column b, row 3")
	}
	if _, err := s.ParseMove("take"); err == nil {
		t.Error("take accepted while holding a card")
	}
	// After the game is over every move is refused as such.
	over, _ := roundEnd(t, nil, -1, false, []int{99, 0}, scoreGrid(4, 3, 3), scoreGrid(4, 3, 3))
	if _, err := over.ParseMove("take"); !errors.Is(err, game.ErrGameOver) || !errors.Is(err, game.ErrIllegal) {
		t.Errorf("move after the game: %v", err)
	}
}

func TestSeatNames(t *testing.T) {
	s, _ := NewState(game.Options{"players": "8"}, 1)
	for seat, want := range []string{"1", "2", "3", "4", "5", "6", "7", "8"} {
		if got := s.SeatName(seat); got != want {
			t.Errorf("SeatName(%d) = %q, want %q", seat, got, want)
		}
	}
}

func TestOptions(t *testing.T) {
	if _, err := NewState(game.Options{"players": "9"}, 1); !errors.Is(err, game.ErrOption) {
		t.Errorf("9 players: %v", err)
	}
	if _, err := NewState(game.Options{"players": "1"}, 1); !errors.Is(err, game.ErrOption) {
		t.Errorf("1 player: %v", err)
	}
	if _, err := NewState(game.Options{"columns": "maybe"}, 1); !errors.Is(err, game.ErrOption) {
		t.Errorf("columns=maybe: %v", err)
	}
	s, err := Skyjo.New(nil, 1)
	if err != nil || s.NumPlayers() != 2 {
		t.Fatalf("New(nil): %v players, %v", s.NumPlayers(), err)
	}
	house := map[string]bool{}
	for _, o := range Skyjo.Options() {
		house[o.Name] = o.House
	}
	if len(house) != 6 || !house["maxturns"] || house["columns"] || house["starter"] {
		t.Errorf("options %v: only maxturns is a house rule", house)
	}
	d := game.Defaults(Skyjo)
	want := game.Options{"players": "2", "starter": "winner", "columns": "on", "double": "positive", "maxturns": "100", "target": "100"}
	if d.String() != want.String() {
		t.Errorf("defaults %s, want %s", d, want)
	}
}

// TestPositionGolden reads a hand-written position (testdata) and checks
// what it says, then that it is written back byte for byte.
func TestPositionGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "position.json"))
	if err != nil {
		t.Fatal(err)
	}
	gs, err := Skyjo.ParsePosition(data)
	if err != nil {
		t.Fatal(err)
	}
	s := gs.(*State)
	if s.round != 3 || s.phase != phaseDrawn || s.toMove != 1 || s.held != 7 || s.ender != -1 || s.starter != 1 || s.turn != 9 {
		t.Errorf("round %d phase %s toMove %d held %d", s.round, phaseNames[s.phase], s.toMove, s.held)
	}
	if s.cards[0][pos(t, "b1")] != 3 || s.up[0]&(1<<pos(t, "b1")) != 0 || s.gone[1] != colD || s.cards[1][pos(t, "a1")] != 12 {
		t.Error("grid cells misread")
	}
	if s.deck[s.deckN-1] != 4 || s.disc[s.discN-1] != 11 || s.totals[0] != 37 || s.totals[1] != -4 {
		t.Error("deck top, discard top or totals misread")
	}
	if rngState(s.rng) != 0x0123456789abcdef || s.seed != 42 {
		t.Errorf("rng %x seed %d", rngState(s.rng), s.seed)
	}
	out, _ := s.MarshalPosition()
	if string(out)+"\n" != string(data) {
		t.Errorf("written back differently:\n%s\n%s", out, data)
	}
}

func TestParsePositionRejects(t *testing.T) {
	data, _ := os.ReadFile(filepath.Join("testdata", "position.json"))
	cases := map[string][2]string{
		"other game":                {`"game":"skyjo"`, `"game":"sploof"`},
		"unknown field":             {`"turn":9`, `"turn":9,"extra":1`},
		"bad phase":                 {`"phase":"drawn"`, `"phase":"round_over"`},
		"card out of range":         {`"held":7`, `"held":13`},
		"held card in choose":       {`"phase":"drawn"`, `"phase":"choose"`},
		"card missing":              {`"held":7`, `"held":null`},
		"bad face-down cell":        {`"?3"`, `"?three"`},
		"partly removed column":     {`"x"]]`, `5]]`},
		"turn past the limit":       {`"turn":9`, `"turn":200`},
		"two reshuffles":            {`"reshuffles":0`, `"reshuffles":2`},
		"players mismatch":          {`"players":"2"`, `"players":"3"`},
		"bad rng":                   {`"rng":"0123456789abcdef"`, `"rng":"xyz"`},
		"ender with face-down":      {`"ender":-1`, `"ender":0`},
		"seat to move out of range": {`"toMove":1`, `"toMove":2`},
	}
	for name, c := range cases {
		bad := []byte(replaceOnce(string(data), c[0], c[1]))
		if string(bad) == string(data) {
			t.Fatalf("%s: %q not in the golden position", name, c[0])
		}
		if _, err := Skyjo.ParsePosition(bad); !errors.Is(err, game.ErrPosition) {
			t.Errorf("%s: accepted (%v)", name, err)
		}
	}
}

func replaceOnce(s, old, new string) string {
	i := index(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

// TestDrawGolden compares the terminal drawing of a hand-made position with
// testdata/draw.golden (-update rewrites it; review the diff).
func TestDrawGolden(t *testing.T) {
	s := build(t, layout{
		grids:   []string{"5 ?3 -2 x / ?1 ?2 12 x / 0 ?4 ?6 x", allDown, "1 2 3 4 / 2 3 4 5 / 3 4 5 6"},
		discard: []int{3, 7, 11}, deck: []int{4},
	})
	s.ender, s.toMove, s.round, s.turn = 2, 0, 2, 14
	s.totals = [MaxPlayers]int32{37, 12, 51}
	play(t, s, "draw")
	got := s.Draw()
	path := filepath.Join("testdata", "draw.golden")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("drawing:\n%s\nwant:\n%s", got, want)
	}
}
