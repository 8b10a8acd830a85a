package tournament

// Maximum-weight matching in a general graph: Edmonds' blossom algorithm
// with the primal-dual method, O(n³), after Galil's exposition ("Efficient
// algorithms for finding maximum matching in graphs", 1986). Swiss pairing
// reduces to it as the pairing engines bbpPairings and JaVaFo do: every
// allowed pairing is an edge whose weight packs the quality criteria, and
// the best pairing is the matching of greatest weight.

// Edge is an undirected edge of weight W between vertices I and J.
type Edge struct {
	I, J int
	W    int64
}

// MaxWeightMatching returns, for each of the n vertices, its partner in a
// matching of greatest total weight, or -1. With maxCardinality it returns
// the greatest weight among the matchings with the most edges. Loops and
// edges naming a vertex outside 0…n-1 are ignored.
func MaxWeightMatching(n int, edges []Edge, maxCardinality bool) []int {
	ws := make([]wideEdge, 0, len(edges))
	for _, e := range edges {
		ws = append(ws, wideEdge{e.I, e.J, wideOf(e.W)})
	}
	return matchWide(n, ws, maxCardinality)
}

type wideEdge struct {
	i, j int
	w    wide
}

// matcher holds the state of one run. Vertices are 0…n-1, blossoms n…2n-1;
// edge k has endpoints 2k and 2k+1 (endpoint[p] is a vertex, p^1 the other
// end), which is how the matched and labelling edges are remembered.
type matcher struct {
	n         int
	endpoint  []int
	neighbend [][]int
	wt2       []wide // twice each edge's weight
	mate      []int  // remote endpoint of the matched edge, or -1
	label     []int  // 0 free, 1 S (outer), 2 T (inner); 5 marks a scan
	labelend  []int
	inblossom []int
	parent    []int
	childs    [][]int
	base      []int
	endps     [][]int
	bestedge  []int
	bestedges [][]int
	unused    []int
	dual      []wide
	allowed   []bool
	queue     []int
	bestto    []int // scratch of addBlossom
	touched   []int
	leafBuf   []int
}

func matchWide(n int, edges []wideEdge, maxCardinality bool) []int {
	mate := make([]int, n)
	for i := range mate {
		mate[i] = -1
	}
	var kept []wideEdge
	for _, e := range edges {
		if e.i != e.j && e.i >= 0 && e.j >= 0 && e.i < n && e.j < n {
			// Weights are doubled so that every dual stays an integer.
			kept = append(kept, wideEdge{e.i, e.j, e.w.add(e.w)})
		}
	}
	if len(kept) == 0 {
		return mate
	}
	m := &matcher{n: n}
	ne := len(kept)
	m.endpoint = make([]int, 2*ne)
	m.wt2 = make([]wide, ne)
	m.neighbend = make([][]int, n)
	maxw := wide{}
	for k, e := range kept {
		m.endpoint[2*k], m.endpoint[2*k+1] = e.i, e.j
		m.wt2[k] = e.w.add(e.w)
		m.neighbend[e.i] = append(m.neighbend[e.i], 2*k+1)
		m.neighbend[e.j] = append(m.neighbend[e.j], 2*k)
		if maxw.less(e.w) {
			maxw = e.w
		}
	}
	m.mate = make([]int, n)
	m.label = make([]int, 2*n)
	m.labelend = make([]int, 2*n)
	m.inblossom = make([]int, n)
	m.parent = make([]int, 2*n)
	m.childs = make([][]int, 2*n)
	m.base = make([]int, 2*n)
	m.endps = make([][]int, 2*n)
	m.bestedge = make([]int, 2*n)
	m.bestedges = make([][]int, 2*n)
	m.dual = make([]wide, 2*n)
	m.allowed = make([]bool, ne)
	for v := 0; v < n; v++ {
		m.mate[v] = -1
		m.inblossom[v] = v
		m.base[v] = v
		m.dual[v] = maxw
	}
	for b := n; b < 2*n; b++ {
		m.base[b] = -1
		m.unused = append(m.unused, b)
	}
	for i := range m.parent {
		m.parent[i] = -1
		m.labelend[i] = -1
	}
	m.run(maxCardinality)
	for v := 0; v < n; v++ {
		if m.mate[v] >= 0 {
			mate[v] = m.endpoint[m.mate[v]]
		}
	}
	return mate
}

func (m *matcher) slack(k int) wide {
	return m.dual[m.endpoint[2*k]].add(m.dual[m.endpoint[2*k+1]]).sub(m.wt2[k])
}

func (m *matcher) leaves(b int, out []int) []int {
	if b < m.n {
		return append(out, b)
	}
	for _, c := range m.childs[b] {
		out = m.leaves(c, out)
	}
	return out
}

