package server_test

import (
	"net/http"
	"slices"
	"testing"

	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// TestCatalogStatesTheSiteFacts: the catalog carries every fact the web
// page would otherwise copy (which keeps none): the games in the site's
// order with their seats, whether they hide information and whether the
// analysis board takes them (as the analysis package decides); the bot
// levels a seat may have; quick pairing's time controls, each as the
// server pairs it, shortest first, and its window; the longest chat line.
func TestCatalogStatesTheSiteFacts(t *testing.T) {
	e := newEnv(t)
	var cat wire.Catalog
	e.anon().must(http.StatusOK, "GET", "/api/catalog", nil, &cat)

	var names []string
	for _, g := range cat.Games {
		names = append(names, g.Name)
		lg, err := game.Lookup(g.Name)
		if err != nil {
			t.Fatalf("catalog game %q: %v", g.Name, err)
		}
		st, err := lg.New(nil, 1)
		if err != nil {
			t.Fatalf("%s: new game: %v", g.Name, err)
		}
		if want := analysis.CanAnalyse(st) == nil; g.Analysis != want {
			t.Errorf("%s: analysis %v, but the analysis board takes it: %v", g.Name, g.Analysis, want)
		}
		if g.Hidden != game.Hidden(st) {
			t.Errorf("%s: hidden %v, the game: %v", g.Name, g.Hidden, game.Hidden(st))
		}
		if n, _ := game.NumPlayers(lg, nil); g.Seats.Default != n || g.Seats.Min != lg.Facts().MinPlayers || g.Seats.Max != lg.Facts().MaxPlayers {
			t.Errorf("%s: seats %+v", g.Name, g.Seats)
		}
	}
	if len(names) < 4 || !slices.Equal(names[:4], []string{"sgolte", "sploof", "skjuub", "skyjo"}) {
		t.Errorf("games %v: want the site's four first, in its order", names)
	}
	for _, g := range cat.Games {
		if g.Name == "skyjo" && (!g.Hidden || g.Analysis) {
			t.Errorf("skyjo: hidden %v, analysis %v", g.Hidden, g.Analysis)
		}
		if g.Name == "sgolte" && (g.Hidden || !g.Analysis) {
			t.Errorf("sgolte: hidden %v, analysis %v", g.Hidden, g.Analysis)
		}
	}

	if !slices.Equal(cat.Bots, match.BotLevels) {
		t.Errorf("bots %v, want %v", cat.Bots, match.BotLevels)
	}
	if cat.ChatMax != match.ChatMaxRunes {
		t.Errorf("chatMax %d, want %d", cat.ChatMax, match.ChatMaxRunes)
	}
	if cat.Pairing.WindowMs != match.PairingWindow.Milliseconds() {
		t.Errorf("pairing window %d ms, want %v", cat.Pairing.WindowMs, match.PairingWindow)
	}
	var clocks []string
	for _, c := range cat.Pairing.Clocks {
		clocks = append(clocks, c.Name)
		want, ok := match.PairingClocks[c.Name]
		if !ok {
			t.Errorf("pairing clock %q is not one the server pairs", c.Name)
			continue
		}
		if got := (match.Clock{Kind: match.ClockKind(c.Clock.Kind), InitialMs: c.Clock.InitialMs, IncrementMs: c.Clock.IncrementMs, Days: c.Clock.Days}); got != want {
			t.Errorf("pairing clock %s: %+v, the server pairs %+v", c.Name, got, want)
		}
	}
	if len(clocks) != len(match.PairingClocks) || !slices.Equal(clocks, []string{"none", "blitz", "rapid", "correspondence"}) {
		t.Errorf("pairing clocks %v: want every one, shortest first", clocks)
	}
}
