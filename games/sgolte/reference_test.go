package sgolte

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"testing"
)

// This file is a second, deliberately simple implementation of the rules,
// written from the spec's wording with none of the engine's machinery: cell
// arrays instead of bitsets, neighbours built from the spec's row rules
// instead of axial coordinates, groups by explicit flood fill, and every
// chain found by plain recursion, with the number of parts of the group
// recounted from scratch after each flip. Tests compare the engine with it.

const (
	refEmpty = 0
	refBlack = 1
	refWhite = 2
)

type refBoard struct {
	n      int
	rowLen []int
	names  []string
	index  map[string]int
	row    []int
	num    []int
	nbrs   [][]int
}

func newRefBoard(n int) *refBoard {
	b := &refBoard{n: n, index: map[string]int{}}
	mid := n - 1
	first := map[[2]int]int{}
	for r := 0; r < 2*n-1; r++ {
		l := n + r
		if r > mid {
			l = n + 2*mid - r
		}
		b.rowLen = append(b.rowLen, l)
		for k := 1; k <= l; k++ {
			name := fmt.Sprintf("%c%d", 'a'+r, k)
			first[[2]int{r, k}] = len(b.names)
			b.index[name] = len(b.names)
			b.names = append(b.names, name)
			b.row = append(b.row, r)
			b.num = append(b.num, k)
		}
	}
	b.nbrs = make([][]int, len(b.names))
	link := func(r1, k1, r2, k2 int) {
		i, ok1 := first[[2]int{r1, k1}]
		j, ok2 := first[[2]int{r2, k2}]
		if ok1 && ok2 {
			b.nbrs[i] = append(b.nbrs[i], j)
			b.nbrs[j] = append(b.nbrs[j], i)
		}
	}
	// The spec: same row ±1; below the middle row (r, k) touches (r+1, k)
	// and (r+1, k+1); above it (r, k) touches (r-1, k) and (r-1, k+1). The
	// middle row's links come from the rows on either side.
	for r := 0; r < 2*n-1; r++ {
		for k := 1; k <= b.rowLen[r]; k++ {
			link(r, k, r, k+1)
			if r < mid {
				link(r, k, r+1, k)
				link(r, k, r+1, k+1)
			}
			if r > mid {
				link(r, k, r-1, k)
				link(r, k, r-1, k+1)
			}
		}
	}
	return b
}

type refPos struct {
	b         *refBoard
	cell      []int
	toMove    int
	pie       string
	swapped   bool
	passes    int
	minflip   string
	continue_ string
}

