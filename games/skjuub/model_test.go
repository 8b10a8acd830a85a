package skjuub

// A deliberately simple second implementation of the rules, written from the
// spec without bitboards, masks or shared helpers: a 6×6 array of cells,
// validity checked by looking at every piece and every empty square, moves
// found by trying every action and checking the result. Perft and lockstep
// random games compare the engine with it.

import (
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

type mCell struct{ owner, dir int } // owner -1: empty

type mOpts struct {
	forbid, closed, sweep, any bool
	maxTurns                   int
}

type model struct {
	cell    [6][6]mCell // [x][y], x = file a..f, y = rank 1..6
	pool    [2]int
	mover   int
	turns   [2]int
	last    [2]string // last action of each player's previous turn ("^c3N" for a pick-up)
	pending string    // the sacrificing slide/tumble of the current turn, "" in the main phase
	over    bool
	draw    bool
	winner  int
	opts    mOpts
	hist    []string
}

var mdx = [4]int{0, 1, 0, -1} // N E S W
var mdy = [4]int{1, 0, -1, 0}

func mOn(x, y int) bool { return x >= 0 && x < 6 && y >= 0 && y < 6 }

func mSq(x, y int) string { return fmt.Sprintf("%c%d", 'a'+x, y+1) }

func mParseSq(s string) (int, int) { return int(s[0] - 'a'), int(s[1] - '1') }

func mDirOf(c byte) int { return strings.IndexByte("NESW", c) }

func newModel(o mOpts) *model {
	m := &model{pool: [2]int{11, 11}, opts: o}
	for x := range m.cell {
		for y := range m.cell[x] {
			m.cell[x][y].owner = -1
		}
	}
	m.startTurn()
	return m
}

// clone shares the history; startTurn copies it before appending.
func (m *model) clone() *model {
	c := *m
	return &c
}

// valid checks the spec's three validity rules directly.
func (m *model) valid() bool {
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			c := m.cell[x][y]
			if c.owner < 0 {
				// Collect the overhangs reaching this empty square.
				var dirs [4]int
				nd := 0
				for d := 0; d < 4; d++ {
					// The neighbour on side d leans back toward us when its
					// direction is opposite to d.
					nx, ny := x+mdx[d], y+mdy[d]
					if mOn(nx, ny) && m.cell[nx][ny].owner >= 0 && m.cell[nx][ny].dir == (d+2)%4 {
						dirs[nd] = m.cell[nx][ny].dir
						nd++
					}
				}
				for i := 0; i < nd; i++ {
					for j := i + 1; j < nd; j++ {
						if (dirs[i]+dirs[j])%2 == 1 { // perpendicular
							return false
						}
						if m.opts.forbid {
							return false // two overhangs can only be opposite or perpendicular
						}
					}
				}
				continue
			}
			ox, oy := x+mdx[c.dir], y+mdy[c.dir]
			if !mOn(ox, oy) {
				if m.opts.closed {
					return false
				}
				continue
			}
			if o := m.cell[ox][oy]; o.owner >= 0 && o.dir != c.dir {
				return false
			}
		}
	}
	return true
}

func (m *model) active(x, y int) bool {
	c := m.cell[x][y]
	for d := 0; d < 4; d++ {
		nx, ny := x+mdx[d], y+mdy[d]
		if mOn(nx, ny) && m.cell[nx][ny].owner >= 0 && m.cell[nx][ny].dir == c.dir {
			return false
		}
	}
	return true
}

func (m *model) activeOf(p int) map[[2]int]bool {
	out := map[[2]int]bool{}
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			if m.cell[x][y].owner == p && m.active(x, y) {
				out[[2]int{x, y}] = true
			}
		}
	}
	return out
}

func mReverse(t string) string {
	switch {
	case strings.HasPrefix(t, "^"):
		return t[1:] // ^c3N → c3N
	case len(t) == 5:
		return t[3:5] + t[2:3] + t[0:2]
	case strings.HasSuffix(t, ">"):
		return t[:2] + "<"
	case strings.HasSuffix(t, "<"):
		return t[:2] + ">"
	}
	return "" // placements restrict nothing
}

