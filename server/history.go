package server

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The game history (issue 24.7): GET /api/users/{name}/games lists a
// player's finished games under filters, a page at a time, and
// GET /api/users/{name}/games.jsonl exports them as records, one JSON
// record per line. Only finished games are listed: an open or live game has
// no result to filter by, and its record would be a game in progress (the
// fair-play rule keeps those from every engine). A guest's history is
// listed like anyone's: the same games are public already (the game list's
// user=, the profile's statistics and every game's page).

const (
	historyPageDefault = 20
	historyPageMax     = 100
	exportDefault      = 100
	// exportMax bounds the records one export request builds (each is a
	// replay of its game): more is paged with the cursor.
	exportMax = 200
	// exportsAtOnce bounds the exports one node builds at a time,
	// whoever asks.
	exportsAtOnce = 2
	// exportRate and exportBurst are each client address's export budget,
	// shared by every node (in the store): a burst of exportBurst, then
	// one per exportEvery. Off when the server's rate limit is (--rate 0).
	exportEvery = 10 * time.Second
	exportBurst = 6
	// maxHistoryValue bounds each query value (a cursor is about 60).
	maxHistoryValue = 200
)

// exportSlots is the node's room for exports being built.
var exportSlots = make(chan struct{}, exportsAtOnce)

// historyQuery is a history request's filters, read and checked.
type historyQuery struct {
	f      store.HistoryFilter
	filter string // the filters in a canonical form: what a cursor is bound to
}

// historyBad is the 400 for a bad value of one query parameter.
func historyBad(param, format string, args ...any) error {
	return errf(http.StatusBadRequest, "bad_request", "%s: %s", param, fmt.Sprintf(format, args...))
}

// parseHistoryDay reads a from/to value: a day (2026-12-01, UTC) or an RFC
// 3339 time. A day given as to means through the end of that day.
func parseHistoryDay(param, v string, end bool) (time.Time, error) {
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		if end {
			t = t.AddDate(0, 0, 1)
		}
		return t, nil
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		return t, historyBad(param, "%q is not a day (2026-12-01) or an RFC 3339 time", v)
	}
	return t, nil
}

// cursorID is what a game id in a cursor may be.
var cursorID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// readHistoryQuery checks every filter of a history request and resolves
// the player and the opponent. maxLimit is the page size cap.
func (s *Server) readHistoryQuery(ctx context.Context, r *http.Request, player *store.User, defLimit, maxLimit int) (historyQuery, error) {
	q := r.URL.Query()
	for key, vs := range q {
		switch key {
		case "game", "result", "opponent", "rated", "clock", "from", "to", "cursor", "limit":
			if len(vs) > 1 {
				return historyQuery{}, historyBad(key, "given %d times; give it once", len(vs))
			}
			// No value of these is long; a long one is refused before it
			// is looked up or quoted back.
			if len(vs[0]) > maxHistoryValue {
				return historyQuery{}, historyBad(key, "longer than %d bytes", maxHistoryValue)
			}
		default:
			return historyQuery{}, historyBad(key, "no such parameter (game, result, opponent, rated, clock, from, to, cursor, limit)")
		}
	}
	hq := historyQuery{f: store.HistoryFilter{UserID: player.ID}}
	f := &hq.f
	var err error
	if g := q.Get("game"); g != "" {
		if _, err := game.Lookup(g); err != nil {
			return hq, historyBad("game", "no game %q on this site", g)
		}
		f.Game = g
	}
	switch v := q.Get("result"); v {
	case "", store.OutcomeWin, store.OutcomeDraw, store.OutcomeLoss:
		f.Outcome = v
	default:
		return hq, historyBad("result", "%q: want win, draw or loss", v)
	}
	opponent := ""
	if name := q.Get("opponent"); name != "" {
		o, err := s.store.UserByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			return hq, historyBad("opponent", "no player named %q", name)
		}
		if err != nil {
			return hq, s.internal("history opponent", err)
		}
		f.OpponentID, opponent = o.ID, strconv.FormatInt(o.ID, 10)
	}
	switch v := q.Get("rated"); v {
	case "":
	case "true", "false":
		b := v == "true"
		f.Rated = &b
	default:
		return hq, historyBad("rated", "%q: want true or false", v)
	}
	if f.Clock, f.Realtime, err = readHistoryClock(q.Get("clock")); err != nil {
		return hq, err
	}
	if v := q.Get("from"); v != "" {
		if f.From, err = parseHistoryDay("from", v, false); err != nil {
			return hq, err
		}
	}
	if v := q.Get("to"); v != "" {
		if f.To, err = parseHistoryDay("to", v, true); err != nil {
			return hq, err
		}
	}
	if !f.From.IsZero() && !f.To.IsZero() && !f.From.Before(f.To) {
		return hq, historyBad("to", "the range ends before it starts (from %s)", f.From.UTC().Format(time.RFC3339))
	}
	if f.Limit, err = queryInt(r, "limit", defLimit, 1, maxLimit); err != nil {
		return hq, err
	}
	// The cursor is bound to the player and every filter but the page
	// size: a cursor of another list is refused, not read as a position
	// in this one.
	hq.filter = strings.Join([]string{strconv.FormatInt(player.ID, 10), f.Game, f.Outcome, opponent, q.Get("rated"), q.Get("clock"),
		strconv.FormatInt(f.From.UnixMilli(), 10), strconv.FormatInt(f.To.UnixMilli(), 10)}, "\x00")
	if c := q.Get("cursor"); c != "" {
		pos, err := readCursor(c, hq.filter)
		if err != nil {
			return hq, err
		}
		f.After = &pos
	}
	return hq, nil
}

