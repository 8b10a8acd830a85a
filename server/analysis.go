package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/compute"
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
// Compute: every job is admitted by the node's analysis.Pool (one job per
// user — a new one replaces the old —, AnalysisJobs running per node: the
// jobs' trees and tables are memory; beyond, a job waits its turn in a
// queue whose place its stream tells, and while one waits an analysis
// that has had its quantum gives its place up, so a few users holding
// streams open cannot keep everyone out; a full queue refuses at once) and
// searches on one
// core in slices of a quarter of a second, each a Background task of the
// node's compute pool (compute.Pool.Acquire) charged to the user: the pool
// runs bots' moves (Live) first, keeps Background work within its share of
// the cores, and shares it fairly between users. Each job ends at a hard
// time cap.

// Limits of the analysis API, each with its reason.
const (
	// defaultAnalysisTime caps one analysis: long enough to settle the
	// lines of any position, short enough that a forgotten tab gives its
	// place back soon.
	defaultAnalysisTime = time.Minute
	// reviewCap bounds one review: 600 plies of a game at the per-position
	// cap would take ten minutes, and a node should not hold a job longer.
	reviewCap = 10 * time.Minute
	// reviewPositionTime caps each position of a review on the site.
	reviewPositionTime = time.Second
	// reviewWorlds: the medium Skyjo bot's worlds per decision; a Skyjo
	// game has hundreds of decisions.
	reviewWorlds = 40
	// analysisNodes bounds a job's search tree: 256k nodes (about 30 MB
	// with edges and table) hold a minute of the fastest game's search.
	analysisNodes = 1 << 18
	// analysisTable is the solver's table of a job.
	analysisTable = 16 << 20
	// unwatchedGrace: a job whose events nobody reads within this long is
	// stopped (a client that started one and went away).
	unwatchedGrace = 10 * time.Second
	// keepFinished: a finished job's last events stay readable this long.
	keepFinished = time.Minute
	// sseHeartbeat keeps proxies from closing a quiet stream.
	sseHeartbeat = 15 * time.Second
	// maxCachedReviews: finished games never change, so their reviews are
	// kept; a review is a few kilobytes to a few hundred.
	maxCachedReviews = 64
	// defaultAnalysisQuantum: while a job waits, an analysis that has run
	// this long gives its place to it — long enough for a useful report.
	defaultAnalysisQuantum = 15 * time.Second
	// analysisQueuePerPlace bounds the waiting jobs (each a goroutine and
	// an open stream, no search) by the places.
	analysisQueuePerPlace = 16
	// ownPositionsLimit bounds the positions compared with a user's live
	// games before an analysis of a position they send.
	ownPositionsLimit = 50_000
)

// analyses is the node's analysis jobs.
type analyses struct {
	admit    *analysis.Pool
	compute  *compute.Pool
	maxTime  time.Duration
	mu       sync.Mutex
	jobs     map[string]*job
	byUser   map[int64]*job
	reviews  map[string]*analysis.Review
	reviewed []string // the cached reviews' games, oldest first
}

func newAnalyses(perNode, queue int, maxTime, quantum time.Duration, pool *compute.Pool) *analyses {
	if perNode <= 0 {
		perNode = 2 * runtime.GOMAXPROCS(0)
	}
	if queue <= 0 {
		queue = analysisQueuePerPlace * perNode
	}
	if maxTime <= 0 {
		maxTime = defaultAnalysisTime
	}
	if quantum <= 0 {
		quantum = defaultAnalysisQuantum
	}
	return &analyses{
		admit: analysis.NewPool(perNode, queue, quantum), compute: pool, maxTime: maxTime,
		jobs: map[string]*job{}, byUser: map[int64]*job{}, reviews: map[string]*analysis.Review{},
	}
}

// gate is where a job of user waits before each slice of its search: a
// Background task of the node's compute pool.
func (a *analyses) gate(user int64, label string) func(ctx context.Context) (func(), error) {
	return func(ctx context.Context) (func(), error) {
		return a.compute.Acquire(ctx, compute.Task{User: user, Class: compute.Background, Cores: 1, Label: label})
	}
}

