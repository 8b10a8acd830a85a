package server

// SetTournamentStreamCaps sets s's caps on tournament streams, on the node
// and per address, so that a test reaches them with a few streams.
func SetTournamentStreamCaps(s *Server, node, perAddress int) {
	l := &s.tournaments.live
	l.mu.Lock()
	defer l.mu.Unlock()
	l.maxStreams, l.maxPerAddr = node, perAddress
}

// TournamentStreams is how many tournament streams s serves, and how many
// of them to the address (limitKey) addr.
func TournamentStreams(s *Server, addr string) (all, ofAddr int) {
	l := &s.tournaments.live
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.streams, l.byAddr[addr]
}