// cursorTag is the filter a cursor belongs to, shortened.
func cursorTag(filter string) string {
	h := sha256.Sum256([]byte(filter))
	return hex.EncodeToString(h[:8])
}

// makeCursor is the cursor that continues after game m: opaque to clients
// (base64url of "h1.<tag>.<finished ms>.<id>"). It is not secret — a forged
// one can only name another place in the same player's list, which anyone
// may read whole.
func makeCursor(m *match.Meta, filter string) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "h1.%s.%d.%s", cursorTag(filter), m.Finished.UnixMilli(), m.ID))
}

// readCursor reads a cursor made by makeCursor for the same filters.
func readCursor(c, filter string) (store.HistoryPos, error) {
	bad := historyBad("cursor", "not a cursor of this list (take it from the answer's next, with the same filters)")
	raw, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(c) > 200 {
		return store.HistoryPos{}, bad
	}
	parts := strings.Split(string(raw), ".")
	if len(parts) != 4 || parts[0] != "h1" || !cursorID.MatchString(parts[3]) {
		return store.HistoryPos{}, bad
	}
	if parts[1] != cursorTag(filter) {
		return store.HistoryPos{}, historyBad("cursor", "it belongs to a list with other filters (or another player): start again without it")
	}
	at, err := strconv.ParseInt(parts[2], 10, 64)
	if err != nil || at < 0 {
		return store.HistoryPos{}, bad
	}
	return store.HistoryPos{Finished: time.UnixMilli(at), ID: parts[3]}, nil
}

// history is the store's game history; every store.Store of the project
// keeps it (store/internal/sqlstore).
func (s *Server) history() (store.History, error) {
	h, ok := s.store.(store.History)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no game history")
	}
	return h, nil
}

// historyPage reads the path's player and the query, and one page of the
// player's history: the games and the cursor of the next page ("" at the
// end). On an error the request has been answered.
func (s *Server) historyPage(w http.ResponseWriter, r *http.Request, defLimit, maxLimit int) (*store.User, []match.Meta, string, bool) {
	ctx := r.Context()
	h, err := s.history()
	if err != nil {
		writeError(w, err)
		return nil, nil, "", false
	}
	player, err := s.store.UserByName(ctx, r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, errNotFound)
		return nil, nil, "", false
	}
	if err != nil {
		writeError(w, s.internal("user", err))
		return nil, nil, "", false
	}
	hq, err := s.readHistoryQuery(ctx, r, &player, defLimit, maxLimit)
	if err != nil {
		writeError(w, err)
		return nil, nil, "", false
	}
	// One more than the page tells whether there is a next page.
	want := hq.f.Limit
	hq.f.Limit++
	games, err := h.GameHistory(ctx, hq.f)
	if err != nil {
		writeError(w, s.internal("game history", err))
		return nil, nil, "", false
	}
	next := ""
	if len(games) > want {
		games = games[:want]
		next = makeCursor(&games[want-1], hq.filter)
	}
	return &player, games, next, true
}

