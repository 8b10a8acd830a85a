package skjuub

import (
	"fmt"

	"github.com/tabula-games/tabula/game"
)

// whyIllegal says, in the words of the rules page, why the action m (read
// by parseToken) is not legal here. ParseMove adds it to its error, so a
// person who tries a move (in a lesson, at the terminal, through the API)
// learns which rule forbids it. It is only asked about actions that Legal
// does not list, and it is never on the hot path.
func (s *State) whyIllegal(m game.Move) string {
	p := int(s.mover)
	bonus := s.pending != 0
	switch mKind(m) {
	case kindPass:
		return "you may pass only as a bonus action"
	case kindPickup:
		if !bonus {
			return "you may pick up a skjuub only as a bonus action, after a sacrifice"
		}
		sq := mFrom(m)
		if why := s.notYours(sq, p); why != "" {
			return why
		}
		if sq == s.sacrificed() {
			return "you may not pick up the skjuub you have just sacrificed"
		}
	case kindTurn:
		if !bonus {
			return "a quarter turn is only a bonus action, after a sacrifice"
		}
		sq := mFrom(m)
		if why := s.movable(sq, p); why != "" {
			return why
		}
		_, d := s.b.at(sq)
		nd := (d + mDir(m)) & 3
		b := s.b
		b.remove(p, d, sq)
		b.put(p, nd, sq)
		if !b.valid(s.r) {
			return "after the quarter turn " + s.collision(&b, sq)
		}
		if q := sameWayNeighbour(&b, sq); q != noSquare {
			return fmt.Sprintf("after the quarter turn it would lean the same way as the skjuub on %s and be inactive; a quarter turn must leave it active", squareName(q))
		}
		if m == s.ban(s.masks()) {
			return "it would turn back your last action (no backtracking, backtrack=any)"
		}
	case kindPlace:
		sq, d := mTo(m), mDir(m)
		if s.pool[p] == 0 {
			return "your pool is empty: you have no skjuub to place"
		}
		if s.b.occ()&(1<<uint(sq)) != 0 {
			return fmt.Sprintf("%s is occupied", squareName(sq))
		}
		b := s.b
		b.put(p, d, sq)
		if !b.valid(s.r) {
			return "a skjuub placed there " + s.collision(&b, sq)
		}
		if lost := s.b.own[1-p] &^ s.b.inactive() & b.inactive(); lost != 0 {
			return fmt.Sprintf("it would make player %d's active skjuub on %s inactive, and a placement may not do that",
				2-p, squareName(lowBit(lost)))
		}
		if m == s.ban(s.masks()) {
			return fmt.Sprintf("it would put back the skjuub your last action picked up from %s (no backtracking)", squareName(sq))
		}
	case kindSlide, kindTumble:
		return s.whyNotMoved(m, p, bonus)
	}
	return "it is not legal here"
}

// whyNotMoved explains an illegal slide or tumble.
func (s *State) whyNotMoved(m game.Move, p int, bonus bool) string {
	from, to := mFrom(m), mTo(m)
	if why := s.movable(from, p); why != "" {
		return why
	}
	if bonus && from == s.sacrificed() {
		return fmt.Sprintf("the skjuub on %s has just been sacrificed: the bonus action moves another one", squareName(from))
	}
	_, d := s.b.at(from)
	if mKind(m) == kindSlide {
		ld := lineDir(from, to)
		for t := int(step[from][ld]); t != noSquare; t = int(step[t][ld]) {
			verb := "pass"
			if t == to {
				verb = "stop on"
			}
			if s.b.occ()&(1<<uint(t)) != 0 {
				return fmt.Sprintf("%s is in the way", squareName(t))
			}
			b := s.b
			b.remove(p, d, from)
			b.put(p, d, t)
			if !b.valid(s.r) {
				return fmt.Sprintf("it cannot %s %s: there it %s", verb, squareName(t), s.collision(&b, t))
			}
			if t == to {
				break
			}
		}
	} else {
		td := dirBetween(from, to)
		if td != d && td != opposite(d) {
			return fmt.Sprintf("a skjuub leaning %c tumbles only forward (%s) or backward (%s)", dirLetters[d],
				squareOrEdge(int(step[from][d])), squareOrEdge(int(step[from][opposite(d)])))
		}
		if s.b.occ()&(1<<uint(to)) != 0 {
			return fmt.Sprintf("%s is occupied", squareName(to))
		}
		b := s.b
		b.remove(p, d, from)
		b.put(p, opposite(d), to)
		if !b.valid(s.r) {
			return fmt.Sprintf("after the tumble it would lean %c on %s, where it %s", dirLetters[opposite(d)], squareName(to), s.collision(&b, to))
		}
		if td == d && s.r.sweep {
			if q := int(step[to][d]); q != noSquare {
				if _, qd := s.b.at(q); qd == opposite(d) {
					return fmt.Sprintf("it would sweep through the top of the skjuub on %s on the way (tumble=sweep)", squareName(q))
				}
			}
		}
	}
	if m == s.ban(s.masks()) {
		return fmt.Sprintf("it would undo your last action %s (no backtracking); undoing is allowed only when it captures", formatMove(s.last[p]))
	}
	return "it is not legal here"
}

