package sploof

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// PointName is the notation of point p: level, top-view column a…g, top-view
// row 1…7 ("1a1", "2d4", "4d4").
func PointName(p int) string {
	if p < 0 || p >= numPoints {
		return "?"
	}
	pt := points[p]
	return string([]byte{byte('0' + pt.h), byte('a' + pt.x), byte('1' + pt.y)})
}

// parsePoint reads a point name; it accepts an upper-case column letter.
func parsePoint(s string) (int, bool) {
	if len(s) != 3 {
		return 0, false
	}
	h := int(s[0]) - '0'
	x := int(s[1]|0x20) - 'a'
	y := int(s[2]) - '1'
	if h < 1 || h > 4 || x < 0 || x > 6 || y < 0 || y > 6 {
		return 0, false
	}
	p := pointAt(x, y, h)
	return p, p >= 0
}

// FormatMove implements game.State: "1c3" places on 1c3, "*1a1" removes the
// red on 1a1.
func (s *State) FormatMove(m game.Move) string {
	if m >= removeFlag {
		return "*" + PointName(int(m)-removeFlag)
	}
	return PointName(int(m))
}

// ParseMove implements game.State. Surrounding spaces and an upper-case
// column letter are accepted.
func (s *State) ParseMove(text string) (game.Move, error) {
	t := strings.TrimSpace(text)
	remove := strings.HasPrefix(t, "*")
	if remove {
		t = t[1:]
	}
	p, ok := parsePoint(t)
	if !ok {
		return 0, fmt.Errorf("sploof: parse move %q: want a point such as 1c3 or a removal such as *1a1: %w", text, game.ErrSyntax)
	}
	if s.out.Over() {
		return 0, fmt.Errorf("sploof: move %q: %w: %w", text, game.ErrIllegal, game.ErrGameOver)
	}
	occ := s.occ()
	who := colourNames[s.turn]
	if remove {
		switch {
		case s.red&(1<<p) == 0:
			return 0, fmt.Errorf("sploof: move %q: no red ball on %s: %w", text, PointName(p), game.ErrIllegal)
		case pinned(occ)&(1<<p) != 0:
			return 0, fmt.Errorf("sploof: move %q: the red on %s is pinned: %w", text, PointName(p), game.ErrIllegal)
		case s.removeMask(occ) == 0:
			return 0, fmt.Errorf("sploof: move %q: %s's supply holds fewer than 2 balls: %w", text, who, game.ErrIllegal)
		}
		return game.Move(removeFlag + p), nil
	}
	switch {
	case occ&(1<<p) != 0:
		return 0, fmt.Errorf("sploof: move %q: %s is occupied: %w", text, PointName(p), game.ErrIllegal)
	case supported(occ)&(1<<p) == 0:
		return 0, fmt.Errorf("sploof: move %q: %s does not rest on four balls: %w", text, PointName(p), game.ErrIllegal)
	case s.stock[s.turn] == 0:
		return 0, fmt.Errorf("sploof: move %q: %s has no ball in stock: %w", text, who, game.ErrIllegal)
	}
	return game.Move(p), nil
}
