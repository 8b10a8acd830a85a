package skjuub

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/internal/bitsel"
)

func lowBit(b uint64) int { return bits.TrailingZeros64(b) }

// masks are the bitboards move generation derives from a position.
type masks struct {
	// tgt[d]: squares from which a dir-d overhang lands acceptably: on a
	// dir-d piece (connecting), on an empty square no perpendicular
	// overhang reaches (nor an opposite one under forbid), or past an open
	// edge.
	tgt [4]uint64
	// pl[d]: empty squares where a dir-d piece may stand with the rest of the
	// board unchanged: no other direction overhangs the square and its own
	// overhang lands acceptably.
	pl [4]uint64
	// fwd[d]: squares a dir-d piece may land on by tumbling forward into
	// them (see forwardOK).
	fwd [4]uint64
	act [4]uint64 // active pieces by direction
	// tf[d], tb[d]: squares from which a dir-d piece may tumble forward
	// (onto a fwd[d] square) and backward (onto a pl[opposite(d)] square),
	// shifted here by constants so that move generation needs no shift by
	// a variable direction.
	tf, tb [4]uint64
}

// compute fills m for board b under rules r.
//
// The same masks serve a moving piece (which leaves its square first)
// exactly: a piece of direction d never changes tgt[d] or pl[d] by its own
// presence (its overhang is the only dir-d one into its target square, and
// its own square is overhung by nothing but dir d), so only the forward
// tumble, whose landing square the mover itself overhangs, needs its own
// mask (fwd).
func (m *masks) compute(b *board, r *rules) {
	empty := full &^ (b.own[0] | b.own[1])
	dn, de, ds, dw := b.dirs[north], b.dirs[east], b.dirs[south], b.dirs[west]
	on, oe, os, ow := (dn<<6)&full, (de<<1)&^fileA&full, ds>>6, (dw>>1)&^fileF
	ns, ew := on|os, oe|ow
	// Empty squares no perpendicular overhang reaches, for the pieces
	// leaning north/south and east/west.
	freeNS, freeEW := empty&^ew, empty&^ns
	tn, te, ts, tw := freeNS, freeEW, freeNS, freeEW
	if r.forbidOpposite {
		tn, te, ts, tw = tn&^os, te&^ow, ts&^on, tw&^oe
	}
	var open uint64
	if !r.closedEdge {
		open = full
	}
	tn = (dn|tn)>>6 | rank6&open
	te = ((de|te)>>1)&^fileF | fileF&open
	ts = ((ds|ts)<<6)&full | rank1&open
	tw = ((dw|tw)<<1)&^fileA&full | fileA&open
	m.tgt = [4]uint64{tn, te, ts, tw}
	m.pl = [4]uint64{freeNS &^ os & tn, freeEW &^ ow & te, freeNS &^ on & ts, freeEW &^ oe & tw}
	if r.sweep {
		m.fwd = [4]uint64{freeNS &^ os, freeEW &^ ow, freeNS &^ on, freeEW &^ oe}
	} else {
		m.fwd = [4]uint64{freeNS, freeEW, freeNS, freeEW}
	}
	m.act = [4]uint64{dn &^ adj(dn), de &^ adj(de), ds &^ adj(ds), dw &^ adj(dw)}
	f, p := &m.fwd, &m.pl
	m.tf = [4]uint64{f[north] >> 6, (f[east] >> 1) &^ fileF, (f[south] << 6) & full, (f[west] << 1) &^ fileA & full}
	m.tb = [4]uint64{(p[south] << 6) & full, (p[west] << 1) &^ fileA & full, p[north] >> 6, (p[east] >> 1) &^ fileF}
}

// forwardOK reports whether the forward tumble of the dir-d piece on c to
// f = c+d is possible: f empty and overhung by nothing but the mover itself
// and (unless tumble=sweep) the piece beyond f facing back, which the
// landing piece then connects to. The landing piece overhangs c, which the
// mover just left and nothing else reaches.
func (m *masks) forwardOK(f, d int) bool { return m.fwd[d]&(1<<uint(f)) != 0 }

