package sploof

import (
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

// invariant checks the conservation and stacking facts on the
// position JSON, read by the test's own model rather than the engine's
// masks: per colour board + stock + supply = 16 with the finite supply, reds
// only on level 1, every ball above level 1 on four balls.
func invariant(t testing.TB, st game.State) {
	t.Helper()
	data, err := st.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	b := bare(t, data)
	m := modelFromJSON(b.Levels, b.ToMove, b.Stock, b.Supply)
	finite := !st.(*State).rules.unlimited
	for i, colour := range []string{"white", "black"} {
		onBoard := strings.Count(strings.Join(b.Levels, ""), string(modelLetter[i]))
		if n := onBoard + b.Stock[colour] + b.Supply[colour]; finite && n != 16 {
			t.Errorf("%s: %d on the board + %d in stock + %d in the supply = %d, want 16 (%s)",
				colour, onBoard, b.Stock[colour], b.Supply[colour], n, data)
		}
	}
	for h := 0; h < 4; h++ {
		for r := 0; r < 4-h; r++ {
			for c := 0; c < 4-h; c++ {
				switch ball := m.ball[h][r][c]; {
				case ball == 'R' && h > 0:
					t.Errorf("red on %s (%s)", modelName(h, r, c), data)
				case ball != '.' && !m.rests(h, r, c):
					t.Errorf("ball on %s does not rest on four balls (%s)", modelName(h, r, c), data)
				}
			}
		}
	}
}

var optionSets = []game.Options{
	nil,
	{"first": "white", "supply": "unlimited"},
	{"first": "black", "bothlines": "draw"},
	{"first": "random", "supply": "unlimited", "bothlines": "draw"},
}

func TestConformance(t *testing.T) {
	gametest.Run(t, Game{}, gametest.Config{
		Invariant: invariant,
		Options:   optionSets,
		Garbage:   []string{"*", "**1a1", "1a2", "2a1", "1h1", "5d4", "0a1", "1a0", "1a8", "*2b2", "1 c3", "11a1", "*4d4", "1c3x"},
	})
}

func TestLegalAllocs(t *testing.T) {
	for _, o := range optionSets {
		gametest.CheckLegalAllocs(t, Game{}, o)
	}
}

// TestPlayoutAllocs: zero allocations per playout on the specialised path.
func TestPlayoutAllocs(t *testing.T) {
	st, _ := Game{}.New(nil, 1)
	start := st.(*State)
	var s State
	rng := game.NewRNG(3)
	allocs := testing.AllocsPerRun(1000, func() {
		s = *start
		s.Playout(&rng)
	})
	if allocs != 0 {
		t.Errorf("Playout allocates %.2f times per playout, want 0", allocs)
	}
	scratch := st.Clone()
	allocs = testing.AllocsPerRun(1000, func() {
		scratch.CopyFrom(st)
		scratch.(game.Playouter).Playout(&rng)
	})
	if allocs != 0 {
		t.Errorf("CopyFrom+Playout through the interfaces allocate %.2f times per playout, want 0", allocs)
	}
}

func FuzzMoves(f *testing.F) { gametest.FuzzMoves(f, Game{}, nil) }

func FuzzPosition(f *testing.F) { gametest.FuzzPosition(f, Game{}, nil) }
