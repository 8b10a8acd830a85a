package server

import (
	"context"
	"maps"
	"net/http"
	"slices"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Quick pairing (POST /api/pairing): pick a game and a time control, and be
// seated at once in the game of a player waiting for the same, or else wait
// in a new open game of your own, which the page offers to turn into a game
// against a bot. A pairing game is unrated, with the game's default options
// and one of the time controls below: a waiting game is one of those, open,
// its creator the only one seated and every other seat open, created within
// pairingWindow. Asking again for the same game and time control returns
// the game you wait in, so a user waits at most once per game and time
// control however often they ask.

// pairingClocks are the time controls of quick pairing, by name.
var pairingClocks = map[string]match.Clock{
	"none":           {Kind: match.ClockNone},
	"blitz":          {Kind: match.ClockRealtime, InitialMs: 300000, IncrementMs: 3000},
	"rapid":          {Kind: match.ClockRealtime, InitialMs: 900000, IncrementMs: 10000},
	"correspondence": {Kind: match.ClockCorrespondence, Days: 3},
}

// pairingWindow is how old a waiting game may be to be joined.
const pairingWindow = 10 * time.Minute

type pairingReq struct {
	Game  string `json:"game"`
	Clock string `json:"clock"`
}

func (s *Server) handlePairing(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req pairingReq
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	res, err := s.pair(r.Context(), u, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}

func (s *Server) pair(ctx context.Context, u *store.User, req pairingReq) (wire.Pairing, error) {
	g, err := game.Lookup(req.Game)
	if err != nil {
		return wire.Pairing{}, badOption("unknown game %q", req.Game)
	}
	if req.Clock == "" {
		req.Clock = "none"
	}
	clock, ok := pairingClocks[req.Clock]
	if !ok {
		return wire.Pairing{}, badOption("clock %q: want one of %v", req.Clock, slices.Sorted(maps.Keys(pairingClocks)))
	}
	opts, err := game.Complete(g, nil)
	if err != nil {
		return wire.Pairing{}, s.internal("pairing", err)
	}
	// One pairing at a time on this node: two players asking together
	// meet instead of each waiting in a game of their own. (Nodes of a
	// cluster do not share this lock; two asking on two nodes at the same
	// moment may both wait until the next player comes.)
	s.pairMu.Lock()
	defer s.pairMu.Unlock()
	open, err := s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Open}, Game: g.Name(), Limit: 200})
	if err != nil {
		return wire.Pairing{}, s.internal("pairing", err)
	}
	now := s.now()
	waiting := func(m *match.Meta) bool {
		if m.Rated || len(m.StartPosition) > 0 || !maps.Equal(m.Options, opts) || m.Clock != clock || now.Sub(m.Created) > pairingWindow {
			return false
		}
		for i, se := range m.Seats {
			if (i == 0) != (se.Kind == match.SeatHuman && se.UserID == m.CreatorID) || (i > 0 && se.Kind != match.SeatOpen) {
				return false
			}
		}
		return true
	}
	for i := range open {
		m := &open[i]
		if !waiting(m) || m.CreatorID == u.ID {
			continue
		}
		ack, err := s.command(ctx, m.ID, match.Command{Kind: match.CmdJoin, User: actor(u), Seat: -1})
		if err == nil {
			return wire.Pairing{Matched: true, Seq: ack.Seq(), Game: s.summary(ctx, &ack.Meta, ack.Names)}, nil
		}
		// Taken (or gone) meanwhile: the next one.
	}
	for i := range open {
		if m := &open[i]; waiting(m) && m.CreatorID == u.ID {
			return wire.Pairing{Seq: m.Version, Game: s.summary(ctx, m, nil)}, nil
		}
	}
	ack, err := s.games.Create(ctx, actor(u), match.Meta{ID: newID(), Game: g.Name(), Clock: clock, Created: s.createdNow()})
	if err != nil {
		return wire.Pairing{}, s.commandErr("pairing", err)
	}
	return wire.Pairing{Seq: ack.Seq(), Game: s.summary(ctx, &ack.Meta, ack.Names)}, nil
}

// handleOnline answers how many users are online (on this node).
func (s *Server) handleOnline(w http.ResponseWriter, r *http.Request) {
	_, _ = s.authenticate(r) // a signed-in asker counts as seen
	writeJSON(w, http.StatusOK, wire.Online{Players: s.presence.onlineCount()})
}
