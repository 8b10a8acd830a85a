package sploof

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// Draw implements game.Drawer: the top view (each visible ball with its
// level, as a player standing over the board sees it), every level on its
// own, and the stocks and supplies.
//
//	   a  b  c  d  e  f  g
//	7  R1    R1    R1    R1
//	6     .     W2    .
//	…
func (s *State) Draw() string {
	var b strings.Builder
	b.WriteString("Sploof: ")
	occ := s.occ()
	white, black := hasLine(s.col[White], occ), hasLine(s.col[Black], occ)
	switch o := s.out; o.Status {
	case game.Won:
		w := White
		if o.IsWinner(Black) {
			w = Black
		}
		switch {
		case white && black:
			fmt.Fprintf(&b, "%s won (lines for both colours: the mover wins)", colourNames[w])
		case white || black:
			fmt.Fprintf(&b, "%s won with a line", colourNames[w])
		default:
			fmt.Fprintf(&b, "%s won (%s has no legal move)", colourNames[w], colourNames[1-w])
		}
	case game.Drawn:
		b.WriteString("drawn (lines for both colours)")
	default:
		fmt.Fprintf(&b, "%s to move", colourNames[s.turn])
	}
	if s.first >= 0 {
		fmt.Fprintf(&b, " (%s moved first)", colourNames[s.first])
	}
	b.WriteString("\n\n")
	for c := 0; c < 2; c++ {
		fmt.Fprintf(&b, "%-6s stock %2d  supply %2d\n", colourNames[c], s.stock[c], s.supply[c])
	}
	b.WriteString("\ntop view: colour and level of the topmost ball\n   ")
	for x := 0; x < 7; x++ {
		fmt.Fprintf(&b, " %c ", 'a'+x)
	}
	b.WriteByte('\n')
	for y := 6; y >= 0; y-- {
		fmt.Fprintf(&b, "%2d ", y+1)
		for x := 0; x < 7; x++ {
			b.WriteString(s.topCell(x, y))
		}
		b.WriteByte('\n')
	}
	b.WriteString("\n")
	s.drawLevels(&b)
	return trimLines(b.String())
}

// topCell is one 3-character cell of the top view.
func (s *State) topCell(x, y int) string {
	cell := atTop[x][y]
	if cell[0] < 0 {
		return "   "
	}
	occ := s.occ()
	for i := 1; i >= 0; i-- {
		if p := cell[i]; p >= 0 && occ&(1<<p) != 0 {
			return fmt.Sprintf(" %c%d", s.cell(int(p)), points[p].h)
		}
	}
	return " . "
}

// drawLevels writes the four levels side by side, each with its own row
// numbers and column letters.
func (s *State) drawLevels(b *strings.Builder) {
	const width = 16
	var lines [6]string
	for h := 1; h <= 4; h++ {
		n := 5 - h
		col := [6]string{fmt.Sprintf("level %d", h)}
		for i := 0; i < n; i++ {
			r := n - 1 - i
			var row strings.Builder
			fmt.Fprintf(&row, "%d ", 2*r+h)
			for c := 0; c < n; c++ {
				row.WriteByte(' ')
				row.WriteByte(s.cell(pointIndex(h, r, c)))
			}
			col[1+i] = row.String()
		}
		var letters strings.Builder
		letters.WriteString("  ")
		for c := 0; c < n; c++ {
			letters.WriteByte(' ')
			letters.WriteByte(byte('a' + 2*c + h - 1))
		}
		col[1+n] = letters.String()
		for i := range lines {
			if h < 4 {
				lines[i] += fmt.Sprintf("%-*s", width, col[i])
			} else {
				lines[i] += col[i]
			}
		}
	}
	for _, l := range lines {
		b.WriteString(l)
		b.WriteByte('\n')
	}
}

// trimLines drops trailing spaces from every line.
func trimLines(s string) string {
	ls := strings.Split(s, "\n")
	for i, l := range ls {
		ls[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(ls, "\n")
}
