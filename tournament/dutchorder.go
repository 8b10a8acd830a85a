package tournament

// The Dutch order within a score group. FIDE's Dutch system tries the
// pairings of a bracket one after another — the moved-down players (MDPs)
// first, each with the best resident it may meet; then the rest of the
// group S1 against S2, exchanges between the halves as few and as small as
// may be, and S2's transpositions in order — and keeps the first that is
// best on every quality criterion. The base weights (baseEdges) rank the
// quality criteria; what remains is settled here as the Dutch engines do
// it: one decision at a time, each by a matching that keeps the quality
// criteria at their best (their weights rank far above the small bonus a
// decision adds to the edges of one player), after which the decision is
// fixed by taking the edges that contradict it out.
//
// The low bits of every weight, below the quality criteria, are, from the
// highest: the exchange field (pairs whose higher player is in S1, then the
// smallest sum of the higher players' places: FIDE's fewest and smallest
// exchanges), the bonus of the decision under test, and a tie-break that
// prefers S1[x] against S2[x] (it only saves matchings: with it, the first
// choice is most often the one the order asks for already).

// bracket is one score group's settlement: the matching's edges over every
// player still to pair and their weights.
type bracket struct {
	e      *swissEngine
	ei, ej []int   // the edges' vertices, ei < ej
	base   []wide  // the quality criteria, low bits zero
	low    []int64 // the exchange field and the tie-break
	bonus  []int64 // the decision under test, shifted in place
	alive  []bool  // not taken out by a decision
	adj    [][]int // per vertex, its edges
	edge   map[[2]int]int
	mate   []int
	// the low fields' places
	tieBits, rowBits, exBits uint
}

func (b *bracket) run() {
	ws := make([]wideEdge, 0, len(b.ei))
	for x := range b.ei {
		if b.alive[x] {
			ws = append(ws, wideEdge{b.ei[x], b.ej[x], b.base[x].add(wideOf(b.low[x] + b.bonus[x]))})
		}
	}
	b.mate = matchWide(b.e.v, ws, true)
}

func (b *bracket) other(x, v int) int {
	if b.ei[x] == v {
		return b.ej[x]
	}
	return b.ei[x]
}

// test reruns the matching with v's edges given the bonus pref(u) (u the
// other player), below every quality criterion and the exchange field.
func (b *bracket) test(v int, pref func(u int) int) {
	for _, x := range b.adj[v] {
		b.bonus[x] = int64(pref(b.other(x, v))) << b.tieBits
	}
	b.run()
	for _, x := range b.adj[v] {
		b.bonus[x] = 0
	}
}

// keep takes out v's edges to the players u for which ok(u) is false.
func (b *bracket) keep(v int, ok func(u int) bool) {
	for _, x := range b.adj[v] {
		if !ok(b.other(x, v)) {
			b.alive[x] = false
		}
	}
}

// choose pairs v with the first of cands (best first) that keeps the
// quality criteria at their best, and fixes the pair.
func (b *bracket) choose(v int, cands []int) int {
	var open []int
	for _, u := range cands {
		if x, ok := b.edge[[2]int{min(u, v), max(u, v)}]; ok && b.alive[x] {
			open = append(open, u)
		}
	}
	if len(open) > 0 && b.mate[v] != open[0] {
		rank := make(map[int]int, len(open))
		for r, u := range open {
			rank[u] = len(open) - r
		}
		b.test(v, func(u int) int { return rank[u] })
	}
	u := b.mate[v]
	b.keep(v, func(w int) bool { return w == u })
	b.keep(u, func(w int) bool { return w == v })
	return u
}

// rowsAtOnce lets chooseRows settle several rows with one matching (the
// tests compare it with one row at a time).
var rowsAtOnce = true

