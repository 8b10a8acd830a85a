package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The analysis board's and the game review's API (docs/api.md, Analysis):
// POST /api/analysis starts a search of a position, POST
// /api/games/{id}/review a review of a finished game; either is a job of
// its user, whose events GET /api/analysis/{id}/events streams as
// Server-Sent Events and POST /api/analysis/{id}/stop ends. Only the
// user who started a job sees or stops it; anyone else is told it does not
// exist.
//
// The jobs themselves — admission, the per-user fair queue, time slices,
// who is refused and told to retry when, the priority they run at, the
// kept reviews — are analysis.Jobs's (analysis/jobs.go); this file reads
// requests, checks the fair-play rule and streams events.

// Limits of the analysis API, each with its reason.
const (
	// reviewCap bounds one review: 600 plies of a game at the per-position
	// cap would take ten minutes, and a node should not hold a job longer.
	reviewCap = 10 * time.Minute
	// reviewPositionTime caps each position of a review on the site
	// (Config.ReviewPositionTime's default).
	reviewPositionTime = time.Second
	// reviewWorlds: the medium Skyjo bot's worlds per decision; a Skyjo
	// game has hundreds of decisions.
	reviewWorlds = 40
	// analysisNodes bounds a job's search tree: 256k nodes (about 30 MB
	// with edges and table) hold a minute of the fastest game's search.
	analysisNodes = 1 << 18
	// analysisTable is the solver's table of a job.
	analysisTable = 16 << 20
	// sseHeartbeat keeps proxies from closing a quiet stream.
	sseHeartbeat = 15 * time.Second
)

// newAnalyses is the node's analysis jobs, their events in wire form.
func newAnalyses(ctx context.Context, cfg Config) *analysis.Jobs {
	prefix := ""
	if ac, ok := cfg.Cluster.(analysisCluster); ok {
		prefix = ac.AnalysisPrefix()
	}
	return analysis.NewJobs(ctx, analysis.JobsConfig{PerNode: cfg.AnalysisJobs, Queue: cfg.AnalysisQueue, MaxTime: cfg.AnalysisTime,
		Quantum: cfg.AnalysisQuantum, Compute: cfg.Compute, Log: cfg.Logger, IDPrefix: prefix,
		Queued: func(n int) analysis.Event {
			return analysis.Event{Name: wire.EventQueued, Data: wire.AnalysisQueued{Place: n}}
		},
		Failed: func(err error) analysis.Event {
			return analysis.Event{Name: wire.EventError, Data: wire.ErrorBody{Code: "analysis_failed", Message: err.Error()}}
		},
	})
}

// started is the answer to a job's start.
func started(j *analysis.Job) wire.AnalysisStarted {
	return wire.AnalysisStarted{ID: j.ID(), Kind: j.Kind(), Events: "/api/analysis/" + j.ID() + "/events"}
}

