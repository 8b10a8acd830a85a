package server

import (
	"context"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Conditional moves (issue 27, point 9), PUT, GET and DELETE
// /api/games/{id}/conditional: a player of a live correspondence game of
// perfect information leaves, while the opponent is to move, lines "if they
// play X, I play Y, …"; the game's owner plays the reply when they do
// (match/conditional.go). Only the seat's own player may read or change its
// lines — the opponent must never learn them — and a PUT stores nothing
// unless every line plays out legally from the game as it stands.

// maxConditionalBody bounds a PUT body: 20 lines of 10 moves of 64 bytes,
// quoted, fit well inside.
const maxConditionalBody = 16 << 10

// conditionalJSON is the body of a PUT and the answer of all three.
type conditionalJSON struct {
	// Ply is the number of moves played when the lines were saved (the
	// opponent to move then); absent in a PUT.
	Ply int `json:"ply"`
	// Lines are the lines, each the opponent's move then the reply,
	// alternately, in the game's notation; null when none are stored.
	Lines [][]string `json:"lines"`
}

// conditionalsOf is the store's conditional moves, nil if it keeps none
// (then no game offers them).
func conditionalsOf(st store.Store) match.Conditionals {
	book, _ := st.(store.Conditionals)
	return book
}

// conditionalSeat loads the game and finds u's seat in it: 404 for no such
// game, 403 for anyone not seated in it (spectators, guests watching,
// other players).
func (s *Server) conditionalSeat(ctx context.Context, u *store.User, id string) (match.Conditionals, *match.Snapshot, int, error) {
	book := conditionalsOf(s.store)
	if book == nil {
		return nil, nil, -1, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no conditional moves")
	}
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		return nil, nil, -1, err
	}
	seat := snap.Meta.SeatOf(u.ID)
	if seat < 0 {
		return nil, nil, -1, errf(http.StatusForbidden, "forbidden", "only a player of this game has conditional moves in it")
	}
	return book, snap, seat, nil
}

func (s *Server) handleGetConditional(w http.ResponseWriter, r *http.Request, u *store.User) {
	book, snap, seat, err := s.conditionalSeat(r.Context(), u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	c, err := book.Conditional(r.Context(), snap.Meta.ID, seat)
	if err != nil {
		writeError(w, s.internal("conditional", err))
		return
	}
	out := conditionalJSON{Ply: len(snap.Moves)}
	if c != nil {
		c = c.Remaining(snap.Moves)
	}
	if c != nil {
		out = conditionalJSON{Ply: c.Ply, Lines: c.Lines}
	}
	writeJSON(w, http.StatusOK, out)
}

// handlePutConditional replaces the player's lines after playing each out
// from the game's position; what is stored is each move in the game's own
// spelling, never the text as sent.
func (s *Server) handlePutConditional(w http.ResponseWriter, r *http.Request, u *store.User) {
	book, snap, seat, err := s.conditionalSeat(r.Context(), u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	var req struct {
		Lines [][]string `json:"lines"`
	}
	if err := decode(w, r, &req, maxConditionalBody, false); err != nil {
		writeError(w, err)
		return
	}
	if err := match.ConditionalsAllowed(&snap.Meta, snap.State); err != nil {
		writeError(w, errf(http.StatusConflict, "conditional_not_offered", "%v", err))
		return
	}
	if snap.State.ToMove() == seat {
		writeError(w, errf(http.StatusConflict, "not_opponents_turn", "conditional moves are saved while your opponent is to move: it is your turn"))
		return
	}
	lines, err := match.CheckConditional(snap.State, seat, req.Lines)
	if err != nil {
		writeError(w, errf(http.StatusUnprocessableEntity, "bad_conditional", "%v", err))
		return
	}
	c := match.Conditional{Game: snap.Meta.ID, Seat: seat, Ply: len(snap.Moves), Lines: lines, Created: s.now()}
	if err := book.SetConditional(r.Context(), c); err != nil {
		writeError(w, s.internal("set conditional", err))
		return
	}
	writeJSON(w, http.StatusOK, conditionalJSON{Ply: c.Ply, Lines: c.Lines})
}

func (s *Server) handleDeleteConditional(w http.ResponseWriter, r *http.Request, u *store.User) {
	book, snap, seat, err := s.conditionalSeat(r.Context(), u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	if err := book.DropConditional(r.Context(), snap.Meta.ID, seat); err != nil {
		writeError(w, s.internal("drop conditional", err))
		return
	}
	writeJSON(w, http.StatusOK, conditionalJSON{Ply: len(snap.Moves)})
}