// notYours explains why the skjuub on sq is not the player's to act with,
// or returns "".
func (s *State) notYours(sq, p int) string {
	owner, _ := s.b.at(sq)
	switch {
	case owner < 0:
		return fmt.Sprintf("there is no skjuub on %s", squareName(sq))
	case owner != p:
		return fmt.Sprintf("the skjuub on %s is not yours", squareName(sq))
	}
	return ""
}

// movable explains why the skjuub on sq may not move (not the player's, or
// inactive), or returns "".
func (s *State) movable(sq, p int) string {
	if why := s.notYours(sq, p); why != "" {
		return why
	}
	if q := sameWayNeighbour(&s.b, sq); q != noSquare {
		return fmt.Sprintf("the skjuub on %s is inactive: it is connected to the skjuub on %s, which leans the same way, and only active skjuubs move",
			squareName(sq), squareName(q))
	}
	return ""
}

// sameWayNeighbour is an orthogonal neighbour of sq leaning the same way as
// the piece on sq (which makes both inactive), or noSquare.
func sameWayNeighbour(b *board, sq int) int {
	_, d := b.at(sq)
	for nd := 0; nd < 4; nd++ {
		if q := int(step[sq][nd]); q != noSquare {
			if _, qd := b.at(q); qd == d {
				return q
			}
		}
	}
	return noSquare
}

// collision says how the piece on sq of the invalid board b collides,
// finishing a sentence such as "a skjuub placed there …".
func (s *State) collision(b *board, sq int) string {
	_, d := b.at(sq)
	f := int(step[sq][d])
	if f == noSquare {
		if s.r.closedEdge {
			return "would have its top sticking out past the edge of the board (edge=closed)"
		}
	} else if _, fd := b.at(f); fd >= 0 && fd != d {
		return fmt.Sprintf("would have its top poking into the skjuub on %s, which leans %c (a top may only reach over a skjuub leaning the same way)",
			squareName(f), dirLetters[fd])
	} else if fd < 0 {
		for qd := 0; qd < 4; qd++ {
			q := int(step[f][opposite(qd)]) // the square whose qd-overhang reaches f
			if q == noSquare || q == sq {
				continue
			}
			if _, od := b.at(q); od == qd && (qd != opposite(d) || s.r.forbidOpposite) {
				how := "in its corner"
				if qd == opposite(d) {
					how = "from opposite sides (opposite_overhangs=forbid)"
				}
				return fmt.Sprintf("would have its top meet the top of the skjuub on %s over the empty square %s, %s", squareName(q), squareName(f), how)
			}
		}
	}
	for qd := 0; qd < 4; qd++ {
		q := int(step[sq][opposite(qd)])
		if q == noSquare {
			continue
		}
		if _, od := b.at(q); od == qd && qd != d {
			return fmt.Sprintf("would stand under the top of the skjuub on %s, which leans %c toward it (only a skjuub leaning the same way fits there)",
				squareName(q), dirLetters[qd])
		}
	}
	return "would make the position invalid"
}

func squareOrEdge(sq int) string {
	if sq == noSquare {
		return "off the board"
	}
	return squareName(sq)
}
