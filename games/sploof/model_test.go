package sploof

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// model is a deliberately plain second implementation of the spec, written
// only for the tests: a 3-D array pyramid, moves as text, its own support,
// pin, drop and line code, and nothing precomputed. It shares no code with
// the engine, so the two agreeing says something.
type model struct {
	ball      [4][4][4]byte // [level-1][row][column]; only n×n used per level
	toMove    int           // 0 white, 1 black
	stock     [2]int
	supply    [2]int
	unlimited bool
	over      bool
	winner    int // -1 for a draw
}

var modelLetter = [2]byte{'W', 'B'}

func newModel(first int) *model {
	m := &model{toMove: first, stock: [2]int{2, 2}, supply: [2]int{14, 14}}
	for h := 0; h < 4; h++ {
		for r := 0; r < 4-h; r++ {
			for c := 0; c < 4-h; c++ {
				m.ball[h][r][c] = '.'
			}
		}
	}
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			if r == 0 || r == 3 || c == 0 || c == 3 {
				m.ball[0][r][c] = 'R'
			}
		}
	}
	return m
}

// modelFromJSON reads the spec's level strings (top row first).
func modelFromJSON(levels []string, toMove string, stock, supply map[string]int) *model {
	m := &model{stock: [2]int{stock["white"], stock["black"]}, supply: [2]int{supply["white"], supply["black"]}}
	if toMove == "black" {
		m.toMove = 1
	}
	for h := 0; h < 4; h++ {
		rows := strings.Split(levels[h], "/")
		n := 4 - h
		for i, row := range rows {
			for c := 0; c < n; c++ {
				m.ball[h][n-1-i][c] = row[c]
			}
		}
	}
	m.judgeStatic()
	return m
}

func (m *model) n(h int) int { return 4 - h }

func modelName(h, r, c int) string {
	return fmt.Sprintf("%d%c%d", h+1, 'a'+2*c+h, 2*r+h+1)
}

func (m *model) rests(h, r, c int) bool {
	if h == 0 {
		return true
	}
	for dr := 0; dr < 2; dr++ {
		for dc := 0; dc < 2; dc++ {
			if m.ball[h-1][r+dr][c+dc] == '.' {
				return false
			}
		}
	}
	return true
}

// carried counts the balls on level 2 that rest on the level-1 hole (r, c).
func (m *model) carried(r, c int) int {
	k := 0
	for rr := r - 1; rr <= r; rr++ {
		for cc := c - 1; cc <= c; cc++ {
			if rr >= 0 && cc >= 0 && rr < 3 && cc < 3 && m.ball[1][rr][cc] != '.' {
				k++
			}
		}
	}
	return k
}