// ban is the move the no-backtracking rule forbids now, or 0. The reversal
// of a slide or tumble is allowed when it captures (makes an active
// opponent piece inactive); placements and quarter turns never capture.
func (s *State) ban(m *masks) game.Move {
	if s.pending != 0 && !s.r.backtrackAny {
		return 0
	}
	p := int(s.mover)
	r := s.restrict[p]
	switch mKind(r) {
	case kindSlide, kindTumble:
		from, to := mFrom(r), mTo(r)
		if s.b.own[p]&(1<<uint(from)) == 0 {
			return r
		}
		d := s.dirAt(from)
		if mKind(r) == kindTumble {
			d = opposite(d)
		}
		if neighbours[to]&m.act[d]&s.b.own[1-p]&^(1<<uint(from)) != 0 {
			return 0
		}
	}
	return r
}

// rays[sq][d] holds the squares beyond sq toward d, to the board edge.
var rays [64][4]uint64 // 64 rows so that a square from a bit scan needs no bounds check

func init() {
	for sq := 0; sq < numSquares; sq++ {
		for d := 0; d < 4; d++ {
			for t := int(step[sq][d]); t != noSquare; t = int(step[t][d]) {
				rays[sq][d] |= 1 << uint(t)
			}
		}
	}
}

// slideReach returns the squares a dir-d piece on c can slide to: along each
// ray up to the first square where it could not stand, since every square
// passed must be a valid stop too.
func slideReach(c int, pl uint64) uint64 {
	r := &rays[c&63]
	// North and east rays run toward higher squares: keep the bits below
	// the lowest blocker (all of them when there is none). South and west
	// rays run toward lower squares: drop the bits up to the highest
	// blocker (none when there is none). Branch-free, since the blockers
	// are unpredictable.
	n, e, so, w := r[north], r[east], r[south], r[west]
	bn, be := n&^pl, e&^pl
	n &= bn&-bn - 1
	e &= be&-be - 1
	so &^= 1<<uint(64-bits.LeadingZeros64(so&^pl)) - 1
	w &^= 1<<uint(64-bits.LeadingZeros64(w&^pl)) - 1
	return n | e | so | w
}

// stepDelta[d] is the square-number difference of one step toward d.
var stepDelta = [4]int{boardSize, 1, -boardSize, -1}

// pieceOpts are the moves of one active piece of the mover.
type pieceOpts struct {
	c        int8
	fwd, bwd int8   // tumble landing squares, or noSquare
	turns    int8   // bit 0: clockwise quarter turn, bit 1: anticlockwise (bonus only)
	reach    uint64 // slide destinations
}

// gen is the legal action set in the compact form shared by Legal and the
// playout sampler, so both enumerate the same moves in the same order:
// placements (by direction, then square), each active piece's (by
// direction, then square) slides (by destination), forward and backward
// tumble, then in the bonus phase pick-ups, quarter turns and pass. The
// banned reversal is already removed.
type gen struct {
	n       int // number of legal actions
	moving  int // of which slides and tumbles
	place   [4]uint64
	pieces  [16]pieceOpts // poolSize rounded up to a power of two: indexed by np&15
	np      int
	pickups uint64
	bonus   bool
}

