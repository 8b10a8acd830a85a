package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// BotLevels are the server-side bots a seat may have. Outside programs
// (exec:) and hand-tuned search budgets are deliberately not offered: a
// seat must not be able to run a command or burn the server's cores.
var BotLevels = []string{"random", "greedy", "easy", "medium", "hard"}

type seatReq struct {
	Kind  string `json:"kind"`
	User  string `json:"user,omitempty"`
	Level string `json:"level,omitempty"`
}

type createReq struct {
	Game     string            `json:"game"`
	Options  map[string]string `json:"options,omitempty"`
	Seats    []seatReq         `json:"seats,omitempty"`
	Clock    *match.Clock      `json:"clock,omitempty"`
	Rated    bool              `json:"rated,omitempty"`
	Position json.RawMessage   `json:"position,omitempty"`
}

func badOption(format string, args ...any) error {
	return errf(http.StatusUnprocessableEntity, "bad_option", format, args...)
}

func (s *Server) handleCreateGame(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req createReq
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	sum, err := s.createGame(r.Context(), u, req)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]any{"game": sum})
}

// createGame validates a request, stores the game and starts its owner.
func (s *Server) createGame(ctx context.Context, u *store.User, req createReq) (summaryJSON, error) {
	g, err := game.Lookup(req.Game)
	if err != nil {
		return summaryJSON{}, badOption("unknown game %q (games: %v)", req.Game, game.Names())
	}
	meta := match.Meta{ID: newID(), Game: g.Name(), Status: match.Open, CreatorID: u.ID, Created: s.createdNow(), ToMove: -1, Rated: req.Rated}
	var st game.State
	if len(req.Position) > 0 {
		if len(req.Options) > 0 {
			return summaryJSON{}, badOption("options cannot be combined with a position: a position carries its own")
		}
		st, err = g.ParsePosition(req.Position)
		if err != nil {
			return summaryJSON{}, errf(http.StatusUnprocessableEntity, "bad_position", "%v", err)
		}
		if st.Outcome().Over() {
			return summaryJSON{}, errf(http.StatusUnprocessableEntity, "bad_position", "the position is already over")
		}
		meta.StartPosition = req.Position
		meta.Options = map[string]string{}
	} else {
		opts, err := game.Complete(g, req.Options)
		if err != nil {
			return summaryJSON{}, badOption("%v", err)
		}
		meta.Options, meta.Seed = opts, s.cfg.Seed()
		st, err = g.New(opts, meta.Seed)
		if err != nil {
			return summaryJSON{}, badOption("%v", err)
		}
	}
	n := st.NumPlayers()
	seats := req.Seats
	if len(seats) == 0 {
		seats = []seatReq{{Kind: "me"}}
		for len(seats) < n {
			seats = append(seats, seatReq{Kind: "open"})
		}
	}
	if len(seats) != n {
		return summaryJSON{}, badOption("%s with these options has %d seats; %d given", g.Title(), n, len(seats))
	}
	var invited []int64
	me := false
	for _, sr := range seats {
		var se match.Seat
		switch sr.Kind {
		case "me":
			if me {
				return summaryJSON{}, badOption("you can take only one seat")
			}
			me = true
			se = match.Seat{Kind: match.SeatHuman, UserID: u.ID}
		case "open":
			se = match.Seat{Kind: match.SeatOpen}
		case "invite":
			iu, err := s.store.UserByName(ctx, sr.User)
			if errors.Is(err, store.ErrNotFound) {
				return summaryJSON{}, badOption("no user %q to invite", sr.User)
			} else if err != nil {
				return summaryJSON{}, s.internal("invite", err)
			}
			if iu.ID == u.ID || slices.Contains(invited, iu.ID) {
				return summaryJSON{}, badOption("%q is already seated or invited", sr.User)
			}
			invited = append(invited, iu.ID)
			se = match.Seat{Kind: match.SeatInvite, UserID: iu.ID}
		case "bot":
			if !slices.Contains(BotLevels, sr.Level) {
				return summaryJSON{}, badOption("bot level %q: want one of %v", sr.Level, BotLevels)
			}
			if a, err := agent.New(sr.Level, g, 1); err != nil {
				return summaryJSON{}, badOption("bot level %q is not available: %v", sr.Level, err)
			} else {
				agent.Close(a)
			}
			if req.Rated {
				return summaryJSON{}, badOption("rated games are between registered users; no bots")
			}
			se = match.Seat{Kind: match.SeatBot, Level: sr.Level}
		default:
			return summaryJSON{}, badOption("seat kind %q: want me, open, invite or bot", sr.Kind)
		}
		meta.Seats = append(meta.Seats, se)
	}
	if req.Rated && u.Guest && me {
		return summaryJSON{}, badOption("rated games are for registered users")
	}
	if err := checkClock(req.Clock, &meta.Clock); err != nil {
		return summaryJSON{}, err
	}
	if err := s.store.CreateGame(ctx, &meta); err != nil {
		return summaryJSON{}, s.internal("create game", err)
	}
	s.log.Info("game created", "game", meta.ID, "game_name", meta.Game, "seats", n, "user", u.ID)
	rm, err := s.hub.load(ctx, meta)
	if err != nil {
		return summaryJSON{}, s.internal("load game", err)
	}
	var sum summaryJSON
	var startErr error
	if err := rm.call(ctx, func() {
		startErr = rm.startIfFull(ctx)
		sum = rm.summary()
		if len(invited) > 0 {
			msg := marshal(map[string]any{"type": "invite", "game": sum})
			for _, id := range invited {
				s.hub.toUser(id, msg)
			}
		}
	}); err != nil {
		return summaryJSON{}, s.internal("start game", err)
	}
	if startErr != nil {
		return summaryJSON{}, startErr
	}
	return sum, nil
}

