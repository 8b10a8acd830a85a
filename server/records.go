package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

const recordFormat = "tabula-record/1"

type playerJSON struct {
	Seat  int            `json:"seat"`
	Name  string         `json:"name,omitempty"`
	Kind  match.SeatKind `json:"kind"`
	User  string         `json:"user,omitempty"`
	Level string         `json:"level,omitempty"`
}

// recordJSON is a game's record. Seed, Start, Final and Chance reveal
// everything hidden; record() fills them only when that is allowed.
type recordJSON struct {
	Format   string            `json:"format"`
	ID       string            `json:"id,omitempty"`
	Game     string            `json:"game"`
	Options  map[string]string `json:"options,omitempty"`
	Players  []playerJSON      `json:"players,omitempty"`
	Status   match.Status      `json:"status,omitempty"`
	Created  *time.Time        `json:"created,omitempty"`
	Started  *time.Time        `json:"started,omitempty"`
	Finished *time.Time        `json:"finished,omitempty"`
	Moves    []wire.Move       `json:"moves"`
	Result   *match.Result     `json:"result,omitempty"`
	Seed     string            `json:"seed,omitempty"`
	Start    json.RawMessage   `json:"start,omitempty"`
	Final    json.RawMessage   `json:"final,omitempty"`
	Chance   json.RawMessage   `json:"chance,omitempty"`
}