func (m *model) legal() []string {
	if m.over {
		return nil
	}
	var out []string
	if m.stock[m.toMove] > 0 {
		for h := 0; h < 4; h++ {
			for r := 0; r < m.n(h); r++ {
				for c := 0; c < m.n(h); c++ {
					if m.ball[h][r][c] == '.' && m.rests(h, r, c) {
						out = append(out, modelName(h, r, c))
					}
				}
			}
		}
	}
	if m.supply[m.toMove] >= 2 || m.unlimited {
		for r := 0; r < 4; r++ {
			for c := 0; c < 4; c++ {
				if m.ball[0][r][c] == 'R' && m.carried(r, c) <= 1 {
					out = append(out, "*"+modelName(0, r, c))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// topView is the topmost ball at each of the 7×7 top-view positions.
func (m *model) topView() [7][7]byte {
	var tv [7][7]byte
	for h := 0; h < 4; h++ { // higher levels overwrite lower ones
		for r := 0; r < m.n(h); r++ {
			for c := 0; c < m.n(h); c++ {
				if b := m.ball[h][r][c]; b != '.' {
					tv[2*c+h][2*r+h] = b
				}
			}
		}
	}
	return tv
}

func (m *model) line(colour byte) bool {
	// Level-1 rows and columns, unless two level-2 balls side by side
	// bridge them.
	for i := 0; i < 4; i++ {
		row, col := true, true
		for j := 0; j < 4; j++ {
			row = row && m.ball[0][i][j] == colour
			col = col && m.ball[0][j][i] == colour
		}
		for j := 0; j < 3 && i >= 1 && i <= 2; j++ {
			if m.ball[1][i-1][j] != '.' && m.ball[1][i][j] != '.' {
				row = false
			}
			if m.ball[1][j][i-1] != '.' && m.ball[1][j][i] != '.' {
				col = false
			}
		}
		if row || col {
			return true
		}
	}
	tv := m.topView()
	for x := 0; x < 7; x++ {
		for y := 0; y < 7; y++ {
			if (x+y)%2 != 0 {
				continue
			}
			for _, dy := range []int{1, -1} {
				ok := x+3 < 7 && y+3*dy >= 0 && y+3*dy < 7
				for k := 0; ok && k < 4; k++ {
					ok = tv[x+k][y+k*dy] == colour
				}
				if ok {
					return true
				}
			}
		}
	}
	return false
}

// judgeStatic sets the result of a position as given: lines first (both:
// the colour not to move made them), then the player to move without a move
// loses.
func (m *model) judgeStatic() {
	w, b := m.line('W'), m.line('B')
	m.settle(w, b, 1-m.toMove)
}

func (m *model) settle(w, b bool, mover int) {
	switch {
	case w && b:
		m.over, m.winner = true, mover
	case w:
		m.over, m.winner = true, 0
	case b:
		m.over, m.winner = true, 1
	default:
		if len(m.legal()) == 0 {
			m.over, m.winner = true, 1-m.toMove
		}
	}
}

func (m *model) play(t testing.TB, mv string) {
	me := m.toMove
	var h, r, c int
	name := strings.TrimPrefix(mv, "*")
	found := false
	for hh := 0; hh < 4 && !found; hh++ {
		for rr := 0; rr < m.n(hh) && !found; rr++ {
			for cc := 0; cc < m.n(hh) && !found; cc++ {
				if modelName(hh, rr, cc) == name {
					h, r, c, found = hh, rr, cc, true
				}
			}
		}
	}
	if !found {
		t.Fatalf("model: no point %q", mv)
	}
	if mv[0] != '*' {
		m.ball[h][r][c] = modelLetter[me]
		m.stock[me]--
	} else {
		m.ball[0][r][c] = '.'
		m.stock[me] += 2
		m.supply[me] -= 2
		if m.supply[me] < 0 {
			m.supply[me] = 0
		}
		m.drop(t, r, c)
	}
	m.toMove = 1 - me
	m.settle(m.line('W'), m.line('B'), me)
}

// drop: the ball resting on the emptied hole falls into it, then the ball
// resting on the point it left, and so on; the spec says there is at most
// one each time and that they form a straight line, which the model checks
// rather than assumes.
func (m *model) drop(t testing.TB, r, c int) {
	h := 0
	dx, dy := 0, 0
	for h < 3 {
		var hits [][2]int
		for rr := r - 1; rr <= r; rr++ {
			for cc := c - 1; cc <= c; cc++ {
				if rr >= 0 && cc >= 0 && rr < m.n(h+1) && cc < m.n(h+1) && m.ball[h+1][rr][cc] != '.' {
					hits = append(hits, [2]int{rr, cc})
				}
			}
		}
		if len(hits) == 0 {
			return
		}
		if len(hits) > 1 {
			t.Fatalf("model: %d balls rest on the emptied %s", len(hits), modelName(h, r, c))
		}
		rr, cc := hits[0][0], hits[0][1]
		// Top-view step from the emptied point to the ball above it.
		sx, sy := (2*cc+h+1)-(2*c+h), (2*rr+h+1)-(2*r+h)
		if h > 0 && (sx != dx || sy != dy) {
			t.Fatalf("model: the drop chain bends at %s", modelName(h+1, rr, cc))
		}
		dx, dy = sx, sy
		m.ball[h][r][c] = m.ball[h+1][rr][cc]
		m.ball[h+1][rr][cc] = '.'
		h, r, c = h+1, rr, cc
	}
}

func (m *model) perft(t testing.TB, depth int) uint64 {
	moves := m.legal()
	if depth == 1 {
		return uint64(len(moves))
	}
	var n uint64
	for _, mv := range moves {
		child := *m
		child.play(t, mv)
		n += child.perft(t, depth-1)
	}
	return n
}

// TestPerftAgainstModel: the engine's perft from the start (both first
// players) equals the brute-force model's and the table in
// testdata/perft.txt for depths 1–4 (5 with SPLOOF_DEEP=1).
func TestPerftAgainstModel(t *testing.T) {
	maxDepth := 4
	if os.Getenv("SPLOOF_DEEP") != "" {
		maxDepth = 5
	}
	data, err := os.ReadFile("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(string(data), "\n") {
		var first string
		var depth int
		var want uint64
		if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
			continue
		}
		if _, err := fmt.Sscan(line, &first, &depth, &want); err != nil {
			t.Fatalf("perft.txt: %q: %v", line, err)
		}
		if depth > maxDepth {
			continue
		}
		s, err := Game{}.New(game.Options{"first": first}, 0)
		if err != nil {
			t.Fatal(err)
		}
		m := newModel(map[string]int{"white": 0, "black": 1}[first])
		got, byModel := game.Perft(s, depth), m.perft(t, depth)
		if got != want || byModel != want {
			t.Errorf("first=%s perft(%d): engine %d, model %d, table %d", first, depth, got, byModel, want)
		}
		checked++
	}
	if checked < 8 {
		t.Errorf("only %d perft cases checked", checked)
	}
}

// TestModelAgreesWithCorpus holds the model itself to the corpus, so that
// agreeing with it means something.
func TestModelAgreesWithCorpus(t *testing.T) {
	for i, l := range loadCorpus(t) {
		b := bare(t, l.Position)
		m := modelFromJSON(b.Levels, b.ToMove, b.Stock, b.Supply)
		want := append([]string(nil), l.Moves...)
		sort.Strings(want)
		if got := m.legal(); strings.Join(got, " ") != strings.Join(want, " ") {
			t.Fatalf("line %d: model moves %v, corpus %v", i+1, got, want)
		}
		if m.line('W') != l.Lines.White || m.line('B') != l.Lines.Black {
			t.Fatalf("line %d: model lines differ from the corpus", i+1)
		}
		for mv, pos := range l.After {
			c := *m
			c.play(t, mv)
			a := bare(t, pos)
			if got := c.levels(); strings.Join(got[:], " ") != strings.Join(a.Levels, " ") {
				t.Fatalf("line %d: model after %s: %v, corpus %v", i+1, mv, got, a.Levels)
			}
		}
	}
}

func (m *model) levels() [4]string {
	var out [4]string
	for h := 0; h < 4; h++ {
		var rows []string
		for r := m.n(h) - 1; r >= 0; r-- {
			rows = append(rows, string(m.ball[h][r][:m.n(h)]))
		}
		out[h] = strings.Join(rows, "/")
	}
	return out
}

// TestRandomGamesAgainstModel plays random games on the engine and the
// model side by side under both supply options: same legal moves, same
// board, counts and result after every ply.
func TestRandomGamesAgainstModel(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 50
	}
	for _, supply := range []string{"finite", "unlimited"} {
		rng := game.NewRNG(2024)
		for g := 0; g < games; g++ {
			st, err := Game{}.New(game.Options{"supply": supply}, uint64(g))
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			m := newModel(s.ToMove())
			m.unlimited = supply == "unlimited"
			for ply := 0; ; ply++ {
				got, want := sortedMoves(s), m.legal()
				if strings.Join(got, " ") != strings.Join(want, " ") {
					t.Fatalf("%s game %d ply %d: moves %v, model %v", supply, g, ply, got, want)
				}
				if lv := s.Levels(); lv != m.levels() || s.stock != [2]uint8{uint8(m.stock[0]), uint8(m.stock[1])} ||
					s.supply != [2]uint8{uint8(m.supply[0]), uint8(m.supply[1])} {
					t.Fatalf("%s game %d ply %d: board %v %v %v, model %v %v %v", supply, g, ply, lv, s.stock, s.supply, m.levels(), m.stock, m.supply)
				}
				o := s.Outcome()
				if o.Over() != m.over || (m.over && (m.winner < 0) != (o.Status == game.Drawn)) ||
					(m.over && m.winner >= 0 && !o.IsWinner(m.winner)) {
					t.Fatalf("%s game %d ply %d: outcome %+v, model over=%v winner=%d", supply, g, ply, o, m.over, m.winner)
				}
				if o.Over() {
					break
				}
				mv := got[rng.IntN(len(got))]
				if err := game.Play(s, mv); err != nil {
					t.Fatal(err)
				}
				m.play(t, mv)
			}
		}
	}
}