func checkClock(c *match.Clock, out *match.Clock) error {
	if c == nil || c.Kind == "" || c.Kind == match.ClockNone {
		*out = match.Clock{Kind: match.ClockNone}
		return nil
	}
	switch c.Kind {
	case match.ClockRealtime:
		if c.InitialMs < 1000 || c.InitialMs > 24*3600*1000 || c.IncrementMs < 0 || c.IncrementMs > 600*1000 || c.Days != 0 {
			return badOption("realtime clock: initialMs 1000…86400000, incrementMs 0…600000")
		}
	case match.ClockCorrespondence:
		if c.Days < 1 || c.Days > 14 || c.InitialMs != 0 || c.IncrementMs != 0 {
			return badOption("correspondence clock: days 1…14")
		}
	default:
		return badOption("clock kind %q: want none, realtime or correspondence", c.Kind)
	}
	*out = *c
	return nil
}

func (s *Server) handleListGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.GameFilter{Game: q.Get("game")}
	for _, st := range q["status"] {
		switch match.Status(st) {
		case match.Open, match.Live, match.Finished, match.Aborted, match.Imported:
			f.Statuses = append(f.Statuses, match.Status(st))
		default:
			writeError(w, errf(http.StatusBadRequest, "bad_request", "status %q: want open, live, finished, aborted or imported", st))
			return
		}
	}
	if len(f.Statuses) == 0 {
		f.Statuses = []match.Status{match.Open, match.Live}
	}
	if name := q.Get("user"); name != "" {
		u, err := s.store.UserByName(r.Context(), name)
		if errors.Is(err, store.ErrNotFound) {
			writeJSON(w, http.StatusOK, map[string]any{"games": []summaryJSON{}})
			return
		} else if err != nil {
			writeError(w, s.internal("list games", err))
			return
		}
		f.UserID = u.ID
	}
	if b := q.Get("before"); b != "" {
		t, err := time.Parse(time.RFC3339Nano, b)
		if err != nil {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "before: want an RFC 3339 time"))
			return
		}
		f.Before = t
	}
	var err error
	if f.Limit, err = queryInt(r, "limit", 50, 1, 200); err != nil {
		writeError(w, err)
		return
	}
	games, err := s.store.Games(r.Context(), f)
	if err != nil {
		writeError(w, s.internal("list games", err))
		return
	}
	out := make([]summaryJSON, len(games))
	for i := range games {
		out[i] = s.summary(r.Context(), &games[i], nil)
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out})
}

// gameState is a consistent picture of one game: from its room when it has
// one, else from the store.
type gameState struct {
	meta  match.Meta
	st    game.State
	moves []match.Move
	sum   summaryJSON
}

func (s *Server) loadGame(ctx context.Context, id string) (*gameState, error) {
	if rm := s.hub.room(id); rm != nil {
		var gs gameState
		err := rm.call(ctx, func() {
			gs = gameState{meta: rm.meta, st: rm.st.Clone(), moves: slices.Clone(rm.moves), sum: rm.summary()}
		})
		if err == nil {
			return &gs, nil
		}
		if !errors.Is(err, errRoomClosed) {
			return nil, s.internal("load game", err)
		}
	}
	meta, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errNotFound
	} else if err != nil {
		return nil, s.internal("load game", err)
	}
	moves, err := s.store.Moves(ctx, id)
	if err != nil {
		return nil, s.internal("load moves", err)
	}
	st, err := replay(&meta, moves, -1)
	if err != nil {
		return nil, s.internal("replay "+id, err)
	}
	return &gameState{meta: meta, st: st, moves: moves, sum: s.summary(ctx, &meta, st)}, nil
}

