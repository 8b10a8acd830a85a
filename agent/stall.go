package agent

import "github.com/tabula-games/tabula/game"

// progressSeen remembers, across one agent's moves, when the game last made
// progress (game.Progress), so that the search knows how long the game has
// already stood still when it begins. An agent sees only the positions at
// its own turns; a change between two of them counts from the later one.
type progressSeen struct {
	known bool
	sig   uint64
	since int // the turn at which sig was first seen
	last  int // the turn of the last position seen
}

// quiet returns how many turns s's game has gone without progress, as far
// as this agent has seen, and records s. A position with fewer turns than
// the last one seen is a new game.
func (p *progressSeen) quiet(s game.State) int {
	g, ok := s.(game.Progress)
	if !ok {
		return 0
	}
	sig, turns := g.Progress()
	if !p.known || sig != p.sig || turns < p.last {
		p.known, p.sig, p.since = true, sig, turns
	}
	p.last = turns
	return turns - p.since
}

// stallBoost is the factor by which the move at s multiplies its budget:
// MCTSConfig.StallBoost once the game has gone quiet turns without
// progress, half its stall horizon or more (halfStalled); otherwise 1.
func (m *MCTS) stallBoost(s game.State, quiet int) int {
	if m.cfg.StallBoost <= 1 || !halfStalled(s, m.cfg.Stall, quiet) {
		return 1
	}
	return m.cfg.StallBoost
}

// halfStalled says whether s's game, quiet turns without progress, has gone
// half its stall horizon or more: the search's horizon stall (MCTSConfig.Stall)
// where it has one, else the game's (also where the search's is off). A
// game that does not report its progress never stalls.
func halfStalled(s game.State, stall, quiet int) bool {
	p, ok := s.(game.Progress)
	if !ok {
		return false
	}
	horizon := stall
	if horizon <= 0 {
		horizon = p.StallTurns()
	}
	return horizon > 0 && quiet >= horizon/2
}
