package sgolte

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// FormatMove writes d5, d4(e3,e4) (flips in row-letter-then-number order,
// which is cell order), pass or swap.
func (s *State) FormatMove(m game.Move) string {
	switch m {
	case movePass:
		return "pass"
	case moveSwap:
		return "swap"
	}
	p := int(m & cellMask)
	if p >= s.geo.cells {
		return fmt.Sprintf("?%d", uint32(m))
	}
	idx := int(m>>cellBits) - 1
	if idx < 0 {
		return s.geo.names[p]
	}
	sets := new(tracer).init(s).flipSets(p)
	if idx >= len(sets) {
		return fmt.Sprintf("?%d", uint32(m))
	}
	var b strings.Builder
	b.WriteString(s.geo.names[p])
	b.WriteByte('(')
	for f, first := sets[idx], true; !f.isEmpty(); first = false {
		if !first {
			b.WriteByte(',')
		}
		b.WriteString(s.geo.names[f.pop()])
	}
	b.WriteByte(')')
	return b.String()
}

// ParseMove reads a move; the flips of a placement may be listed in any
// order (a move is its placement and its set of flips).
func (s *State) ParseMove(text string) (game.Move, error) {
	t := strings.ToLower(strings.TrimSpace(text))
	if s.over() {
		return 0, fmt.Errorf("sgolte: move %q: %w", text, game.ErrGameOver)
	}
	switch t {
	case "pass":
		if s.hasPlacement() || s.canSwap() {
			return 0, fmt.Errorf("sgolte: move %q: %w: passing is only allowed with no legal placement", text, game.ErrIllegal)
		}
		return movePass, nil
	case "swap":
		if !s.canSwap() {
			return 0, fmt.Errorf("sgolte: move %q: %w: swap is only White's answer to Black's first stone under pie=on", text, game.ErrIllegal)
		}
		return moveSwap, nil
	}
	p, flips, listed, err := s.parsePlacement(t)
	if err != nil {
		return 0, fmt.Errorf("sgolte: move %q: %w", text, err)
	}
	if !s.empty().has(p) {
		return 0, fmt.Errorf("sgolte: move %q: %w: %s is occupied", text, game.ErrIllegal, s.geo.names[p])
	}
	merges := s.geo.mergeCells(s.stones[s.toMove], s.empty())
	if !merges.has(p) {
		if listed {
			return 0, fmt.Errorf("sgolte: move %q: %w: %s merges no groups, so it flips nothing", text, game.ErrIllegal, s.geo.names[p])
		}
		return game.Move(p), nil
	}
	sets := new(tracer).init(s).flipSets(p)
	if len(sets) == 0 {
		return 0, fmt.Errorf("sgolte: move %q: %w: %s merges groups but no adjacent enemy group can be split", text, game.ErrIllegal, s.geo.names[p])
	}
	if !listed {
		return 0, fmt.Errorf("sgolte: move %q: %w: %s merges groups, so it must list the enemy stones it flips", text, game.ErrIllegal, s.geo.names[p])
	}
	for i, f := range sets {
		if f == flips {
			return game.Move(p | (i+1)<<cellBits), nil
		}
	}
	return 0, fmt.Errorf("sgolte: move %q: %w: not a legal set of flips for %s", text, game.ErrIllegal, s.geo.names[p])
}

// parsePlacement reads "cell" or "cell(cell,cell,…)". listed reports
// whether a flip list was given.
func (s *State) parsePlacement(t string) (p int, flips bitset, listed bool, err error) {
	head, tail, hasList := strings.Cut(t, "(")
	p, ok := s.parseCell(strings.TrimSpace(head))
	if !ok {
		return 0, flips, false, fmt.Errorf("%w: want a cell such as d5, d4(e3,e4), pass or swap", game.ErrSyntax)
	}
	if !hasList {
		return p, flips, false, nil
	}
	inner, ok := strings.CutSuffix(tail, ")")
	if !ok {
		return 0, flips, false, fmt.Errorf("%w: missing ')'", game.ErrSyntax)
	}
	for _, name := range strings.Split(inner, ",") {
		c, ok := s.parseCell(strings.TrimSpace(name))
		if !ok {
			return 0, flips, false, fmt.Errorf("%w: bad flipped cell %q", game.ErrSyntax, name)
		}
		if flips.has(c) {
			return 0, flips, false, fmt.Errorf("%w: %s flipped twice", game.ErrSyntax, s.geo.names[c])
		}
		flips = flips.or(single(c))
	}
	return p, flips, true, nil
}

// parseCell reads a cell name of this board: a row letter and a number
// without leading zeros.
func (s *State) parseCell(t string) (int, bool) {
	return s.geo.parseCell(t)
}

func (g *geometry) parseCell(t string) (int, bool) {
	if len(t) < 2 || len(t) > 3 || t[1] == '0' {
		return 0, false
	}
	r := int(t[0]) - 'a'
	k := 0
	for i := 1; i < len(t); i++ {
		if t[i] < '0' || t[i] > '9' {
			return 0, false
		}
		k = k*10 + int(t[i]-'0')
	}
	c := g.cellIndex(r, k-1)
	return c, c >= 0
}