func (s *Server) handleGetGame(w http.ResponseWriter, r *http.Request) {
	u, err := s.authenticate(r)
	if err != nil {
		writeError(w, err)
		return
	}
	gs, err := s.loadGame(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	seat := -1
	if u != nil {
		for i, se := range gs.meta.Seats {
			if se.Kind == match.SeatHuman && se.UserID == u.ID {
				seat = i
			}
		}
	}
	v, err := game.View(gs.st, seat)
	if err != nil {
		writeError(w, s.internal("view", err))
		return
	}
	resp := map[string]any{"game": gs.sum, "seat": seat, "moves": movesJSON(gs.moves), "view": v}
	if gs.meta.Status == match.Live && seat >= 0 && seat == gs.st.ToMove() {
		resp["legal"] = game.LegalTexts(gs.st)
	}
	writeJSON(w, http.StatusOK, resp)
}

// inRoom runs fn on the room of an open or live game. A game without a room
// is over (or unknown): fn is not run and the answer says which.
func (s *Server) inRoom(ctx context.Context, id string, fn func(rm *room) error) error {
	rm := s.hub.room(id)
	if rm != nil {
		var ferr error
		err := rm.call(ctx, func() { ferr = fn(rm) })
		if err == nil {
			return ferr
		}
		if !errors.Is(err, errRoomClosed) {
			return s.internal("room", err)
		}
	}
	meta, err := s.store.Game(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	} else if err != nil {
		return s.internal("game", err)
	}
	switch meta.Status {
	case match.Finished, match.Imported:
		return errf(http.StatusConflict, "game_over", "the game is over")
	case match.Aborted:
		return errf(http.StatusConflict, "conflict", "the game was aborted")
	}
	return errUnavailable
}

func (s *Server) lobbyAction(w http.ResponseWriter, r *http.Request, u *store.User, fn func(ctx context.Context, rm *room) error) {
	var sum summaryJSON
	err := s.inRoom(r.Context(), r.PathValue("id"), func(rm *room) error {
		if err := fn(r.Context(), rm); err != nil {
			return err
		}
		sum = rm.summary()
		return nil
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": sum})
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Seat *int `json:"seat"`
	}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	want := -1
	if req.Seat != nil {
		want = *req.Seat
		if want < 0 {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "no seat %d", want))
			return
		}
	}
	s.lobbyAction(w, r, u, func(ctx context.Context, rm *room) error { return rm.join(ctx, u, want) })
}

func (s *Server) handleLeave(w http.ResponseWriter, r *http.Request, u *store.User) {
	s.lobbyAction(w, r, u, func(ctx context.Context, rm *room) error { return rm.leave(ctx, u) })
}

func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request, u *store.User) {
	s.lobbyAction(w, r, u, func(ctx context.Context, rm *room) error { return rm.abort(ctx, u) })
}

func (s *Server) handleResign(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Ply *int `json:"ply"`
	}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	s.lobbyAction(w, r, u, func(ctx context.Context, rm *room) error {
		if req.Ply != nil && *req.Ply != len(rm.moves) {
			return errf(http.StatusConflict, "stale_ply", "ply %d is not the current one: %d moves have been played", *req.Ply, len(rm.moves))
		}
		return rm.resign(u)
	})
}

type moveReq struct {
	Ply  *int   `json:"ply"`
	Move string `json:"move"`
	Seat *int   `json:"seat,omitempty"`
}

// move plays a move request for u in game id; it is shared by the HTTP
// endpoint and both WebSocket channels.
func (s *Server) move(ctx context.Context, u *store.User, id string, req moveReq) (match.Move, error) {
	start := time.Now()
	if req.Ply == nil {
		return match.Move{}, errf(http.StatusBadRequest, "bad_request", "ply is required: the number of moves you have seen")
	}
	if req.Move == "" || len(req.Move) > 200 {
		return match.Move{}, errf(http.StatusBadRequest, "bad_request", "move is required")
	}
	seat := -1
	if req.Seat != nil {
		seat = *req.Seat
		if seat < 0 {
			return match.Move{}, errf(http.StatusForbidden, "forbidden", "seat %d is not yours", seat)
		}
	}
	var mv match.Move
	err := s.inRoom(ctx, id, func(rm *room) error {
		var err error
		mv, err = rm.humanMove(u, seat, *req.Ply, req.Move)
		return err
	})
	if err == nil {
		s.metrics.latency.Observe(time.Since(start).Seconds())
	}
	return mv, err
}