// job is one analysis or review of one user. Its events replace one
// another (a stream wants the latest report, not every one), so it keeps
// only the last.
type job struct {
	id, kind string
	user     int64
	cancel   context.CancelFunc
	finished chan struct{} // closed when the work has returned

	mu       sync.Mutex
	event    string
	data     any
	seq      int
	done     bool
	end      string
	changed  chan struct{} // closed and replaced with each event
	watchers int
	watched  bool
}

// emit makes ev the job's latest event.
func (j *job) emit(ev string, data any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.event, j.data = ev, data
	j.seq++
	close(j.changed)
	j.changed = make(chan struct{})
}

// finish marks the job over, with the reason its stream gives.
func (j *job) finish(reason string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.done {
		return
	}
	j.done = true
	if j.end == "" { // a stop said why first
		j.end = reason
	}
	close(j.changed)
	j.changed = make(chan struct{})
}

// startJob admits a job of u and runs work on it once it has a place, for
// at most limit from then; a job u already has is stopped first. An
// analysis (canYield) gives its place up when the pool asks (its stream
// ends "yielded", its last report standing); a review runs to its end.
func (s *Server) startJob(u *store.User, kind string, limit time.Duration, canYield bool, work func(ctx context.Context, j *job) error) (*job, error) {
	a := s.analyses
	a.mu.Lock()
	old := a.byUser[u.ID]
	a.mu.Unlock()
	if old != nil {
		old.stop("stopped")
		select {
		case <-old.finished:
		case <-time.After(5 * time.Second):
		}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	j := &job{id: newID() + newID(), kind: kind, user: u.ID, cancel: cancel, finished: make(chan struct{}), changed: make(chan struct{})}
	var yield func()
	if canYield {
		yield = func() { j.stop("yielded") }
	}
	ticket, err := a.admit.Enter(u.ID, yield)
	switch {
	case errors.Is(err, analysis.ErrUserBusy):
		cancel()
		return nil, &apiError{Status: http.StatusTooManyRequests, Code: "analysis_busy", Message: err.Error(), RetryAfter: 5 * time.Second}
	case errors.Is(err, analysis.ErrNodeBusy):
		cancel()
		return nil, &apiError{Status: http.StatusServiceUnavailable, Code: "analysis_busy", Message: err.Error(), RetryAfter: 30 * time.Second}
	case err != nil:
		cancel()
		return nil, s.internal("analysis", err)
	}
	queued := func(n int) { j.emit(wire.EventQueued, wire.AnalysisQueued{Place: n}) }
	if n := ticket.Place(); n > 0 {
		queued(n) // the stream's first event, before the client can open it
	}
	a.mu.Lock()
	a.jobs[j.id] = j
	a.byUser[u.ID] = j
	a.mu.Unlock()
	go func() {
		defer close(j.finished)
		defer ticket.Release()
		defer cancel()
		err := ticket.Wait(ctx, queued)
		if err == nil {
			// Background work: its threads (this goroutine's, which
			// ends with the job, and its search workers') run below
			// those serving people (compute.LowerPriority).
			compute.LowerPriority()
			wctx, wcancel := context.WithTimeout(ctx, limit)
			err = work(agent.WithWorkerStart(wctx, compute.LowerPriority), j)
			wcancel()
		}
		reason := "done"
		switch {
		case s.ctx.Err() != nil:
			reason = "shutdown"
		case err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled):
			s.log.Warn("analysis", "kind", kind, "user", u.ID, "err", err)
			j.emit(wire.EventError, wire.ErrorBody{Code: "analysis_failed", Message: err.Error()})
		}
		j.finish(reason)
		a.mu.Lock()
		if a.byUser[u.ID] == j {
			delete(a.byUser, u.ID)
		}
		a.mu.Unlock()
		time.AfterFunc(keepFinished, func() {
			a.mu.Lock()
			delete(a.jobs, j.id)
			a.mu.Unlock()
		})
	}()
	// A job nobody reads is stopped.
	time.AfterFunc(unwatchedGrace, func() {
		j.mu.Lock()
		watched := j.watched
		j.mu.Unlock()
		if !watched {
			j.stop("stopped")
		}
	})
	return j, nil
}

