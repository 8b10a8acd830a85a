package server

import (
	"cmp"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"math"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/learn"
	"github.com/tabula-games/tabula/rating"
	"github.com/tabula-games/tabula/store"
)

// Rated puzzles (issue 27, point 8), under /api/puzzles: each registered
// player has a Glicko-2 puzzle rating per game and each puzzle has its own;
// a player's first attempt at a puzzle — from the list, the streak or the
// daily puzzle — is one rating period for both (a solve is the player's
// win over the puzzle), later attempts at it rate nothing. Guests may
// solve puzzles (their attempts are checked and kept in their history) but
// are never rated. The server judges every answer: the puzzle API never
// sends a puzzle's solution before the player's attempt at it is stored,
// and then only with that answer (a solve, or giving up). The streak is
// puzzles of rising rating until the first miss, its best kept; the daily
// puzzle is the same for everyone on a UTC day. Everything lives in the
// store (store.Puzzles), so any node answers any request. Attempts are
// limited per player in the store, so that no node can be used to flood.

// puzzleAttemptRate and puzzleAttemptBurst bound a player's attempts (any
// mode), counted in the store for all nodes together.
const (
	puzzleAttemptRate  = 1.0 // per second
	puzzleAttemptBurst = 30
	maxPuzzleHistory   = 100
)

// puzzlePlayerStart is a player's puzzle rating before their first rated
// attempt: Glicko-2's new player.
var puzzlePlayerStart = store.Glicko{Rating: rating.DefaultRating, Deviation: rating.DefaultDeviation, Volatility: rating.DefaultVolatility}

// puzzleStart is a puzzle's rating before anyone tried it: a guess from
// its difficulty estimate (1 → 1200 … 5 → 2000), or from its length for a
// puzzle without one (2 plies 1300, each further ply 150 more), with a new
// player's deviation so that the first attempts move it quickly.
func puzzleStart(pz *learn.Puzzle) store.Glicko {
	r := 1000 + 150*float64(pz.Plies)
	if pz.Difficulty > 0 {
		r = 1000 + 200*float64(pz.Difficulty)
	}
	return store.Glicko{Rating: r, Deviation: rating.DefaultDeviation, Volatility: rating.DefaultVolatility}
}

// glickoPeriod is one Glicko-2 rating period of a player (or a puzzle)
// against opponents with the given scores (1 a win, 0 a loss).
func glickoPeriod(p store.Glicko, opponents []store.Glicko, scores []float64) store.Glicko {
	res := make([]rating.Result, len(opponents))
	for i, o := range opponents {
		res[i] = rating.Result{Opponent: rating.Rating{R: o.Rating, RD: o.Deviation, Vol: o.Volatility}, Score: scores[i]}
	}
	r := rating.Update(rating.Rating{R: p.Rating, RD: p.Deviation, Vol: p.Volatility}, res, rating.Tau)
	return store.Glicko{Rating: r.R, Deviation: r.RD, Volatility: r.Vol}
}

// ratePuzzleAttempt is store.PuzzleRater: one attempt is a game between
// the player and the puzzle, won by the player who solves it; both are
// rated from the ratings before it.
func ratePuzzleAttempt(player, puzzle store.Glicko, solved bool) (store.Glicko, store.Glicko) {
	s := 0.0
	if solved {
		s = 1
	}
	return glickoPeriod(player, []store.Glicko{puzzle}, []float64{s}), glickoPeriod(puzzle, []store.Glicko{player}, []float64{1 - s})
}

// puzzleEntry is one puzzle of the learn package's sets.
type puzzleEntry struct {
	game  string
	n     int // 1-based place in its game's set (the page's ?n=)
	pz    *learn.Puzzle
	start store.Glicko
}

// puzzleCatalog is every game's puzzles, read once from the embedded data.
type puzzleCatalog struct {
	byGame map[string][]*puzzleEntry
	byID   map[string]*puzzleEntry
	all    []*puzzleEntry // in game.Names() order, then set order: the daily puzzle's list
}

