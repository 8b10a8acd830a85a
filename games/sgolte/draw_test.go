package sgolte

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestDrawShowsTheSpecDiagram: the drawing of the spec's no-placement
// position has the spec diagram's rows, top row first, each shifted half a
// cell from its neighbours, and the group sizes of the reference.
func TestDrawShowsTheSpecDiagram(t *testing.T) {
	bs, ws := diagramStones(t, noPlacementDiagram)
	s := posOf(t, 5, bs, ws)
	out := s.Draw()
	var want [][]string
	for _, line := range strings.Split(strings.TrimSpace(noPlacementDiagram), "\n") {
		_, cells, _ := strings.Cut(line, ":")
		want = append(want, strings.Fields(cells))
	}
	var got [][]string
	var indents []int
	for _, line := range strings.Split(out, "\n") {
		if len(line) < 2 || line[0] < 'a' || line[0] > 'i' || line[1] != ' ' {
			continue
		}
		f := strings.Fields(line)
		got = append(got, f[1:len(f)-1])
		indents = append(indents, len(line)-len(strings.TrimLeft(line[1:], " ")))
		if last := f[len(f)-1]; last != s.geo.names[s.geo.rowStart[line[0]-'a']+len(f)-3] {
			t.Errorf("row %c ends with label %s", line[0], last)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("drawn rows\n%v\nwant\n%v\n%s", got, want, out)
	}
	for i := 1; i < len(indents); i++ {
		if d := indents[i] - indents[i-1]; d != 1 && d != -1 {
			t.Fatalf("rows %d and %d are shifted by %d columns, want half a cell:\n%s", i-1, i, d, out)
		}
	}
	ref := refFromJSON(t, mustJSON(t, s))
	for _, c := range []struct {
		mark   string
		colour int
	}{{"X Black", refBlack}, {"O White", refWhite}} {
		var sizes []string
		for _, z := range ref.sizes(c.colour) {
			sizes = append(sizes, strconv.Itoa(z))
		}
		if !strings.Contains(out, c.mark+" (player ") || !strings.Contains(out, "groups "+strings.Join(sizes, " ")+"\n") {
			t.Errorf("drawing lacks %s's groups %v:\n%s", c.mark, sizes, out)
		}
	}
	if !strings.Contains(out, "Black (X) to move.") {
		t.Errorf("drawing does not say whose turn it is:\n%s", out)
	}
}

// TestDrawPieAndTurn: the pie state and the seats' colours after a swap.
func TestDrawPieAndTurn(t *testing.T) {
	s := newState(t, "size=7")
	game.Play(s, "g7")
	out := s.Draw()
	for _, want := range []string{"White may answer", "White (O) to move.", "X Black (player 1): 1 stone, groups 1", "m7\n", "a7\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("drawing lacks %q:\n%s", want, out)
		}
	}
	game.Play(s, "swap")
	out = s.Draw()
	for _, want := range []string{"colours swapped", "X Black (player 2)", "O White (player 1)", "White (O) to move."} {
		if !strings.Contains(out, want) {
			t.Errorf("drawing after swap lacks %q:\n%s", want, out)
		}
	}
}