// candidates lists every action the mover might try, legal or not, with the
// board it leads to; the caller filters.
func (m *model) candidates(mainOnly bool) []string {
	var out []string
	p := m.mover
	for x := 0; x < 6; x++ {
		for y := 0; y < 6; y++ {
			c := m.cell[x][y]
			if c.owner < 0 {
				for d := 0; d < 4; d++ {
					out = append(out, mSq(x, y)+string("NESW"[d]))
				}
				continue
			}
			if c.owner != p {
				continue
			}
			for u := 0; u < 4; u++ {
				for k := 1; k < 6; k++ {
					if mOn(x+k*mdx[u], y+k*mdy[u]) {
						out = append(out, mSq(x, y)+"-"+mSq(x+k*mdx[u], y+k*mdy[u]))
					}
				}
				if mOn(x+mdx[u], y+mdy[u]) {
					out = append(out, mSq(x, y)+"~"+mSq(x+mdx[u], y+mdy[u]))
				}
			}
			if !mainOnly {
				out = append(out, "^"+mSq(x, y), mSq(x, y)+">", mSq(x, y)+"<")
			}
		}
	}
	if !mainOnly {
		out = append(out, "pass")
	}
	return out
}

// try applies action t to a copy of the board and reports whether it is
// legal, with the resulting model (turn not yet ended).
func (m *model) try(t string, activeOpp map[[2]int]bool) (*model, bool) {
	p := m.mover
	n := m.clone()
	bonus := m.pending != ""
	switch {
	case t == "pass":
		return n, bonus
	case t[0] == '^':
		if !bonus {
			return nil, false
		}
		x, y := mParseSq(t[1:])
		if m.cell[x][y].owner != p || t[1:] == m.pending[3:5] {
			return nil, false
		}
		n.cell[x][y] = mCell{-1, 0}
		n.pool[p]++
		return n, true
	case len(t) == 3 && (t[2] == '>' || t[2] == '<'):
		x, y := mParseSq(t)
		if !bonus || m.cell[x][y].owner != p || !m.active(x, y) {
			return nil, false
		}
		if t[2] == '>' {
			n.cell[x][y].dir = (m.cell[x][y].dir + 1) % 4
		} else {
			n.cell[x][y].dir = (m.cell[x][y].dir + 3) % 4
		}
		return n, n.valid() && n.active(x, y)
	case len(t) == 3:
		x, y := mParseSq(t)
		if m.pool[p] == 0 || m.cell[x][y].owner >= 0 {
			return nil, false
		}
		n.cell[x][y] = mCell{p, mDirOf(t[2])}
		n.pool[p]--
		if !n.valid() {
			return nil, false
		}
		for sq := range activeOpp {
			if !n.active(sq[0], sq[1]) {
				return nil, false // never inactivate an active opponent piece
			}
		}
		return n, true
	}
	// slide or tumble
	x, y := mParseSq(t)
	tx, ty := mParseSq(t[3:])
	c := m.cell[x][y]
	if c.owner != p || !m.active(x, y) || m.cell[tx][ty].owner >= 0 {
		return nil, false
	}
	n.cell[x][y] = mCell{-1, 0}
	if t[2] == '-' {
		// every square passed must be empty and a valid stop
		dx, dy := sign(tx-x), sign(ty-y)
		for cx, cy := x+dx, y+dy; ; cx, cy = cx+dx, cy+dy {
			if m.cell[cx][cy].owner >= 0 {
				return nil, false
			}
			probe := n.clone()
			probe.cell[cx][cy] = c
			if !probe.valid() {
				return nil, false
			}
			if cx == tx && cy == ty {
				break
			}
		}
		n.cell[tx][ty] = c
		return n, true
	}
	fwd := tx == x+mdx[c.dir] && ty == y+mdy[c.dir]
	bwd := tx == x-mdx[c.dir] && ty == y-mdy[c.dir]
	if !fwd && !bwd {
		return nil, false
	}
	nd := (c.dir + 2) % 4
	n.cell[tx][ty] = mCell{p, nd}
	if fwd && m.opts.sweep {
		bx, by := tx+mdx[c.dir], ty+mdy[c.dir]
		if mOn(bx, by) && m.cell[bx][by].owner >= 0 && m.cell[bx][by].dir == nd {
			return nil, false
		}
	}
	return n, n.valid()
}

