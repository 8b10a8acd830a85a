package server

import "github.com/tabula-games/tabula/match"

// HoldUserChannels makes every user channel wait in hold between its
// handshake and being served, until the test ends.
func HoldUserChannels(t interface{ Cleanup(func()) }, hold func()) {
	testHookUserUpgraded.Store(&hold)
	t.Cleanup(func() { testHookUserUpgraded.Store(nil) })
}

// HoldGameStarts makes every game channel wait in hold before it tells its
// client that a game started, until the test ends.
func HoldGameStarts(t interface{ Cleanup(func()) }, hold func()) {
	testHookGameStart.Store(&hold)
	t.Cleanup(func() { testHookGameStart.Store(nil) })
}

// HoldGameLoads makes every game channel run hold between its handshake
// and loading the game, until the test ends.
func HoldGameLoads(t interface{ Cleanup(func()) }, hold func()) {
	testHookGameUpgraded.Store(&hold)
	t.Cleanup(func() { testHookGameUpgraded.Store(nil) })
}

// Publish hands an event to the server's fan-out as if a game's owner had
// published it.
func Publish(s *Server, e match.Event) { s.hub.Publish(e) }

// RematchGraces is how many rematch graces s has begun, and how many have
// run out and been acted on (the player back, or their rematch withdrawn
// or declined).
func RematchGraces(s *Server) (begun, done int64) {
	return s.presence.rematchWaits.Load(), s.presence.rematchChecks.Load()
}

// OpenPages is how many pages of game player uid has open on s.
func OpenPages(s *Server, game string, uid int64) int {
	s.presence.mu.Lock()
	defer s.presence.mu.Unlock()
	if c := s.presence.pages[presenceKey{game, uid}]; c != nil {
		return c.n
	}
	return 0
}
