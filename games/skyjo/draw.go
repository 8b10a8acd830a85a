package skyjo

import (
	"fmt"
	"strings"
)

// Draw implements game.Drawer: every grid with face-down cards as "?" and
// removed columns as "x", the discard pile, the deck size, the held card and
// the totals. It draws the public view only, even from the true state: the
// drawing is for players.
func (s *State) Draw() string {
	v := s.public()
	return v.draw()
}

func (v *public) draw() string {
	var b strings.Builder
	n := int(v.cfg.players)
	fmt.Fprintf(&b, "Skyjo · round %d · turn %d · %s\n", v.round, v.turn, v.cfg.options())
	const perRow = 4
	for first := 0; first < n; first += perRow {
		last := min(first+perRow, n)
		b.WriteByte('\n')
		var line strings.Builder
		for p := first; p < last; p++ {
			label := fmt.Sprintf("Seat %d: %d pts", p+1, v.totals[p])
			switch {
			case int(v.toMove) == p:
				label += " *"
			case int(v.ender) == p:
				label += " E"
			}
			fmt.Fprintf(&line, "%-22s", label)
		}
		endLine(&b, &line)
		for p := first; p < last; p++ {
			fmt.Fprintf(&line, "%-22s", "       a   b   c   d")
		}
		endLine(&b, &line)
		for r := 0; r < 3; r++ {
			for p := first; p < last; p++ {
				row := fmt.Sprintf("  %d", r+1)
				for c := 0; c < 4; c++ {
					i := c*3 + r
					cell := "?"
					switch bit := uint16(1) << i; {
					case v.gone[p]&bit != 0:
						cell = "x"
					case v.up[p]&bit != 0:
						cell = fmt.Sprint(v.face[p][i])
					}
					row += fmt.Sprintf("%4s", cell)
				}
				fmt.Fprintf(&line, "%-22s", row)
			}
			endLine(&b, &line)
		}
	}
	b.WriteString("\nDiscard (bottom to top):")
	for _, c := range v.disc[:v.discN] {
		fmt.Fprintf(&b, " %d", c)
	}
	if v.discN == 0 {
		b.WriteString(" (empty)")
	}
	fmt.Fprintf(&b, "\nDeck: %d cards", v.deckN)
	switch v.phase {
	case phaseDrawn:
		fmt.Fprintf(&b, " · held: %d (drawn)", v.held)
	case phaseTook:
		fmt.Fprintf(&b, " · held: %d (taken)", v.held)
	}
	b.WriteByte('\n')
	switch {
	case v.phase == phaseFlips:
		b.WriteString("Initial flips.\n")
	case v.ender >= 0 && v.phase != phaseOver:
		fmt.Fprintf(&b, "Final lap: seat %d ended the round.\n", v.ender+1)
	}
	b.WriteString("(* to move, E ended the round; ? face down, x removed column)")
	return b.String()
}

// endLine writes line to b without trailing spaces and resets it.
func endLine(b, line *strings.Builder) {
	b.WriteString(strings.TrimRight(line.String(), " "))
	b.WriteByte('\n')
	line.Reset()
}
