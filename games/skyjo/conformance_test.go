package skyjo

import (
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

// optionSets are the option combinations the conformance suite plays.
var optionSets = []game.Options{
	nil,
	{"players": "3", "starter": "finisher", "double": "always"},
	{"players": "5", "columns": "off"},
	{"players": "8", "maxturns": "5", "target": "40"},
	{"players": "2", "maxturns": "3", "target": "30"},
}

// conserved checks that the 150 cards are all somewhere exactly once:
// deck, discard pile, held card and grids (removed columns hold none; their
// cards went to the discard pile).
func conserved(t testing.TB, gs game.State) {
	t.Helper()
	s := gs.(*State)
	var count [15]int
	for p := 0; p < int(s.cfg.players); p++ {
		if s.up[p]&s.gone[p] != 0 {
			t.Errorf("seat %d: a removed position is face up", p)
		}
		for m := s.present(p); m != 0; m &= m - 1 {
			count[s.cards[p][trailingZeros(m)]+2]++
		}
	}
	for _, c := range s.deck[:s.deckN] {
		count[c+2]++
	}
	for _, c := range s.disc[:s.discN] {
		count[c+2]++
	}
	if s.held != noCard {
		count[s.held+2]++
	}
	want := [15]int{5, 10, 15, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10}
	if count != want {
		t.Errorf("cards by value from −2: %v, want %v", count, want)
	}
}

func TestConformance(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	gametest.Run(t, Skyjo, gametest.Config{
		Games:           games,
		Options:         optionSets,
		Invariant:       conserved,
		DeepChecksEvery: 7,
		Garbage:         []string{"flip", "swap", "flip e1", "swap a4", "flip a0", "take a1", "draw b2", "flip a1 b2", "swapa1"},
	})
}

func TestLegalAllocs(t *testing.T) {
	for _, o := range optionSets {
		gametest.CheckLegalAllocs(t, Skyjo, o)
	}
}

func FuzzMoves(f *testing.F)    { gametest.FuzzMoves(f, Skyjo, nil) }
func FuzzPosition(f *testing.F) { gametest.FuzzPosition(f, Skyjo, nil) }

// FuzzPositionPlay: any position ParsePosition accepts plays on to the end
// of the game under random decisions without a panic, a stuck seat or a
// lost card.
func FuzzPositionPlay(f *testing.F) {
	for _, s := range gametest.RandomStates(f, Skyjo, game.Options{"players": "3"}, 13, 40) {
		p, _ := s.MarshalPosition()
		f.Add(p, uint64(1))
	}
	f.Fuzz(func(t *testing.T, data []byte, seed uint64) {
		gs, err := Skyjo.ParsePosition(data)
		if err != nil {
			return
		}
		rng := game.NewRNG(seed)
		var buf []game.Move
		for ply := 0; ply < 5000; ply++ {
			conserved(t, gs)
			buf = gs.Legal(buf[:0])
			if len(buf) == 0 {
				if !gs.Outcome().Over() {
					t.Fatalf("no legal move in an ongoing game")
				}
				return
			}
			gs.Play(buf[rng.IntN(len(buf))])
		}
	})
}