// record builds the record of a game. While a game with hidden information
// is on, it holds only what every player may see: the moves.
func (s *Server) record(ctx context.Context, snap *match.Snapshot) (recordJSON, error) {
	m := &snap.Meta
	sum := s.summary(ctx, m, match.SeatNames(snap.State))
	rec := recordJSON{
		Format: recordFormat, ID: m.ID, Game: m.Game, Options: m.Options, Status: m.Status,
		Created: timePtr(m.Created), Started: timePtr(m.Started), Finished: timePtr(m.Finished),
		Moves: wire.Moves(snap.Moves), Result: sum.Result,
	}
	for i, se := range sum.Seats {
		rec.Players = append(rec.Players, playerJSON{Seat: i, Name: se.Name, Kind: se.Kind, User: se.User, Level: se.Level})
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
func (s *Server) recordOf(w http.ResponseWriter, r *http.Request) (recordJSON, *match.Snapshot, bool) {
	snap, err := s.snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return recordJSON{}, nil, false
	}
	rec, err := s.record(r.Context(), snap)
	if err != nil {
		writeError(w, s.internal("record", err))
		return recordJSON{}, nil, false
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
	fmt.Fprintln(w, textRecord(rec, len(snap.Meta.StartPosition) > 0))
}

// textRecord writes the one-line record: fields separated by " | ", moves
// by "; ". The full start position is written only for games that began
// from an imported position (otherwise the seed says it all).
func textRecord(rec recordJSON, fromPosition bool) string {
	parts := []string{recordFormat, "game=" + rec.Game}
	if len(rec.Options) > 0 {
		parts = append(parts, "options="+game.Options(rec.Options).String())
	}
	if rec.Seed != "" {
		parts = append(parts, "seed="+rec.Seed)
	}
	if fromPosition && len(rec.Start) > 0 {
		var compact strings.Builder
		var v any
		if json.Unmarshal(rec.Start, &v) == nil {
			b, _ := json.Marshal(v)
			compact.Write(b)
			parts = append(parts, "position="+compact.String())
		}
	}
	ms := make([]string, len(rec.Moves))
	for i, m := range rec.Moves {
		ms[i] = m.Move
	}
	parts = append(parts, "moves="+strings.Join(ms, "; "))
	if rec.Result != nil {
		ws := make([]string, len(rec.Result.Winners))
		for i, w := range rec.Result.Winners {
			ws[i] = strconv.Itoa(w)
		}
		res := "result=" + string(rec.Result.Status)
		if len(ws) > 0 {
			res += " " + strings.Join(ws, ",")
		}
		parts = append(parts, res+" "+string(rec.Result.Reason))
	}
	return strings.Join(parts, " | ")
}

// parseTextRecord reads a one-line record back.
func parseTextRecord(line string) (recordJSON, error) {
	line = strings.TrimSpace(line)
	parts := strings.Split(line, " | ")
	if len(parts) < 2 || parts[0] != recordFormat {
		return recordJSON{}, fmt.Errorf("a text record starts with %q", recordFormat)
	}
	rec := recordJSON{Format: recordFormat, Moves: []wire.Move{}}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return rec, fmt.Errorf("field %q: want key=value", p)
		}
		switch k {
		case "game":
			rec.Game = v
		case "options":
			rec.Options = map[string]string{}
			for _, kv := range strings.Split(v, ",") {
				if kv == "" {
					continue
				}
				ok, ov, found := strings.Cut(kv, "=")
				if !found {
					return rec, fmt.Errorf("option %q: want key=value", kv)
				}
				rec.Options[ok] = ov
			}
		case "seed":
			rec.Seed = v
		case "position":
			rec.Start = json.RawMessage(v)
		case "moves":
			for i, m := range strings.Split(v, "; ") {
				if strings.TrimSpace(m) == "" {
					continue
				}
				rec.Moves = append(rec.Moves, wire.Move{Ply: i, Move: strings.TrimSpace(m)})
			}
		case "result":
			// Recomputed on import.
		default:
			return rec, fmt.Errorf("unknown field %q", k)
		}
	}
	return rec, nil
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
	var rec recordJSON
	var text string
	if err := json.Unmarshal(req.Record, &text); err == nil {
		if rec, err = parseTextRecord(text); err != nil {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "record: %v", err))
			return
		}
	} else if err := json.Unmarshal(req.Record, &rec); err != nil || rec.Game == "" {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "record: want a JSON record or a text record string"))
		return
	}
	g, err := game.Lookup(rec.Game)
	if err != nil {
		writeError(w, badOption("record: unknown game %q", rec.Game))
		return
	}
	// The record of a game of this site still in progress is not made a
	// game to analyse, review or play a bot from (the fair-play rule).
	if rec.ID != "" {
		switch snap, err := s.snapshot(r.Context(), rec.ID); {
		case err == nil:
			if err := notInProgress(&snap.Meta); err != nil {
				writeError(w, err)
				return
			}
		case !errors.Is(err, errNotFound):
			writeError(w, err)
			return
		}
	}
	meta := match.Meta{ID: newID(), Game: g.Name(), CreatorID: u.ID, Created: s.createdNow(), ToMove: -1, Options: map[string]string{}}
	var st game.State
	switch {
	case len(rec.Start) > 0:
		if st, err = g.ParsePosition(rec.Start); err != nil {
			writeError(w, errf(http.StatusUnprocessableEntity, "bad_position", "record start: %v", err))
			return
		}
		meta.StartPosition, meta.Origin = rec.Start, match.OriginRecord
	case rec.Seed != "":
		seed, err := strconv.ParseUint(rec.Seed, 10, 64)
		if err != nil {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "record seed %q: want an unsigned integer", rec.Seed))
			return
		}
		opts, err := game.Complete(g, rec.Options)
		if err != nil {
			writeError(w, badOption("record: %v", err))
			return
		}
		if st, err = g.New(opts, seed); err != nil {
			writeError(w, badOption("record: %v", err))
			return
		}
		meta.Options, meta.Seed = opts, seed
	default:
		writeError(w, errf(http.StatusUnprocessableEntity, "bad_request", "a record needs its seed or its start position to replay"))
		return
	}
	var moves []match.Move
	at := s.now()
	for i, m := range rec.Moves {
		if st.Outcome().Over() {
			writeError(w, errf(http.StatusUnprocessableEntity, "illegal_move", "ply %d %q: the game is already over", i, m.Move))
			return
		}
		seat := st.ToMove()
		mv, err := st.ParseMove(m.Move)
		if err != nil {
			writeError(w, errf(http.StatusUnprocessableEntity, "illegal_move", "ply %d %q: %v", i, m.Move, err))
			return
		}
		text := st.FormatMove(mv)
		st.Play(mv)
		if !m.At.IsZero() {
			at = m.At
		}
		moves = append(moves, match.Move{Ply: i, Seat: seat, Text: text, At: at})
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
	writeJSON(w, http.StatusOK, wire.Replay{Snapshot: msg, Ply: n, Status: snap.Meta.Status, ToMove: st.ToMove(), Position: positionOf(st, &snap.Meta)})
}