var (
	puzzlesOnce sync.Once
	puzzlesAll  *puzzleCatalog
	puzzlesErr  error
)

func loadPuzzleCatalog() (*puzzleCatalog, error) {
	puzzlesOnce.Do(func() {
		c := &puzzleCatalog{byGame: map[string][]*puzzleEntry{}, byID: map[string]*puzzleEntry{}}
		for _, name := range game.Names() {
			set, err := learn.LoadPuzzles(learn.Files(), name)
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				puzzlesErr = fmt.Errorf("puzzles: %w", err)
				return
			}
			for i := range set.Puzzles {
				pz := &set.Puzzles[i]
				e := &puzzleEntry{game: name, n: i + 1, pz: pz, start: puzzleStart(pz)}
				c.byGame[name] = append(c.byGame[name], e)
				c.byID[pz.ID] = e
				c.all = append(c.all, e)
			}
		}
		puzzlesAll = c
	})
	return puzzlesAll, puzzlesErr
}

// judge reports whether move, a legal move of the puzzle's position,
// solves it; an illegal or unreadable move is an error (a 400 that
// records nothing).
func (e *puzzleEntry) judge(move string) (bool, error) {
	g, err := game.Lookup(e.game)
	if err != nil {
		return false, err
	}
	st, err := g.ParsePosition(e.pz.Position)
	if err != nil {
		return false, fmt.Errorf("puzzle %s: position: %w", e.pz.ID, err)
	}
	m, err := st.ParseMove(move)
	if err != nil {
		code := "illegal_move"
		if errors.Is(err, game.ErrSyntax) {
			code = "bad_move"
		}
		return false, errf(http.StatusBadRequest, code, "%v", err)
	}
	if !game.IsLegal(st, m) {
		return false, errf(http.StatusBadRequest, "illegal_move", "%s: illegal move", move)
	}
	// learn.Puzzle.Solves: the one winning move, or any move of a
	// decision puzzle's best choice; both in the engine's own spelling.
	return e.pz.Solves(st.FormatMove(m)), nil
}

// puzzles is the store's puzzle tables, or a 501 for a store without them.
func (s *Server) puzzles() (store.Puzzles, error) {
	ps, ok := s.store.(store.Puzzles)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no puzzle ratings")
	}
	return ps, nil
}

// puzzleGame is the path's game and its puzzles.
func puzzleGame(r *http.Request) (string, []*puzzleEntry, error) {
	c, err := loadPuzzleCatalog()
	if err != nil {
		return "", nil, err
	}
	name := r.PathValue("game")
	list, ok := c.byGame[name]
	if !ok {
		return "", nil, errf(http.StatusNotFound, "unknown_game", "no puzzles for %q", name)
	}
	return name, list, nil
}

type glickoJSON struct {
	Rating      float64 `json:"rating"`
	Deviation   float64 `json:"deviation"`
	Provisional bool    `json:"provisional"`
}

// provisionalDeviation: above it a rating is shown with a "?", as on the
// leaderboard.
const provisionalDeviation = 110

func glickoWire(g store.Glicko) glickoJSON {
	return glickoJSON{Rating: math.Round(g.Rating), Deviation: math.Round(g.Deviation), Provisional: g.Deviation > provisionalDeviation}
}

type puzzlePlayerJSON struct {
	// Rated: the player's first attempts are rated (a registered player).
	Rated  bool       `json:"rated"`
	Rating glickoJSON `json:"rating"`
	Plays  int        `json:"plays"`
	Streak streakJSON `json:"streak"`
}

type streakJSON struct {
	Current int `json:"current"`
	Best    int `json:"best"`
	// Puzzle is the running streak's puzzle; "" when none runs.
	Puzzle string `json:"puzzle"`
	N      int    `json:"n,omitempty"`
}

