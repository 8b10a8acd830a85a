package server

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// The tournaments API: creating, listing, reading, joining and withdrawing
// from tournaments, and the TRF report. What a tournament may be is
// director.Spec's rule; running it is the director's (one per tournament
// on the whole site, by its lease in the store); this file reads requests,
// applies the quotas and writes answers.

// tournamentStore is the store's tournaments; every store.Store of the
// project has them (store/internal/sqlstore).
func (s *Server) tournamentStore() (store.Tournaments, error) {
	ts, ok := s.store.(store.Tournaments)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no tournaments")
	}
	return ts, nil
}

// directorGames is the director's way to the games: created on this node
// as the lobby creates them, commands run by the game's owner wherever it
// is.
type directorGames struct{ s *Server }

func (g directorGames) Create(ctx context.Context, creator match.User, m match.Meta) (match.Ack, error) {
	return g.s.games.Create(ctx, creator, m)
}

func (g directorGames) Do(ctx context.Context, id string, c match.Command) (match.Ack, error) {
	return g.s.tell(ctx, id, c)
}

// startDirector starts this node's tournament director, which runs until
// the server shuts down.
func (s *Server) startDirector() {
	ds, ok := s.store.(director.Store)
	if !ok {
		return
	}
	d := director.New(director.Config{Store: s.directorStore(ds) /* tells the pages (tournamentlive.go) */, Games: directorGames{s}, Node: "node-" + newID(), Now: s.now, Log: s.log,
		Started: s.tournamentStarted}) // the players' inbox notices (tournamentstart.go)
	s.tournaments.director.Store(d)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		d.Run(s.ctx)
	}()
}

// tournamentNode is this node's part in running tournaments.
type tournamentNode struct {
	// director is the node's director once Start has started it
	// (requests may come before).
	director atomic.Pointer[director.Director]
	// quotaMu serialises, on this node, each count of a user's
	// tournaments with the creation or join it allows, so that requests
	// at once cannot all pass a quota with one place left; the user's
	// creation hold in the store (holdCreations) does it between nodes.
	quotaMu sync.Mutex
	holder  struct {
		once sync.Once
		id   string
	}
	// live is the node's streams of tournament pages (tournamentlive.go).
	live tournamentLive
}

// holdQuota serialises user uid's quota check and what it allows, on the
// whole site; the caller unlocks the returned mutex.
func (s *Server) holdQuota(ctx context.Context, uid int64) (*sync.Mutex, error) {
	tn := &s.tournaments
	tn.holder.once.Do(func() { tn.holder.id, _ = account.NewSecret("") })
	tn.quotaMu.Lock()
	if err := s.holdCreations(ctx, uid, tn.holder.id); err != nil {
		tn.quotaMu.Unlock()
		return nil, s.internal("hold creations", err)
	}
	return &tn.quotaMu, nil
}

// pokeDirector has the director look at its tournaments now (one was
// created or joined), not at its next tick.
func (s *Server) pokeDirector() {
	if d := s.tournaments.director.Load(); d != nil {
		d.Poke()
	}
}

// The wire form of tournaments.

type tournamentReq struct {
	Name          string            `json:"name"`
	Format        string            `json:"format"`
	Game          string            `json:"game"`
	Options       map[string]string `json:"options,omitempty"`
	Clock         *match.Clock      `json:"clock,omitempty"`
	Start         string            `json:"start"`
	Rounds        int               `json:"rounds,omitempty"`
	Double        bool              `json:"double,omitempty"`
	Rated         bool              `json:"rated,omitempty"`
	Password      string            `json:"password,omitempty"`
	MinRatedGames int               `json:"minRatedGames,omitempty"`
	Bots          bool              `json:"bots,omitempty"`
	MaxPlayers    int               `json:"maxPlayers,omitempty"`
	// Minutes and Berserk are an arena's: its length and whether its
	// players may berserk.
	Minutes int  `json:"minutes,omitempty"`
	Berserk bool `json:"berserk,omitempty"`
}

type tournamentJSON struct {
	ID            string            `json:"id"`
	Name          string            `json:"name"`
	Format        string            `json:"format"`
	Game          string            `json:"game"`
	Options       map[string]string `json:"options"`
	Clock         match.Clock       `json:"clock"`
	Start         time.Time         `json:"start"`
	Rounds        int               `json:"rounds"`
	Double        bool              `json:"double,omitempty"`
	Rated         bool              `json:"rated"`
	Password      bool              `json:"password"`
	MinRatedGames int               `json:"minRatedGames"`
	Bots          bool              `json:"bots"`
	MaxPlayers    int               `json:"maxPlayers"`
	Creator       string            `json:"creator"`
	Status        string            `json:"status"`
	Finished      *time.Time        `json:"finished,omitempty"`
	Note          string            `json:"note,omitempty"`
}

