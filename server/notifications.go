package server

import (
	"net/http"
	"slices"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// handleNotifications is GET /api/notifications: every live game in which
// the user is to move, the longest-waiting first.
func (s *Server) handleNotifications(w http.ResponseWriter, r *http.Request, u *store.User) {
	games, err := s.store.Games(r.Context(), store.GameFilter{Statuses: []match.Status{match.Live}, UserID: u.ID, ToMove: true, Limit: 200})
	if err != nil {
		writeError(w, s.internal("notifications", err))
		return
	}
	out := wire.Notifications{YourTurn: []wire.YourTurn{}}
	for _, g := range games {
		t := wire.YourTurn{ID: g.ID, Game: g.Game, Seat: g.ToMove, Ply: g.Ply, Seq: g.Version, Deadline: timePtr(g.Deadline), Since: timePtr(g.Started)}
		// The owner knows when the last move came.
		if snap, err := s.games.Snapshot(r.Context(), g.ID); err == nil {
			t.Seq = snap.Seq()
			if n := len(snap.Moves); n > 0 {
				t.Since = timePtr(snap.Moves[n-1].At)
			}
		}
		out.YourTurn = append(out.YourTurn, t)
	}
	slices.SortFunc(out.YourTurn, func(a, b wire.YourTurn) int {
		if a.Since == nil || b.Since == nil {
			return 0
		}
		return a.Since.Compare(*b.Since)
	})
	writeJSON(w, http.StatusOK, out)
}
