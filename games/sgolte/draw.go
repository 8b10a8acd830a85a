package sgolte

import (
	"fmt"
	"strconv"
	"strings"
)

// Draw writes the board as the hexhex it is, top row first, each row
// shifted by half a cell from its neighbours: the row letter on the left,
// the name of the row's last cell on the right (cells are numbered from 1
// at the left end), the numbers of the top and bottom rows above and below.
// X is Black, O White. Below the board: each side's stones and group
// sizes (largest first, which is how the game is won), the pie rule and
// whose turn it is.
//
//	    1 2 3 4 5
//	i    . . . . .    i5
//	h   . . . . . .   h6
//	…
//	a    . . . . .    a5
//	    1 2 3 4 5
func (s *State) Draw() string {
	g := s.geo
	mid := g.size - 1
	var b strings.Builder
	fmt.Fprintf(&b, "Sgolte, size %d, minflip=%s, continue=%s\n", g.size, minflipNames[s.minflip], continueNames[s.cont])
	numbers := func(r int) {
		b.WriteString(strings.Repeat(" ", 3+abs(r-mid)))
		for k := 1; k <= g.rowLen[r]; k++ {
			if k > 1 {
				b.WriteByte(' ')
			}
			b.WriteString(strconv.Itoa(k))
		}
		b.WriteByte('\n')
	}
	numbers(g.rows - 1)
	for r := g.rows - 1; r >= 0; r-- {
		b.WriteByte(byte('a' + r))
		b.WriteString(strings.Repeat(" ", 2+abs(r-mid)))
		for k := 0; k < g.rowLen[r]; k++ {
			if k > 0 {
				b.WriteByte(' ')
			}
			c := g.rowStart[r] + k
			switch {
			case s.stones[black].has(c):
				b.WriteByte('X')
			case s.stones[white].has(c):
				b.WriteByte('O')
			default:
				b.WriteByte('.')
			}
		}
		b.WriteString(strings.Repeat(" ", 2+abs(r-mid)))
		b.WriteString(g.names[g.rowStart[r]+g.rowLen[r]-1])
		b.WriteByte('\n')
	}
	numbers(0)
	for c, mark := range [2]string{"X", "O"} {
		sizes := g.groupSizes(s.stones[c])
		list := make([]string, len(sizes))
		for i, z := range sizes {
			list[i] = strconv.Itoa(z)
		}
		groups := "no groups"
		if len(list) > 0 {
			groups = "groups " + strings.Join(list, " ")
		}
		n := s.stones[c].count()
		plural := "s"
		if n == 1 {
			plural = ""
		}
		fmt.Fprintf(&b, "%s %s (player %d): %d stone%s, %s\n", mark, title(colourNames[c]), s.seatOf(c)+1,
			n, plural, groups)
	}
	switch s.pie {
	case piePending:
		b.WriteString("Pie rule: White may answer Black's first stone with swap.\n")
	case pieDone:
		if s.swapped {
			b.WriteString("Pie rule: used, colours swapped.\n")
		}
	}
	if s.passes == 1 {
		fmt.Fprintf(&b, "%s passed.\n", title(colourNames[s.toMove^1]))
	}
	if !s.over() {
		fmt.Fprintf(&b, "%s (%s) to move.\n", title(colourNames[s.toMove]), [2]string{"X", "O"}[s.toMove])
	}
	return b.String()
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
