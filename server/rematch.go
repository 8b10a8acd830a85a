package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The rematch's rules (who may ask, what the rematch is, what a second
// ask does) are match's (match/rematch.go); this file finds the games and
// runs the commands. Its events reach the finished game's channel, whose
// clients watch the rematch's id too.

// rematch offers user u a rematch of the finished game id, or accepts the
// one offered to u. retry: the ask may be a copy of one sent before
// (match.Command.Retry), whose answer was lost — answered as done when u
// holds a seat in the rematch already.
func (s *Server) rematch(ctx context.Context, u *store.User, id string, retry bool) (match.Ack, error) {
	rid := match.RematchID(id)
	for range 2 {
		if ack, done, err := s.answerRematch(ctx, u, rid, retry); done {
			return ack, err
		}
		old, err := s.store.Game(ctx, id)
		if errors.Is(err, store.ErrNotFound) {
			return match.Ack{}, errNotFound
		} else if err != nil {
			return match.Ack{}, s.internal("rematch", err)
		}
		m, err := match.Rematch(&old, u.ID)
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
	return match.Ack{}, match.ErrRematchRace
}

// answerRematch handles a rematch ask when the rematch exists already
// (done): accepted if it invites u, else refused with what became of it.
func (s *Server) answerRematch(ctx context.Context, u *store.User, rid string, retry bool) (match.Ack, bool, error) {
	snap, err := s.snapshot(ctx, rid)
	if errors.Is(err, errNotFound) {
		return match.Ack{}, false, nil
	} else if err != nil {
		return match.Ack{}, true, err
	}
	if retry && snap.Meta.Status != match.Aborted && snap.Meta.SeatOf(u.ID) >= 0 {
		// The first copy made the rematch or took u's seat in it.
		return match.Ack{Meta: snap.Meta, Names: match.SeatNames(snap.State)}, true, nil
	}
	if err := match.AnswerRematch(&snap.Meta, u.ID); err != nil {
		return match.Ack{}, true, err
	}
	ack, err := s.command(ctx, rid, match.Command{Kind: match.CmdJoin, User: actor(u), Seat: -1, Retry: retry})
	return ack, true, err
}

// leaveRematch withdraws or declines the pending rematch of game id for
// user uid, who has left its page.
func (s *Server) leaveRematch(ctx context.Context, id string, uid int64) {
	rid := match.RematchID(id)
	snap, err := s.snapshot(ctx, rid)
	if err != nil || !match.PendingRematch(&snap.Meta, uid) {
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
	snap, err := s.snapshot(ctx, match.RematchID(m.ID))
	if err != nil {
		return nil, 0
	}
	sum := s.summary(ctx, &snap.Meta, match.SeatNames(snap.State))
	return &sum, snap.Seq()
}

func (s *Server) handleRematch(w http.ResponseWriter, r *http.Request, u *store.User) {
	_, retry, err := commandKey(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ack, err := s.rematch(r.Context(), u, r.PathValue("id"), retry)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.gameResult(r.Context(), ack))
}