type tournamentPlayerJSON struct {
	Number    int    `json:"number"`
	Name      string `json:"name"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
	// Bot marks a bot account (the page shows BOT beside its name in the
	// standings and pairings too).
	Bot bool `json:"bot,omitempty"`
	// Level is a built-in bot's level (tournamentserverbots.go).
	Level string `json:"level,omitempty"`
	// Paused marks a Swiss player who paused: not paired from the next
	// round until they resume.
	Paused bool `json:"paused,omitempty"`
}

type standingJSON struct {
	Rank      int                `json:"rank"`
	Name      string             `json:"name"`
	Points    float64            `json:"points"`
	TieBreaks map[string]float64 `json:"tieBreaks"`
	Wins      int                `json:"wins"`
	Draws     int                `json:"draws"`
	Losses    int                `json:"losses"`
	Byes      int                `json:"byes"`
}

type boardJSON struct {
	Board  int    `json:"board"`
	White  string `json:"white"`
	Black  string `json:"black,omitempty"`
	GameID string `json:"gameId,omitempty"`
	Result string `json:"result"`
	// WhiteBerserk and BlackBerserk are an arena's: who berserked in
	// the board's game (known once it has ended).
	WhiteBerserk bool `json:"whiteBerserk,omitempty"`
	BlackBerserk bool `json:"blackBerserk,omitempty"`
}

type roundJSON struct {
	Number int         `json:"number"`
	Boards []boardJSON `json:"boards"`
}

type tournamentDetail struct {
	Tournament tournamentJSON         `json:"tournament"`
	Players    []tournamentPlayerJSON `json:"players"`
	Standings  []standingJSON         `json:"standings"`
	Rounds     []roundJSON            `json:"rounds"`
	// Arena is an arena's own part (arena.go's arenaJSON); its standings
	// are there, and Standings is empty.
	Arena *arenaJSON `json:"arena,omitempty"`
	// Tables is a table tournament's own part (tables.go's tablesJSON):
	// its standings and tables are there, and Standings and Rounds are
	// empty.
	Tables *tablesJSON `json:"tables,omitempty"`
}

func (s *Server) tournamentJSON(ctx context.Context, t *store.Tournament) tournamentJSON {
	out := tournamentJSON{ID: t.ID, Name: t.Name, Format: t.Format, Game: t.Game, Options: t.Options, Clock: t.Clock, Start: t.Start,
		Rounds: t.Rounds, Double: t.Double, Rated: t.Rated, Password: t.PasswordHash != "", MinRatedGames: t.MinRatedGames, Bots: t.Bots,
		MaxPlayers: t.MaxPlayers, Creator: s.userName(ctx, t.CreatorID), Status: string(t.Status), Note: t.Note}
	if !t.Finished.IsZero() {
		f := t.Finished
		out.Finished = &f
	}
	return out
}

// tournamentPassword is what is stored of a tournament's password: not
// the password itself (it is not an account's, so a salted SHA-256 is
// enough).
func tournamentPassword(id, password string) string {
	if password == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("tabula tournament " + id + "\x00" + password))
	return hex.EncodeToString(sum[:])
}

func (s *Server) handleCreateTournament(w http.ResponseWriter, r *http.Request, u *store.User) {
	ts, err := s.tournamentStore()
	if err != nil {
		writeError(w, err)
		return
	}
	if u.Guest {
		writeError(w, errf(http.StatusForbidden, "forbidden", "tournaments are created by registered users; register first"))
		return
	}
	var req tournamentReq
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	spec := director.Spec{Name: req.Name, Format: req.Format, Game: req.Game, Options: req.Options, Rounds: req.Rounds, Double: req.Double,
		Rated: req.Rated, Password: req.Password, MinRatedGames: req.MinRatedGames, Bots: req.Bots, MaxPlayers: req.MaxPlayers}
	if req.Clock != nil {
		spec.Clock = *req.Clock
	}
	if req.Start != "" {
		if spec.Start, err = time.Parse(time.RFC3339, req.Start); err != nil {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "start: want an RFC 3339 time, such as 2026-12-01T20:00:00Z"))
			return
		}
	}
	now := s.now()
	var t store.Tournament
	arena := store.Arena{Duration: time.Duration(req.Minutes) * time.Minute, Berserk: req.Berserk}
	if req.Format == director.Arena {
		t, err = spec.ArenaTournament(now, arena)
	} else if req.Minutes != 0 || req.Berserk {
		err = errf(http.StatusBadRequest, "bad_request", "minutes and berserk are an arena's")
	} else {
		t, err = spec.Tournament(now)
	}
	if err != nil {
		writeError(w, err)
		return
	}
	if t.Format == director.Tables {
		if _, err := s.tablesStore(); err != nil { // tables.go
			writeError(w, err)
			return
		}
	}
	mu, err := s.holdQuota(r.Context(), u.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	defer mu.Unlock()
	mine, err := ts.ListTournaments(r.Context(), store.TournamentFilter{Creator: u.ID,
		Statuses: []store.TournamentStatus{store.TournamentUpcoming, store.TournamentRunning}, Limit: director.MaxCreated})
	if err != nil {
		writeError(w, s.internal("count tournaments", err))
		return
	}
	if len(mine) >= director.MaxCreated {
		writeError(w, &match.Error{Code: match.CodeQuota,
			Message: "you have created as many tournaments as allowed that are upcoming or running; wait for one to finish"})
		return
	}
	t.ID, t.CreatorID, t.Created = newID(), u.ID, now
	t.PasswordHash = tournamentPassword(t.ID, req.Password)
	if t.Format == director.Arena {
		as, ok := ts.(store.Arenas)
		if !ok {
			writeError(w, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no arenas"))
			return
		}
		err = as.CreateArena(r.Context(), &t, arena)
	} else {
		err = ts.CreateTournament(r.Context(), &t)
	}
	if err != nil {
		writeError(w, s.internal("create tournament", err))
		return
	}
	s.log.Info("tournament created", "tournament", t.ID, "user", u.ID, "format", t.Format, "game", t.Game)
	s.pokeDirector()
	writeJSON(w, http.StatusCreated, map[string]any{"tournament": s.tournamentJSON(r.Context(), &t)})
}

func (s *Server) handleListTournaments(w http.ResponseWriter, r *http.Request) {
	ts, err := s.tournamentStore()
	if err != nil {
		writeError(w, err)
		return
	}
	f := store.TournamentFilter{}
	for _, st := range r.URL.Query()["status"] {
		if !store.TournamentStatus(st).Valid() {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "status %q: want upcoming, running or finished", st))
			return
		}
		f.Statuses = append(f.Statuses, store.TournamentStatus(st))
	}
	if len(f.Statuses) == 0 {
		f.Statuses = []store.TournamentStatus{store.TournamentUpcoming, store.TournamentRunning}
	}
	if f.Limit, err = queryInt(r, "limit", 50, 1, 200); err != nil {
		writeError(w, err)
		return
	}
	list, err := ts.ListTournaments(r.Context(), f)
	if err != nil {
		writeError(w, s.internal("list tournaments", err))
		return
	}
	out := []tournamentJSON{}
	for i := range list {
		out = append(out, s.tournamentJSON(r.Context(), &list[i]))
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournaments": out})
}

// tournamentState reads the path's tournament with its players and rounds.
func (s *Server) tournamentState(r *http.Request) (store.Tournament, []store.TournamentPlayer, []store.TournamentRound, error) {
	ts, err := s.tournamentStore()
	if err != nil {
		return store.Tournament{}, nil, nil, err
	}
	ctx := r.Context()
	t, err := ts.Tournament(ctx, r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) {
		return t, nil, nil, errf(http.StatusNotFound, "not_found", "no tournament %q", r.PathValue("id"))
	} else if err != nil {
		return t, nil, nil, s.internal("tournament", err)
	}
	players, err := ts.TournamentPlayers(ctx, t.ID)
	if err != nil {
		return t, nil, nil, s.internal("tournament players", err)
	}
	rounds, err := ts.TournamentRounds(ctx, t.ID)
	if err != nil {
		return t, nil, nil, s.internal("tournament rounds", err)
	}
	return t, players, rounds, nil
}

func (s *Server) handleGetTournament(w http.ResponseWriter, r *http.Request) {
	t, players, rounds, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	out := tournamentDetail{Tournament: s.tournamentJSON(r.Context(), &t), Players: []tournamentPlayerJSON{}, Standings: []standingJSON{}, Rounds: []roundJSON{}}
	names := map[int64]string{}
	var paused map[int64]bool
	if as, ok := s.store.(store.Arenas); ok && t.Format == director.Swiss {
		if paused, err = as.ArenaPaused(r.Context(), t.ID); err != nil {
			writeError(w, s.internal("swiss paused", err))
			return
		}
	}
	for _, p := range players {
		names[p.UserID] = p.Name
		out.Players = append(out.Players, tournamentPlayerJSON{Number: p.Number + 1, Name: p.Name, Withdrawn: p.Withdrawn, Bot: p.BotLevel != "" || s.isBot(r.Context(), p.UserID), Level: p.BotLevel,
			Paused: paused[p.UserID]})
	}
	if t.Format == director.Arena {
		if out.Arena, err = s.arenaDetail(r.Context(), &t, players, rounds); err != nil {
			writeError(w, err)
			return
		}
		// Its pairing waves are its rounds (docs/api.md, Arenas): the
		// page lists each player's games from them, with the berserks.
		berserk, err := s.arenaBerserks(r.Context(), t.ID)
		if err != nil {
			writeError(w, err)
			return
		}
		recent, finished := recentArenaRounds(rounds, arenaFinishedShown)
		out.Rounds = roundsJSON(recent, names, berserk)
		out.Arena.FinishedGames = finished
		writeJSON(w, http.StatusOK, out)
		return
	}
	if t.Format == director.Tables {
		if out.Tables, err = s.tablesDetail(r.Context(), &t, players, rounds); err != nil {
			writeError(w, err)
			return
		}
		writeJSON(w, http.StatusOK, out)
		return
	}
	standings, err := director.Standings(&t, players, rounds)
	if err != nil {
		writeError(w, s.internal("tournament standings", err))
		return
	}
	tbs := director.TieBreaks(&t)
	// A round robin's players are those in it from round 1: one who
	// withdrew before the start is no part of its table.
	inRR := map[int64]bool{}
	if t.Format == director.RoundRobin && len(rounds) > 0 {
		for _, b := range rounds[0].Boards {
			inRR[b.White], inRR[b.Black] = true, true
		}
	}
	for _, st := range standings {
		if len(inRR) > 0 && !inRR[players[st.Player].UserID] {
			continue
		}
		sj := standingJSON{Rank: st.Rank, Name: players[st.Player].Name, Points: st.Points, TieBreaks: map[string]float64{},
			Wins: st.Wins, Draws: st.Draws, Losses: st.Losses, Byes: st.Byes}
		for i, tb := range tbs {
			if i < len(st.TieBreaks) {
				sj.TieBreaks[string(tb)] = st.TieBreaks[i]
			}
		}
		out.Standings = append(out.Standings, sj)
	}
	out.Rounds = roundsJSON(rounds, names, nil)
	writeJSON(w, http.StatusOK, out)
}

// arenaBerserks is what arena id keeps of its finished boards (who
// berserked), by round and board, for roundsJSON.
func (s *Server) arenaBerserks(ctx context.Context, id string) (map[[2]int]store.ArenaGame, error) {
	as, err := s.arenaStore()
	if err != nil {
		return nil, err
	}
	games, err := as.ArenaGames(ctx, id)
	if err != nil {
		return nil, s.internal("arena games", err)
	}
	out := map[[2]int]store.ArenaGame{}
	for _, g := range games {
		out[[2]int{g.Round, g.Board}] = g
	}
	return out, nil
}

// roundsJSON is the wire form of rounds; berserk (an arena's, by round
// and board) marks who berserked in each ended game.
func roundsJSON(rounds []store.TournamentRound, names map[int64]string, berserk map[[2]int]store.ArenaGame) []roundJSON {
	out := []roundJSON{}
	for _, rd := range rounds {
		rj := roundJSON{Number: rd.Number, Boards: []boardJSON{}}
		for _, b := range rd.Boards {
			g := berserk[[2]int{rd.Number, b.Board}]
			rj.Boards = append(rj.Boards, boardJSON{Board: b.Board + 1, White: names[b.White], Black: names[b.Black], GameID: b.GameID, Result: b.Result,
				WhiteBerserk: g.WhiteBerserk, BlackBerserk: g.BlackBerserk})
		}
		out = append(out, rj)
	}
	return out
}

func (s *Server) handleJoinTournament(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Password string `json:"password"`
	}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	t, players, rounds, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ts, _ := s.tournamentStore()
	ctx := r.Context()
	for _, p := range players {
		if p.UserID == u.ID && !p.Withdrawn {
			// Joining twice is joining once.
			writeJSON(w, http.StatusOK, map[string]any{"player": tournamentPlayerJSON{Number: p.Number + 1, Name: p.Name}})
			return
		}
	}
	refuse := func(status int, code, msg string) { writeError(w, errf(status, code, "%s", msg)) }
	switch {
	case u.Guest:
		refuse(http.StatusForbidden, "forbidden", "tournaments are for registered users; register first")
		return
	case t.Status == store.TournamentFinished:
		refuse(http.StatusConflict, "conflict", "the tournament is finished")
		return
	case t.Status == store.TournamentRunning && t.Format == director.RoundRobin:
		refuse(http.StatusConflict, "conflict", "a round robin takes no players once it has started")
		return
	case t.Status == store.TournamentRunning && t.Format != director.Arena && len(rounds) >= t.Rounds:
		refuse(http.StatusConflict, "conflict", "the tournament is in its last round")
		return
	}
	if err := s.botMayEnter(ctx, u, &t); err != nil { // bot accounts play only where admitted (tournamentbots.go)
		writeError(w, err)
		return
	}
	if err := s.arenaOpen(ctx, &t); err != nil {
		writeError(w, err)
		return
	}
	if t.PasswordHash != "" && subtle.ConstantTimeCompare([]byte(tournamentPassword(t.ID, req.Password)), []byte(t.PasswordHash)) != 1 {
		if req.Password == "" {
			refuse(http.StatusForbidden, "password", "this tournament needs its password")
		} else {
			refuse(http.StatusForbidden, "password", "wrong password")
		}
		return
	}
	if t.MinRatedGames > 0 {
		ratings, err := s.store.Ratings(ctx, u.ID)
		if err != nil {
			writeError(w, s.internal("ratings", err))
			return
		}
		n := 0
		for _, rt := range ratings {
			if rt.Game == t.Game {
				n = rt.Games
			}
		}
		if n < t.MinRatedGames {
			refuse(http.StatusForbidden, "forbidden", "this tournament is for players with at least "+strconv.Itoa(t.MinRatedGames)+" rated games of "+t.Game+"; you have "+strconv.Itoa(n))
			return
		}
	}
	mu, err := s.holdQuota(ctx, u.ID)
	if err != nil {
		writeError(w, err)
		return
	}
	defer mu.Unlock()
	mine, err := ts.ListTournaments(ctx, store.TournamentFilter{Player: u.ID,
		Statuses: []store.TournamentStatus{store.TournamentUpcoming, store.TournamentRunning}, Limit: director.MaxJoined})
	if err != nil {
		writeError(w, s.internal("count tournaments", err))
		return
	}
	if len(mine) >= director.MaxJoined {
		writeError(w, &match.Error{Code: match.CodeQuota, Message: "you are in as many upcoming or running tournaments as allowed; withdraw from one first"})
		return
	}
	p, err := ts.JoinTournament(ctx, t.ID, u.ID, s.now(), t.MaxPlayers)
	if errors.Is(err, store.ErrConflict) {
		refuse(http.StatusConflict, "conflict", "the tournament is full or has finished")
		return
	} else if err != nil {
		writeError(w, s.internal("join tournament", err))
		return
	}
	if t.Format == director.Arena || t.Format == director.Swiss {
		// Coming back is coming back unpaused.
		if as, ok := ts.(store.Arenas); ok {
			if err := as.SetArenaPaused(ctx, t.ID, u.ID, false); err != nil {
				writeError(w, s.internal("resume in arena", err))
				return
			}
		}
	}
	s.pokeDirector()
	s.tournamentChanged(t.ID) // the pages hear of it (tournamentlive.go)
	writeJSON(w, http.StatusOK, map[string]any{"player": tournamentPlayerJSON{Number: p.Number + 1, Name: u.Name}})
}

func (s *Server) handleWithdrawTournament(w http.ResponseWriter, r *http.Request, u *store.User) {
	t, _, _, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if t.Status == store.TournamentFinished {
		writeError(w, errf(http.StatusConflict, "conflict", "the tournament is finished"))
		return
	}
	ts, _ := s.tournamentStore()
	if err := ts.WithdrawTournament(r.Context(), t.ID, u.ID); errors.Is(err, store.ErrNotFound) {
		writeError(w, errf(http.StatusConflict, "conflict", "you are not in this tournament"))
		return
	} else if err != nil {
		writeError(w, s.internal("withdraw from tournament", err))
		return
	}
	s.tournamentChanged(t.ID) // the pages hear of it (tournamentlive.go)
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleTournamentTRF(w http.ResponseWriter, r *http.Request) {
	t, players, rounds, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if t.Format != director.Swiss {
		writeError(w, errf(http.StatusConflict, "conflict", "the TRF report is a Swiss tournament's"))
		return
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="`+t.ID+`.trf"`)
	if err := director.WriteTRF(w, &t, players, rounds); err != nil {
		s.log.Error("tournament TRF", "tournament", t.ID, "err", err)
	}
}
