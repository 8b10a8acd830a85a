package skjuub

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

var arrows = [4]string{"↑", "→", "↓", "←"}

// Draw renders the position for a terminal: one cell per square with the
// owner and an arrow for the overhang direction (↑ = N, toward row 6), "*"
// on inactive (connected) pieces, "!" on the piece just sacrificed, and "·"
// on empty squares, "∙" where an overhang reaches over the square.
func (s *State) Draw() string {
	var sb strings.Builder
	o := s.b.overhangs()
	over := o[0] | o[1] | o[2] | o[3]
	inactive := s.b.inactive()
	sac := s.sacrificed()
	sb.WriteString("    a   b   c   d   e   f\n")
	for row := boardSize - 1; row >= 0; row-- {
		fmt.Fprintf(&sb, "%d ", row+1)
		for col := 0; col < boardSize; col++ {
			sq := row*boardSize + col
			p, d := s.b.at(sq)
			switch {
			case p < 0 && over&(1<<uint(sq)) != 0:
				sb.WriteString("  ∙ ")
			case p < 0:
				sb.WriteString("  · ")
			default:
				mark := " "
				if sq == sac {
					mark = "!"
				} else if inactive&(1<<uint(sq)) != 0 {
					mark = "*"
				}
				fmt.Fprintf(&sb, " %d%s%s", p+1, arrows[d], mark)
			}
		}
		fmt.Fprintf(&sb, "  %d\n", row+1)
	}
	sb.WriteString("    a   b   c   d   e   f\n")
	fmt.Fprintf(&sb, "pool  1: %d  2: %d    turns  1: %d  2: %d\n", s.pool[0], s.pool[1], s.turns[0], s.turns[1])
	switch {
	case s.out.Status == game.Won:
		w := 1
		if s.out.IsWinner(1) {
			w = 2
		}
		fmt.Fprintf(&sb, "player %d wins: player %d has no active skjuub that can slide or tumble\n", w, 3-w)
	case s.out.Status == game.Drawn:
		sb.WriteString("drawn by house rule (third repetition or maxturns)\n")
	case s.pending != 0:
		fmt.Fprintf(&sb, "player %d: bonus action (%s sacrificed %s)\n", s.mover+1, formatMove(s.pending), squareName(sac))
	default:
		fmt.Fprintf(&sb, "player %d to move\n", s.mover+1)
	}
	if !s.out.Over() && (s.pending == 0 || s.r.backtrackAny) {
		if r := s.restrict[s.mover]; r != 0 {
			fmt.Fprintf(&sb, "no backtracking: %s only if it captures\n", formatMove(r))
		}
	}
	sb.WriteString("↑→↓← overhang (↑ = N)  * inactive  ! sacrificed  ∙ under an overhang\n")
	return sb.String()
}