func (s *Server) handleMove(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req moveReq
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	id := r.PathValue("id")
	mv, err := s.move(r.Context(), u, id, req)
	if err != nil {
		writeError(w, err)
		return
	}
	resp := map[string]any{"ply": mv.Ply, "seat": mv.Seat, "move": mv.Text}
	if rm := s.hub.room(id); rm != nil {
		rm.call(r.Context(), func() { resp["toMove"], resp["status"] = rm.meta.ToMove, rm.meta.Status })
	}
	if _, ok := resp["status"]; !ok {
		resp["toMove"], resp["status"] = -1, match.Finished
	}
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) handleNotifications(w http.ResponseWriter, r *http.Request, u *store.User) {
	games, err := s.store.Games(r.Context(), store.GameFilter{Statuses: []match.Status{match.Live}, UserID: u.ID, ToMove: true, Limit: 200})
	if err != nil {
		writeError(w, s.internal("notifications", err))
		return
	}
	type turn struct {
		ID       string     `json:"id"`
		Game     string     `json:"game"`
		Seat     int        `json:"seat"`
		Ply      int        `json:"ply"`
		Since    *time.Time `json:"since"`
		Deadline *time.Time `json:"deadline"`
	}
	out := []turn{}
	for _, g := range games {
		t := turn{ID: g.ID, Game: g.Game, Seat: g.ToMove, Ply: g.Ply, Deadline: timePtr(g.Deadline), Since: timePtr(g.Started)}
		if rm := s.hub.room(g.ID); rm != nil {
			rm.call(r.Context(), func() {
				if n := len(rm.moves); n > 0 {
					t.Since = timePtr(rm.moves[n-1].At)
				}
			})
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b turn) int {
		if a.Since == nil || b.Since == nil {
			return 0
		}
		return a.Since.Compare(*b.Since)
	})
	writeJSON(w, http.StatusOK, map[string]any{"yourTurn": out})
}

func (s *Server) handleCatalog(w http.ResponseWriter, r *http.Request) {
	type optionJSON struct {
		Name    string   `json:"name"`
		Doc     string   `json:"doc"`
		Default string   `json:"default"`
		Values  []string `json:"values,omitempty"`
		Min     *int     `json:"min,omitempty"`
		Max     *int     `json:"max,omitempty"`
		House   bool     `json:"house,omitempty"`
	}
	type seatsJSON struct {
		Min     int `json:"min"`
		Max     int `json:"max"`
		Default int `json:"default"`
	}
	type gameJSON struct {
		Name    string       `json:"name"`
		Title   string       `json:"title"`
		Seats   seatsJSON    `json:"seats"`
		Options []optionJSON `json:"options"`
	}
	out := []gameJSON{}
	for _, name := range game.Names() {
		g, _ := game.Lookup(name)
		gj := gameJSON{Name: name, Title: g.Title(), Options: []optionJSON{}}
		f := g.Facts()
		n, _ := game.NumPlayers(g, nil)
		gj.Seats = seatsJSON{f.MinPlayers, f.MaxPlayers, n}
		for _, o := range g.Options() {
			oj := optionJSON{Name: o.Name, Doc: o.Doc, Default: o.Default, Values: o.Values, House: o.House}
			if o.IsInt() {
				oj.Min, oj.Max = &o.Min, &o.Max
			}
			gj.Options = append(gj.Options, oj)
		}
		out = append(out, gj)
	}
	writeJSON(w, http.StatusOK, map[string]any{"games": out, "bots": BotLevels})
}

func (s *Server) handleLeaderboard(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("game")
	if _, err := game.Lookup(name); err != nil {
		writeError(w, errNotFound)
		return
	}
	limit, err := queryInt(r, "limit", 50, 1, 200)
	if err != nil {
		writeError(w, err)
		return
	}
	rows, err := s.store.Leaderboard(r.Context(), name, maxLeaderboardDeviation, limit)
	if err != nil {
		writeError(w, s.internal("leaderboard", err))
		return
	}
	type row struct {
		User      string  `json:"user"`
		Rating    float64 `json:"rating"`
		Deviation float64 `json:"deviation"`
		Games     int     `json:"games"`
	}
	out := []row{}
	for _, x := range rows {
		out = append(out, row{x.Name, round1(x.Rating.Rating), round1(x.Deviation), x.Games})
	}
	writeJSON(w, http.StatusOK, map[string]any{"game": name, "players": out})
}

// maxLeaderboardDeviation keeps players with too few games off the
// leaderboard (a deviation this high means the rating is still a guess).
const maxLeaderboardDeviation = 110