func refFromJSON(t testing.TB, data []byte) *refPos {
	t.Helper()
	var j struct {
		Size     int      `json:"size"`
		Black    []string `json:"black"`
		White    []string `json:"white"`
		ToMove   string   `json:"toMove"`
		Pie      string   `json:"pie"`
		Swapped  bool     `json:"swapped"`
		Passes   int      `json:"passes"`
		Minflip  string   `json:"minflip"`
		Continue string   `json:"continue"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	b := newRefBoard(j.Size)
	p := &refPos{b: b, cell: make([]int, len(b.names)), pie: j.Pie, swapped: j.Swapped, passes: j.Passes,
		minflip: j.Minflip, continue_: j.Continue}
	if p.minflip == "" {
		p.minflip = "global"
	}
	if p.continue_ == "" {
		p.continue_ = "optional"
	}
	for _, x := range j.Black {
		p.cell[b.index[x]] = refBlack
	}
	for _, x := range j.White {
		p.cell[b.index[x]] = refWhite
	}
	p.toMove = refBlack
	if j.ToMove == "white" {
		p.toMove = refWhite
	}
	return p
}

func newRefPos(n int, pie bool, minflip, cont string) *refPos {
	b := newRefBoard(n)
	p := &refPos{b: b, cell: make([]int, len(b.names)), toMove: refBlack, pie: "off", minflip: minflip, continue_: cont}
	if pie {
		p.pie = "pending"
	}
	return p
}

func (p *refPos) clone() *refPos {
	c := *p
	c.cell = append([]int(nil), p.cell...)
	return &c
}

// components counts the connected parts of the cells in `in`.
func (p *refPos) components(in []bool) int {
	seen := make([]bool, len(in))
	parts := 0
	for i := range in {
		if !in[i] || seen[i] {
			continue
		}
		parts++
		stack := []int{i}
		seen[i] = true
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, d := range p.b.nbrs[c] {
				if in[d] && !seen[d] {
					seen[d] = true
					stack = append(stack, d)
				}
			}
		}
	}
	return parts
}

// group returns the cells of the group holding cell c.
func (p *refPos) group(c int) []bool {
	in := make([]bool, len(p.cell))
	in[c] = true
	stack := []int{c}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, d := range p.b.nbrs[x] {
			if !in[d] && p.cell[d] == p.cell[c] {
				in[d] = true
				stack = append(stack, d)
			}
		}
	}
	return in
}

func (p *refPos) over() bool {
	if p.passes >= 2 {
		return true
	}
	for _, c := range p.cell {
		if c == refEmpty {
			return false
		}
	}
	return true
}

// refChain is a chain that split its group: the flipped cells in order.
type refChain struct {
	group int // index among the placement's adjacent enemy groups
	cells []int
}

// moves returns the legal moves in canonical notation.
func (p *refPos) moves() []string {
	if p.over() {
		return nil
	}
	var out []string
	for c := range p.cell {
		if p.cell[c] == refEmpty {
			out = append(out, p.placements(c)...)
		}
	}
	if p.pie == "pending" && p.toMove == refWhite {
		out = append(out, "swap")
	}
	if len(out) == 0 {
		out = append(out, "pass")
	}
	sort.Strings(out)
	return out
}

// placements returns the legal moves placing at empty cell c.
func (p *refPos) placements(c int) []string {
	merge, enemyGroups, chains := p.chainsAt(c)
	if !merge {
		return []string{p.b.names[c]}
	}
	sets := map[string]bool{}
	for _, ch := range chains {
		p.continueChain(c, enemyGroups[ch.group], ch.cells, sets)
	}
	var out []string
	for s := range sets {
		out = append(out, s)
	}
	return out
}

// minimalChains returns the split chains of the fewest flips at empty cell
// c, one per path (two paths may flip the same set).
func (p *refPos) minimalChains(c int) []refChain {
	_, _, chains := p.chainsAt(c)
	return chains
}

// chainsAt reports whether placing at c merges groups, the enemy groups
// next to c, and the split chains of the fewest flips.
func (p *refPos) chainsAt(c int) (bool, [][]bool, []refChain) {
	me, enemy := p.toMove, 3-p.toMove
	// Count the distinct friendly groups next to c, before anything flips.
	var friendGroups, enemyGroups [][]bool
	for _, d := range p.b.nbrs[c] {
		list := &friendGroups
		switch p.cell[d] {
		case me:
		case enemy:
			list = &enemyGroups
		default:
			continue
		}
		known := false
		for _, g := range *list {
			if g[d] {
				known = true
			}
		}
		if !known {
			*list = append(*list, p.group(d))
		}
	}
	if len(friendGroups) <= 1 {
		return false, nil, nil
	}
	// Every chain that splits its group, by plain recursion; a chain
	// longer than the shortest split found so far (in its scope) cannot
	// count, so the recursion does not follow it.
	var splits []refChain
	limit := len(p.cell)
	for gi, g := range enemyGroups {
		if p.minflip == "group" {
			limit = len(p.cell)
		}
		removed := make([]bool, len(p.cell))
		var walk func(path []int)
		walk = func(path []int) {
			if len(path) >= limit {
				return
			}
			var cands []int
			if len(path) == 0 {
				cands = p.b.nbrs[c]
			} else {
				cands = p.b.nbrs[path[len(path)-1]]
			}
			for _, s := range cands {
				if !g[s] || removed[s] {
					continue
				}
				removed[s] = true
				rest := make([]bool, len(g))
				for i := range g {
					rest[i] = g[i] && !removed[i]
				}
				next := append(append([]int(nil), path...), s)
				switch parts := p.components(rest); {
				case parts >= 2:
					splits = append(splits, refChain{gi, next})
					limit = min(limit, len(next))
				case parts == 1:
					walk(next)
				}
				removed[s] = false
			}
		}
		walk(nil)
	}
	// Keep the shortest: over all groups (global) or per group.
	best := map[int]int{}
	for _, ch := range splits {
		key := 0
		if p.minflip == "group" {
			key = ch.group
		}
		if l, ok := best[key]; !ok || len(ch.cells) < l {
			best[key] = len(ch.cells)
		}
	}
	var minimal []refChain
	for _, ch := range splits {
		key := 0
		if p.minflip == "group" {
			key = ch.group
		}
		if len(ch.cells) == best[key] {
			minimal = append(minimal, ch)
		}
	}
	return true, enemyGroups, minimal
}

// continueChain adds the flip sets reachable from a split chain under the
// continue option: more flips next to the last one, each raising the number
// of parts of the group.
func (p *refPos) continueChain(c int, g []bool, chain []int, sets map[string]bool) {
	parts := func(flipped []int) int {
		rest := append([]bool(nil), g...)
		for _, f := range flipped {
			rest[f] = false
		}
		return p.components(rest)
	}
	now := parts(chain)
	var more [][]int
	if p.continue_ != "none" {
		last := chain[len(chain)-1]
		for _, s := range p.b.nbrs[last] {
			if !g[s] || contains(chain, s) {
				continue
			}
			next := append(append([]int(nil), chain...), s)
			if parts(next) > now {
				more = append(more, next)
			}
		}
	}
	if p.continue_ == "optional" || len(more) == 0 {
		sets[p.format(c, chain)] = true
	}
	for _, next := range more {
		p.continueChain(c, g, next, sets)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// format writes a placement with flips, the flips by row letter then number.
func (p *refPos) format(c int, flips []int) string {
	f := append([]int(nil), flips...)
	sort.Slice(f, func(i, j int) bool {
		if p.b.row[f[i]] != p.b.row[f[j]] {
			return p.b.row[f[i]] < p.b.row[f[j]]
		}
		return p.b.num[f[i]] < p.b.num[f[j]]
	})
	names := make([]string, len(f))
	for i, x := range f {
		names[i] = p.b.names[x]
	}
	return p.b.names[c] + "(" + strings.Join(names, ",") + ")"
}

// play applies a move in canonical notation (one of moves()).
func (p *refPos) play(m string) {
	switch m {
	case "pass":
		p.passes++
		p.toMove = 3 - p.toMove
		return
	case "swap":
		p.swapped = !p.swapped
		p.pie = "done"
		return
	}
	head, tail, _ := strings.Cut(m, "(")
	p.cell[p.b.index[head]] = p.toMove
	if tail != "" {
		for _, f := range strings.Split(strings.TrimSuffix(tail, ")"), ",") {
			p.cell[p.b.index[f]] = p.toMove
		}
	}
	if p.pie == "pending" && p.toMove == refWhite {
		p.pie = "done"
	}
	p.passes = 0
	p.toMove = 3 - p.toMove
}

// sizes returns the group sizes of a colour, largest first.
func (p *refPos) sizes(colour int) []int {
	seen := make([]bool, len(p.cell))
	var out []int
	for c := range p.cell {
		if p.cell[c] != colour || seen[c] {
			continue
		}
		g := p.group(c)
		n := 0
		for i, in := range g {
			if in {
				seen[i] = true
				n++
			}
		}
		out = append(out, n)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(out)))
	return out
}

// winner is refBlack, refWhite or refEmpty (a draw) by the sorted sizes.
func (p *refPos) winner() int {
	a, b := p.sizes(refBlack), p.sizes(refWhite)
	for i := 0; i < len(a) || i < len(b); i++ {
		x, y := 0, 0
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			if x > y {
				return refBlack
			}
			return refWhite
		}
	}
	return refEmpty
}

func (p *refPos) perft(depth int) int {
	if depth == 0 {
		return 1
	}
	ms := p.moves()
	if depth == 1 {
		return len(ms)
	}
	n := 0
	for _, m := range ms {
		c := p.clone()
		c.play(m)
		n += c.perft(depth - 1)
	}
	return n
}
