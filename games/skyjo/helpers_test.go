package skyjo

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// layout describes a hand-made position: grids, the top of the discard
// pile and of the deck. The cards it does not place go under the deck (or
// under the discard pile), so the 150 cards are always all there.
type layout struct {
	opts  game.Options
	grids []string // rows top to bottom split by "/", cells a–d: 5 face up, ?5 face down, x removed
	// discard are the top cards of the discard pile, bottom first; deck the
	// top cards of the deck, top first.
	discard, deck []int
	// restInDiscard puts the unplaced cards under the discard pile instead
	// of under the deck.
	restInDiscard bool
}

// build makes the layout's state: phase choose, round 1, seat 0 to move and
// starting, nobody ended, no reshuffle, totals 0.
func build(t testing.TB, l layout) *State {
	t.Helper()
	opts := game.Options{"players": strconv.Itoa(len(l.grids))}
	for k, v := range l.opts {
		opts[k] = v
	}
	s, err := NewState(opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	s.phase, s.toMove, s.starter, s.ender = phaseChoose, 0, 0, -1
	s.round, s.turn, s.reshuffles, s.held = 1, 0, 0, noCard
	s.rec.forget()
	var count [15]int
	for _, c := range fullDeck {
		count[c+2]++
	}
	take := func(v int) int8 {
		t.Helper()
		if v < -2 || v > 12 || count[v+2] == 0 {
			t.Fatalf("layout: no card %d left", v)
		}
		count[v+2]--
		return int8(v)
	}
	for p, g := range l.grids {
		s.up[p], s.gone[p] = 0, 0
		rows := strings.Split(g, "/")
		if len(rows) != 3 {
			t.Fatalf("grid %q: want 3 rows", g)
		}
		for r, row := range rows {
			cells := strings.Fields(row)
			if len(cells) != 4 {
				t.Fatalf("grid %q: want 4 cells a row", g)
			}
			for c, cell := range cells {
				i := c*3 + r
				switch {
				case cell == "x":
					s.gone[p] |= 1 << i
					s.cards[p][i] = 0
					continue
				case cell[0] == '?':
					cell = cell[1:]
				default:
					s.up[p] |= 1 << i
				}
				v, err := strconv.Atoi(cell)
				if err != nil {
					t.Fatalf("grid %q: cell %q", g, cell)
				}
				s.cards[p][i] = take(v)
			}
		}
	}
	var rest []int8
	placed := func() {
		for v, k := range count {
			for ; k > 0; k-- {
				rest = append(rest, int8(v-2))
			}
		}
	}
	var disc, deckTop []int8
	for _, v := range l.discard {
		disc = append(disc, take(v))
	}
	for _, v := range l.deck {
		deckTop = append(deckTop, take(v))
	}
	placed()
	s.discN, s.deckN = 0, 0
	if l.restInDiscard {
		for _, c := range rest {
			s.push(c)
		}
		rest = nil
	}
	for _, c := range disc {
		s.push(c)
	}
	// The deck is stored bottom first: the rest, then the named top cards.
	for _, c := range rest {
		s.deck[s.deckN] = c
		s.deckN++
	}
	for i := len(deckTop) - 1; i >= 0; i-- {
		s.deck[s.deckN] = deckTop[i]
		s.deckN++
	}
	return s
}

// valid checks that s is a position ParsePosition accepts (a guard on the
// hand-made layouts).
func valid(t testing.TB, s *State) {
	t.Helper()
	p, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Skyjo.ParsePosition(p); err != nil {
		t.Fatalf("hand-made position rejected: %v\n%s", err, p)
	}
}

// play plays the moves (notation) on s, failing the test on an illegal one.
func play(t testing.TB, s *State, moves ...string) {
	t.Helper()
	for _, m := range moves {
		if err := game.Play(s, m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
}

// discard is s's discard pile, bottom first.
func discard(s *State) []int {
	out := make([]int, s.discN)
	for i := range out {
		out[i] = int(s.disc[i])
	}
	return out
}

// topOf is the last n elements of a.
func topOf(a []int, n int) []int {
	if len(a) < n {
		return a
	}
	return a[len(a)-n:]
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// pos is a position index from its name.
func pos(t testing.TB, name string) int {
	t.Helper()
	i, ok := parsePos(name)
	if !ok {
		t.Fatalf("bad position %q", name)
	}
	return i
}

const colA, colB, colC, colD = uint16(colMask), uint16(colMask) << 3, uint16(colMask) << 6, uint16(colMask) << 9
