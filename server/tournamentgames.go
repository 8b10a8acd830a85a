package server

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/store"
)

// arenaFinishedShown is how many finished boards an arena's answer (and
// every event of its stream) carries besides the boards being played: a
// busy arena pairs a wave every few seconds, so an hour of 1,000 players
// ends some 7,000 games, and sending them all on every change sent about
// a megabyte to every open page. The page shows the latest 30; one
// player's games come from GET /api/tournaments/{id}/games?player=NAME.
const arenaFinishedShown = 30

// recentArenaRounds keeps of rounds every board being played and the
// last keep finished ones (in round and board order, which is the order
// they were paired in), dropping rounds left empty; it also counts the
// finished boards.
func recentArenaRounds(rounds []store.TournamentRound, keep int) ([]store.TournamentRound, int) {
	finished := 0
	for _, rd := range rounds {
		for _, b := range rd.Boards {
			if b.Result != store.BoardPending {
				finished++
			}
		}
	}
	skip := finished - keep // the oldest finished boards left out
	out := []store.TournamentRound{}
	for _, rd := range rounds {
		var boards []store.TournamentBoard
		for _, b := range rd.Boards {
			if b.Result != store.BoardPending && skip > 0 {
				skip--
				continue
			}
			boards = append(boards, b)
		}
		if len(boards) > 0 {
			out = append(out, store.TournamentRound{Number: rd.Number, Boards: boards})
		}
	}
	return out, finished
}

// handleTournamentPlayerGames answers GET /api/tournaments/{id}/games?player=NAME:
// every board of one player, in rounds as GET /api/tournaments/{id} gives
// them (an arena's answer carries only its recent boards).
func (s *Server) handleTournamentPlayerGames(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("player")
	switch {
	case name == "":
		writeError(w, errf(http.StatusBadRequest, "bad_request", "name the player: ?player=NAME"))
		return
	case len(name) > prefixMax: // longer than any name
		writeError(w, errf(http.StatusBadRequest, "bad_request", "a player's name is at most %d characters", prefixMax))
		return
	}
	t, players, rounds, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if t.Format == director.Tables {
		writeError(w, errf(http.StatusConflict, "conflict", "a table tournament's games are in its tables (GET /api/tournaments/%s)", t.ID))
		return
	}
	names := map[int64]string{}
	var who *store.TournamentPlayer
	for i, p := range players {
		names[p.UserID] = p.Name
		if strings.EqualFold(p.Name, name) {
			who = &players[i]
		}
	}
	if who == nil {
		writeError(w, errf(http.StatusNotFound, "not_found", "%q is not in this tournament", name))
		return
	}
	var berserk map[[2]int]store.ArenaGame
	var line *arenaLineJSON // an arena's: the player's standings line, on whichever page
	if t.Format == director.Arena {
		lines, err := s.arenaLines(r.Context(), &t, players, rounds)
		if err != nil {
			writeError(w, err)
			return
		}
		for i := range lines {
			if lines[i].Name == who.Name {
				line = &lines[i]
			}
		}
		if berserk, err = s.arenaBerserks(r.Context(), t.ID); err != nil {
			writeError(w, err)
			return
		}
	}
	var mine []store.TournamentRound
	for _, rd := range rounds {
		var boards []store.TournamentBoard
		for _, b := range rd.Boards {
			if b.White == who.UserID || b.Black == who.UserID {
				boards = append(boards, b)
			}
		}
		if len(boards) > 0 {
			mine = append(mine, store.TournamentRound{Number: rd.Number, Boards: boards})
		}
	}
	writeJSON(w, http.StatusOK, struct {
		Player string         `json:"player"`
		Rounds []roundJSON    `json:"rounds"`
		Line   *arenaLineJSON `json:"line,omitempty"`
	}{who.Name, roundsJSON(mine, names, berserk), line})
}

// handleArenaStandings answers GET /api/tournaments/{id}/standings?page=N
// (from 1) or ?player=NAME (the page holding them): an arena's standings,
// arenaStandingsShown lines a page, for the lines below those its answer
// carries.
func (s *Server) handleArenaStandings(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	name, pageArg := q.Get("player"), q.Get("page")
	page := 0
	switch {
	case name == "" && pageArg == "":
		writeError(w, errf(http.StatusBadRequest, "bad_request", "give ?page=N (from 1) or ?player=NAME"))
		return
	case name != "" && pageArg != "":
		writeError(w, errf(http.StatusBadRequest, "bad_request", "give ?page=N or ?player=NAME, not both"))
		return
	case len(name) > prefixMax: // longer than any name
		writeError(w, errf(http.StatusBadRequest, "bad_request", "a player's name is at most %d characters", prefixMax))
		return
	case pageArg != "":
		n, err := strconv.Atoi(pageArg)
		if err != nil || n < 1 {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "page: a number from 1"))
			return
		}
		page = n
	}
	t, players, rounds, err := s.tournamentState(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if t.Format != director.Arena {
		writeError(w, errf(http.StatusConflict, "conflict", "standings pages are an arena's; GET /api/tournaments/%s has the whole table", t.ID))
		return
	}
	lines, err := s.arenaLines(r.Context(), &t, players, rounds)
	if err != nil {
		writeError(w, err)
		return
	}
	pages := max(1, (len(lines)+arenaStandingsShown-1)/arenaStandingsShown)
	if name != "" {
		for i, l := range lines {
			if strings.EqualFold(l.Name, name) {
				page = i/arenaStandingsShown + 1
			}
		}
		if page == 0 {
			writeError(w, errf(http.StatusNotFound, "not_found", "%q is not in this arena", name))
			return
		}
	}
	if page > pages {
		writeError(w, errf(http.StatusNotFound, "not_found", "there are %d pages of standings", pages))
		return
	}
	from := (page - 1) * arenaStandingsShown
	writeJSON(w, http.StatusOK, map[string]any{"page": page, "pages": pages, "total": len(lines),
		"standings": lines[from:min(len(lines), from+arenaStandingsShown)]})
}