// at indexes a blossom's cycle the way Python does, negative from the end.
func at(s []int, j int) int {
	if j < 0 {
		j += len(s)
	}
	return s[j]
}

func indexOf(s []int, x int) int {
	for i, y := range s {
		if y == x {
			return i
		}
	}
	panic("tournament: matching: blossom child not found")
}

func (m *matcher) assignLabel(w, t, p int) {
	b := m.inblossom[w]
	m.label[w], m.label[b] = t, t
	m.labelend[w], m.labelend[b] = p, p
	m.bestedge[w], m.bestedge[b] = -1, -1
	if t == 1 {
		m.queue = m.leaves(b, m.queue)
		return
	}
	base := m.base[b]
	m.assignLabel(m.endpoint[m.mate[base]], 1, m.mate[base]^1)
}

// scanBlossom traces back from v and w to find a new blossom's base, or -1
// when the paths reach two different roots (an augmenting path).
func (m *matcher) scanBlossom(v, w int) int {
	var path []int
	base := -1
	for v != -1 || w != -1 {
		b := m.inblossom[v]
		if m.label[b]&4 != 0 {
			base = m.base[b]
			break
		}
		path = append(path, b)
		m.label[b] = 5
		if m.labelend[b] == -1 {
			v = -1
		} else {
			v = m.endpoint[m.labelend[b]]
			b = m.inblossom[v]
			v = m.endpoint[m.labelend[b]]
		}
		if w != -1 {
			v, w = w, v
		}
	}
	for _, b := range path {
		m.label[b] = 1
	}
	return base
}

func (m *matcher) addBlossom(base, k int) {
	v, w := m.endpoint[2*k], m.endpoint[2*k+1]
	bb, bv, bw := m.inblossom[base], m.inblossom[v], m.inblossom[w]
	b := m.unused[len(m.unused)-1]
	m.unused = m.unused[:len(m.unused)-1]
	m.base[b] = base
	m.parent[b] = -1
	m.parent[bb] = b
	var path, endps []int
	for bv != bb {
		m.parent[bv] = b
		path = append(path, bv)
		endps = append(endps, m.labelend[bv])
		v = m.endpoint[m.labelend[bv]]
		bv = m.inblossom[v]
	}
	path = append(path, bb)
	reverse(path)
	reverse(endps)
	endps = append(endps, 2*k)
	for bw != bb {
		m.parent[bw] = b
		path = append(path, bw)
		endps = append(endps, m.labelend[bw]^1)
		w = m.endpoint[m.labelend[bw]]
		bw = m.inblossom[w]
	}
	m.childs[b], m.endps[b] = path, endps
	m.label[b] = 1
	m.labelend[b] = m.labelend[bb]
	m.dual[b] = wide{}
	for _, x := range m.leaves(b, nil) {
		if m.label[m.inblossom[x]] == 2 {
			m.queue = append(m.queue, x)
		}
		m.inblossom[x] = b
	}
	// bestto[bj] is the least-slack edge from the new blossom to the
	// S-blossom bj; the buffer is kept between calls, cleaned by touched.
	if m.bestto == nil {
		m.bestto = make([]int, 2*m.n)
		for i := range m.bestto {
			m.bestto[i] = -1
		}
	}
	bestto, touched := m.bestto, m.touched[:0]
	consider := func(k int) {
		j := m.endpoint[2*k+1]
		if m.inblossom[j] == b {
			j = m.endpoint[2*k]
		}
		bj := m.inblossom[j]
		if bj != b && m.label[bj] == 1 {
			if bestto[bj] == -1 {
				touched = append(touched, bj)
				bestto[bj] = k
			} else if m.slack(k).less(m.slack(bestto[bj])) {
				bestto[bj] = k
			}
		}
	}
	for _, c := range path {
		if m.bestedges[c] == nil {
			m.leafBuf = m.leaves(c, m.leafBuf[:0])
			for _, x := range m.leafBuf {
				for _, p := range m.neighbend[x] {
					consider(p / 2)
				}
			}
		} else {
			for _, k := range m.bestedges[c] {
				consider(k)
			}
		}
		m.bestedges[c] = nil
		m.bestedge[c] = -1
	}
	var best []int
	for _, bj := range touched {
		best = append(best, bestto[bj])
		bestto[bj] = -1
	}
	m.touched = touched
	m.bestedges[b] = best
	m.bestedge[b] = -1
	for _, k := range best {
		if m.bestedge[b] == -1 || m.slack(k).less(m.slack(m.bestedge[b])) {
			m.bestedge[b] = k
		}
	}
}

func reverse(s []int) {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
}

