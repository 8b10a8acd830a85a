package server

import (
	"cmp"
	"math"
	"net/http"
	"slices"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/ladder"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// The public facts of the site: which games it offers, with what options
// and bots, the time controls of quick pairing and how long a waiting game
// may be joined, the longest chat line; and who leads each game's ratings.
// The web page keeps no copy of these facts: it reads them here.

// siteOrder is the order in which the site presents its games (the one
// with the fewest rules first, the card game last); a game it does not
// name follows, by name.
var siteOrder = []string{"sgolte", "sploof", "skjuub", "skyjo"}

func (s *Server) handleCatalog(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, catalog())
}

// catalog is the answer of GET /api/catalog.
func catalog() wire.Catalog {
	out := wire.Catalog{Games: []wire.CatalogGame{}, Bots: match.BotLevels, ChatMax: match.ChatMaxRunes,
		Pairing: wire.CatalogPairing{Clocks: pairingCatalog(), WindowMs: match.PairingWindow.Milliseconds()}}
	names := game.Names()
	rank := func(name string) int {
		if i := slices.Index(siteOrder, name); i >= 0 {
			return i
		}
		return len(siteOrder)
	}
	slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(rank(a), rank(b)) })
	for _, name := range names {
		g, _ := game.Lookup(name)
		f := g.Facts()
		n, _ := game.NumPlayers(g, nil)
		// A game that hides information is never searched on the analysis
		// board (analysis.CanAnalyse): it would show the hidden cards.
		gj := wire.CatalogGame{Name: name, Title: g.Title(), Seats: wire.CatalogSeats{Min: f.MinPlayers, Max: f.MaxPlayers, Default: n},
			Options: []wire.CatalogOption{}, Hidden: f.HiddenInfo, Analysis: !f.HiddenInfo, BotRatings: botRatings(name)}
		for _, o := range g.Options() {
			oj := wire.CatalogOption{Name: o.Name, Doc: o.Doc, Default: o.Default, Values: o.Values, House: o.House}
			if o.IsInt() {
				oj.Min, oj.Max = &o.Min, &o.Max
			}
			gj.Options = append(gj.Options, oj)
		}
		out.Games = append(out.Games, gj)
	}
	return out
}

// pairingCatalog is the time controls of quick pairing from the shortest
// to the longest: no clock, the realtime ones by their initial time, then
// correspondence by its days.
func pairingCatalog() []wire.CatalogPairClock {
	out := make([]wire.CatalogPairClock, 0, len(match.PairingClocks))
	for name, c := range match.PairingClocks {
		out = append(out, wire.CatalogPairClock{Name: name, Clock: wire.CatalogClock{Kind: string(c.Kind),
			InitialMs: c.InitialMs, IncrementMs: c.IncrementMs, Days: c.Days}})
	}
	kind := map[string]int{string(match.ClockNone): 0, string(match.ClockRealtime): 1, string(match.ClockCorrespondence): 2}
	slices.SortFunc(out, func(a, b wire.CatalogPairClock) int {
		return cmp.Or(cmp.Compare(kind[a.Clock.Kind], kind[b.Clock.Kind]), cmp.Compare(a.Clock.InitialMs, b.Clock.InitialMs),
			cmp.Compare(a.Clock.Days, b.Clock.Days), cmp.Compare(a.Name, b.Name))
	})
	return out
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
	bots, err := queryBots(r) // people and bots are ranked apart (bots.go)
	if err != nil {
		writeError(w, err)
		return
	}
	rows, err := s.leaderboardRows(r.Context(), name, limit, bots)
	if err != nil {
		writeError(w, s.internal("leaderboard", err))
		return
	}
	out := wire.Leaderboard{Game: name, MaxDeviation: maxLeaderboardDeviation, Players: []wire.LeaderboardRow{}, Bots: bots}
	for _, x := range rows {
		out.Players = append(out.Players, wire.LeaderboardRow{User: x.Name, Rating: round1(x.Rating.Rating), Deviation: round1(x.Deviation), Games: x.Games, Bot: bots})
	}
	writeJSON(w, http.StatusOK, out)
}

// botRatings are game's calibrated levels that a bot seat may have, each
// rating rounded to 10: the "~1500" the lobby shows beside a level.
func botRatings(game string) map[string]int {
	var out map[string]int
	for level, c := range ladder.Calibrated[game] {
		if slices.Contains(match.BotLevels, level) {
			if out == nil {
				out = map[string]int{}
			}
			out[level] = int(math.Round(c.Rating/10) * 10)
		}
	}
	return out
}