// historyEntry is one game of a history: the game's summary and the
// player's side of it.
type historyEntry struct {
	// Outcome is the player's: win, draw or loss.
	Outcome string `json:"outcome"`
	// Opponents are the other seats: user names, a server bot as
	// "bot <level>".
	Opponents []string `json:"opponents"`
	// RatingChange is the player's, in a rated game (when kept).
	RatingChange *wire.RatingChange `json:"ratingChange,omitempty"`
	Game         wire.Summary       `json:"game"`
}

// historyList is the answer of GET /api/users/{name}/games.
type historyList struct {
	User  string         `json:"user"`
	Games []historyEntry `json:"games"`
	// Next is the cursor of the next page; null on the last.
	Next *string `json:"next"`
}

func (s *Server) handleHistory(w http.ResponseWriter, r *http.Request) {
	player, games, next, ok := s.historyPage(w, r, historyPageDefault, historyPageMax)
	if !ok {
		return
	}
	ctx := r.Context()
	out := historyList{User: player.Name, Games: make([]historyEntry, 0, len(games))}
	if next != "" {
		out.Next = &next
	}
	for i := range games {
		m := &games[i]
		e := historyEntry{Outcome: outcomeOf(m, player.ID), Opponents: []string{}, Game: s.summary(ctx, m, nil)}
		for j, se := range m.Seats {
			switch {
			case se.Kind == match.SeatHuman && se.UserID == player.ID:
				if j < len(e.Game.Seats) {
					e.RatingChange = e.Game.Seats[j].RatingChange
				}
			case se.Kind == match.SeatBot:
				e.Opponents = append(e.Opponents, "bot "+se.Level)
			case se.UserID != 0:
				e.Opponents = append(e.Opponents, s.userName(ctx, se.UserID))
			}
		}
		out.Games = append(out.Games, e)
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, out)
}

// fileSafe keeps a name's letters, digits, '-' and '_' for a file name.
var fileSafe = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

func (s *Server) handleHistoryExport(w http.ResponseWriter, r *http.Request) {
	if s.cfg.RateLimit > 0 {
		ok, err := sharedBucket{prefix: "export:", rate: 1 / exportEvery.Seconds(), burst: exportBurst}.allow(r.Context(), s.store, s.limitKey(r), s.now())
		if err != nil {
			writeError(w, s.internal("export limit", err))
			return
		}
		if !ok {
			w.Header().Set("Retry-After", strconv.Itoa(int(exportEvery.Seconds())))
			writeError(w, errf(http.StatusTooManyRequests, "rate_limited", "too many exports from your address; one every %s after the first %d", exportEvery, exportBurst))
			return
		}
	}
	select {
	case exportSlots <- struct{}{}:
		defer func() { <-exportSlots }()
	default:
		w.Header().Set("Retry-After", "5")
		writeError(w, errf(http.StatusTooManyRequests, "rate_limited", "the server is building as many exports as it builds at once; try again in a few seconds"))
		return
	}
	player, games, next, ok := s.historyPage(w, r, exportDefault, exportMax)
	if !ok {
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/x-ndjson; charset=utf-8")
	h.Set("Content-Disposition", `attachment; filename="tabula-`+fileSafe.ReplaceAllString(player.Name, "_")+`-games.jsonl"`)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Record-Count", strconv.Itoa(len(games)))
	if next != "" {
		h.Set("X-Next-Cursor", next)
	}
	w.WriteHeader(http.StatusOK)
	rc := http.NewResponseController(w)
	defer rc.Flush()
	enc := json.NewEncoder(w)
	for i := range games {
		if r.Context().Err() != nil {
			return
		}
		snap, err := s.snapshot(r.Context(), games[i].ID)
		if err == nil {
			var rec any
			if rec, err = s.record(r.Context(), snap); err == nil {
				err = enc.Encode(rec)
			}
		}
		if err != nil {
			// The status is sent: the answer ends short of X-Record-Count
			// lines, which is how a client tells.
			s.log.Warn("export", "game", games[i].ID, "err", err)
			return
		}
		if i%20 == 19 {
			_ = rc.Flush()
		}
	}
}