type puzzleItemJSON struct {
	ID     string     `json:"id"`
	N      int        `json:"n"`
	Plies  int        `json:"plies"`
	Rating glickoJSON `json:"rating"`
	Plays  int        `json:"plays"`
	// Tried is the player's first attempt: "solved", "missed" or "".
	Tried string `json:"tried,omitempty"`
}

func (s *Server) puzzlePlayerWire(u *store.User, p store.PuzzlePlayer, list []*puzzleEntry) *puzzlePlayerJSON {
	out := &puzzlePlayerJSON{Rated: !u.Guest, Rating: glickoWire(p.Rating), Plays: p.Plays,
		Streak: streakJSON{Current: p.Streak, Best: p.StreakBest, Puzzle: p.StreakPuzzle}}
	for _, e := range list {
		if e.pz.ID == p.StreakPuzzle {
			out.Streak.N = e.n
		}
	}
	return out
}

// handlePuzzleSet is GET /api/puzzles/{game}: the game's puzzles with their
// ratings (never their solutions) and, for a signed-in player, their
// rating, streak and which puzzles they tried.
func (s *Server) handlePuzzleSet(w http.ResponseWriter, r *http.Request) {
	name, list, err := puzzleGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ps, err := s.puzzles()
	if err != nil {
		writeError(w, err)
		return
	}
	u, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	stats, err := ps.PuzzleStats(r.Context(), name)
	if err != nil {
		writeError(w, err)
		return
	}
	tried := map[string]string{}
	var player *puzzlePlayerJSON
	if u != nil {
		p, err := ps.PuzzlePlayer(r.Context(), u.ID, name, puzzlePlayerStart)
		if err != nil {
			writeError(w, err)
			return
		}
		player = s.puzzlePlayerWire(u, p, list)
		att, err := ps.PuzzleAttempts(r.Context(), u.ID, name, time.Time{}, len(list))
		if err != nil {
			writeError(w, err)
			return
		}
		for _, a := range att {
			tried[a.Puzzle] = map[bool]string{true: "solved", false: "missed"}[a.Solved]
		}
	}
	items := make([]puzzleItemJSON, len(list))
	for i, e := range list {
		g, plays := e.start, 0
		if st, ok := stats[e.pz.ID]; ok {
			g, plays = st.Rating, st.Plays
		}
		items[i] = puzzleItemJSON{ID: e.pz.ID, N: e.n, Plies: e.pz.Plies, Rating: glickoWire(g), Plays: plays, Tried: tried[e.pz.ID]}
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": name, "player": player, "puzzles": items})
}

type puzzleAttemptRequest struct {
	// Move is the answer; empty with GiveUp.
	Move string `json:"move"`
	// GiveUp asks for the solution without an answer: a miss.
	GiveUp bool `json:"giveUp"`
	// Mode is where the puzzle was tried: "rated" (default) or "daily";
	// the streak has its own endpoint.
	Mode string `json:"mode"`
}

type puzzleAttemptJSON struct {
	Correct bool `json:"correct"`
	// First: this was the player's first attempt at the puzzle, the one
	// stored (and rated, with Rated).
	First bool `json:"first"`
	Rated bool `json:"rated"`
	// Line is the solution (a winning line), sent only once the answer is
	// right or the player gave up; after a wrong answer they may try again.
	Line   []string          `json:"line,omitempty"`
	Player *ratingChangeJSON `json:"player,omitempty"`
	Puzzle ratingChangeJSON  `json:"puzzle"`
	Streak *streakJSON       `json:"streak,omitempty"`
}

type ratingChangeJSON struct {
	Before float64 `json:"before"`
	After  float64 `json:"after"`
}

// attemptPuzzle judges and stores one attempt of u at e (mode as stored);
// the caller has checked the flood limit.
func (s *Server) attemptPuzzle(r *http.Request, ps store.Puzzles, u *store.User, e *puzzleEntry, req puzzleAttemptRequest, mode string) (*puzzleAttemptJSON, error) {
	correct := false
	if !req.GiveUp {
		ok, err := e.judge(req.Move)
		if err != nil {
			return nil, err
		}
		correct = ok
	} else if req.Move != "" {
		return nil, errf(http.StatusBadRequest, "bad_request", "send a move or giveUp, not both")
	}
	a := store.PuzzleAttempt{UserID: u.ID, Game: e.game, Puzzle: e.pz.ID, Mode: mode, Solved: correct, At: s.now()}
	var rate store.PuzzleRater
	if !u.Guest {
		rate = ratePuzzleAttempt
	} else {
		// A guest's attempt is kept unrated, with the puzzle's rating as it is.
		stats, err := ps.PuzzleStats(r.Context(), e.game)
		if err != nil {
			return nil, err
		}
		cur := e.start
		if st, ok := stats[e.pz.ID]; ok {
			cur = st.Rating
		}
		a.PuzzleBefore, a.PuzzleAfter = cur.Rating, cur.Rating
	}
	stored, first, err := ps.RecordPuzzleAttempt(r.Context(), a, puzzlePlayerStart, e.start, rate)
	if err != nil {
		return nil, err
	}
	out := &puzzleAttemptJSON{Correct: correct, First: first, Rated: first && stored.Rated,
		Puzzle: ratingChangeJSON{math.Round(stored.PuzzleBefore), math.Round(stored.PuzzleAfter)}}
	if !first {
		out.Puzzle.After = out.Puzzle.Before
	}
	if out.Rated {
		out.Player = &ratingChangeJSON{math.Round(stored.PlayerBefore), math.Round(stored.PlayerAfter)}
	}
	if correct || req.GiveUp {
		out.Line = e.pz.Line
	}
	return out, nil
}

// puzzleFlood takes one token from the player's attempt budget.
func (s *Server) puzzleFlood(r *http.Request, u *store.User) error {
	ok, err := sharedBucket{prefix: "puzzle:", rate: puzzleAttemptRate, burst: puzzleAttemptBurst}.allow(r.Context(), s.store, strconv.FormatInt(u.ID, 10), s.now())
	if err != nil {
		return err
	}
	if !ok {
		return errf(http.StatusTooManyRequests, "rate_limited", "too many puzzle attempts; slow down")
	}
	return nil
}

// handlePuzzleAttempt is POST /api/puzzles/{game}/{id}/attempt.
func (s *Server) handlePuzzleAttempt(w http.ResponseWriter, r *http.Request, u *store.User) {
	name, _, err := puzzleGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ps, err := s.puzzles()
	if err != nil {
		writeError(w, err)
		return
	}
	c, _ := loadPuzzleCatalog()
	e, ok := c.byID[r.PathValue("id")]
	if !ok || e.game != name {
		writeError(w, errf(http.StatusNotFound, "not_found", "no %s puzzle %q", name, r.PathValue("id")))
		return
	}
	var req puzzleAttemptRequest
	if err := decode(w, r, &req, 4096, false); err != nil {
		writeError(w, err)
		return
	}
	mode := cmp.Or(req.Mode, "rated")
	if mode != "rated" && mode != "daily" {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "mode %q: want rated or daily", req.Mode))
		return
	}
	if err := s.puzzleFlood(r, u); err != nil {
		writeError(w, err)
		return
	}
	out, err := s.attemptPuzzle(r, ps, u, e, req, mode)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// streakNext picks the streak's next puzzle: one of the three lowest-rated