// stop ends the job's work; its stream then ends with reason.
func (j *job) stop(reason string) {
	j.cancel()
	j.mu.Lock()
	if j.end == "" {
		j.end = reason
	}
	j.mu.Unlock()
}

// jobOf is u's job id, or errNotFound: another user's job does not exist
// for u.
func (s *Server) jobOf(u *store.User, id string) (*job, error) {
	a := s.analyses
	a.mu.Lock()
	defer a.mu.Unlock()
	j := a.jobs[id]
	if j == nil || j.user != u.ID {
		return nil, errNotFound
	}
	return j, nil
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
	limit := s.analyses.maxTime
	if req.TimeMs < 0 {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "timeMs: want a positive number of milliseconds"))
		return
	}
	if req.TimeMs > 0 {
		limit = min(limit, time.Duration(req.TimeMs)*time.Millisecond)
	}
	j, err := s.startJob(u, "analysis", limit+5*time.Second, true, func(ctx context.Context, j *job) error {
		_, err := analysis.Analyse(ctx, st, analysis.Options{
			Time: limit, Search: analysis.Search{Workers: 1, MaxNodes: analysisNodes, SolverTable: analysisTable, Seed: uint64(time.Now().UnixNano()), Gate: s.analyses.gate(u.ID, "analysis")},
		}, func(rep analysis.Report) { j.emit(wire.EventReport, rep) })
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, wire.AnalysisStarted{ID: j.id, Kind: j.kind, Events: "/api/analysis/" + j.id + "/events"})
}

// The fair-play rule (docs/security.md, Fair play): the site's engines say
// nothing about a game while it is being played — not to its players, not
// to a spectator, not to a second account. Every request that names a game
// in progress is refused for everyone (notInProgress: the analysis board's
// from, the review, a record import naming it); a position sent without
// naming its game cannot be told from one typed in the editor, so only the
// positions of the asker's own live games are refused
// (notOwnLivePosition), there and when a game with a bot starts from a
// position.

// notInProgress refuses a game that is open or live: it may be analysed,
// reviewed or imported once it has ended.
func notInProgress(m *match.Meta) error {
	if m.Status == match.Open || m.Status == match.Live {
		return errf(http.StatusConflict, "not_finished", "game %s is still being played: no engine looks at it before it ends", m.ID)
	}
	return nil
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
		if err := notInProgress(&snap.Meta); err != nil {
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
	if err := s.notOwnLivePosition(ctx, u, st); err != nil {
		return nil, err
	}
	return st, nil
}

// notOwnLivePosition refuses a position of one of u's live games: any
// position the game has passed through but its ordinary start, the one on
// the board, and every
// position up to two plies ahead of it (u's move and the reply). It is a
// speed bump, not a wall — a position typed in the editor further ahead
// passes, as on any site that lets players analyse positions —, but it
// stops the easy way of asking the engine about a game while playing it.
func (s *Server) notOwnLivePosition(ctx context.Context, u *store.User, st game.State) error {
	metas, err := s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Live}, UserID: u.ID, Game: st.Game().Name(), Limit: 50})
	if err != nil {
		return s.internal("own games", err)
	}
	refuse := errf(http.StatusForbidden, "own_game", "this is a position of a game you are playing: it can be analysed once the game is over")
	same := func(a game.State) bool { return a.Hash() == st.Hash() && a.ToMove() == st.ToMove() }
	for _, m := range metas {
		if m.SeatOf(u.ID) < 0 {
			continue
		}
		snap, err := s.snapshot(ctx, m.ID)
		if err != nil {
			return err
		}
		at, err := match.InitialState(&snap.Meta)
		if err != nil {
			return s.internal("own games", err)
		}
		// The game's ordinary start (no position of its own) is everyone's:
		// once the game has left it, it tells nothing of this game, and a
		// player may start a bot game or an analysis there as from the lobby.
		ordinaryStart := len(snap.Meta.StartPosition) == 0 && len(snap.Moves) > 0
		if !ordinaryStart && same(at) {
			return refuse
		}
		for _, mv := range snap.Moves {
			if game.Play(at, mv.Text) != nil {
				break
			}
			if same(at) {
				return refuse
			}
		}
		seen := 0
		var ahead func(p game.State, depth int) bool
		ahead = func(p game.State, depth int) bool {
			if depth == 0 || seen > ownPositionsLimit {
				return false
			}
			for _, mv := range p.Legal(nil) {
				c := p.Clone()
				c.Play(mv)
				seen++
				if same(c) || ahead(c, depth-1) {
					return true
				}
			}
			return false
		}
		if ahead(snap.State, 2) {
			return refuse
		}
	}
	return nil
}

