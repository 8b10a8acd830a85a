package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/record"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// record builds the record of a game. While a game with hidden information
// is on, it holds only what every player may see: the moves.
func (s *Server) record(ctx context.Context, snap *match.Snapshot) (record.Record, error) {
	m := &snap.Meta
	sum := s.summary(ctx, m, match.SeatNames(snap.State))
	rec := record.Record{
		Format: record.Format, ID: m.ID, Game: m.Game, Options: m.Options, Status: string(m.Status),
		Created: timePtr(m.Created), Started: timePtr(m.Started), Finished: timePtr(m.Finished),
		Moves: make([]record.Move, len(snap.Moves)), Result: recordResult(m.Result),
	}
	for i, mv := range snap.Moves {
		rec.Moves[i] = record.Move{Ply: mv.Ply, Seat: mv.Seat, Move: mv.Text, At: mv.At.UTC()}
	}
	for i, se := range sum.Seats {
		rec.Players = append(rec.Players, record.Player{Seat: i, Name: se.Name, Kind: string(se.Kind), User: se.User, Level: se.Level})
	}
	reveal := m.Status.Over() || !game.Hidden(snap.State)
	if !reveal {
		return rec, nil
	}
	start, err := match.InitialState(m)
	if err != nil {
		return rec, err
	}
	if rec.Start, err = start.MarshalPosition(); err != nil {
		return rec, err
	}
	if len(m.StartPosition) == 0 && m.Status.Over() {
		rec.Seed = strconv.FormatUint(m.Seed, 10)
	}
	if m.Status.Over() {
		if rec.Final, err = snap.State.MarshalPosition(); err != nil {
			return rec, err
		}
		rec.Chance = chanceOf(snap.State)
	}
	return rec, nil
}

// recordOf is the record of the path's game; on false the request has been
// answered with the error.
func (s *Server) recordOf(w http.ResponseWriter, r *http.Request) (record.Record, *match.Snapshot, bool) {
	snap, err := s.snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return record.Record{}, nil, false
	}
	rec, err := s.record(r.Context(), snap)
	if err != nil {
		writeError(w, s.internal("record", err))
		return record.Record{}, nil, false
	}
	return rec, snap, true
}

func (s *Server) handleRecord(w http.ResponseWriter, r *http.Request) {
	if rec, _, ok := s.recordOf(w, r); ok {
		writeJSON(w, http.StatusOK, rec)
	}
}