// puzzles it has not shown whose rating is at least the last one's, so that
// difficulty rises and two streaks differ; "" when none is left.
func streakNext(list []*puzzleEntry, stats map[string]store.PuzzleStat, seen []string) string {
	ratingOf := func(e *puzzleEntry) float64 {
		if st, ok := stats[e.pz.ID]; ok {
			return st.Rating.Rating
		}
		return e.start.Rating
	}
	floor := math.Inf(-1)
	if len(seen) > 0 {
		for _, e := range list {
			if e.pz.ID == seen[len(seen)-1] {
				floor = ratingOf(e)
			}
		}
	}
	var cand []*puzzleEntry
	for _, e := range list {
		if ratingOf(e) >= floor && !slices.Contains(seen, e.pz.ID) {
			cand = append(cand, e)
		}
	}
	if len(cand) == 0 {
		return ""
	}
	slices.SortFunc(cand, func(a, b *puzzleEntry) int {
		return cmp.Or(cmp.Compare(ratingOf(a), ratingOf(b)), cmp.Compare(a.n, b.n))
	})
	return cand[rand.IntN(min(3, len(cand)))].pz.ID
}

// handlePuzzleStreakStart is POST /api/puzzles/{game}/streak: a new streak
// (the running one, if any, ends), its first puzzle one of the easiest.
func (s *Server) handlePuzzleStreakStart(w http.ResponseWriter, r *http.Request, u *store.User) {
	name, list, err := puzzleGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ps, err := s.puzzles()
	if err != nil {
		writeError(w, err)
		return
	}
	stats, err := ps.PuzzleStats(r.Context(), name)
	if err != nil {
		writeError(w, err)
		return
	}
	p, err := ps.StartPuzzleStreak(r.Context(), u.ID, name, streakNext(list, stats, nil), puzzlePlayerStart, s.now())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"player": s.puzzlePlayerWire(u, p, list)})
}