func (s *Server) handleReview(w http.ResponseWriter, r *http.Request, u *store.User) {
	snap, err := s.snapshot(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	m := &snap.Meta
	if err := notInProgress(m); err != nil {
		writeError(w, err)
		return
	}
	if !m.Status.Over() {
		writeError(w, errf(http.StatusConflict, "not_finished", "a game is reviewed once it is over"))
		return
	}
	a := s.analyses
	a.mu.Lock()
	cached := a.reviews[m.ID]
	a.mu.Unlock()
	if cached != nil {
		writeJSON(w, http.StatusOK, wire.AnalysisStarted{Kind: "review", Review: cached})
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
	j, err := s.startJob(u, "review", reviewCap, false, func(ctx context.Context, j *job) error {
		rv, err := analysis.ReviewGame(ctx, start, moves, analysis.ReviewOptions{
			Time: reviewPositionTime, Worlds: reviewWorlds, Search: analysis.Search{Workers: 1, MaxNodes: analysisNodes, SolverTable: analysisTable, Seed: 1, Gate: a.gate(u.ID, "review "+id)},
		}, func(done, total int) { j.emit(wire.EventProgress, wire.ReviewProgress{Done: done, Total: total}) })
		if err != nil {
			return err
		}
		a.keepReview(id, rv)
		j.emit(wire.EventReview, rv)
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, wire.AnalysisStarted{ID: j.id, Kind: j.kind, Events: "/api/analysis/" + j.id + "/events"})
}

// keepReview caches a finished game's review, forgetting the oldest beyond
// maxCachedReviews.
func (a *analyses) keepReview(id string, rv *analysis.Review) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := a.reviews[id]; !ok {
		a.reviewed = append(a.reviewed, id)
	}
	a.reviews[id] = rv
	for len(a.reviewed) > maxCachedReviews {
		delete(a.reviews, a.reviewed[0])
		a.reviewed = a.reviewed[1:]
	}
}

func (s *Server) handleAnalysisStop(w http.ResponseWriter, r *http.Request, u *store.User) {
	j, err := s.jobOf(u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	j.stop("stopped")
	writeJSON(w, http.StatusOK, wire.AnalysisEnd{Reason: "stopped"})
}

// handleAnalysisEvents streams a job's events as Server-Sent Events: its
// latest event whenever there is a new one, then "end". An analysis whose
// last reader leaves is stopped; a review goes on (its result is kept).
func (s *Server) handleAnalysisEvents(w http.ResponseWriter, r *http.Request, u *store.User) {
	j, err := s.jobOf(u, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	j.mu.Lock()
	j.watchers++
	j.watched = true
	j.mu.Unlock()
	defer func() {
		j.mu.Lock()
		j.watchers--
		left := j.watchers
		j.mu.Unlock()
		if left == 0 && j.kind == "analysis" {
			j.stop("stopped")
		}
	}()
	beat := time.NewTicker(sseHeartbeat)
	defer beat.Stop()
	sent := 0
	for {
		j.mu.Lock()
		ev, data, seq, done, end, changed := j.event, j.data, j.seq, j.done, j.end, j.changed
		j.mu.Unlock()
		if seq > sent {
			if writeEvent(w, ev, data) != nil {
				return
			}
			sent = seq
		}
		if done {
			writeEvent(w, wire.EventEnd, wire.AnalysisEnd{Reason: end})
			rc.Flush()
			return
		}
		if rc.Flush() != nil {
			return
		}
		select {
		case <-changed:
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
func writeEvent(w http.ResponseWriter, event string, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, data)
	return err
}
