package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The lobby API: creating and listing games, taking and leaving seats.
// The rules of seating are the match package's; this file reads requests
// and writes answers.

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
	// KeepDeal keeps the hidden cards of Position as they are (joiners
	// must accept that); without it the server deals them afresh.
	KeepDeal bool `json:"keepDeal,omitempty"`
	origin   match.Origin
	// expires makes the game a challenge (challenges.go): zero for every
	// game POST /api/games creates.
	expires time.Time
	// id is the game's id, if not a new one's (keyedGameID).
	id string
}

func badOption(format string, args ...any) error {
	return errf(http.StatusUnprocessableEntity, "bad_option", format, args...)
}

// actor is the user as a game's owner knows them.
func actor(u *store.User) match.User { return match.User{ID: u.ID, Guest: u.Guest} }

func (s *Server) handleCreateGame(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req createReq
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	res, err := createKeyed(s, r, u, req.Game, false, func(id string) (wire.GameResult, error) {
		req.id = id
		return s.createGame(r.Context(), u, req)
	}, func(snap *match.Snapshot) wire.GameResult {
		return s.gameResult(r.Context(), match.Ack{Meta: snap.Meta, Names: match.SeatNames(snap.State)})
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, res)
}

// createGame reads a request's seats (finding invited users by name) and
// hands the game to a new owner, which checks it against the game's rules,
// stores it and starts it if no seat is left open.
func (s *Server) createGame(ctx context.Context, u *store.User, req createReq) (wire.GameResult, error) {
	if req.id == "" {
		req.id = newID()
	}
	m := match.Meta{ID: req.id, Game: req.Game, Options: req.Options, StartPosition: req.Position, Rated: req.Rated, Created: s.createdNow(),
		Origin: req.origin, KeepDeal: req.KeepDeal, Expires: req.expires}
	if req.Clock != nil {
		m.Clock = *req.Clock
	}
	var invited []int64
	for _, sr := range req.Seats {
		var se match.Seat
		switch sr.Kind {
		case "me":
			se = match.Seat{Kind: match.SeatHuman, UserID: u.ID}
		case "open":
			se = match.Seat{Kind: match.SeatOpen}
		case "invite":
			iu, err := s.store.UserByName(ctx, sr.User)
			if errors.Is(err, store.ErrNotFound) {
				return wire.GameResult{}, errNoSuchPlayer(sr.User)
			} else if err != nil {
				return wire.GameResult{}, s.internal("invite", err)
			}
			if iu.ID == u.ID || slices.Contains(invited, iu.ID) {
				return wire.GameResult{}, badOption("%q is already seated or invited", sr.User)
			}
			if err := s.notBlockedBy(ctx, iu.ID, u.ID); err != nil {
				return wire.GameResult{}, err
			}
			invited = append(invited, iu.ID)
			se = match.Seat{Kind: match.SeatInvite, UserID: iu.ID}
		case "bot":
			se = match.Seat{Kind: match.SeatBot, Level: sr.Level}
		default:
			return wire.GameResult{}, badOption("seat kind %q: want me, open, invite or bot", sr.Kind)
		}
		m.Seats = append(m.Seats, se)
	}
	if len(req.Position) > 0 && hasBot(m.Seats) {
		// A bot playing on from a position of the creator's own live game
		// would be an engine helping with it (the fair-play rule).
		if g, err := game.Lookup(req.Game); err == nil {
			if st, err := g.ParsePosition(req.Position); err == nil {
				if err := s.commandErr("own games", match.NotOwnLivePosition(ctx, liveGames{s}, u.ID, st)); err != nil {
					return wire.GameResult{}, err
				}
			}
		}
	}
	var ack match.Ack
	var err error
	if s.cfg.Cluster != nil && hasBot(m.Seats) && s.BotsFull() {
		// This node is at its bot budget: another one takes the game.
		ack, err = s.cfg.Cluster.CreateElsewhere(ctx, actor(u), m)
	} else {
		ack, err = s.games.Create(ctx, actor(u), m)
	}
	if err != nil {
		return wire.GameResult{}, s.commandErr("create game", err)
	}
	return s.gameResult(ctx, ack), nil
}

// gameResult is the answer of a lobby command: the game after it.
func (s *Server) gameResult(ctx context.Context, ack match.Ack) wire.GameResult {
	return wire.GameResult{Seq: ack.Seq(), Game: s.summary(ctx, &ack.Meta, ack.Names)}
}

func (s *Server) handleListGames(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.GameFilter{Game: q.Get("game")}
	for _, st := range q["status"] {
		if !match.Status(st).Valid() {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "status %q: want open, live, finished, aborted or imported", st))
			return
		}
		f.Statuses = append(f.Statuses, match.Status(st))
	}
	if len(f.Statuses) == 0 {
		f.Statuses = []match.Status{match.Open, match.Live}
	}
	out := wire.GameList{Games: []wire.Summary{}}
	if name := q.Get("user"); name != "" {
		u, err := s.store.UserByName(r.Context(), name)
		if errors.Is(err, store.ErrNotFound) {
			writeJSON(w, http.StatusOK, out)
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
	// The public list (no user named) shows the live games people are
	// playing now and the open games anyone may join: it leaves out the
	// unattended live ones and the open ones for invited players only
	// (match.Meta.Public), and reads on to fill the page (a few pages at
	// most: unattended games are old, so they gather at the end of the
	// list, not the start).
	public := f.UserID == 0
	// Asking the owners has a budget: an owner being taken over would
	// hold the list for seconds (its games are listed meanwhile).
	ask, cancel := context.WithTimeout(r.Context(), presenceBudget)
	defer cancel()
	for page := 0; page < 4; page++ {
		games, err := s.store.Games(r.Context(), f)
		if err != nil {
			writeError(w, s.internal("list games", err))
			return
		}
		for i := range games {
			if len(out.Games) < f.Limit && (!public || games[i].Public() && s.attended(ask, &games[i])) {
				out.Games = append(out.Games, s.summary(r.Context(), &games[i], nil))
			}
		}
		if !public || len(out.Games) >= f.Limit || len(games) < f.Limit {
			break
		}
		f.Before = games[len(games)-1].Created
	}
	writeJSON(w, http.StatusOK, out)
}

// presenceBudget bounds the time one list spends asking owners.
const presenceBudget = time.Second

// attended reports whether the public list shows a game: every game but a
// live one its people have left (match.Unattended). Presence is the
// owner's, so the game's owner is asked, here or on its node; a game whose
// owner cannot say is listed.
func (s *Server) attended(ctx context.Context, m *match.Meta) bool {
	if !match.MayBeUnattended(m) {
		return true
	}
	ack, err := s.tell(ctx, m.ID, match.Command{Kind: match.CmdRoom})
	if err != nil {
		return true
	}
	return !match.UnattendedFor(&ack.Meta, ack.Room, s.now(), s.cfg.UnattendedAfter)
}

// lobbyAction runs a command of the path's game and answers with the game
// after it.
func (s *Server) lobbyAction(w http.ResponseWriter, r *http.Request, c match.Command) {
	c, err := keyed(r, c)
	if err != nil {
		writeError(w, err)
		return
	}
	ack, err := s.command(r.Context(), r.PathValue("id"), c)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, s.gameResult(r.Context(), ack))
}

func (s *Server) handleJoin(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Seat *int `json:"seat"`
		// AcceptDeal agrees to a game that keeps its creator's hidden
		// cards (the summary's start.keepDeal).
		AcceptDeal bool `json:"acceptDeal"`
	}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	if err := s.botMayJoin(r.Context(), u, r.PathValue("id")); err != nil { // bots.go
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
	s.lobbyAction(w, r, match.Command{Kind: match.CmdJoin, User: actor(u), Seat: want, AcceptDeal: req.AcceptDeal})
}

func (s *Server) handleLeave(w http.ResponseWriter, r *http.Request, u *store.User) {
	s.lobbyAction(w, r, match.Command{Kind: match.CmdLeave, User: actor(u)})
}

func (s *Server) handleAbort(w http.ResponseWriter, r *http.Request, u *store.User) {
	s.lobbyAction(w, r, match.Command{Kind: match.CmdAbort, User: actor(u)})
}