func (s *State) collect(g *gen, m *masks) {
	p := int(s.mover)
	b := &s.b
	ban := s.ban(m)
	bk, bfrom, bto := mKind(ban), mFrom(ban), mTo(ban)
	g.np = 0
	g.n, g.moving = 0, 0
	g.bonus = s.pending != 0
	if s.pool[p] > 0 {
		for d := 0; d < 4; d++ {
			// A placement may never make an active opponent piece inactive.
			g.place[d] = m.pl[d] &^ adj(m.act[d]&b.own[1-p])
		}
		if bk == kindPlace {
			g.place[mDir(ban)] &^= 1 << uint(bto)
		}
		g.n = popcount(g.place[0]) + popcount(g.place[1]) + popcount(g.place[2]) + popcount(g.place[3])
	} else {
		g.place = [4]uint64{}
	}
	// Counted in locals, which stay in registers, and stored once.
	np, moving, turns := 0, 0, 0
	// The mover's active pieces in one loop over their squares, each put in
	// its place in Legal's order (by direction, then square) from the count
	// of each direction: the number of pieces of each direction is as
	// unpredictable as the board, and a loop per direction paid a
	// mispredicted exit for each.
	own := b.own[p]
	n0, n1, n2 := popcount(m.act[north]&own), popcount(m.act[east]&own), popcount(m.act[south]&own)
	slot := [4]int{0, n0, n0 + n1, n0 + n1 + n2}
	for bb := own & (m.act[north] | m.act[east] | m.act[south] | m.act[west]); bb != 0; bb &= bb - 1 {
		c := lowBit(bb)
		d := s.dirAt(c)
		po := &g.pieces[slot[d]&15]
		slot[d]++
		np++
		po.c = int8(c)
		po.reach = slideReach(c, m.pl[d])
		// The landing squares, or noSquare (-1), without a branch:
		// which pieces can tumble is as unpredictable as the board.
		f, k := int(m.tf[d]>>uint(c))&1, int(m.tb[d]>>uint(c))&1
		delta := stepDelta[d]
		po.fwd, po.bwd = int8((c+delta+1)*f-1), int8((c-delta+1)*k-1)
		po.turns = 0
		if g.bonus {
			for i, rot := range [2]int{rotCW, rotCCW} {
				nd := (d + rot) & 3
				// Still active (no neighbour shares the new direction)
				// and the new overhang lands acceptably.
				if m.tgt[nd]&(1<<uint(c)) != 0 && neighbours[c]&b.dirs[nd] == 0 {
					po.turns |= 1 << uint(i)
				}
			}
		}
		if c == bfrom {
			s.unban(po, bk, bto, mDir(ban))
			f, k = int(po.fwd>>7+1), int(po.bwd>>7+1)
		}
		moving += popcount(po.reach) + f + k
		turns += int(po.turns&1 + po.turns>>1)
	}
	g.np, g.moving = np, moving
	g.n += moving + turns
	g.pickups = 0
	if g.bonus {
		g.pickups = b.own[p] &^ (1 << uint(s.sacrificed()))
		g.n += popcount(g.pickups) + 1
	}
}

// unban removes the banned reversal from the moves of its piece.
func (s *State) unban(po *pieceOpts, bk, bto, bdir int) {
	switch bk {
	case kindSlide:
		po.reach &^= 1 << uint(bto)
	case kindTumble:
		if int(po.fwd) == bto {
			po.fwd = noSquare
		}
		if int(po.bwd) == bto {
			po.bwd = noSquare
		}
	case kindTurn:
		po.turns &^= int8(1 << uint(bdir>>1))
	}
}

// nthBit returns the square of the r-th (from 0) set bit of b.
func nthBit(b uint64, r int) int {
	base := 0
	// Skip whole bytes first: a square set has up to 36 bits.
	for {
		n := popcount(b & 0xff)
		if r < n {
			break
		}
		r -= n
		b >>= 8
		base += 8
	}
	return base + bitsel.InByte(uint8(b), r)
}

// nth returns the r-th legal action in Legal's order (0 ≤ r < count).
func (g *gen) nth(r int) game.Move {
	for d := 0; d < 4; d++ {
		if n := popcount(g.place[d]); r < n {
			return placeMove(nthBit(g.place[d], r), d)
		} else {
			r -= n
		}
	}
	for i := 0; i < g.np; i++ {
		po := &g.pieces[i]
		if n := popcount(po.reach); r < n {
			return slideMove(int(po.c), nthBit(po.reach, r))
		} else {
			r -= n
		}
		if po.fwd != noSquare {
			if r == 0 {
				return tumbleMove(int(po.c), int(po.fwd))
			}
			r--
		}
		if po.bwd != noSquare {
			if r == 0 {
				return tumbleMove(int(po.c), int(po.bwd))
			}
			r--
		}
	}
	return g.nthBonus(r)
}