type streakAttemptRequest struct {
	Puzzle string `json:"puzzle"`
	Move   string `json:"move"`
	GiveUp bool   `json:"giveUp"`
}

// handlePuzzleStreakAttempt is POST /api/puzzles/{game}/streak/attempt:
// the answer to the streak's puzzle. A solve moves the streak on to a
// puzzle rated at least as high; a miss (or giving up) ends it. Either
// way the attempt is stored like any other (rated if it is the player's
// first at that puzzle) and the solution sent.
func (s *Server) handlePuzzleStreakAttempt(w http.ResponseWriter, r *http.Request, u *store.User) {
	name, list, err := puzzleGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ps, err := s.puzzles()
	if err != nil {
		writeError(w, err)
		return
	}
	var req streakAttemptRequest
	if err := decode(w, r, &req, 4096, false); err != nil {
		writeError(w, err)
		return
	}
	p, err := ps.PuzzlePlayer(r.Context(), u.ID, name, puzzlePlayerStart)
	if err != nil {
		writeError(w, err)
		return
	}
	if p.StreakPuzzle == "" || p.StreakPuzzle != req.Puzzle {
		writeError(w, errf(http.StatusConflict, "conflict", "the streak is not waiting for puzzle %q", req.Puzzle))
		return
	}
	c, _ := loadPuzzleCatalog()
	e := c.byID[req.Puzzle]
	if e == nil || e.game != name {
		writeError(w, errf(http.StatusNotFound, "not_found", "no %s puzzle %q", name, req.Puzzle))
		return
	}
	if err := s.puzzleFlood(r, u); err != nil {
		writeError(w, err)
		return
	}
	out, err := s.attemptPuzzle(r, ps, u, e, puzzleAttemptRequest{Move: req.Move, GiveUp: req.GiveUp}, "streak")
	if err != nil {
		writeError(w, err)
		return
	}
	stats, err := ps.PuzzleStats(r.Context(), name)
	if err != nil {
		writeError(w, err)
		return
	}
	p, err = ps.AnswerPuzzleStreak(r.Context(), u.ID, name, req.Puzzle, out.Correct,
		func(seen []string) string { return streakNext(list, stats, seen) }, puzzlePlayerStart, s.now())
	if errors.Is(err, store.ErrConflict) {
		writeError(w, errf(http.StatusConflict, "conflict", "the streak's puzzle %q was already answered", req.Puzzle))
		return
	}
	if err != nil {
		writeError(w, err)
		return
	}
	out.Line = e.pz.Line
	out.Streak = &s.puzzlePlayerWire(u, p, list).Streak
	writeJSON(w, http.StatusOK, out)
}