func (s *Server) handleRecordText(w http.ResponseWriter, r *http.Request) {
	rec, snap, ok := s.recordOf(w, r)
	if !ok {
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	fmt.Fprintln(w, rec.Text(len(snap.Meta.StartPosition) > 0))
}

// recordResult is the record's form of a game's result.
func recordResult(r *match.Result) *record.Result {
	if r == nil {
		return nil
	}
	res := &record.Result{Status: string(r.Status), Winners: r.Winners, Reason: string(r.Reason), Scores: r.Scores}
	if res.Winners == nil {
		res.Winners = []int{}
	}
	return res
}

// recordError is the one place a record that does not read or replay is
// told to a client.
func recordError(err error) error {
	var re *record.Error
	if !errors.As(err, &re) {
		return err
	}
	switch re.Kind {
	case record.Unreadable:
		return errf(http.StatusBadRequest, "bad_request", "record: %s", re.Msg)
	case record.UnknownGame, record.BadOptions:
		return badOption("%s", re.Msg)
	case record.BadStart:
		return errf(http.StatusUnprocessableEntity, "bad_position", "%s", re.Msg)
	case record.BadSeed:
		return errf(http.StatusBadRequest, "bad_request", "%s", re.Msg)
	case record.NoStart:
		return errf(http.StatusUnprocessableEntity, "bad_request", "%s", re.Msg)
	case record.IllegalMove:
		return errf(http.StatusUnprocessableEntity, "illegal_move", "%s", re.Msg)
	}
	return errf(http.StatusBadRequest, "bad_request", "%s", re.Msg)
}

type importReq struct {
	Record json.RawMessage `json:"record"`
	Mode   string          `json:"mode,omitempty"`
	Seats  []seatReq       `json:"seats,omitempty"`
	Clock  *match.Clock    `json:"clock,omitempty"`
	Rated  bool            `json:"rated,omitempty"`
	// KeepDeal (continue) keeps the record's hidden cards and deck, which
	// its importer may know, instead of a fresh deal; joiners must accept.
	KeepDeal bool `json:"keepDeal,omitempty"`
}

func (s *Server) handleImport(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req importReq
	if err := decode(w, r, &req, maxImportBody, false); err != nil {
		writeError(w, err)
		return
	}
	rec, err := record.Parse(req.Record)
	if err != nil {
		writeError(w, recordError(err))
		return
	}
	// A game this site does not have is refused at once; any other fault
	// of the start only after the fair-play check below, so that the
	// record of a live game is not_finished whatever else is wrong in it.
	setup, err := rec.StartState()
	if record.KindOf(err) == record.UnknownGame {
		writeError(w, recordError(err))
		return
	}
	// The record of a game of this site still in progress is not made a
	// game to analyse, review or play a bot from (the fair-play rule).
	if rec.ID != "" {
		switch snap, err := s.snapshot(r.Context(), rec.ID); {
		case err == nil:
			if err := match.NotInProgress(&snap.Meta); err != nil {
				writeError(w, err)
				return
			}
		case !errors.Is(err, errNotFound):
			writeError(w, err)
			return
		}
	}
	if err != nil {
		writeError(w, recordError(err))
		return
	}
	g, st := setup.Game, setup.State
	meta := match.Meta{ID: newID(), Game: g.Name(), CreatorID: u.ID, Created: s.createdNow(), ToMove: -1, Options: map[string]string{}}
	if setup.FromStart {
		meta.StartPosition, meta.Origin = rec.Start, match.OriginRecord
	} else {
		meta.Options, meta.Seed = setup.Options, setup.Seed
	}
	played, err := rec.Replay(st)
	if err != nil {
		writeError(w, recordError(err))
		return
	}
	moves := make([]match.Move, len(played))
	at := s.now()
	for i, m := range played {
		if !m.At.IsZero() {
			at = m.At
		}
		moves[i] = match.Move{Ply: m.Ply, Seat: m.Seat, Text: m.Move, At: at}
	}
	switch req.Mode {
	case "", "replay":
		meta.Status = match.Imported
		for i := 0; i < st.NumPlayers(); i++ {
			meta.Seats = append(meta.Seats, match.Seat{Kind: match.SeatImported})
		}
		if out := st.Outcome(); out.Over() {
			meta.Result = match.ResultOf(&meta, st)
		}
		meta.Finished = s.now()
		if err := s.store.ImportGame(r.Context(), &meta, moves); err != nil {
			writeError(w, s.internal("import", err))
			return
		}
		s.log.Info("record imported", "game", meta.ID, "plies", len(moves))
		writeJSON(w, http.StatusCreated, wire.GameResult{Seq: meta.Version, Game: s.summary(r.Context(), &meta, match.SeatNames(st))})
	case "continue":
		pos, err := st.MarshalPosition()
		if err != nil {
			writeError(w, s.internal("position", err))
			return
		}
		res, err := s.createGame(r.Context(), u, createReq{Game: g.Name(), Seats: req.Seats, Clock: req.Clock, Rated: req.Rated, Position: pos,
			KeepDeal: req.KeepDeal, origin: match.OriginRecord})
		if err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusCreated, res)
	default:
		writeError(w, errf(http.StatusBadRequest, "bad_request", "mode %q: want replay or continue", req.Mode))
	}
}

func (s *Server) handleReplay(w http.ResponseWriter, r *http.Request) {
	snap, err := s.snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	n, err := queryInt(r, "ply", len(snap.Moves), 0, len(snap.Moves))
	if err != nil {
		writeError(w, err)
		return
	}
	st, err := match.Replay(&snap.Meta, snap.Moves, n)
	if err != nil {
		writeError(w, s.internal("replay", err))
		return
	}
	// The game as a spectator saw it after n moves, by the one snapshot
	// builder.
	then := &match.Snapshot{Meta: snap.Meta, Moves: snap.Moves[:n], State: st}
	msg := s.snapshotMessage(r.Context(), then, 0)
	msg.Type = wire.TypeReplay
	writeJSON(w, http.StatusOK, wire.Replay{Snapshot: msg, Ply: n, Status: wire.Status(snap.Meta.Status), ToMove: st.ToMove(), Position: positionOf(st, &snap.Meta)})
}
