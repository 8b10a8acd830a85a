package tournament

import (
	"errors"
	"fmt"
	"math/bits"
	"sort"
)

// SwissOptions tune the Dutch pairing.
type SwissOptions struct {
	// InitialBlack gives the top seed Black in round 1 (FIDE's "initial
	// colour"; White by default).
	InitialBlack bool
	// LastRound says this is the tournament's last round: FIDE's Dutch
	// system then lets a topscorer (more than half the points possible so
	// far) meet a player who must have the same colour (C.3), weighing who
	// is denied it by C.10 and C.11.
	LastRound bool
}

// ErrNoPairing is returned when no pairing of the active players obeys the
// absolute criteria (nobody meets twice, nobody gets a second bye, colour
// limits): the tournament has more rounds than its players can play.
var ErrNoPairing = errors.New("tournament: no pairing satisfies the absolute criteria")

// MaxSwissPlayers bounds a Swiss round's size: the pairing of 200 players
// takes a fraction of a second (docs/tournaments.md has the measurements)
// and the weights' 192 bits hold the criteria for this many.
const MaxSwissPlayers = 1000

// PairSwiss pairs the next round of a Swiss tournament of n players by the
// FIDE Dutch system. Players are numbered 0…n-1 in the order of their
// pairing numbers (the initial ranking, strongest first); rounds are the
// rounds played, every result known; active lists the players to pair this
// round (a late entrant is simply active from her first round, with no
// points for the rounds she missed; a withdrawn player is no longer
// listed). An odd number of active players gives one of them, from the
// lowest score group possible and never twice, the bye.
//
// It works as bbpPairings and JaVaFo do: score group by score group from
// the top, a maximum-weight matching over every player still to pair
// chooses the pairs of the current group, with edges only between players
// who may meet (the absolute criteria) and weights that rank, in order:
// the bye's score (C.5), fewer players floating out of this score group
// (C.6), then its pairing score differences (C.7: the highest as few as
// may be, then the next one…, a downfloater's counted from one point under
// the lowest score), fewer floating out of the next group and its score
// differences (C.8), the bye's unplayed rounds (C.9), in a last round
// (LastRound) the topscorers' colour criteria (C.10, C.11), colour
// preferences met (C.12), strong preferences met (C.13), floats not
// repeated from the last two rounds and the scores of those repeated
// (C.14 to C.21, the last ones as far as the weights hold). The Dutch
// order within the group — which MDPs are paired and with whom, the fewest
// and smallest exchanges between S1 and S2, then S1's players in order
// each with the first of S2 it may have — is then settled one decision at
// a time as the Dutch system tries its pairings, each decision by a
// matching that keeps every criterion above at its best (dutchorder.go).
// The matching always pairs everyone (the completion criterion).
// docs/tournaments.md says where this differs from the FIDE text.
func PairSwiss(n int, rounds []Round, active []int, opt SwissOptions) (Round, error) {
	if n < 0 || n > MaxSwissPlayers {
		return Round{}, fmt.Errorf("%w: %d players (at most %d)", ErrInput, n, MaxSwissPlayers)
	}
	if err := checkRounds(n, rounds, true); err != nil {
		return Round{}, err
	}
	seen := make(map[int]bool)
	for _, p := range active {
		if p < 0 || p >= n || seen[p] {
			return Round{}, fmt.Errorf("%w: active player %d out of range or listed twice", ErrInput, p+1)
		}
		seen[p] = true
	}
	h := histories(n, rounds)
	e := newSwissEngine(h, active, !opt.InitialBlack)
	if opt.LastRound {
		e.topscore = len(rounds) // half points: more than one a round played
	}
	return e.pair()
}

type swissEngine struct {
	h          []record
	players    []int  // ranking order: score, then pairing number
	score      []int  // per vertex; the bye vertex scores -1
	prefs      []pref // per vertex
	v          int    // vertices: players, plus the bye when odd
	bye        int    // the bye vertex, or -1
	firstWhite bool
	levels     []int // the score groups, highest first
	// topscore, in the last round, is the score a topscorer has more
	// than; -1 otherwise.
	topscore int
}