func (m *matcher) expandBlossom(b int, endstage bool) {
	for _, s := range m.childs[b] {
		m.parent[s] = -1
		switch {
		case s < m.n:
			m.inblossom[s] = s
		case endstage && m.dual[s].isZero():
			m.expandBlossom(s, endstage)
		default:
			for _, x := range m.leaves(s, nil) {
				m.inblossom[x] = s
			}
		}
	}
	if !endstage && m.label[b] == 2 {
		// The expanded T-blossom's children on the even side of the path
		// through it become T, S, T, … again.
		ch, ep := m.childs[b], m.endps[b]
		entry := m.inblossom[m.endpoint[m.labelend[b]^1]]
		j := indexOf(ch, entry)
		var jstep, trick int
		if j&1 != 0 {
			j -= len(ch)
			jstep, trick = 1, 0
		} else {
			jstep, trick = -1, 1
		}
		p := m.labelend[b]
		for j != 0 {
			m.label[m.endpoint[p^1]] = 0
			m.label[m.endpoint[at(ep, j-trick)^trick^1]] = 0
			m.assignLabel(m.endpoint[p^1], 2, p)
			m.allowed[at(ep, j-trick)/2] = true
			j += jstep
			p = at(ep, j-trick) ^ trick
			m.allowed[p/2] = true
			j += jstep
		}
		bv := at(ch, j)
		m.label[m.endpoint[p^1]], m.label[bv] = 2, 2
		m.labelend[m.endpoint[p^1]], m.labelend[bv] = p, p
		m.bestedge[bv] = -1
		j += jstep
		for at(ch, j) != entry {
			bv := at(ch, j)
			if m.label[bv] == 1 {
				j += jstep
				continue
			}
			found := -1
			for _, x := range m.leaves(bv, nil) {
				if m.label[x] != 0 {
					found = x
					break
				}
			}
			if found >= 0 {
				m.label[found] = 0
				m.label[m.endpoint[m.mate[m.base[bv]]]] = 0
				m.assignLabel(found, 2, m.labelend[found])
			}
			j += jstep
		}
	}
	m.label[b], m.labelend[b] = -1, -1
	m.childs[b], m.endps[b] = nil, nil
	m.base[b] = -1
	m.bestedges[b] = nil
	m.bestedge[b] = -1
	m.unused = append(m.unused, b)
}

// augmentBlossom swaps the matched and unmatched edges along the even path
// from v to the base of blossom b, so that v becomes the base.
func (m *matcher) augmentBlossom(b, v int) {
	t := v
	for m.parent[t] != b {
		t = m.parent[t]
	}
	if t >= m.n {
		m.augmentBlossom(t, v)
	}
	ch, ep := m.childs[b], m.endps[b]
	i := indexOf(ch, t)
	j := i
	var jstep, trick int
	if i&1 != 0 {
		j -= len(ch)
		jstep, trick = 1, 0
	} else {
		jstep, trick = -1, 1
	}
	for j != 0 {
		j += jstep
		t = at(ch, j)
		p := at(ep, j-trick) ^ trick
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p])
		}
		j += jstep
		t = at(ch, j)
		if t >= m.n {
			m.augmentBlossom(t, m.endpoint[p^1])
		}
		m.mate[m.endpoint[p]] = p ^ 1
		m.mate[m.endpoint[p^1]] = p
	}
	m.childs[b] = append(append([]int{}, ch[i:]...), ch[:i]...)
	m.endps[b] = append(append([]int{}, ep[i:]...), ep[:i]...)
	m.base[b] = m.base[m.childs[b][0]]
}

func (m *matcher) augmentMatching(k int) {
	v, w := m.endpoint[2*k], m.endpoint[2*k+1]
	for _, sp := range [2][2]int{{v, 2*k + 1}, {w, 2 * k}} {
		s, p := sp[0], sp[1]
		for {
			bs := m.inblossom[s]
			if bs >= m.n {
				m.augmentBlossom(bs, s)
			}
			m.mate[s] = p
			if m.labelend[bs] == -1 {
				break
			}
			t := m.endpoint[m.labelend[bs]]
			bt := m.inblossom[t]
			s = m.endpoint[m.labelend[bt]]
			j := m.endpoint[m.labelend[bt]^1]
			if bt >= m.n {
				m.augmentBlossom(bt, j)
			}
			m.mate[j] = m.labelend[bt]
			p = m.labelend[bt] ^ 1
		}
	}
}

