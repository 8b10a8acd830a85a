package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Follows: a registered user follows other registered users, and sees on
// their own Following list (GET /api/follows, private: nobody else sees
// whom a user follows) who of them is online and the live games they
// play, each a link to watch; a game one of them starts is a notice on the
// follower's channels (inbox.go, tellFollowers).
//
// Blocks apply: you cannot follow a player who blocks you, nor one you
// block; a block, either way, removes the follows between the two
// (handleBlock calls dropFollows), and unblocking does not bring them back.
//
// Bounds: a user follows at most maxFollowing players (the store refuses
// one more, also under concurrent requests), and a start is told to at
// most maxStartFanout followers of each player (the newest), so a player
// followed by many costs a bounded number of notices per game.
const (
	maxFollowing   = 500
	maxStartFanout = 1000
)

// followTarget is the user named in the path, whom u may follow.
func (s *Server) followTarget(r *http.Request, u *store.User) (store.User, error) {
	name := r.PathValue("name")
	t, err := s.store.UserByName(r.Context(), name)
	if errors.Is(err, store.ErrNotFound) {
		return t, errf(http.StatusNotFound, "not_found", "there is no player named %q", name)
	}
	if err != nil {
		return t, s.internal("user", err)
	}
	if t.ID == u.ID {
		return t, errf(http.StatusBadRequest, "bad_request", "you cannot follow yourself")
	}
	return t, nil
}

// errGuestFollow: follows are between registered players (a guest's name
// and account are for one visit).
var errGuestFollow = errf(http.StatusForbidden, "forbidden", "register to follow players")

func (s *Server) handleFollow(w http.ResponseWriter, r *http.Request, u *store.User) {
	ss, err := s.socialStore()
	if err != nil {
		writeError(w, err)
		return
	}
	if u.Guest {
		writeError(w, errGuestFollow)
		return
	}
	t, err := s.followTarget(r, u)
	if err != nil {
		writeError(w, err)
		return
	}
	if t.Guest {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "%s is a guest: only registered players can be followed", t.Name))
		return
	}
	if s.blocks(r.Context(), t.ID, u.ID) {
		writeError(w, errf(http.StatusForbidden, "blocked", "this player does not accept follows from you"))
		return
	}
	if s.blocks(r.Context(), u.ID, t.ID) {
		writeError(w, errf(http.StatusConflict, "conflict", "you block %s: unblock them first", t.Name))
		return
	}
	err = ss.AddFollow(r.Context(), store.Follow{UserID: u.ID, FollowedID: t.ID, Created: s.now()}, maxFollowing)
	if errors.Is(err, store.ErrConflict) {
		writeError(w, errf(http.StatusConflict, "follow_limit", "you follow %d players already, the most one may", maxFollowing))
		return
	}
	if err != nil {
		writeError(w, s.internal("follow", err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleUnfollow(w http.ResponseWriter, r *http.Request, u *store.User) {
	ss, err := s.socialStore()
	if err != nil {
		writeError(w, err)
		return
	}
	t, err := s.followTarget(r, u)
	if err != nil {
		writeError(w, err)
		return
	}
	err = ss.Unfollow(r.Context(), u.ID, t.ID)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, errf(http.StatusNotFound, "not_found", "you do not follow %s", t.Name))
		return
	}
	if err != nil {
		writeError(w, s.internal("unfollow", err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// handleFollows is GET /api/follows: whom the user follows, newest first,
// each online or not and with their live games.
func (s *Server) handleFollows(w http.ResponseWriter, r *http.Request, u *store.User) {
	ss, err := s.socialStore()
	if err != nil {
		writeError(w, err)
		return
	}
	list, err := ss.Following(r.Context(), u.ID, maxFollowing)
	if err != nil {
		writeError(w, s.internal("follows", err))
		return
	}
	ids := make([]int64, len(list))
	for i, f := range list {
		ids[i] = f.FollowedID
	}
	seats, err := ss.LiveSeats(r.Context(), ids, 2*maxFollowing)
	if err != nil {
		writeError(w, s.internal("follows' games", err))
		return
	}
	playing := map[int64][]wire.FollowGame{}
	for _, l := range seats {
		playing[l.UserID] = append(playing[l.UserID], wire.FollowGame{ID: l.GameID, Game: l.Game})
	}
	// Online on the whole site: the online list every node reads from the
	// store (people.go); a store without one, or a list cut short, leaves
	// this node's own word.
	online := map[int64]bool{}
	if l, err := s.presence.online(r.Context()); err == nil {
		for _, e := range l.entries {
			online[e.UserID] = true
		}
	}
	out := wire.Follows{Follows: []wire.Follow{}, Max: maxFollowing}
	for _, f := range list {
		g := playing[f.FollowedID]
		if g == nil {
			g = []wire.FollowGame{}
		}
		out.Follows = append(out.Follows, wire.Follow{User: f.Name, Since: f.Created.UTC(), Playing: g,
			Online: len(g) > 0 || online[f.FollowedID] || s.onlineHere(f.FollowedID)})
	}
	writeJSON(w, http.StatusOK, out)
}

// onlineHere reports whether uid has a WebSocket open on this node or made
// a signed-in request here within onlineWindow: what the site's online
// list may not show yet (it is up to a second old) or at all (cut at its
// length). A player in a live game is online wherever they are:
// handleFollows counts that from the store.
func (s *Server) onlineHere(uid int64) bool {
	p := s.presence
	now := s.now()
	p.mu.Lock()
	defer p.mu.Unlock()
	at, ok := p.seen[uid]
	return p.socks[uid] > 0 || (ok && now.Sub(at) < onlineWindow)
}

// dropFollows removes the follows between a and b both ways: a block
// between them ends them (blocks.go). A store that cannot is logged: the
// block itself stands.
func (s *Server) dropFollows(ctx context.Context, a, b int64) {
	ss, ok := s.store.(store.Social)
	if !ok {
		return
	}
	if err := ss.DropFollows(ctx, a, b); err != nil {
		s.log.Error("drop follows", "a", a, "b", b, "err", err)
	}
}