// chooseRows settles the first rows (each of them sure to be paired with
// one of its candidates, best first) together: each row's bonus, by the
// rank of its candidate, takes a slice of the decision field, the first
// row's the highest, so that the matching gives the first row its best
// choice, then the second its best given the first's, and so on. It
// returns how many rows it settled, at least one.
func (b *bracket) chooseRows(rows []int, cands func(v int) []int) int {
	type row struct {
		v    int
		open []int
		w    uint
	}
	var batch []row
	var used uint
	for _, v := range rows {
		var open []int
		for _, u := range cands(v) {
			if x, ok := b.edge[[2]int{min(u, v), max(u, v)}]; ok && b.alive[x] {
				open = append(open, u)
			}
		}
		w := bitlen(len(open) + 1)
		if len(batch) > 0 && (used+w > b.rowBits || !rowsAtOnce) {
			break
		}
		batch = append(batch, row{v, open, w})
		used += w
	}
	// Sure: the matching already gives every row the first of its
	// candidates the rows before it left.
	sure := true
	taken := map[int]bool{}
	for _, r := range batch {
		for _, u := range r.open {
			if !taken[u] {
				sure = sure && b.mate[r.v] == u
				break
			}
		}
		taken[b.mate[r.v]] = true
	}
	if !sure {
		shift := used
		for _, r := range batch {
			shift -= r.w
			rank := make(map[int]int64, len(r.open))
			for n, u := range r.open {
				rank[u] = int64(len(r.open)-n) << shift
			}
			for _, x := range b.adj[r.v] {
				b.bonus[x] = rank[b.other(x, r.v)] << b.tieBits
			}
		}
		b.run()
		for _, r := range batch {
			for _, x := range b.adj[r.v] {
				b.bonus[x] = 0
			}
		}
	}
	for _, r := range batch {
		v, u := r.v, b.mate[r.v]
		b.keep(v, func(w int) bool { return w == u })
		b.keep(u, func(w int) bool { return w == v })
	}
	return len(batch)
}