func (m *matcher) run(maxCardinality bool) {
	n := m.n
	for stage := 0; stage < n; stage++ {
		for i := range m.label {
			m.label[i] = 0
			m.bestedge[i] = -1
		}
		for b := n; b < 2*n; b++ {
			m.bestedges[b] = nil
		}
		for k := range m.allowed {
			m.allowed[k] = false
		}
		m.queue = m.queue[:0]
		for v := 0; v < n; v++ {
			if m.mate[v] == -1 && m.label[m.inblossom[v]] == 0 {
				m.assignLabel(v, 1, -1)
			}
		}
		augmented := false
		for {
			for len(m.queue) > 0 && !augmented {
				v := m.queue[len(m.queue)-1]
				m.queue = m.queue[:len(m.queue)-1]
				for _, p := range m.neighbend[v] {
					k, w := p/2, m.endpoint[p]
					if m.inblossom[v] == m.inblossom[w] {
						continue
					}
					var kslack wide
					if !m.allowed[k] {
						kslack = m.slack(k)
						if !wide.less(wide{}, kslack) {
							m.allowed[k] = true
						}
					}
					switch {
					case m.allowed[k]:
						switch {
						case m.label[m.inblossom[w]] == 0:
							m.assignLabel(w, 2, p^1)
						case m.label[m.inblossom[w]] == 1:
							if base := m.scanBlossom(v, w); base >= 0 {
								m.addBlossom(base, k)
							} else {
								m.augmentMatching(k)
								augmented = true
							}
						case m.label[w] == 0:
							m.label[w] = 2
							m.labelend[w] = p ^ 1
						}
					case m.label[m.inblossom[w]] == 1:
						b := m.inblossom[v]
						if m.bestedge[b] == -1 || kslack.less(m.slack(m.bestedge[b])) {
							m.bestedge[b] = k
						}
					case m.label[w] == 0:
						if m.bestedge[w] == -1 || kslack.less(m.slack(m.bestedge[w])) {
							m.bestedge[w] = k
						}
					}
					if augmented {
						break
					}
				}
			}
			if augmented {
				break
			}
			deltatype, delta, deltaedge, deltablossom := -1, wide{}, -1, -1
			if !maxCardinality {
				deltatype = 1
				delta = m.minVertexDual()
			}
			for v := 0; v < n; v++ {
				if m.label[m.inblossom[v]] == 0 && m.bestedge[v] != -1 {
					d := m.slack(m.bestedge[v])
					if deltatype == -1 || d.less(delta) {
						delta, deltatype, deltaedge = d, 2, m.bestedge[v]
					}
				}
			}
			for b := 0; b < 2*n; b++ {
				if m.parent[b] == -1 && m.label[b] == 1 && m.bestedge[b] != -1 {
					d := m.slack(m.bestedge[b]).half()
					if deltatype == -1 || d.less(delta) {
						delta, deltatype, deltaedge = d, 3, m.bestedge[b]
					}
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 && m.label[b] == 2 && (deltatype == -1 || m.dual[b].less(delta)) {
					delta, deltatype, deltablossom = m.dual[b], 4, b
				}
			}
			if deltatype == -1 {
				// Maximum cardinality reached: a last update leaves
				// duals that prove the optimum.
				deltatype = 1
				delta = m.minVertexDual()
				if delta.neg() {
					delta = wide{}
				}
			}
			for v := 0; v < n; v++ {
				switch m.label[m.inblossom[v]] {
				case 1:
					m.dual[v] = m.dual[v].sub(delta)
				case 2:
					m.dual[v] = m.dual[v].add(delta)
				}
			}
			for b := n; b < 2*n; b++ {
				if m.base[b] >= 0 && m.parent[b] == -1 {
					switch m.label[b] {
					case 1:
						m.dual[b] = m.dual[b].add(delta)
					case 2:
						m.dual[b] = m.dual[b].sub(delta)
					}
				}
			}
			if deltatype == 1 {
				break
			}
			switch deltatype {
			case 2:
				m.allowed[deltaedge] = true
				i, j := m.endpoint[2*deltaedge], m.endpoint[2*deltaedge+1]
				if m.label[m.inblossom[i]] == 0 {
					i, j = j, i
				}
				_ = j
				m.queue = append(m.queue, i)
			case 3:
				m.allowed[deltaedge] = true
				m.queue = append(m.queue, m.endpoint[2*deltaedge])
			case 4:
				m.expandBlossom(deltablossom, false)
			}
		}
		if !augmented {
			break
		}
		for b := n; b < 2*n; b++ {
			if m.parent[b] == -1 && m.base[b] >= 0 && m.label[b] == 1 && m.dual[b].isZero() {
				m.expandBlossom(b, true)
			}
		}
	}
}

func (m *matcher) minVertexDual() wide {
	d := m.dual[0]
	for v := 1; v < m.n; v++ {
		if m.dual[v].less(d) {
			d = m.dual[v]
		}
	}
	return d
}
