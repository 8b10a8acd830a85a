package server

import (
	"net/http"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// The public facts of the site: which games it offers, with what options
// and bots, and who leads each game's ratings.

func (s *Server) handleCatalog(w http.ResponseWriter, r *http.Request) {
	out := wire.Catalog{Games: []wire.CatalogGame{}, Bots: match.BotLevels}
	for _, name := range game.Names() {
		g, _ := game.Lookup(name)
		f := g.Facts()
		n, _ := game.NumPlayers(g, nil)
		gj := wire.CatalogGame{Name: name, Title: g.Title(), Seats: wire.CatalogSeats{Min: f.MinPlayers, Max: f.MaxPlayers, Default: n},
			Options: []wire.CatalogOption{}}
		for _, o := range g.Options() {
			oj := wire.CatalogOption{Name: o.Name, Doc: o.Doc, Default: o.Default, Values: o.Values, House: o.House}
			if o.IsInt() {
				oj.Min, oj.Max = &o.Min, &o.Max
			}
			gj.Options = append(gj.Options, oj)
		}
		out.Games = append(out.Games, gj)
	}
	writeJSON(w, http.StatusOK, out)
}

// maxLeaderboardDeviation keeps players with too few games off the
// leaderboard (a deviation this high means the rating is still a guess).
const maxLeaderboardDeviation = 110

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
	out := wire.Leaderboard{Game: name, MaxDeviation: maxLeaderboardDeviation, Players: []wire.LeaderboardRow{}}
	for _, x := range rows {
		out.Players = append(out.Players, wire.LeaderboardRow{User: x.Name, Rating: round1(x.Rating.Rating), Deviation: round1(x.Deviation), Games: x.Games})
	}
	writeJSON(w, http.StatusOK, out)
}
