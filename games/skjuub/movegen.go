package skjuub

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

func lowBit(b uint64) int { return bits.TrailingZeros64(b) }

// masks are the bitboards move generation derives from a position.
type masks struct {
	empty uint64
	o     [4]uint64 // squares overhung by the pieces leaning each way
	perp  [4]uint64 // squares overhung from the sides perpendicular to d
	// tgt[d]: squares from which a dir-d overhang lands acceptably: on a
	// dir-d piece (connecting), on an empty square no perpendicular
	// overhang reaches (nor an opposite one under forbid), or past an open
	// edge.
	tgt [4]uint64
	// pl[d]: empty squares where a dir-d piece may stand with the rest of the
	// board unchanged: no other direction overhangs the square and its own
	// overhang lands acceptably.
	pl  [4]uint64
	act [4]uint64 // active pieces by direction
}

// compute fills m for board b under rules r.
//
// The same masks serve a moving piece (which leaves its square first)
// exactly: a piece of direction d never changes tgt[d] or under[d] by its
// own presence (its overhang is the only dir-d one into its target square,
// and its own square is overhung by nothing but dir d), so only the forward
// tumble, whose landing square the mover itself overhangs, needs a special
// test.
func (m *masks) compute(b *board, r *rules) {
	occ := b.occ()
	m.empty = full &^ occ
	m.o = b.overhangs()
	ns := m.o[north] | m.o[south]
	ew := m.o[east] | m.o[west]
	m.perp = [4]uint64{ew, ns, ew, ns}
	var open uint64
	if !r.closedEdge {
		open = full
	}
	for d := 0; d < 4; d++ {
		free := m.empty &^ m.perp[d]
		if r.forbidOpposite {
			free &^= m.o[opposite(d)]
		}
		m.tgt[d] = shift(b.dirs[d]|free, opposite(d)) | offEdge[d]&open
		m.pl[d] = m.empty &^ m.perp[d] &^ m.o[opposite(d)] & m.tgt[d]
		m.act[d] = b.dirs[d] &^ adj(b.dirs[d])
	}
}

// forwardOK reports whether the forward tumble of the dir-d piece on c to
// f = c+d is possible: f empty and overhung by nothing but the mover itself
// and (unless tumble=sweep) the piece beyond f facing back, which the
// landing piece then connects to. The landing piece overhangs c, which the
// mover just left and nothing else reaches.
func (m *masks) forwardOK(f, d int, r *rules) bool {
	bad := ^m.empty | m.perp[d]
	if r.sweep {
		bad |= m.o[opposite(d)]
	}
	return bad&(1<<uint(f)) == 0
}

// ban is the move the no-backtracking rule forbids now, or 0. The reversal
// of a slide or tumble is allowed when it captures (makes an active
// opponent piece inactive); placements and quarter turns never capture.
func (s *State) ban(m *masks) game.Move {
	if s.pending != 0 && !s.r.backtrackAny {
		return 0
	}
	p := int(s.mover)
	r := reverse(s.last[p])
	switch mKind(r) {
	case kindSlide, kindTumble:
		from, to := mFrom(r), mTo(r)
		owner, d := s.b.at(from)
		if owner != p {
			return r
		}
		if mKind(r) == kindTumble {
			d = opposite(d)
		}
		if neighbours[to]&m.act[d]&s.b.own[1-p]&^(1<<uint(from)) != 0 {
			return 0
		}
	}
	return r
}

// Legal appends the legal actions of the seat to move.
func (s *State) Legal(dst []game.Move) []game.Move {
	if s.out.Over() {
		return dst
	}
	var m masks
	m.compute(&s.b, s.r)
	return s.legal(dst, &m)
}

func (s *State) legal(dst []game.Move, m *masks) []game.Move {
	p := int(s.mover)
	b := &s.b
	ban := s.ban(m)
	if s.pool[p] > 0 {
		for d := 0; d < 4; d++ {
			// A placement may never make an active opponent piece inactive.
			for bb := m.pl[d] &^ adj(m.act[d]&b.own[1-p]); bb != 0; bb &= bb - 1 {
				if mv := placeMove(lowBit(bb), d); mv != ban {
					dst = append(dst, mv)
				}
			}
		}
	}
	for d := 0; d < 4; d++ {
		for bb := m.act[d] & b.own[p]; bb != 0; bb &= bb - 1 {
			dst = s.pieceMoves(dst, lowBit(bb), d, m, ban)
		}
	}
	if s.pending == 0 {
		return dst
	}
	for bb := b.own[p] &^ (1 << uint(s.sacrificed())); bb != 0; bb &= bb - 1 {
		sq := lowBit(bb)
		_, d := b.at(sq)
		dst = append(dst, pickupMove(sq, d))
	}
	for d := 0; d < 4; d++ {
		for bb := m.act[d] & b.own[p]; bb != 0; bb &= bb - 1 {
			c := lowBit(bb)
			for _, rot := range [2]int{rotCW, rotCCW} {
				nd := (d + rot) & 3
				// Still active (no neighbour shares the new direction) and
				// the new overhang lands acceptably.
				if m.tgt[nd]&(1<<uint(c)) != 0 && neighbours[c]&b.dirs[nd] == 0 {
					if mv := turnMove(c, rot); mv != ban {
						dst = append(dst, mv)
					}
				}
			}
		}
	}
	return append(dst, passMove)
}

// pieceMoves appends the slides and tumbles of the active dir-d piece on c.
func (s *State) pieceMoves(dst []game.Move, c, d int, m *masks, ban game.Move) []game.Move {
	pl := m.pl[d]
	for u := 0; u < 4; u++ {
		// Every square passed must be a valid stop too.
		for sq := int(step[c][u]); sq != noSquare && pl&(1<<uint(sq)) != 0; sq = int(step[sq][u]) {
			if mv := slideMove(c, sq); mv != ban {
				dst = append(dst, mv)
			}
		}
	}
	if f := int(step[c][d]); f != noSquare && m.forwardOK(f, d, s.r) {
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
		fwd := m.empty &^ m.perp[d]
		if s.r.sweep {
			fwd &^= m.o[opposite(d)]
		}
		cand |= mine & (adj(m.pl[d]) | shift(fwd, opposite(d)) | shift(m.pl[opposite(d)], d))
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