// dailyPuzzle is the puzzle of the UTC day of t: the same on every node
// (the catalog is the binary's own data), changing at midnight UTC.
func dailyPuzzle(c *puzzleCatalog, t time.Time) (string, *puzzleEntry) {
	day := t.UTC().Format(time.DateOnly)
	if len(c.all) == 0 {
		return day, nil
	}
	h := fnv.New64a()
	h.Write([]byte("tabula daily puzzle " + day))
	return day, c.all[h.Sum64()%uint64(len(c.all))]
}

// handlePuzzleDaily is GET /api/puzzles/daily: today's puzzle, and for a
// signed-in player whether they tried it.
func (s *Server) handlePuzzleDaily(w http.ResponseWriter, r *http.Request) {
	c, err := loadPuzzleCatalog()
	if err != nil {
		writeError(w, err)
		return
	}
	day, e := dailyPuzzle(c, s.now())
	if e == nil {
		writeError(w, errf(http.StatusNotFound, "not_found", "no puzzles"))
		return
	}
	out := map[string]any{"date": day, "game": e.game, "id": e.pz.ID, "n": e.n, "plies": e.pz.Plies}
	writeJSON(w, http.StatusOK, out)
}

type puzzleHistoryJSON struct {
	Game   string            `json:"game"`
	ID     string            `json:"id"`
	N      int               `json:"n"`
	Mode   string            `json:"mode"`
	Solved bool              `json:"solved"`
	Rated  bool              `json:"rated"`
	At     time.Time         `json:"at"`
	Player *ratingChangeJSON `json:"player,omitempty"`
	Puzzle ratingChangeJSON  `json:"puzzle"`
}

// handlePuzzleHistory is GET /api/puzzles/history: the player's first
// attempts, newest first; ?game= one game's, ?before= (RFC 3339) older
// ones, ?limit= at most 100.
func (s *Server) handlePuzzleHistory(w http.ResponseWriter, r *http.Request, u *store.User) {
	ps, err := s.puzzles()
	if err != nil {
		writeError(w, err)
		return
	}
	c, err := loadPuzzleCatalog()
	if err != nil {
		writeError(w, err)
		return
	}
	q := r.URL.Query()
	g := q.Get("game")
	if _, ok := c.byGame[g]; g != "" && !ok {
		writeError(w, errf(http.StatusNotFound, "unknown_game", "no puzzles for %q", g))
		return
	}
	var before time.Time
	if b := q.Get("before"); b != "" {
		if before, err = time.Parse(time.RFC3339Nano, b); err != nil {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "before: %v", err))
			return
		}
	}
	limit := 50
	if l := q.Get("limit"); l != "" {
		if limit, err = strconv.Atoi(l); err != nil || limit < 1 || limit > maxPuzzleHistory {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "limit %q: want 1…%d", l, maxPuzzleHistory))
			return
		}
	}
	att, err := ps.PuzzleAttempts(r.Context(), u.ID, g, before, limit)
	if err != nil {
		writeError(w, err)
		return
	}
	out := make([]puzzleHistoryJSON, 0, len(att))
	for _, a := range att {
		h := puzzleHistoryJSON{Game: a.Game, ID: a.Puzzle, Mode: a.Mode, Solved: a.Solved, Rated: a.Rated, At: a.At,
			Puzzle: ratingChangeJSON{math.Round(a.PuzzleBefore), math.Round(a.PuzzleAfter)}}
		if e := c.byID[a.Puzzle]; e != nil {
			h.N = e.n
		}
		if a.Rated {
			h.Player = &ratingChangeJSON{math.Round(a.PlayerBefore), math.Round(a.PlayerAfter)}
		}
		out = append(out, h)
	}
	writeJSON(w, http.StatusOK, map[string]any{"attempts": out})
}
