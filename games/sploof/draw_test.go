package sploof

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

var update = flag.Bool("update", false, "rewrite the golden drawings in testdata/draw")

// TestDraw compares drawings with golden files (checked by eye when
// written; go test -run TestDraw -update rewrites them) and checks that each
// one shows every level's balls as the position text has them and each
// visible ball in the top view.
func TestDraw(t *testing.T) {
	cases := map[string]*State{
		"start":    mustNew(t, game.Options{"first": "white"}),
		"twodrop":  mustParse(t, `{"game":"sploof","levels":["WBBB/BBWB/WBWR/WRWW",".BW/.WB/BB.",".W/..","."],"toMove":"white","stock":{"white":2,"black":1},"supply":{"white":4,"black":4}}`),
		"bothwins": position(t, bothLines, "black", 2, 1),
	}
	play(t, cases["bothwins"], "*1g1")
	for name, s := range cases {
		got := s.Draw()
		path := filepath.Join("testdata", "draw", name+".golden")
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s: drawing\n%s\nwant\n%s", name, got, want)
		}
		// Every level's rows appear, letters spaced, in the level panel.
		for h, lv := range s.Levels() {
			for _, row := range strings.Split(lv, "/") {
				spaced := strings.Join(strings.Split(row, ""), " ")
				if !strings.Contains(got, spaced) {
					t.Errorf("%s: level %d row %q missing", name, h+1, row)
				}
			}
		}
		// The top view shows each topmost ball as colour and level.
		occ := s.occ()
		vis := occ &^ covered(occ)
		for p := 0; p < numPoints; p++ {
			if vis&(1<<p) != 0 {
				cell := string([]byte{s.cell(p), byte('0' + points[p].h)})
				if !strings.Contains(got, cell) {
					t.Errorf("%s: %s's ball %s missing from the top view", name, PointName(p), cell)
				}
			}
		}
	}
}

func mustNew(t *testing.T, o game.Options) *State {
	t.Helper()
	s, err := Game{}.New(o, 0)
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}