func newSwissEngine(h []record, active []int, firstWhite bool) *swissEngine {
	e := &swissEngine{h: h, firstWhite: firstWhite, bye: -1, topscore: -1}
	e.players = append([]int(nil), active...)
	sort.Slice(e.players, func(i, j int) bool {
		a, b := e.players[i], e.players[j]
		if h[a].score != h[b].score {
			return h[a].score > h[b].score
		}
		return a < b
	})
	e.v = len(e.players)
	for _, p := range e.players {
		e.score = append(e.score, h[p].score)
		e.prefs = append(e.prefs, colourPref(h[p].colour))
		if len(e.levels) == 0 || e.levels[len(e.levels)-1] != h[p].score {
			e.levels = append(e.levels, h[p].score)
		}
	}
	if e.v%2 == 1 {
		e.bye = e.v
		e.score = append(e.score, -1)
		e.prefs = append(e.prefs, pref{})
		e.v++
	}
	return e
}

// allowed is the absolute criteria for vertices i and j.
func (e *swissEngine) allowed(i, j int) bool {
	if i == e.bye || j == e.bye {
		p := i
		if p == e.bye {
			p = j
		}
		return e.h[e.players[p]].byes == 0 && !e.h[e.players[p]].forfeitWin
	}
	pi, pj := e.players[i], e.players[j]
	return !e.h[pi].met[pj] && (compatible(e.prefs[i], e.prefs[j]) || e.topscorer(i) || e.topscorer(j))
}

// topscorer reports whether vertex i may, this last round, meet a player
// who must have the same colour (FIDE's C.3 exception).
func (e *swissEngine) topscorer(i int) bool {
	return e.topscore >= 0 && i != e.bye && e.score[i] > e.topscore
}

// whiteFirst reports whether vertex i gets White against j (i < j: i is
// ranked higher).
func (e *swissEngine) whiteFirst(i, j int) bool {
	pi, pj := e.players[i], e.players[j]
	return allocate(e.prefs[i], e.prefs[j], e.h[pi].colour, e.h[pj].colour, i, j, pi+1, pj+1, e.firstWhite)
}

func bitlen(x int) uint { return uint(bits.Len(uint(x))) }

func (e *swissEngine) pair() (Round, error) {
	var out Round
	if e.v == 0 {
		return out, nil
	}
	left := make([]bool, e.v) // still to pair
	for i := range left {
		left[i] = true
	}
	for k, level := range e.levels {
		var rem, members []int
		for i := 0; i < e.v; i++ {
			if left[i] {
				rem = append(rem, i)
				if i != e.bye && e.score[i] >= level {
					members = append(members, i)
				}
			}
		}
		last := k == len(e.levels)-1
		if len(members) < 2 && !last {
			continue // no pair can be made in this group: its player floats
		}
		pairs, ok := e.settle(k, rem, members, last)
		if !ok {
			return Round{}, fmt.Errorf("%w (round of %d players)", ErrNoPairing, len(e.players))
		}
		for _, p := range pairs {
			i, j := p[0], p[1]
			left[i], left[j] = false, false
			switch {
			case j == e.bye:
				out.Byes = append(out.Byes, e.players[i])
			case e.whiteFirst(i, j):
				out.Pairings = append(out.Pairings, Pairing{White: e.players[i], Black: e.players[j]})
			default:
				out.Pairings = append(out.Pairings, Pairing{White: e.players[j], Black: e.players[i]})
			}
		}
	}
	return out, nil
}

