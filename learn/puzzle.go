package learn

import (
	"strings"

	"github.com/tabula-games/tabula/game"
)

// The kinds of puzzle (Puzzle.Kind): what the solution does, read off the
// proved line by the rules engine (PuzzleKind), so that a page can offer
// themes and a test can check every label.
const (
	// KindSplit: a Sgolte solution whose first move splits enemy stones.
	KindSplit = "split"
	// KindQuiet: a Sgolte or Sploof solution whose first move captures or
	// removes nothing.
	KindQuiet = "quiet"
	// KindRemoval: a Sploof solution that starts by removing a red ball.
	KindRemoval = "removal"
	// KindOnlyMove: a Skjuub solution that is the only winning move and
	// earns no bonus action.
	KindOnlyMove = "only-move"
	// KindSacrifice: a Skjuub solution that sacrifices (its first move ends
	// inactive and earns a bonus action) and captures at most once.
	KindSacrifice = "sacrifice"
	// KindCaptureChain: a Skjuub solution whose first turn captures at
	// least twice through a chain of sacrifices.
	KindCaptureChain = "capture-chain"
	// KindKeep: a Skyjo decision whose best choice keeps the held card
	// (swaps it into the grid).
	KindKeep = "keep"
	// KindFlip: a Skyjo decision whose best choice discards the drawn card
	// and flips a face-down one.
	KindFlip = "flip"
)

// PuzzleKind says what the solution of a forced-win puzzle does: s is the
// puzzle's position and line its winning line (the moves must be legal).
func PuzzleKind(s game.State, line []string) string {
	if len(line) == 0 {
		return ""
	}
	first := line[0]
	switch s.Game().Name() {
	case "sgolte":
		if strings.Contains(first, "(") {
			return KindSplit
		}
		return KindQuiet
	case "sploof":
		if strings.HasPrefix(first, "*") {
			return KindRemoval
		}
		return KindQuiet
	case "skjuub":
		turn, captures := firstTurn(s, line)
		switch {
		case captures >= 2:
			return KindCaptureChain
		case turn >= 2:
			return KindSacrifice
		}
		return KindOnlyMove
	case "skyjo":
		if strings.HasPrefix(first, "swap") {
			return KindKeep
		}
		return KindFlip
	}
	return ""
}

// firstTurn replays line from s and counts the moves the side to move
// plays before the other side's first move (more than one: bonus actions
// earned by sacrifices) and how many of them capture (make an active
// skjuub of the other side inactive).
func firstTurn(s game.State, line []string) (moves, captures int) {
	me := s.ToMove()
	cur := s.Clone()
	for _, mv := range line {
		if cur.Outcome().Over() || cur.ToMove() != me {
			break
		}
		before := cur.Clone()
		if game.Play(cur, mv) != nil {
			break
		}
		moves++
		if Goals["captures"](before, cur, mv) {
			captures++
		}
	}
	return moves, captures
}

// Difficulty estimates how hard a forced-win puzzle is, from 1 (easy) to 5,
// before any player has tried it: the number of moves the solver must
// find (the line's moves by the side to move), one more when the position
// offers at least 16 legal moves and one more at 64 or more. It is a
// starting guess: ratings earned from players' tries say more.
func Difficulty(s game.State, line []string) int {
	me := s.ToMove()
	cur := s.Clone()
	d := 0
	for _, mv := range line {
		if cur.ToMove() == me {
			d++
		}
		if game.Play(cur, mv) != nil {
			break
		}
	}
	n := len(s.Legal(nil))
	if n >= 16 {
		d++
	}
	if n >= 64 {
		d++
	}
	return min(5, max(1, d))
}

// DecisionDifficulty estimates how hard a Skyjo decision puzzle is, from 1
// to 5, by how much the best choice saves over the next best in expected
// points: 3 or more is easy (1), under 0.4 hardest (5).
func DecisionDifficulty(margin float64) int {
	switch {
	case margin >= 3:
		return 1
	case margin >= 1.5:
		return 2
	case margin >= 0.75:
		return 3
	case margin >= 0.4:
		return 4
	}
	return 5
}
