package server

import (
	"context"
	"crypto/sha256"
	"errors"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The rematch. A finished game has no owner to run commands, so a rematch
// is a new game: the same game, options, clock and rating, the seats turned
// by one (two players swap), the player who asks in their new seat and every
// other person invited to theirs (bots stay bots). It starts when every
// invited player has accepted — joined it —, and is gone (aborted) when one
// declines, when the one who offered withdraws, or when either leaves the
// finished game's page. Its id is derived from the finished game's
// (rematchID), so a game has at most one rematch: two players asking at
// once make one game, the second ask accepting it, and a declined rematch
// is not offered again (a new game from the lobby is). Its events reach
// the finished game's channel, whose clients watch the rematch's id too.

// rematchID is the id of the rematch of game id.
func rematchID(id string) string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	sum := sha256.Sum256([]byte("tabula rematch of " + id))
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(b)
}

// rematch offers user u a rematch of the finished game id, or accepts the
// one offered to u.
func (s *Server) rematch(ctx context.Context, u *store.User, id string) (match.Ack, error) {
	rid := rematchID(id)
	for range 2 {
		if ack, done, err := s.answerRematch(ctx, u, rid); done {
			return ack, err
		}
		old, err := s.store.Game(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return match.Ack{}, errNotFound
		} else if err != nil {
			return match.Ack{}, s.internal("rematch", err)
		}
		m, err := rematchOf(&old, u.ID)
		if err != nil {
			return match.Ack{}, err
		}
		m.ID, m.Created = rid, s.createdNow()
		ack, err := s.games.Create(ctx, actor(u), m)
		var me *match.Error
		if errors.As(err, &me) && me.Code == match.CodeConflict {
			continue // the other player asked at the same moment: accept theirs
		}
		if err != nil {
			return match.Ack{}, s.commandErr("rematch", err)
		}
		return ack, nil
	}
	return match.Ack{}, errf(http.StatusConflict, "conflict", "the rematch changed meanwhile; try again")
}

// answerRematch handles a rematch ask when the rematch exists already
// (done): accepted if it invites u, else refused with what became of it.
func (s *Server) answerRematch(ctx context.Context, u *store.User, rid string) (match.Ack, bool, error) {
	snap, err := s.snapshot(ctx, rid)
	if errors.Is(err, errNotFound) {
		return match.Ack{}, false, nil
	} else if err != nil {
		return match.Ack{}, true, err
	}
	m := &snap.Meta
	switch {
	case m.Status == match.Open && m.Invites(u.ID):
		ack, err := s.command(ctx, rid, match.Command{Kind: match.CmdJoin, User: actor(u), Seat: -1})
		return ack, true, err
	case m.Status == match.Open && m.SeatOf(u.ID) >= 0:
		return match.Ack{}, true, errf(http.StatusConflict, "conflict", "you have offered a rematch already")
	case m.Status == match.Aborted:
		return match.Ack{}, true, errf(http.StatusConflict, "conflict", "the rematch was declined or withdrawn; start a new game from the lobby")
	}
	return match.Ack{}, true, errf(http.StatusConflict, "conflict", "the rematch has started")
}

// rematchOf is the rematch that user uid asks of the finished game old:
// its seats turned by one, uid in theirs and every other person invited.
func rematchOf(old *match.Meta, uid int64) (match.Meta, error) {
	if old.Status != match.Finished {
		return match.Meta{}, errf(http.StatusConflict, "conflict", "only a finished game has a rematch")
	}
	if old.SeatOf(uid) < 0 {
		return match.Meta{}, errf(http.StatusForbidden, "forbidden", "you did not play this game")
	}
	if len(old.StartPosition) > 0 {
		return match.Meta{}, errf(http.StatusConflict, "conflict", "a game from a set position has no rematch; create it again")
	}
	n := len(old.Seats)
	m := match.Meta{Game: old.Game, Options: old.Options, Clock: old.Clock, Rated: old.Rated, Seats: make([]match.Seat, n)}
	for i := range m.Seats {
		se := old.Seats[(i+1)%n]
		switch {
		case se.Kind == match.SeatBot:
			m.Seats[i] = match.Seat{Kind: match.SeatBot, Level: se.Level}
		case se.Kind == match.SeatHuman && se.UserID == uid:
			m.Seats[i] = match.Seat{Kind: match.SeatHuman, UserID: uid}
		case se.Kind == match.SeatHuman:
			m.Seats[i] = match.Seat{Kind: match.SeatInvite, UserID: se.UserID}
		default:
			return match.Meta{}, errf(http.StatusConflict, "conflict", "this game has no rematch")
		}
	}
	return m, nil
}

// leaveRematch withdraws or declines the pending rematch of game id for
// user uid, who has left its page.
func (s *Server) leaveRematch(ctx context.Context, id string, uid int64) {
	rid := rematchID(id)
	snap, err := s.snapshot(ctx, rid)
	if err != nil || snap.Meta.Status != match.Open || (snap.Meta.SeatOf(uid) < 0 && !snap.Meta.Invites(uid)) {
		return
	}
	if _, err := s.tell(ctx, rid, match.Command{Kind: match.CmdAbort, User: match.User{ID: uid}}); err == nil {
		s.log.Info("rematch withdrawn: a player left", "game", id, "rematch", rid)
	}
}

// rematchSummary is the rematch of the finished game m, if one was
// offered, and the rematch's own event number it stands at.
func (s *Server) rematchSummary(ctx context.Context, m *match.Meta) (*wire.Summary, int64) {
	if m.Status != match.Finished {
		return nil, 0
	}
	snap, err := s.snapshot(ctx, rematchID(m.ID))
	if err != nil {
		return nil, 0
	}
	sum := s.summary(ctx, &snap.Meta, match.SeatNames(snap.State))
	return &sum, snap.Seq()
}

func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request, u *store.User) {
	ack, err := s.rematch(r.Context(), u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.gameResult(r.Context(), ack))
}