// settle pairs score group k (members: its players, MDPs first; rem: every
// player still to pair) and returns its pairs, lower vertex first; in the
// last group, every pair left, the bye's too. ok is false when no pairing
// of rem keeps the absolute criteria.
func (e *swissEngine) settle(k int, rem, members []int, last bool) (pairs [][2]int, ok bool) {
	level := e.levels[k]
	pos := make(map[int]int, len(members))
	for x, i := range members {
		pos[i] = x
	}
	np := len(rem) / 2
	// The decision field holds one player's choice, or, as far as the
	// room the criteria leave goes, several S1 rows' at once, each below
	// the one before (chooseRows).
	b := &bracket{e: e, tieBits: bitlen(np), rowBits: bitlen(len(rem) + 1)}
	exSum := bitlen(np * (len(members) + 1)) // the sum of places below the count
	b.exBits = exSum + bitlen(np)
	low := b.tieBits + b.rowBits + b.exBits
	edges, got := e.baseEdges(k, rem, pos, low, 62) // the low fields are an int64
	b.rowBits += got - low
	b.adj = make([][]int, e.v)
	b.edge = make(map[[2]int]int, len(edges))
	for x, ed := range edges {
		i, j := min(ed.i, ed.j), max(ed.i, ed.j)
		b.ei = append(b.ei, i)
		b.ej = append(b.ej, j)
		b.base = append(b.base, ed.w)
		b.adj[i] = append(b.adj[i], x)
		b.adj[j] = append(b.adj[j], x)
		b.edge[[2]int{i, j}] = x
	}
	b.low = make([]int64, len(edges))
	b.bonus = make([]int64, len(edges))
	b.alive = make([]bool, len(edges))
	for x := range b.alive {
		b.alive[x] = true
	}
	var mdps, residents []int
	isRes := make([]bool, e.v)
	for _, i := range members {
		if e.score[i] > level {
			mdps = append(mdps, i)
		} else {
			residents = append(residents, i)
			isRes[i] = true
		}
	}
	// The tie-break of the MDPs' part: the x-th MDP against the x-th
	// resident.
	for x := 0; x < len(mdps) && x < len(residents); x++ {
		if y, ok := b.edge[[2]int{mdps[x], residents[x]}]; ok {
			b.low[y] = 1
		}
	}
	b.run()
	for _, i := range rem {
		if b.mate[i] < 0 {
			return nil, false
		}
	}
	done := make([]bool, e.v)
	settlePair := func(i, j int) {
		done[i], done[j] = true, true
		pairs = append(pairs, [2]int{min(i, j), max(i, j)})
	}
	withResident := func(v int) bool { return isRes[b.mate[v]] }
	// Which MDPs are paired in the group: of each score, as many as the
	// quality criteria let, the highest first.
	var paired []int
	for s := 0; s < len(mdps); {
		t := s
		for t < len(mdps) && e.score[mdps[t]] == e.score[mdps[s]] {
			t++
		}
		for x := s; x < t; x++ {
			can := 0
			for _, p := range mdps[x:t] {
				if withResident(p) {
					can++
				}
			}
			if can == 0 {
				break
			}
			p := mdps[x]
			if !withResident(p) {
				b.test(p, func(u int) int {
					if isRes[u] {
						return 1
					}
					return 0
				})
			}
			if withResident(p) {
				paired = append(paired, p)
				b.keep(p, func(u int) bool { return isRes[u] })
			}
		}
		s = t
	}
	// Each of them, in order, with the best resident it may meet.
	for _, p := range paired {
		var cands []int
		for _, u := range residents {
			if !done[u] {
				cands = append(cands, u)
			}
		}
		settlePair(p, b.choose(p, cands))
	}
	// The rest of the group, on its own: S1 its top half, S2 the rest.
	var R []int
	ri := make([]int, e.v)
	for i := range ri {
		ri[i] = -1
	}
	for _, i := range residents {
		if !done[i] {
			ri[i] = len(R)
			R = append(R, i)
		}
	}
	higher := func(v int) bool { return ri[b.mate[v]] > ri[v] }
	s1 := 0
	for _, v := range R {
		if higher(v) {
			s1++
		}
	}
	for x := range b.low {
		b.low[x] = 0
		i, j := b.ei[x], b.ej[x]
		if ri[i] < 0 || ri[j] < 0 {
			continue
		}
		hi, lo := ri[i], ri[j]
		if hi > lo {
			hi, lo = lo, hi
		}
		v := int64(len(R) - hi)
		if hi < s1 {
			v += 1 << exSum
		}
		b.low[x] = v << (b.tieBits + b.rowBits)
		if hi < s1 && lo == hi+s1 {
			b.low[x]++
		}
	}
	if s1 > 0 {
		b.run()
	}
	exchanges := 0
	for _, v := range R[:s1] {
		if !higher(v) {
			exchanges++
		}
	}
	if exchanges > 0 {
		// The players S1 gives up: the lowest first.
		rest := exchanges
		for x := s1 - 1; x >= 0 && rest > 0; x-- {
			v := R[x]
			if higher(v) {
				b.test(v, func(u int) int {
					if ri[u] > x {
						return 0
					}
					return 1
				})
			}
			if !higher(v) {
				rest--
				b.keep(v, func(u int) bool { return ri[u] <= x })
			}
		}
		// The players S2 gives: the highest first.
		rest = exchanges
		for x := s1; x < len(R) && rest > 1; x++ {
			v := R[x]
			if !higher(v) {
				b.test(v, func(u int) int {
					if ri[u] > x {
						return 1
					}
					return 0
				})
			}
			if higher(v) {
				rest--
				b.keep(v, func(u int) bool { return ri[u] > x })
			}
		}
	}
	// The halves are now fixed: the higher player of every pair is one of
	// S1 (after the exchanges), the lower one of S2.
	top := make([]bool, e.v)
	for _, v := range R {
		top[v] = higher(v)
	}
	for x := range b.ei {
		i, j := b.ei[x], b.ej[x]
		if ri[i] >= 0 && ri[j] >= 0 && (!top[i] || top[j]) {
			b.alive[x] = false
		}
	}
	// S1 in order, each with the first of S2 it may have: as many rows at
	// a time as the decision field holds, the earlier row's choice
	// weighing more than all the later ones'.
	var rows []int
	for _, v := range R {
		if top[v] {
			rows = append(rows, v)
		}
	}
	for len(rows) > 0 {
		took := b.chooseRows(rows, func(v int) []int {
			var cands []int
			for _, u := range R[ri[v]+1:] {
				if !done[u] && !top[u] {
					cands = append(cands, u)
				}
			}
			return cands
		})
		for _, v := range rows[:took] {
			settlePair(v, b.mate[v])
		}
		rows = rows[took:]
	}
	// Whatever else the matching pairs in the group (two MDPs), or, in the
	// last group, at all.
	for _, i := range rem {
		j := b.mate[i]
		if done[i] || j < i {
			continue
		}
		if last || (isMember(pos, i) && isMember(pos, j)) {
			settlePair(i, j)
		}
	}
	return pairs, true
}

func isMember(pos map[int]int, i int) bool { _, ok := pos[i]; return ok }
