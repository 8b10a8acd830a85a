package server

import (
	"context"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Quick pairing (POST /api/pairing): who pairs with whom, the time
// controls and the window a waiting game stays joinable are match's
// (match/pairing.go); this file lists the open games, runs the joins and
// answers.

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
	p, err := match.NewPairing(req.Game, req.Clock)
	if err != nil {
		return wire.Pairing{}, s.commandErr("pairing", err)
	}
	// Quick pairing is people meeting people: a bot account never takes
	// part (bots.go).
	if err := s.refuseBotPairing(ctx, u); err != nil {
		return wire.Pairing{}, err
	}
	// One pairing of a game at a time: two players asking together meet
	// instead of each waiting in a game of their own. On this node a
	// mutex; across a cluster's nodes, the database's lock besides (each
	// node then holds at most one of its connections waiting for it).
	s.pairMu.Lock()
	defer s.pairMu.Unlock()
	es, ok := s.store.(exclusiveStore)
	if !ok {
		return s.pairLocked(ctx, u, p)
	}
	var res wire.Pairing
	err = es.Exclusive(ctx, "pairing."+p.Game, func() error {
		var err error
		res, err = s.pairLocked(ctx, u, p)
		return err
	})
	if err != nil {
		return wire.Pairing{}, s.commandErr("pairing", err)
	}
	return res, nil
}

// exclusiveStore is a store shared by a cluster's nodes that gives a lock
// to one holder at a time (store/postgres: Exclusive).
type exclusiveStore interface {
	Exclusive(ctx context.Context, key string, fn func() error) error
}

// pairLocked is pair's work, while it holds the pairing's lock.
func (s *Server) pairLocked(ctx context.Context, u *store.User, p match.Pairing) (wire.Pairing, error) {
	open, err := s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Open}, Game: p.Game, Limit: 200})
	if err != nil {
		return wire.Pairing{}, s.internal("pairing", err)
	}
	now := s.now()
	for _, m := range p.Partners(open, u.ID, now) {
		ack, err := s.command(ctx, m.ID, match.Command{Kind: match.CmdJoin, User: actor(u), Seat: -1})
		if err == nil {
			return wire.Pairing{Matched: true, Seq: ack.Seq(), Game: s.summary(ctx, &ack.Meta, ack.Names)}, nil
		}
		// Taken (or gone) meanwhile: the next one.
	}
	if m := p.Own(open, u.ID, now); m != nil {
		return wire.Pairing{Seq: m.Version, Game: s.summary(ctx, m, nil)}, nil
	}
	ack, err := s.games.Create(ctx, actor(u), p.NewGame(newID(), s.createdNow()))
	if err != nil {
		return wire.Pairing{}, s.commandErr("pairing", err)
	}
	return wire.Pairing{Seq: ack.Seq(), Game: s.summary(ctx, &ack.Meta, ack.Names)}, nil
}

// handleOnline answers how many users are online on the whole site.
func (s *Server) handleOnline(w http.ResponseWriter, r *http.Request) {
	_, _ = s.authenticate(r) // a signed-in asker counts as seen
	writeJSON(w, http.StatusOK, wire.Online{Players: s.presence.onlineCount()})
}