func sign(v int) int {
	switch {
	case v > 0:
		return 1
	case v < 0:
		return -1
	}
	return 0
}

func (m *model) captures(n *model) bool {
	for sq := range m.activeOf(1 - m.mover) {
		if !n.active(sq[0], sq[1]) {
			return true
		}
	}
	return false
}

func (m *model) legal(mainOnly bool) []string { return m.legalOf(mainOnly, false) }

func (m *model) legalOf(mainOnly, slidesOnly bool) []string {
	if m.over {
		return nil
	}
	var out []string
	bonus := m.pending != ""
	banned := ""
	if !bonus || m.opts.any {
		banned = mReverse(m.last[m.mover])
	}
	activeOpp := m.activeOf(1 - m.mover)
	for _, t := range m.candidates(mainOnly || !bonus) {
		if slidesOnly && len(t) != 5 {
			continue
		}
		n, ok := m.try(t, activeOpp)
		if !ok {
			continue
		}
		if t == banned && !m.captures(n) {
			continue
		}
		out = append(out, t)
	}
	sort.Strings(out)
	return out
}

func (m *model) key() string {
	return fmt.Sprint(m.cell, m.pool, m.mover, mReverse(m.last[0]), mReverse(m.last[1]))
}

func (m *model) startTurn() {
	k := m.key()
	m.hist = append(m.hist[:len(m.hist):len(m.hist)], k)
	p := m.mover
	slides := len(m.legalOf(true, true))
	reps := 0
	for _, h := range m.hist {
		if h == k {
			reps++
		}
	}
	switch {
	case m.turns[p] >= 1 && slides == 0, m.turns[p] == 0 && len(m.legal(false)) == 0:
		m.over, m.winner = true, 1-p
	case reps >= 3, m.turns[0]+m.turns[1] >= m.opts.maxTurns:
		m.over, m.draw = true, true
	}
}

func (m *model) play(t string) *model {
	n, ok := m.try(t, m.activeOf(1-m.mover))
	if !ok {
		panic("model: illegal " + t)
	}
	p := m.mover
	last := t
	switch {
	case t == "pass":
		last = m.pending
	case t[0] == '^':
		x, y := mParseSq(t[1:])
		last = t + string("NESW"[m.cell[x][y].dir])
	case len(t) == 5:
		tx, ty := mParseSq(t[3:])
		if !n.active(tx, ty) {
			n.pending = t // sacrificed: bonus action
			return n
		}
	}
	n.last[p] = last
	n.pending = ""
	n.turns[p]++
	n.mover = 1 - p
	n.startTurn()
	return n
}

func (m *model) perft(depth int) int {
	if depth == 0 {
		return 1
	}
	moves := m.legal(false)
	if depth == 1 {
		return len(moves)
	}
	n := 0
	for _, t := range moves {
		n += m.play(t).perft(depth - 1)
	}
	return n
}

// enginePerft counts with copy-make on the engine.
func enginePerft(s *State, depth int) int {
	var buf [maxMoves]game.Move
	moves := s.Legal(buf[:0])
	if depth == 1 {
		return len(moves)
	}
	n := 0
	child := &State{}
	for _, mv := range moves {
		child.copyFrom(s)
		child.Play(mv)
		n += enginePerft(child, depth-1)
	}
	return n
}

