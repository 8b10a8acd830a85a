package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Playing a game: the entry points every channel shares — a command to a
// game's owner, a move, the game as it stands — and the HTTP endpoints for
// them.

// command runs c in the game id through its owner.
func (s *Server) command(ctx context.Context, id string, c match.Command) (match.Ack, error) {
	ack, err := s.tell(ctx, id, c)
	if errors.Is(err, match.ErrClosed) {
		return match.Ack{}, s.noOwner(ctx, id)
	}
	return ack, s.commandErr("command", err)
}

// tell runs c in the game id through its owner, here or on the node that
// owns it: match.ErrClosed when it has none (the game is over), every
// other error as it is.
func (s *Server) tell(ctx context.Context, id string, c match.Command) (match.Ack, error) {
	ack, err := s.games.Do(ctx, id, c)
	if errors.Is(err, match.ErrClosed) && s.cfg.Cluster != nil {
		// Owned by another node (or it is not open or live any more).
		ack, err = s.cfg.Cluster.Forward(ctx, id, c)
	}
	return ack, err
}

// commandErr passes a refused command on as it is (the client is told its
// code and words) and turns anything else into the logged 503.
func (s *Server) commandErr(op string, err error) error {
	var me *match.Error
	if err == nil || errors.As(err, &me) {
		return err
	}
	return s.internal(op, err)
}

// noOwner says why the game id has no owner to run a command
// (match.NoOwner), or that there is no such game.
func (s *Server) noOwner(ctx context.Context, id string) error {
	m, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	} else if err != nil {
		return s.internal("game", err)
	}
	return match.NoOwner(&m)
}

// move plays the move of a client's message for u in the game id, key its
// idempotency key ("" for none: match.Command.Key), retry whether it is a
// copy of a message sent before (match.Command.Retry); the HTTP endpoint
// and both WebSocket channels share it.
func (s *Server) move(ctx context.Context, u *store.User, id string, m wire.MoveRequest, key string, retry bool) (match.Ack, error) {
	start := time.Now()
	if m.Ply == nil {
		return match.Ack{}, errf(http.StatusBadRequest, "bad_request", "ply is required: the number of moves you have seen")
	}
	if m.Move == "" || len(m.Move) > 200 {
		return match.Ack{}, errf(http.StatusBadRequest, "bad_request", "move is required")
	}
	c := match.Command{Kind: match.CmdMove, User: actor(u), Seat: -1, Ply: *m.Ply, Move: m.Move, Key: key, Retry: retry}
	if m.Seat != nil {
		if c.Seat = *m.Seat; c.Seat < 0 {
			return match.Ack{}, errf(http.StatusForbidden, "forbidden", "seat %d is not yours", c.Seat)
		}
	}
	ack, err := s.command(ctx, id, c)
	if err == nil {
		s.metrics.latency.Observe(time.Since(start).Seconds())
	}
	return ack, err
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req wire.MoveRequest
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	key, retry, err := commandKey(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ack, err := s.move(r.Context(), u, r.PathValue("id"), req, key, retry)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.MoveResult{Seq: ack.Seq(), Ply: ack.Move.Ply, Seat: ack.Move.Seat, Move: ack.Move.Text,
		ToMove: ack.Meta.ToMove, Status: wire.Status(ack.Meta.Status)})
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Ply *int `json:"ply"`
	}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	c := match.Command{Kind: match.CmdResign, User: actor(u), Ply: -1}
	if req.Ply != nil {
		if c.Ply = *req.Ply; c.Ply < 0 {
			writeError(w, errf(http.StatusConflict, "stale_ply", "ply %d is not the current one", c.Ply))
			return
		}
	}
	s.lobbyAction(w, r, c)
}

// snapshot is the game id as it stands: from its owner here, or else from
// the store.
func (s *Server) snapshot(ctx context.Context, id string) (*match.Snapshot, error) {
	snap, err := s.games.Snapshot(ctx, id)
	if err == nil {
		return snap, nil
	}
	if !errors.Is(err, match.ErrClosed) {
		return nil, s.internal("load game", err)
	}
	m, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNotFound
	} else if err != nil {
		return nil, s.internal("load game", err)
	}
	moves, err := s.store.Moves(ctx, id)
	if err != nil {
		return nil, s.internal("load moves", err)
	}
	if snap, err = match.StoredSnapshot(m, moves, s.now()); err != nil {
		return nil, s.internal("load game", err)
	}
	return snap, nil
}

func (s *Server) handleGetGame(w http.ResponseWriter, r *http.Request) {
	u, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	snap, err := s.snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var uid int64
	if u != nil {
		uid = u.ID
	}
	msg, _ := s.gameSnapshot(r.Context(), snap, uid)
	writeJSON(w, http.StatusOK, msg)
}
