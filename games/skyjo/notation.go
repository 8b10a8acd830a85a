package skyjo

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// posName is a grid position as the notation writes it: column letter a–d,
// row 1–3 (e.g. "b2").
func posName(pos int) string {
	return string([]byte{byte('a' + pos/3), byte('1' + pos%3)})
}

// parsePos reads "b2" (either case) as a position index.
func parsePos(s string) (int, bool) {
	if len(s) != 2 {
		return 0, false
	}
	c, r := s[0]|0x20, s[1]
	if c < 'a' || c > 'd' || r < '1' || r > '3' {
		return 0, false
	}
	return int(c-'a')*3 + int(r-'1'), true
}

// FormatMove implements game.State: "flip b2", "take", "draw", "swap c1".
func (s *State) FormatMove(m game.Move) string {
	switch {
	case m == moveTake:
		return "take"
	case m == moveDraw:
		return "draw"
	case m >= moveSwap && m < moveSwap+gridCards:
		return "swap " + posName(int(m-moveSwap))
	case m < gridCards:
		return "flip " + posName(int(m))
	}
	return fmt.Sprintf("?%d", uint32(m))
}

// ParseMove implements game.State. It accepts the canonical tokens in any
// case with any spacing ("Swap  C1").
func (s *State) ParseMove(txt string) (game.Move, error) {
	m, ok := parseMoveText(txt)
	if !ok {
		return 0, fmt.Errorf("skyjo: parse move %q: %w (want flip <pos>, take, draw or swap <pos>, pos a1…d3)", txt, game.ErrSyntax)
	}
	if s.phase == phaseOver {
		return 0, fmt.Errorf("skyjo: move %q: %w: %w", txt, game.ErrIllegal, game.ErrGameOver)
	}
	if !s.legal(m) {
		return 0, fmt.Errorf("skyjo: move %q in phase %s: %w: %s", txt, phaseNames[s.phase], game.ErrIllegal, s.illegalWhy(m))
	}
	return m, nil
}

// illegalWhy says why m, a readable move, is not one of the seat to move's,
// and what the phase wants instead.
func (s *State) illegalWhy(m game.Move) string {
	p := int(s.toMove)
	isFlip, isSwap := m < gridCards, m >= moveSwap && m < moveSwap+gridCards
	var cell int
	if isFlip {
		cell = int(m)
	} else if isSwap {
		cell = int(m - moveSwap)
	}
	switch {
	case isFlip && (s.phase == phaseFlips || s.phase == phaseDrawn) && s.gone[p]&(1<<cell) != 0:
		return posName(cell) + " is in a removed column"
	case isFlip && (s.phase == phaseFlips || s.phase == phaseDrawn):
		return posName(cell) + " is already face up; flip a face-down card"
	case isSwap && (s.phase == phaseTook || s.phase == phaseDrawn):
		return posName(cell) + " is in a removed column"
	case s.phase == phaseFlips:
		return "each player first flips two face-down cards (flip <pos>)"
	case s.phase == phaseChoose:
		return "a turn begins with take (the discard) or draw"
	case s.phase == phaseTook:
		return "the taken card must replace one of the grid's (swap <pos>)"
	case s.phase == phaseDrawn:
		return "the drawn card replaces one of the grid's (swap <pos>) or is discarded with a flip of a face-down card (flip <pos>)"
	}
	return "no move now"
}

func parseMoveText(txt string) (game.Move, bool) {
	f := strings.Fields(txt)
	if len(f) == 0 || len(f) > 2 {
		return 0, false
	}
	verb := strings.ToLower(f[0])
	if len(f) == 1 {
		switch verb {
		case "take":
			return moveTake, true
		case "draw":
			return moveDraw, true
		}
		return 0, false
	}
	pos, ok := parsePos(f[1])
	if !ok {
		return 0, false
	}
	switch verb {
	case "flip":
		return game.Move(pos), true
	case "swap":
		return moveSwap + game.Move(pos), true
	}
	return 0, false
}

// legal reports whether m is one of Legal's moves, without a move list.
func (s *State) legal(m game.Move) bool {
	p := int(s.toMove)
	switch s.phase {
	case phaseFlips:
		return m < gridCards && s.down(p)&(1<<m) != 0
	case phaseChoose:
		return m == moveTake || m == moveDraw
	case phaseTook:
		return m >= moveSwap && m < moveSwap+gridCards && s.present(p)&(1<<(m-moveSwap)) != 0
	case phaseDrawn:
		if m < gridCards {
			return s.down(p)&(1<<m) != 0
		}
		return m >= moveSwap && m < moveSwap+gridCards && s.present(p)&(1<<(m-moveSwap)) != 0
	}
	return false
}