// sameAsModel compares the engine state with the model through the
// engine's position JSON (read here with encoding/json, not ParsePosition).
func sameAsModel(t testing.TB, s *State, m *model) {
	t.Helper()
	data, err := s.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var pj struct {
		Board      map[string]string
		Pool       [2]int
		ToMove     int
		Phase      string
		EarnedBy   string
		LastAction [2]string
		Turn       [2]int
	}
	if err := json.Unmarshal(data, &pj); err != nil {
		t.Fatal(err)
	}
	var want [6][6]mCell
	for x := range want {
		for y := range want[x] {
			want[x][y].owner = -1
		}
	}
	for k, v := range pj.Board {
		x, y := mParseSq(k)
		want[x][y] = mCell{int(v[0] - '1'), mDirOf(v[1])}
	}
	got := fmt.Sprint(want, pj.Pool, pj.ToMove-1, pj.EarnedBy, pj.LastAction, pj.Turn)
	exp := fmt.Sprint(m.cell, m.pool, m.mover, m.pending, m.last, m.turns)
	if got != exp {
		t.Fatalf("engine and model differ:\n engine %s\n model  %s\n json %s", got, exp, data)
	}
	o := s.Outcome()
	switch {
	case !m.over && o.Over(), m.over && !o.Over():
		t.Fatalf("over: engine %v, model %v (%s)", o, m.over, data)
	case m.over && m.draw && o.Status != game.Drawn:
		t.Fatalf("model draws, engine %v (%s)", o, data)
	case m.over && !m.draw && (o.Status != game.Won || !o.IsWinner(m.winner)):
		t.Fatalf("model: player %d wins, engine %v (%s)", m.winner+1, o, data)
	}
	var buf [maxMoves]game.Move
	var texts []string
	for _, mv := range s.Legal(buf[:0]) {
		texts = append(texts, s.FormatMove(mv))
	}
	sort.Strings(texts)
	if a, b := strings.Join(texts, " "), strings.Join(m.legal(false), " "); a != b {
		t.Fatalf("legal moves differ (%s):\n engine %s\n model  %s", data, a, b)
	}
}

func optsFor(o mOpts) game.Options {
	g := game.Options{"maxturns": fmt.Sprint(o.maxTurns)}
	if o.forbid {
		g["opposite_overhangs"] = "forbid"
	}
	if o.closed {
		g["edge"] = "closed"
	}
	if o.sweep {
		g["tumble"] = "sweep"
	}
	if o.any {
		g["backtrack"] = "any"
	}
	return g
}

var modelOptionSets = []mOpts{
	{maxTurns: 300},
	{forbid: true, closed: true, maxTurns: 300},
	{sweep: true, any: true, maxTurns: 60},
	{forbid: true, sweep: true, any: true, closed: true, maxTurns: 40},
}

// TestPerftTable checks the engine, and the brute-force model, against the
// perft counts in testdata/perft.txt. Depth 3 is slow for the model, so it
// runs only for the default options and not with -short.
func TestPerftTable(t *testing.T) {
	data, err := os.ReadFile("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, line := range strings.Split(string(data), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 || strings.HasPrefix(line, "#") {
			continue
		}
		var depth, want int
		fmt.Sscan(f[1], &depth)
		fmt.Sscan(f[2], &want)
		var o mOpts
		o.maxTurns = 300
		if f[0] != "default" {
			for _, kv := range strings.Split(f[0], ",") {
				switch kv {
				case "opposite_overhangs=forbid":
					o.forbid = true
				case "edge=closed":
					o.closed = true
				default:
					t.Fatalf("unknown option %q", kv)
				}
			}
		}
		if depth == 3 && testing.Short() {
			continue
		}
		st, err := Game.New(optsFor(o), 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := enginePerft(st.(*State), depth); got != want {
			t.Errorf("%s perft(%d) = %d, table %d", f[0], depth, got, want)
		}
		checked++
		if depth < 3 || f[0] == "default" {
			if got := newModel(o).perft(depth); got != want {
				t.Errorf("%s: brute-force perft(%d) = %d, table %d", f[0], depth, got, want)
			}
		}
	}
	if checked < 4 {
		t.Errorf("only %d perft lines checked", checked)
	}
}

func TestLockstepWithModel(t *testing.T) {
	games := 25
	if testing.Short() {
		games = 8
	}
	for oi, o := range modelOptionSets {
		for g := 0; g < games; g++ {
			seed := uint64(oi*1000 + g)
			st, _ := Game.New(optsFor(o), seed)
			s := st.(*State)
			m := newModel(o)
			rng := game.NewRNG(seed)
			for ply := 0; ; ply++ {
				sameAsModel(t, s, m)
				if m.over {
					break
				}
				moves := m.legal(false)
				txt := moves[rng.IntN(len(moves))]
				if err := game.Play(s, txt); err != nil {
					t.Fatalf("seed %d ply %d: %v", seed, ply, err)
				}
				m = m.play(txt)
			}
		}
	}
}