// nthBonus continues nth into the bonus actions. A pick-up comes back
// without its direction, which the caller reads from the board.
func (g *gen) nthBonus(r int) game.Move {
	if n := popcount(g.pickups); r < n {
		sq := nthBit(g.pickups, r)
		return pickupMove(sq, 0)
	} else {
		r -= n
	}
	for i := 0; i < g.np; i++ {
		po := &g.pieces[i]
		for k, rot := range [2]int{rotCW, rotCCW} {
			if po.turns&(1<<uint(k)) != 0 {
				if r == 0 {
					return turnMove(int(po.c), rot)
				}
				r--
			}
		}
	}
	return passMove
}

// Legal appends the legal actions of the seat to move.
func (s *State) Legal(dst []game.Move) []game.Move {
	if s.out.Over() {
		return dst
	}
	return s.legal(dst, s.masks())
}

// masks returns the masks of the current board, computing them only when
// the board changed (or the state was copied) since the last call: the
// turn-start check and the next move generation share them.
func (s *State) masks() *masks {
	if !s.mkValid {
		s.mk.compute(&s.b, s.r)
		s.mkValid = true
	}
	return &s.mk
}

func (s *State) legal(dst []game.Move, m *masks) []game.Move {
	var g gen
	s.collect(&g, m)
	for d := 0; d < 4; d++ {
		for bb := g.place[d]; bb != 0; bb &= bb - 1 {
			dst = append(dst, placeMove(lowBit(bb), d))
		}
	}
	for i := 0; i < g.np; i++ {
		po := &g.pieces[i]
		for bb := po.reach; bb != 0; bb &= bb - 1 {
			dst = append(dst, slideMove(int(po.c), lowBit(bb)))
		}
		if po.fwd != noSquare {
			dst = append(dst, tumbleMove(int(po.c), int(po.fwd)))
		}
		if po.bwd != noSquare {
			dst = append(dst, tumbleMove(int(po.c), int(po.bwd)))
		}
	}
	if !g.bonus {
		return dst
	}
	for bb := g.pickups; bb != 0; bb &= bb - 1 {
		sq := lowBit(bb)
		dst = append(dst, pickupMove(sq, s.dirAt(sq)))
	}
	for i := 0; i < g.np; i++ {
		po := &g.pieces[i]
		if po.turns&1 != 0 {
			dst = append(dst, turnMove(int(po.c), rotCW))
		}
		if po.turns&2 != 0 {
			dst = append(dst, turnMove(int(po.c), rotCCW))
		}
	}
	return append(dst, passMove)
}

// pieceMoves appends the slides and tumbles of the active dir-d piece on c
// (except ban).
func (s *State) pieceMoves(dst []game.Move, c, d int, m *masks, ban game.Move) []game.Move {
	for bb := slideReach(c, m.pl[d]); bb != 0; bb &= bb - 1 {
		if mv := slideMove(c, lowBit(bb)); mv != ban {
			dst = append(dst, mv)
		}
	}
	if f := int(step[c][d]); f != noSquare && m.forwardOK(f, d) {
		if mv := tumbleMove(c, f); mv != ban {
			dst = append(dst, mv)
		}
	}
	if g := int(step[c][opposite(d)]); g != noSquare && m.pl[opposite(d)]&(1<<uint(g)) != 0 {
		if mv := tumbleMove(c, g); mv != ban {
			dst = append(dst, mv)
		}
	}
	return dst
}

// hasSlideOrTumble reports whether the mover has an active piece with a
// legal slide or tumble as a main action (the loss rule).
func (s *State) hasSlideOrTumble(m *masks) bool {
	p := int(s.mover)
	b := &s.b
	var cand uint64
	for d := 0; d < 4; d++ {
		mine := m.act[d] & b.own[p]
		if mine == 0 {
			continue
		}
		cand |= mine & (adj(m.pl[d]) | m.tf[d] | m.tb[d])
	}
	if cand == 0 {
		return false
	}
	ban := s.ban(m)
	if k := mKind(ban); k != kindSlide && k != kindTumble {
		return true
	}
	from := mFrom(ban)
	if cand&^(1<<uint(from)) != 0 {
		return true
	}
	// Only the piece the ban concerns can move: does it have another move?
	_, d := b.at(from)
	var buf [16]game.Move
	for _, mv := range s.pieceMoves(buf[:0], from, d, m, ban) {
		if mv != ban {
			return true
		}
	}
	return false
}
