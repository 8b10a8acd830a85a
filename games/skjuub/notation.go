package skjuub

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

func squareName(sq int) string {
	return string([]byte{'a' + byte(sq%boardSize), '1' + byte(sq/boardSize)})
}

// parseSquare reads a square at the start of s ("c3", also "C3").
func parseSquare(s string) (int, bool) {
	if len(s) < 2 {
		return 0, false
	}
	f, r := s[0]|0x20, s[1]
	if f < 'a' || f > 'f' || r < '1' || r > '6' {
		return 0, false
	}
	return int(r-'1')*boardSize + int(f-'a'), true
}

func parseDir(c byte) (int, bool) {
	switch c &^ 0x20 {
	case 'N':
		return north, true
	case 'E':
		return east, true
	case 'S':
		return south, true
	case 'W':
		return west, true
	}
	return 0, false
}

// formatMove writes m in the spec's notation: place c3N, slide c3-c6,
// tumble c3~c4, pick up ^c3, quarter turn c3> (clockwise) or c3<, pass.
func formatMove(m game.Move) string {
	switch mKind(m) {
	case kindPlace:
		return squareName(mTo(m)) + string(dirLetters[mDir(m)])
	case kindSlide:
		return squareName(mFrom(m)) + "-" + squareName(mTo(m))
	case kindTumble:
		return squareName(mFrom(m)) + "~" + squareName(mTo(m))
	case kindPickup:
		return "^" + squareName(mFrom(m))
	case kindTurn:
		if mDir(m) == rotCW {
			return squareName(mFrom(m)) + ">"
		}
		return squareName(mFrom(m)) + "<"
	case kindPass:
		return "pass"
	}
	return fmt.Sprintf("?%d", uint32(m))
}

// FormatMove writes m in canonical notation.
func (s *State) FormatMove(m game.Move) string { return formatMove(m) }

// parseToken reads one action token without looking at a position. A
// pick-up comes back with direction 0; withDir accepts the "^c3N" form the
// position JSON uses for a previous turn's pick-up.
func parseToken(t string, withDir bool) (game.Move, bool) {
	if strings.EqualFold(t, "pass") {
		return passMove, true
	}
	if len(t) > 0 && t[0] == '^' {
		sq, ok := parseSquare(t[1:])
		if !ok {
			return 0, false
		}
		switch {
		case len(t) == 3:
			return pickupMove(sq, 0), !withDir
		case len(t) == 4 && withDir:
			d, ok := parseDir(t[3])
			return pickupMove(sq, d), ok
		}
		return 0, false
	}
	from, ok := parseSquare(t)
	if !ok {
		return 0, false
	}
	switch {
	case len(t) == 3 && t[2] == '>':
		return turnMove(from, rotCW), true
	case len(t) == 3 && t[2] == '<':
		return turnMove(from, rotCCW), true
	case len(t) == 3:
		d, ok := parseDir(t[2])
		return placeMove(from, d), ok
	case len(t) == 5 && (t[2] == '-' || t[2] == '~'):
		to, ok := parseSquare(t[3:])
		if !ok {
			return 0, false
		}
		if t[2] == '-' {
			return slideMove(from, to), lineDir(from, to) >= 0
		}
		return tumbleMove(from, to), dirBetween(from, to) >= 0
	}
	return 0, false
}

// ParseMove reads one action (one ply; a turn's bonus actions are separate
// plies) and returns it if it is legal here.
func (s *State) ParseMove(text string) (game.Move, error) {
	t := strings.TrimSpace(text)
	m, ok := parseToken(t, false)
	if !ok {
		return 0, fmt.Errorf("skjuub: parse move %q: %w", text, game.ErrSyntax)
	}
	if s.out.Over() {
		return 0, fmt.Errorf("skjuub: move %q: %w: %w", text, game.ErrIllegal, game.ErrGameOver)
	}
	var buf [512]game.Move
	for _, l := range s.Legal(buf[:0]) {
		if l == m || (mKind(m) == kindPickup && mKind(l) == kindPickup && mFrom(l) == mFrom(m)) {
			return l, nil
		}
	}
	return 0, fmt.Errorf("skjuub: move %q: %w: %s", text, game.ErrIllegal, s.whyIllegal(m))
}