// baseEdges weighs the matching that settles score group k (pos: the
// group's members, MDPs first, and their places) on the criteria above
// the Dutch order (dutchorder.go), leaving the lowest bits of every
// weight zero for the order's own fields: low of them, or up to lowMax
// when the criteria leave room; it returns how many.
func (e *swissEngine) baseEdges(k int, rem []int, pos map[int]int, low, lowMax uint) ([]wideEdge, uint) {
	pairs := len(rem) / 2
	member := func(i int) bool { _, ok := pos[i]; return ok }
	// Low fields first; they are packed from the top down below.
	const budget = 184 // of 191: the matching doubles weights and adds duals
	floats := e.floatFields(rem, member)
	others := low + floats[0].bits + floats[1].bits + 2*bitlen(pairs*2) + 2*bitlen(pairs) +
		bitlen(pairs) // this group's floats
	// C.7, this group's score differences, ranks above all of those: it
	// takes the room the fields below it and the bye's (extra) leave, but
	// for one bit for the offset it adds to every edge (psdField).
	var extra uint
	if e.bye >= 0 {
		rounds := 0
		for _, i := range rem {
			if i != e.bye {
				rounds = max(rounds, len(e.h[e.players[i]].colour))
			}
		}
		extra = bitlen(rounds+1) + bitlen(e.levels[0]+2)
	}
	psdK := e.psdField(k, k, rem, int(budget)-1-int(others+extra))
	fixed := []field{
		{low, func(i, j int, in bool) int { return 0 }}, // the Dutch order's fields (dutchorder.go)
		floats[1], floats[0], // C.15, C.14: floats not repeated from the last round
		{bitlen(pairs * 2), func(i, j int, in bool) int { // strong preferences not broken
			if !in {
				return 0
			}
			if e.prefs[i].strength == prefAbsolute && e.prefs[j].strength == prefAbsolute {
				return 2 // C.10 and C.11 weigh the topscorers' exception
			}
			wi := e.whiteFirst(min(i, j), max(i, j)) == (i < j)
			v := 0
			if e.prefs[i].strength < prefStrong || e.prefs[i].satisfied(wi) {
				v++
			}
			if e.prefs[j].strength < prefStrong || e.prefs[j].satisfied(!wi) {
				v++
			}
			return v
		}},
		{bitlen(pairs * 2), func(i, j int, in bool) int { // preferences met
			if !in {
				return 0
			}
			wi := e.whiteFirst(min(i, j), max(i, j)) == (i < j)
			v := 0
			if e.prefs[i].satisfied(wi) {
				v++
			}
			if e.prefs[j].satisfied(!wi) {
				v++
			}
			return v
		}},
		{bitlen(pairs), func(i, j int, in bool) int { // C.11: nobody gets a colour three times running
			if !in || !e.sameAbsolute(i, j) {
				return 1
			}
			ci, cj := e.h[e.players[i]].colour, e.h[e.players[j]].colour
			ii, ij := imbalance(ci), imbalance(cj)
			ri, rj := repeated(ci), repeated(cj)
			want := e.prefs[i].want
			if ii == ij {
				if ri == noColour || ri != rj {
					return 1
				}
				return 0
			}
			lower := ri // the one with the smaller imbalance is denied
			if ij < ii {
				lower = rj
			}
			if lower != -want {
				return 1
			}
			return 0
		}},
		{bitlen(pairs), func(i, j int, in bool) int { // C.10: no colour difference beyond 2
			if in && e.sameAbsolute(i, j) && imbalance(e.h[e.players[i]].colour) > 1 && imbalance(e.h[e.players[j]].colour) > 1 {
				return 0
			}
			return 1
		}},
	}
	// The FIDE Dutch rules of 2025: C.9, the bye's assignee has as few
	// unplayed rounds as may be (after the floats, before the colours),
	// and C.5, the bye's assignee scores as little as may be (above the
	// floats: players float down to leave the bye to a lower score).
	var byeScore, byeUnplayed field
	if e.bye >= 0 {
		top := e.levels[0] + 1
		rounds := 0
		for _, i := range rem {
			if i != e.bye {
				rounds = max(rounds, len(e.h[e.players[i]].colour))
			}
		}
		byeUnplayed = field{bitlen(rounds + 1), func(i, j int, in bool) int {
			if p := e.byePartner(i, j); p >= 0 {
				return rounds + 1 - e.unplayed(p)
			}
			return 0
		}}
		byeScore = field{bitlen(top + 1), func(i, j int, in bool) int {
			if p := e.byePartner(i, j); p >= 0 {
				return top - e.score[p]
			}
			return 0
		}}
		fixed = append(fixed, byeUnplayed)
	}
	used := byeScore.bits + psdK.bits
	if psdK.bits > 0 {
		used++
	}
	for _, f := range fixed {
		used += f.bits
	}
	cb := bitlen(pairs)
	// C.8, the next group's score differences, below the count of its
	// floaters and above those of the groups further down: only when that
	// count fits and the next group is not the last (whose pairs the
	// completion decides).
	var psdNext psdField
	if k+2 < len(e.levels) && int(used)+2*int(cb) < budget {
		room := budget - int(used) - 2*int(cb)
		if psdK.bits == 0 {
			room-- // the offset's bit
		}
		psdNext = e.psdField(k+1, k, rem, room)
		if psdNext.bits > 0 {
			used += psdNext.bits
			if psdK.bits == 0 {
				used++
			}
		}
	}
	// FIDE's C.8 looks at the next group only: floats out of the groups
	// further down are theirs to weigh when they are paired, and counting
	// them here put them above this group's colours (three rounds in
	// ~17,000 of the brute force's, TestDutchColourKnownDeviation).
	look := min(len(e.levels)-k, 2)
	if cb > 0 && int((budget-min(used, budget))/cb) < look {
		look = max(1, int((budget-min(used, budget))/cb))
	}
	if psdNext.bits > 0 {
		look = max(look, 2)
	}
	// FIDE's C.16 to C.21 (floats of two rounds ago, then the scores of
	// the floaters repeated), as far as the bits hold: they rank just
	// above the Dutch order's fields.
	spare := budget - int(used) - look*int(cb)
	var more []field
	for _, f := range floats[2:] {
		if int(f.bits) > spare {
			break
		}
		spare -= int(f.bits)
		more = append([]field{f}, more...)
	}
	// What the criteria leave, the Dutch order's fields may take, up to
	// lowMax bits.
	fixed[0].bits = low + uint(min(max(spare, 0), int(lowMax)-int(low)))
	fixed = append(append(append([]field{}, fixed[0]), more...), fixed[1:]...)
	cross := func(t int) field {
		level := e.levels[t]
		return field{cb, func(i, j int, in bool) int { // nobody floats out of group t
			if (e.score[i] >= level) == (e.score[j] >= level) {
				return 1
			}
			return 0
		}}
	}
	// Floats out of this group weigh most, then its score differences
	// (C.7), then floats out of the next group and its score differences
	// (C.8), then this group's own criteria.
	fields := fixed
	for t := k + look - 1; t >= k; t-- {
		if t == k && psdK.bits > 0 {
			fields = append(fields, field{psdK.bits, psdK.val})
		}
		if t == k+1 && psdNext.bits > 0 {
			fields = append(fields, field{psdNext.bits, psdNext.val})
		}
		fields = append(fields, cross(t))
	}
	if byeScore.val != nil {
		fields = append(fields, byeScore)
	}
	var edges []wideEdge
	for x, i := range rem {
		for _, j := range rem[x+1:] {
			if !e.allowed(i, j) {
				continue
			}
			in := member(i) && member(j)
			w := wide{}
			for f := len(fields) - 1; f >= 0; f-- {
				w = w.shl(fields[f].bits).add(wideOf(int64(fields[f].val(i, j, in))))
			}
			edges = append(edges, wideEdge{i, j, w})
		}
	}
	return edges, fixed[0].bits
}

