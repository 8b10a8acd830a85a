package skjuub

import "github.com/tabula-games/tabula/game"

// Play applies m, which must come from Legal.
func (s *State) Play(m game.Move) {
	p := int(s.mover)
	switch mKind(m) {
	case kindPlace:
		s.putPiece(p, mDir(m), mTo(m))
		s.setPool(p, int(s.pool[p])-1)
		s.endTurn(m) // a placement never earns a bonus
	case kindSlide, kindTumble:
		from, to := mFrom(m), mTo(m)
		d := s.dirAt(from)
		s.removePiece(p, d, from)
		if mKind(m) == kindTumble {
			d = opposite(d)
		}
		s.putPiece(p, d, to)
		if neighbours[to]&s.b.dirs[d] != 0 {
			// Sacrificed: the piece is connected at its end square, so the
			// player takes a bonus action. Opponent pieces it connects to
			// are captured simply by being inactive now.
			s.setPending(m)
			return
		}
		s.endTurn(m)
	case kindPickup:
		sq := mFrom(m)
		s.removePiece(p, mDir(m), sq)
		s.setPool(p, int(s.pool[p])+1)
		s.endTurn(m)
	case kindTurn:
		sq := mFrom(m)
		d := s.dirAt(sq)
		s.removePiece(p, d, sq)
		s.putPiece(p, (d+mDir(m))&3, sq)
		s.endTurn(m)
	case kindPass:
		s.endTurn(s.pending)
	}
}

// dirAt is the direction of the piece on sq (west when no other direction
// holds it). It reads the direction sets without a branch: which one holds a
// piece is as unpredictable as the board.
func (s *State) dirAt(sq int) int {
	sh := uint(sq) & 63
	n, e, so := (s.b.dirs[north]>>sh)&1, (s.b.dirs[east]>>sh)&1, (s.b.dirs[south]>>sh)&1
	return int(e | so<<1 | (1^(n|e|so))*3)
}

func (s *State) putPiece(p, d, sq int) {
	s.mkValid = false
	s.b.put(p, d, sq)
	s.key ^= zPiece[p][d][sq]
}

func (s *State) removePiece(p, d, sq int) {
	s.mkValid = false
	s.b.remove(p, d, sq)
	s.key ^= zPiece[p][d][sq]
}

func (s *State) setPool(p, n int) {
	s.key ^= zPool[p][s.pool[p]] ^ zPool[p][n]
	s.pool[p] = int8(n)
}

func (s *State) setPending(m game.Move) {
	s.key ^= pendingKey(s.pending) ^ pendingKey(m)
	s.pending = m
}

func (s *State) setLast(p int, m game.Move) {
	r := reverse(m)
	rk := restrictKey(p, r)
	s.key ^= s.rkey[p] ^ rk
	s.last[p], s.restrict[p], s.rkey[p] = m, r, rk
}

// endTurn closes the mover's turn, whose last non-pass action was last, and
// starts the opponent's.
func (s *State) endTurn(last game.Move) {
	p := int(s.mover)
	s.setLast(p, last)
	s.setPending(0)
	s.turns[p]++
	s.mover ^= 1
	s.key ^= zMover
	s.beginTurn()
}

// beginTurn records the turn-start position and judges it, unless a
// playout defers the judging to its next move generation (which finds the
// same moves anyway).
func (s *State) beginTurn() {
	s.push(s.key)
	if s.lazy {
		s.unjudged = true
		return
	}
	s.judgeTurnStart()
}

// judgeTurnStart sets the outcome of a main-phase position whose key is
// already in the history.
func (s *State) judgeTurnStart() {
	m := s.masks()
	if s.turns[s.mover] >= 1 {
		s.judge(s.hasSlideOrTumble(m), true)
		return
	}
	// Whether there is any action: the count of move generation, without
	// writing the list (gen.n is len(Legal), as Playout relies on).
	var g gen
	s.collect(&g, m)
	s.judge(true, g.n > 0)
}

// judge applies the end-of-game rules at the start of a turn: the seed's
// loss rule first (from each player's second turn on, no active piece with
// a legal slide or tumble loses; a player with no legal action at all, which
// only hand-written positions can produce, loses too), then the house rules
// (a third occurrence of the position, maxturns completed turns) draw.
func (s *State) judge(mobile, anyMove bool) {
	p := int(s.mover)
	if (s.turns[p] >= 1 && !mobile) || !anyMove {
		s.out = game.WinOutcome(1 - p)
		return
	}
	if s.occurrences() >= 3 || int(s.turns[0])+int(s.turns[1]) >= s.r.maxTurns {
		s.out = game.Outcome{Status: game.Drawn}
	}
}
