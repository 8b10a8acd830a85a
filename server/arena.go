package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Arenas (issue 25): an arena's part of a tournament's page, pausing and
// resuming in it, and berserk. The director (director/arena.go) pairs and
// scores; this file reads requests and writes answers.

// arenaLineJSON is one line of an arena's standings.
type arenaLineJSON struct {
	Rank   int    `json:"rank"`
	Name   string `json:"name"`
	Points int    `json:"points"`
	// Sheet is the points of each game in the order they ended; Fire
	// marks those that counted double (the streak).
	Sheet    []int  `json:"sheet"`
	Fire     []bool `json:"fire"`
	Streak   int    `json:"streak"`
	OnFire   bool   `json:"onFire"`
	Games    int    `json:"games"`
	Wins     int    `json:"wins"`
	Draws    int    `json:"draws"`
	Losses   int    `json:"losses"`
	Berserks int    `json:"berserks"`
	// Playing is the game the player is in now, if any.
	Playing   string `json:"playing,omitempty"`
	Paused    bool   `json:"paused,omitempty"`
	Withdrawn bool   `json:"withdrawn,omitempty"`
}

// arenaJSON is an arena's own part of its page.
type arenaJSON struct {
	Minutes int       `json:"minutes"`
	Berserk bool      `json:"berserk"`
	End     time.Time `json:"end"`
	// Standings is the top arenaStandingsShown lines of StandingsTotal.
	Standings      []arenaLineJSON `json:"standings"`
	StandingsTotal int             `json:"standingsTotal"`
	// FinishedGames counts every finished board; the answer's rounds
	// hold only the last arenaFinishedShown of them (recentArenaRounds).
	FinishedGames int `json:"finishedGames"`
}

// arenaStore is the store's arenas.
func (s *Server) arenaStore() (store.Arenas, error) {
	as, ok := s.store.(store.Arenas)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no arenas")
	}
	return as, nil
}

// arenaStandingsShown is how many standings lines an arena's answer (and
// every event of its stream) carries: the top of the table. A thousand
// players' lines with their sheets are some 300 KB, sent to every page
// on every change; the rest are paged (GET .../standings?page=N).
const arenaStandingsShown = 100

func (s *Server) arenaDetail(ctx context.Context, t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound) (*arenaJSON, error) {
	as, err := s.arenaStore()
	if err != nil {
		return nil, err
	}
	a, err := as.Arena(ctx, t.ID)
	if err != nil {
		return nil, s.internal("arena", err)
	}
	lines, err := s.arenaLines(ctx, t, players, rounds)
	if err != nil {
		return nil, err
	}
	out := &arenaJSON{Minutes: int(a.Duration / time.Minute), Berserk: a.Berserk, End: director.ArenaEnd(t, a),
		Standings: lines[:min(len(lines), arenaStandingsShown)], StandingsTotal: len(lines)}
	return out, nil
}

// arenaLines is every standings line of an arena, by rank.
func (s *Server) arenaLines(ctx context.Context, t *store.Tournament, players []store.TournamentPlayer, rounds []store.TournamentRound) ([]arenaLineJSON, error) {
	as, err := s.arenaStore()
	if err != nil {
		return nil, err
	}
	games, err := as.ArenaGames(ctx, t.ID)
	if err != nil {
		return nil, s.internal("arena games", err)
	}
	paused, err := as.ArenaPaused(ctx, t.ID)
	if err != nil {
		return nil, s.internal("arena paused", err)
	}
	lines, err := director.ArenaStandings(t, players, rounds, games)
	if err != nil {
		return nil, s.internal("arena standings", err)
	}
	playing := map[int64]string{}
	for _, r := range rounds {
		for _, b := range r.Boards {
			if b.Result == store.BoardPending && b.GameID != "" {
				playing[b.White], playing[b.Black] = b.GameID, b.GameID
			}
		}
	}
	out := []arenaLineJSON{}
	for _, l := range lines {
		p := players[l.Player]
		out = append(out, arenaLineJSON{Rank: l.Rank, Name: p.Name, Points: l.Points, Sheet: append([]int{}, l.Sheet...),
			Fire: append([]bool{}, l.Fire...), Streak: l.Streak, OnFire: l.OnFire, Games: l.Games, Wins: l.Wins, Draws: l.Draws, Losses: l.Losses,
			Berserks: l.Berserks, Playing: playing[p.UserID], Paused: paused[p.UserID], Withdrawn: p.Withdrawn})
	}
	return out, nil
}

// arenaOpen refuses a join to an arena past its end (its last games may
// still be being played).
func (s *Server) arenaOpen(ctx context.Context, t *store.Tournament) error {
	if t.Format != director.Arena {
		return nil
	}
	as, err := s.arenaStore()
	if err != nil {
		return err
	}
	a, err := as.Arena(ctx, t.ID)
	if err != nil {
		return s.internal("arena", err)
	}
	if !s.now().Before(director.ArenaEnd(t, a)) {
		return errf(http.StatusConflict, "conflict", "the arena is over")
	}
	return nil
}

