package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Blocks: a user blocks another, who then cannot invite them to a game
// (the lobby asks notBlockedBy before seating an invitation), and whose
// chat lines they no longer see in a game they share (the room asks
// blockedSeats). Blocking is one-way and silent: the blocked user is only
// told, when they try, that the invitation is refused.

// blockStore is the store's blocks; every store.Store of the project keeps
// them (store/internal/sqlstore).
func (s *Server) blockStore() (store.Blocks, error) {
	bs, ok := s.store.(store.Blocks)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no blocks")
	}
	return bs, nil
}

// errBlocked answers an invitation of a user who blocks the inviter.
var errBlocked = errf(http.StatusForbidden, "blocked", "this player does not accept invitations from you")

// notBlockedBy is errBlocked if user target blocks user from, nil if not
// (or if the store keeps no blocks).
func (s *Server) notBlockedBy(ctx context.Context, target, from int64) error {
	bs, ok := s.store.(store.Blocks)
	if !ok {
		return nil
	}
	blocked, err := bs.Blocked(ctx, target, from)
	if err != nil {
		return s.internal("blocked", err)
	}
	if blocked {
		return errBlocked
	}
	return nil
}

// blockTarget is the user named in the path, who must be someone else.
func (s *Server) blockTarget(r *http.Request, u *store.User) (store.User, error) {
	t, err := s.store.UserByName(r.Context(), r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		return t, errNotFound
	}
	if err != nil {
		return t, s.internal("user", err)
	}
	if t.ID == u.ID {
		return t, errf(http.StatusBadRequest, "bad_request", "you cannot block yourself")
	}
	return t, nil
}

func (s *Server) handleBlock(w http.ResponseWriter, r *http.Request, u *store.User) {
	bs, err := s.blockStore()
	if err != nil {
		writeError(w, err)
		return
	}
	t, err := s.blockTarget(r, u)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := bs.Block(r.Context(), store.Block{UserID: u.ID, BlockedID: t.ID, Created: s.now()}); err != nil {
		writeError(w, s.internal("block", err))
		return
	}
	s.dropFollows(r.Context(), u.ID, t.ID) // a block ends the follows both ways (follows.go)
	s.endInvitationsFrom(r.Context(), u, t.ID)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleUnblock(w http.ResponseWriter, r *http.Request, u *store.User) {
	bs, err := s.blockStore()
	if err != nil {
		writeError(w, err)
		return
	}
	t, err := s.blockTarget(r, u)
	if err != nil {
		writeError(w, err)
		return
	}
	err = bs.Unblock(r.Context(), u.ID, t.ID)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, errf(http.StatusNotFound, "not_found", "you do not block %s", t.Name))
		return
	}
	if err != nil {
		writeError(w, s.internal("unblock", err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleBlocks(w http.ResponseWriter, r *http.Request, u *store.User) {
	bs, err := s.blockStore()
	if err != nil {
		writeError(w, err)
		return
	}
	list, err := bs.BlockList(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("blocks", err))
		return
	}
	out := wire.Blocks{Blocks: []wire.Block{}}
	for _, b := range list {
		out.Blocks = append(out.Blocks, wire.Block{User: b.Name, Created: b.Created.UTC()})
	}
	writeJSON(w, http.StatusOK, out)
}

// endInvitationsFrom declines, as user u, every open game of creator
// from that still invites u: the challenges and invitations made before u
// blocked them. It is the same abort as a decline by hand (a challenge
// ends "declined" for the neutral reason "generic", as lichess's decline
// without a reason does), so the blocked player learns nothing of the
// block. One that cannot be declined (its owner away) is logged; the
// lists and the accept still refuse it (handleChallenges, mayAccept).
func (s *Server) endInvitationsFrom(ctx context.Context, u *store.User, from int64) {
	games, err := s.store.Games(ctx, store.GameFilter{Creator: from, UserID: u.ID, Statuses: []match.Status{match.Open}, Limit: 200})
	if err != nil {
		s.log.Error("block: pending invitations", "user", u.ID, "from", from, "err", err)
		return
	}
	for _, m := range games {
		if !m.Invites(u.ID) {
			continue
		}
		if _, err := s.command(ctx, m.ID, match.Command{Kind: match.CmdAbort, User: actor(u)}); err != nil {
			s.log.Warn("block: decline invitation", "game", m.ID, "user", u.ID, "err", err)
		}
	}
}

// errYouBlock refuses to u a challenge or invitation of a player u blocks.
var errYouBlock = errf(http.StatusForbidden, "you_block", "you block this player: unblock them first")

// notFromBlocked is errYouBlock if user uid blocks the creator of m (the
// accept of a challenge made before the block, which endInvitationsFrom
// could not end).
func (s *Server) notFromBlocked(ctx context.Context, uid int64, m *match.Meta) error {
	if s.blocks(ctx, uid, m.CreatorID) {
		return errYouBlock
	}
	return nil
}

// blockedSeats says, for each seat of m, whether user uid blocks the user
// holding it: their chat lines are not shown to uid. A store that cannot
// answer hides nothing (the line is logged as an error, the chat goes on).
func (s *Server) blockedSeats(ctx context.Context, uid int64, m *match.Meta) []bool {
	out := make([]bool, len(m.Seats))
	bs, ok := s.store.(store.Blocks)
	if !ok || uid == 0 {
		return out
	}
	for i, se := range m.Seats {
		if se.UserID == 0 || se.UserID == uid {
			continue
		}
		b, err := bs.Blocked(ctx, uid, se.UserID)
		if err != nil {
			s.log.Error("blocked seats", "game", m.ID, "user", uid, "err", err)
			continue
		}
		out[i] = b
	}
	return out
}

// blocksSeat reports whether uid blocks the user in seat of m.
func (s *Server) blocksSeat(ctx context.Context, uid int64, m *match.Meta, seat int) bool {
	b := s.blockedSeats(ctx, uid, m)
	return seat >= 0 && seat < len(b) && b[seat]
}
