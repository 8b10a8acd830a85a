package server

import (
	"time"

	"github.com/tabula-games/tabula/ladder"
	"github.com/tabula-games/tabula/match"
)

// SetLadder sets the ladder matchmaker's tick, the clock of its games and
// its limits, and has it look at once (tests).
func (s *Server) SetLadder(tick time.Duration, clock match.Clock, lim ladder.Limits) {
	ln := s.ladderNode()
	ln.mu.Lock()
	ln.clock, ln.lim = clock, lim
	ln.mu.Unlock()
	ln.tick.Store(int64(tick))
	s.pokeLadder()
}
