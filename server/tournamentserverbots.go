package server

import (
	"errors"
	"net/http"
	"slices"
	"strconv"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// The server's own bots in tournaments (issue 25 item 7): the creator of
// an unrated tournament that admits bots adds built-in bots of a level
// (POST /api/tournaments/{id}/bots) and takes one out again (DELETE
// /api/tournaments/{id}/bots/{number}). The director seats them as bot
// seats of their level; the node owning each game plays them
// (director/tournamentbots.go). Nobody else may add or remove them, and a
// tournament has had at most director.MaxBots (those removed count), so
// neither a stranger nor the creator can flood it or the node's bots.

// creatorTournament reads the path's tournament and refuses anyone but its
// creator.
func (s *Server) creatorTournament(r *http.Request, u *store.User) (store.Tournament, []store.TournamentPlayer, []store.TournamentRound, error) {
	t, players, rounds, err := s.tournamentState(r)
	if err != nil {
		return t, nil, nil, err
	}
	if u.ID != t.CreatorID {
		return t, nil, nil, errf(http.StatusForbidden, "forbidden", "only the tournament's creator adds or removes the server's bots")
	}
	return t, players, rounds, nil
}

func (s *Server) handleAddTournamentBots(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Level string `json:"level"`
		Count int    `json:"count"`
	}
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	if req.Count == 0 {
		req.Count = 1
	}
	if req.Count < 1 || req.Count > director.MaxBots {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "count: 1 to %d", director.MaxBots))
		return
	}
	t, _, rounds, err := s.creatorTournament(r, u)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := director.CheckAddBot(&t, len(rounds), req.Level); err != nil {
		writeError(w, err)
		return
	}
	tb, ok := s.store.(store.TournamentBots)
	if !ok {
		writeError(w, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no bots in tournaments"))
		return
	}
	added := []tournamentPlayerJSON{}
	for range req.Count {
		p, err := tb.AddTournamentBot(r.Context(), t.ID, req.Level, s.now(), t.MaxPlayers, director.MaxBots)
		if errors.Is(err, store.ErrConflict) {
			if len(added) > 0 {
				break // as many as there was room for
			}
			writeError(w, &match.Error{Code: match.CodeQuota,
				Message: "no room for another bot: the tournament is full, finished, or has had " + strconv.Itoa(director.MaxBots) + " bots"})
			return
		} else if err != nil {
			writeError(w, s.internal("add tournament bot", err))
			return
		}
		added = append(added, tournamentPlayerJSON{Number: p.Number + 1, Name: p.Name, Bot: true, Level: p.BotLevel})
	}
	s.log.Info("tournament bots added", "tournament", t.ID, "user", u.ID, "level", req.Level, "count", len(added))
	s.pokeDirector()
	s.tournamentChanged(t.ID)
	writeJSON(w, http.StatusOK, map[string]any{"players": added})
}

func (s *Server) handleRemoveTournamentBot(w http.ResponseWriter, r *http.Request, u *store.User) {
	t, players, _, err := s.creatorTournament(r, u)
	if err != nil {
		writeError(w, err)
		return
	}
	n, err := strconv.Atoi(r.PathValue("number"))
	i := slices.IndexFunc(players, func(p store.TournamentPlayer) bool { return p.Number+1 == n })
	if err != nil || i < 0 || players[i].BotLevel == "" {
		writeError(w, errf(http.StatusNotFound, "not_found", "no bot of this tournament has number %q", r.PathValue("number")))
		return
	}
	if t.Status == store.TournamentFinished {
		writeError(w, errf(http.StatusConflict, "conflict", "the tournament is finished"))
		return
	}
	ts, _ := s.tournamentStore()
	if err := ts.WithdrawTournament(r.Context(), t.ID, players[i].UserID); err != nil {
		writeError(w, s.internal("withdraw tournament bot", err))
		return
	}
	s.tournamentChanged(t.ID)
	w.WriteHeader(http.StatusNoContent)
}