func (s *Server) handleAnalysis(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req wire.AnalysisRequest
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	st, err := s.analysisPosition(r.Context(), u, &req)
	if err != nil {
		writeError(w, err)
		return
	}
	limit := s.analyses.MaxTime()
	if req.TimeMs < 0 {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "timeMs: want a positive number of milliseconds"))
		return
	}
	if req.TimeMs > 0 {
		limit = min(limit, time.Duration(req.TimeMs)*time.Millisecond)
	}
	j, err := s.analyses.Start(u.ID, analysis.KindAnalysis, limit+5*time.Second, func(ctx context.Context, j *analysis.Job) error {
		_, err := analysis.Analyse(ctx, st, analysis.Options{
			Time: limit, Search: analysis.Search{Workers: 1, MaxNodes: analysisNodes, SolverTable: analysisTable, Seed: uint64(time.Now().UnixNano()), Gate: s.analyses.Gate(u.ID, "analysis")},
		}, func(rep analysis.Report) { j.Emit(wire.EventReport, wireReport(rep)) })
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	s.startedHere(u)
	writeJSON(w, http.StatusCreated, started(j))
}

// analysisPosition builds the position a request asks to analyse and checks
// that u may have it analysed: never a game in progress, never a position
// of u's own live game.
func (s *Server) analysisPosition(ctx context.Context, u *store.User, req *wire.AnalysisRequest) (game.State, error) {
	if len(req.Moves) > maxRulesMoves {
		return nil, errf(http.StatusRequestEntityTooLarge, "too_large", "at most %d moves", maxRulesMoves)
	}
	var st game.State
	switch {
	case req.From != nil:
		if len(req.Position) > 0 || len(req.Options) > 0 {
			return nil, errf(http.StatusBadRequest, "bad_request", "send a game (from), a position or options, one of them")
		}
		snap, err := s.snapshot(ctx, req.From.ID)
		if err != nil {
			return nil, err
		}
		if req.Game != "" && req.Game != snap.Meta.Game {
			return nil, errf(http.StatusBadRequest, "bad_request", "game %s is a game of %s, not %s", snap.Meta.ID, snap.Meta.Game, req.Game)
		}
		if err := match.NotInProgress(&snap.Meta); err != nil {
			return nil, err
		}
		if req.From.Ply < 0 || req.From.Ply > len(snap.Moves) {
			return nil, errf(http.StatusBadRequest, "bad_request", "ply %d: the game has %d moves", req.From.Ply, len(snap.Moves))
		}
		if st, err = match.Replay(&snap.Meta, snap.Moves, req.From.Ply); err != nil {
			return nil, s.internal("replay", err)
		}
	default:
		g, err := game.Lookup(req.Game)
		if err != nil {
			return nil, errf(http.StatusNotFound, "unknown_game", "%v", err)
		}
		// The rules endpoint's reading of a position or new game, and its
		// errors.
		rr := rulesRequest{Options: req.Options, Seed: req.Seed, Position: req.Position}
		if st, err = rulesState(g, &rr); err != nil {
			return nil, err
		}
	}
	if err := playAll(st, req.Moves); err != nil {
		return nil, err
	}
	if err := analysis.CanAnalyse(st); err != nil {
		return nil, errf(http.StatusUnprocessableEntity, "cannot_analyse", "%v", err)
	}
	if err := s.commandErr("own games", match.NotOwnLivePosition(ctx, liveGames{s}, u.ID, st)); err != nil {
		return nil, err
	}
	return st, nil
}

func (s *Server) handleReview(w http.ResponseWriter, r *http.Request, u *store.User) {
	snap, err := s.snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	m := &snap.Meta
	if err := match.NotInProgress(m); err != nil {
		writeError(w, err)
		return
	}
	if !m.Status.Over() {
		writeError(w, errf(http.StatusConflict, "not_finished", "a game is reviewed once it is over"))
		return
	}
	if cached := s.analyses.Review(m.ID); cached != nil {
		writeJSON(w, http.StatusOK, wire.AnalysisStarted{Kind: "review", Review: wireReview(cached)})
		return
	}
	if kept := s.keptReview(r.Context(), m.ID); kept != nil {
		writeJSON(w, http.StatusOK, wire.AnalysisStarted{Kind: "review", Review: kept})
		return
	}
	start, err := match.InitialState(m)
	if err != nil {
		writeError(w, s.internal("review", err))
		return
	}
	moves := make([]string, len(snap.Moves))
	for i, mv := range snap.Moves {
		moves[i] = mv.Text
	}
	id := m.ID
	j, err := s.analyses.Start(u.ID, analysis.KindReview, reviewCap, func(ctx context.Context, j *analysis.Job) error {
		rv, err := analysis.ReviewGame(ctx, start, moves, analysis.ReviewOptions{
			Time: s.cfg.ReviewPositionTime, Worlds: reviewWorlds, Search: analysis.Search{Workers: 1, MaxNodes: analysisNodes, SolverTable: analysisTable, Seed: 1, Gate: s.analyses.Gate(u.ID, "review "+id)},
		}, func(done, total int) { j.Emit(wire.EventProgress, wire.ReviewProgress{Done: done, Total: total}) })
		if err != nil {
			return err
		}
		s.analyses.KeepReview(id, rv)
		wr := wireReview(rv)
		s.keepReview(id, wr)
		j.Emit(wire.EventReview, wr)
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	s.startedHere(u)
	writeJSON(w, http.StatusCreated, started(j))
}

// keptReview is the store's review of finished game id, made by any node
// at any time; nil when there is none (or the store keeps none).
func (s *Server) keptReview(ctx context.Context, id string) *wire.Review {
	rs, ok := s.store.(store.Reviews)
	if !ok {
		return nil
	}
	data, err := rs.Review(ctx, id)
	if err != nil || data == nil {
		if err != nil {
			s.cfg.Logger.Warn("read a kept review", "game", id, "err", err)
		}
		return nil
	}
	var rv wire.Review
	if err := json.Unmarshal(data, &rv); err != nil {
		s.cfg.Logger.Warn("read a kept review", "game", id, "err", err)
		return nil
	}
	return &rv
}

// keepReview stores finished game id's review for every node and every
// later request; a review that could not be stored is made again when
// asked for on another node.
func (s *Server) keepReview(id string, rv *wire.Review) {
	rs, ok := s.store.(store.Reviews)
	if !ok {
		return
	}
	data, err := json.Marshal(rv)
	if err == nil {
		ctx, cancel := context.WithTimeout(s.ctx, 10*time.Second)
		err = rs.KeepReview(ctx, id, data, s.now())
		cancel()
	}
	if err != nil {
		s.cfg.Logger.Warn("keep a review", "game", id, "err", err)
	}
}

func (s *Server) handleAnalysisStop(w http.ResponseWriter, r *http.Request, u *store.User) {
	if ac, ok := s.remoteAnalysis(r.PathValue("id")); ok {
		if err := ac.StopAnalysis(r.Context(), u.ID, r.PathValue("id")); err != nil {
			writeError(w, remoteAnalysisErr(err))
			return
		}
		writeJSON(w, http.StatusOK, wire.AnalysisEnd{Reason: analysis.EndStopped})
		return
	}
	j, err := s.analyses.Of(u.ID, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	j.Stop(analysis.EndStopped)
	writeJSON(w, http.StatusOK, wire.AnalysisEnd{Reason: analysis.EndStopped})
}

// handleAnalysisEvents streams a job's events as Server-Sent Events: its
// latest event whenever there is a new one, then "end". An analysis whose
// last reader leaves is stopped; a review goes on (its result is kept).
func (s *Server) handleAnalysisEvents(w http.ResponseWriter, r *http.Request, u *store.User) {
	if ac, ok := s.remoteAnalysis(r.PathValue("id")); ok {
		s.streamRemoteAnalysis(w, r, u, ac, r.PathValue("id"))
		return
	}
	j, err := s.analyses.Of(u.ID, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	rc := openEventStream(w)
	defer j.Watch()()
	beat := time.NewTicker(sseHeartbeat)
	defer beat.Stop()
	sent := 0
	for {
		st := j.State()
		if !writeJobState(w, rc, st, &sent) {
			return
		}
		select {
		case <-st.Changed:
		case <-beat.C:
			if _, err := fmt.Fprint(w, ": beat\n\n"); err != nil {
				return
			}
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		}
	}
}

// writeEvent writes one Server-Sent Event whose data is v's JSON (one line:
// JSON escapes every newline inside strings).
// openEventStream answers a request with a stream of Server-Sent Events
// (status 200, its headers sent), to be flushed through the controller.
func openEventStream(w http.ResponseWriter) *http.ResponseController {
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no") // a proxy that buffers would hold the stream back
	w.WriteHeader(http.StatusOK)
	return http.NewResponseController(w)
}

// writeJobState writes what a job's stream has not sent of st (its event,
// if newer than the number sent, then its end) and flushes it; false when
// the stream is over — the job ended or the reader left.
func writeJobState(w http.ResponseWriter, rc *http.ResponseController, st analysis.State, sent *int) bool {
	if st.Seq > *sent {
		if writeEvent(w, st.Event.Name, st.Event.Data) != nil {
			return false
		}
		*sent = st.Seq
	}
	if st.Done {
		writeEvent(w, wire.EventEnd, wire.AnalysisEnd{Reason: st.End})
		rc.Flush()
		return false
	}
	return rc.Flush() == nil
}

func writeEvent(w http.ResponseWriter, event string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	return err
}