// handleArenaPause pauses (pause true) or resumes the user in an arena or
// a Swiss. Only the user themself: the request names nobody else.
func (s *Server) handleArenaPause(pause bool) func(http.ResponseWriter, *http.Request, *store.User) {
	return func(w http.ResponseWriter, r *http.Request, u *store.User) {
		t, _, _, err := s.tournamentState(r)
		if err != nil {
			writeError(w, err)
			return
		}
		as, err := s.arenaStore()
		if err != nil {
			writeError(w, err)
			return
		}
		switch {
		case t.Format != director.Arena && t.Format != director.Swiss:
			// A round robin's or table tournament's rounds are fixed:
			// a pause there would be a forfeit.
			writeError(w, errf(http.StatusConflict, "conflict", "pausing is an arena's or a Swiss's"))
			return
		case t.Status == store.TournamentFinished:
			writeError(w, errf(http.StatusConflict, "conflict", "the tournament is finished"))
			return
		}
		if err := as.SetArenaPaused(r.Context(), t.ID, u.ID, pause); errors.Is(err, store.ErrNotFound) {
			writeError(w, errf(http.StatusConflict, "conflict", "you are not in this tournament"))
			return
		} else if err != nil {
			writeError(w, s.internal("pause in arena", err))
			return
		}
		if !pause {
			s.pokeDirector()
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// handleArenaGame tells a game page whether its game is an arena's, and
// whether the arena allows berserk: GET /api/arena-game?game=ID.
func (s *Server) handleArenaGame(w http.ResponseWriter, r *http.Request) {
	as, err := s.arenaStore()
	if err != nil {
		writeError(w, err)
		return
	}
	game := r.URL.Query().Get("game")
	if game == "" || len(game) > 64 {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "game: a game id is needed"))
		return
	}
	id, _, err := as.ArenaOfGame(r.Context(), game)
	if errors.Is(err, store.ErrNotFound) {
		// An answer, not an error: every game page with a realtime clock
		// asks, and a 404 would be a failed request in each one's console.
		writeJSON(w, http.StatusOK, map[string]any{"tournament": nil, "berserk": false})
		return
	} else if err != nil {
		writeError(w, s.internal("arena of game", err))
		return
	}
	a, err := as.Arena(r.Context(), id)
	if err != nil {
		writeError(w, s.internal("arena", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"tournament": id, "berserk": a.Berserk})
}

// handleArenaBerserk halves the user's clock in their arena game:
// POST /api/tournaments/{id}/berserk?game=ID. The game's owner refuses it
// after the user's first move (match.CmdBerserk); the berserk is marked in
// the stored clock so that a node taking the game over keeps it, and the
// director reads it from the game when it ends.
func (s *Server) handleArenaBerserk(w http.ResponseWriter, r *http.Request, u *store.User) {
	as, err := s.arenaStore()
	if err != nil {
		writeError(w, err)
		return
	}
	ctx := r.Context()
	game := r.URL.Query().Get("game")
	tid, b, err := as.ArenaOfGame(ctx, game)
	switch {
	case game == "" || errors.Is(err, store.ErrNotFound) || tid != r.PathValue("id"):
		writeError(w, errf(http.StatusNotFound, "not_found", "game %q is not this arena's", game))
		return
	case err != nil:
		writeError(w, s.internal("arena of game", err))
		return
	case b.White != u.ID && b.Black != u.ID:
		writeError(w, errf(http.StatusForbidden, "forbidden", "only a player of the game may berserk"))
		return
	case b.Result != store.BoardPending:
		writeError(w, errf(http.StatusConflict, "game_over", "the game is over"))
		return
	}
	a, err := as.Arena(ctx, tid)
	if err != nil {
		writeError(w, s.internal("arena", err))
		return
	}
	if !a.Berserk {
		writeError(w, errf(http.StatusConflict, "conflict", "this arena does not allow berserk"))
		return
	}
	ack, err := s.tell(ctx, game, match.Command{Kind: match.CmdBerserk, User: match.User{ID: u.ID, Guest: u.Guest}})
	if err != nil {
		writeError(w, err)
		return
	}
	seat := 0
	if b.Black == u.ID {
		seat = 1
	}
	// The mark is stored from here, not from the answer: an answer
	// forwarded from another node carries no berserk bits (cluster/wire.go).
	if err := as.SetGameBerserk(ctx, game, seat); err != nil {
		writeError(w, s.internal("store the berserk clock", err))
		return
	}
	clock := ack.Meta.Clock
	clock.Berserk |= 1 << uint(seat)
	writeJSON(w, http.StatusOK, map[string]any{"clock": clock})
}