type field struct {
	bits uint
	val  func(i, j int, in bool) int
}

// floatFields are FIDE's C.14 to C.21 as bbpPairings weighs them, for the
// pairs of the group being paired (in): the players who floated down in the
// last round paired in the group without floating again (C.14), the pairs
// that do not float up again a player who floated up in the last round
// (C.15), the same for the round before (C.16, C.17), then the same, each
// player or pair counted at its score, the higher scores weighing more
// (C.18 to C.21). Each is given with its width; with fewer rounds played,
// those that look further back are zero.
func (e *swissEngine) floatFields(rem []int, member func(int) bool) [8]field {
	pairs := len(rem) / 2
	played := 0
	if len(e.h) > 0 {
		played = len(e.h[e.players[0]].float)
	}
	fl := func(x, back int) int8 {
		if x == e.bye || back > played {
			return 0
		}
		return e.h[e.players[x]].float[played-back]
	}
	count := map[int]int{}
	for _, i := range rem {
		if member(i) {
			count[e.score[i]]++
		}
	}
	var scores []int
	for s := range count {
		scores = append(scores, s)
	}
	sort.Ints(scores)
	shift := map[int]uint{}
	var sb uint
	for _, s := range scores {
		shift[s] = sb
		sb += bitlen(count[s])
	}
	cb := bitlen(pairs * 2)
	var out [8]field
	for n, back := range [2]int{1, 2} {
		out[2*n] = field{cb, func(i, j int, in bool) int { // downfloaters not floated down again
			if !in {
				return 0
			}
			hi, lo := min(i, j), max(i, j)
			v := 0
			if fl(lo, back) < 0 {
				v++
			}
			if e.score[hi] <= e.score[lo] && fl(hi, back) < 0 {
				v++
			}
			return v
		}}
		out[2*n+1] = field{cb, func(i, j int, in bool) int { // upfloaters not floated up again
			if !in {
				return 0
			}
			hi, lo := min(i, j), max(i, j)
			if e.score[hi] > e.score[lo] && fl(lo, back) > 0 {
				return 0
			}
			return 1
		}}
		out[4+2*n] = field{sb, func(i, j int, in bool) int { // the downfloaters' scores
			if !in {
				return 0
			}
			hi, lo := min(i, j), max(i, j)
			v := 0
			if fl(lo, back) < 0 {
				v += 1 << shift[e.score[lo]]
			}
			if fl(hi, back) < 0 {
				v += 1 << shift[e.score[hi]]
			}
			return v
		}}
		out[5+2*n] = field{sb, func(i, j int, in bool) int { // the upfloaters' opponents' scores
			if !in {
				return 0
			}
			hi, lo := min(i, j), max(i, j)
			if e.score[hi] > e.score[lo] && fl(lo, back) > 0 {
				return 0
			}
			return 1 << shift[e.score[hi]]
		}}
		if back > played {
			for _, x := range [4]int{2 * n, 2*n + 1, 4 + 2*n, 5 + 2*n} {
				out[x] = field{0, func(i, j int, in bool) int { return 0 }}
			}
		}
		if sb > 62 { // a field's value is an int64
			for _, x := range [2]int{4 + 2*n, 5 + 2*n} {
				out[x] = field{0, func(i, j int, in bool) int { return 0 }}
			}
		}
	}
	return out
}

// psdField is FIDE's C.7 (C.8 for the next group) for the bracket of
// score group t as the matching of group k leaves it: its players are
// those still to pair of at least group t's score, less, when t is below
// k, the pairs group k makes of its own. Each of its pairs has the
// difference of its players' scores, each of its players paired out of it
// (a downfloater, the bye's assignee too) her score less one point under
// the round's lowest; the bracket's differences, highest first, are to be
// as small as may be, lexicographically. As C.6 fixes how many there are,
// that is the fewest of the highest difference, then of the next one, and
// so on: each difference that can occur has a count of its own, the
// highest above, each wide enough for every player of the bracket. A
// field weighs 2^bits less the sum of its counts' units, so that it adds
// one unit to the field above to every edge (the same for every round,
// as every player is paired): no edge's weight is negative. When the
// differences do not all fit in room bits, the lowest are left out (the
// criteria below decide among them).
type psdField struct {
	bits uint
	val  func(i, j int, in bool) int
}

func (e *swissEngine) psdField(t, k int, rem []int, room int) psdField {
	level := e.levels[t]
	low := e.levels[len(e.levels)-1] - 2 // the downfloaters' reference
	var scores []int
	n := 0
	seen := map[int]bool{}
	for _, i := range rem {
		if i == e.bye || e.score[i] < level {
			continue
		}
		n++
		if !seen[e.score[i]] {
			seen[e.score[i]] = true
			scores = append(scores, e.score[i])
		}
	}
	if t == k && len(scores) < 2 {
		return psdField{} // one score: C.6's count decides it all
	}
	top := e.levels[k] // with t below k: pairs of players this high are group k's
	vals := map[int]bool{}
	for _, a := range scores {
		vals[a-low] = true
		for _, b := range scores {
			if a > b && !(t != k && b >= top) {
				vals[a-b] = true
			}
		}
	}
	var order []int
	for v := range vals {
		order = append(order, v)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(order)))
	b := bitlen(n)
	fit := min(len(order), max(room, 0)/int(b), 62/int(b)) // a field's value is an int64
	if fit == 0 {
		return psdField{}
	}
	unit := make([]int, e.levels[0]-low+1) // by difference
	for x, v := range order[:fit] {
		unit[v] = 1 << (int(b) * (fit - 1 - x))
	}
	bits := b * uint(fit)
	full := 1 << bits
	return psdField{bits, func(i, j int, in bool) int {
		if t != k && in {
			return full // a pair of group k's: not in this bracket
		}
		si, sj := e.score[i], e.score[j] // the bye scores -1: below every bracket
		ai, aj := si >= level, sj >= level
		d := 0
		switch {
		case ai && aj:
			d = max(si-sj, sj-si)
		case ai:
			d = si - low
		case aj:
			d = sj - low
		}
		return full - unit[d]
	}}
}

// sameAbsolute reports whether vertices i and j must both have the same
// colour (they meet only by the topscorers' exception).
func (e *swissEngine) sameAbsolute(i, j int) bool {
	return e.prefs[i].strength == prefAbsolute && e.prefs[j].strength == prefAbsolute && e.prefs[i].want == e.prefs[j].want
}

// byePartner is the player's vertex of an edge to the bye, or -1.
func (e *swissEngine) byePartner(i, j int) int {
	switch e.bye {
	case i:
		return j
	case j:
		return i
	}
	return -1
}

// unplayed counts vertex i's rounds without a game over the board: byes,
// absences, rounds before a late entry.
func (e *swissEngine) unplayed(i int) int {
	n := 0
	for _, c := range e.h[e.players[i]].colour {
		if c == noColour {
			n++
		}
	}
	return n
}

// lastFloat is vertex i's float in the previous round: -1 down (or a
// bye), +1 up, 0 none.
func (e *swissEngine) lastFloat(i int) int8 {
	if i == e.bye {
		return 0
	}
	f := e.h[e.players[i]].float
	if len(f) == 0 {
		return 0
	}
	return f[len(f)-1]
}
