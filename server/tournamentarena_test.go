package server_test

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// TestArenaRoundsListTheGames: an arena's GET lists its pairing waves as
// its rounds (docs/api.md, Arenas) — each game with its players, result
// and who berserked — so that the page can show each player's games.
func TestArenaRoundsListTheGames(t *testing.T) {
	e := newEnv(t)
	ann, bob := e.register("ann"), e.register("bob")
	req := map[string]any{"name": "Listed arena", "format": "arena", "game": "sgolte", "minutes": 30, "berserk": true,
		"start": time.Now().Add(-time.Second).UTC().Format(time.RFC3339), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	var created arenaResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
	id := created.Tournament.ID
	for _, c := range []*client{ann, bob} {
		c.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	}
	type board struct {
		White, Black, GameID, Result string
		WhiteBerserk, BlackBerserk   bool
	}
	var got struct {
		Rounds []struct {
			Number int
			Boards []board
		}
	}
	wait := func(what string, ok func() bool) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			ann.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &got)
			if ok() {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("%s: %+v", what, got.Rounds)
			}
		}
	}
	wait("the first wave listed", func() bool { return len(got.Rounds) == 1 && len(got.Rounds[0].Boards) == 1 })
	b := got.Rounds[0].Boards[0]
	if b.GameID == "" || b.Result != "" || (b.White != "ann" || b.Black != "bob") && (b.White != "bob" || b.Black != "ann") {
		t.Fatalf("first board %+v", b)
	}
	game := b.GameID
	// The wave is stored before its games are created and started (the
	// fenced write decides which node pairs it), so for a moment the game
	// is not found and then not started (a berserk before is refused:
	// "berserk is for a game that has started"; the page offers it only in
	// the started game), which loaded machines showed.
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		var g struct{ Game summary }
		status, body := ann.do("GET", "/api/games/"+game, nil)
		switch status {
		case http.StatusNotFound:
		case http.StatusOK:
			if err := json.Unmarshal(body, &g); err != nil {
				t.Fatalf("GET /api/games/%s: %v: %s", game, err, body)
			}
		default:
			t.Fatalf("GET /api/games/%s: status %d: %s", game, status, body)
		}
		if g.Game.Status == "live" {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("the wave's game %s is %q after 10 s, want live", game, g.Game.Status)
		}
	}
	ann.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/berserk?game="+game, nil, nil)
	bob.must(http.StatusOK, "POST", "/api/games/"+game+"/resign", nil, nil)
	wait("the game's result and the second wave", func() bool { return len(got.Rounds) == 2 && got.Rounds[0].Boards[0].Result != "" })
	b = got.Rounds[0].Boards[0]
	annWhite := b.White == "ann"
	if want := map[bool]string{true: "1-0", false: "0-1"}[annWhite]; b.Result != want || b.GameID != game {
		t.Fatalf("ann won %s: board %+v, want %s", game, b, want)
	}
	if b.WhiteBerserk != annWhite || b.BlackBerserk == annWhite {
		t.Fatalf("ann berserked: board %+v", b)
	}
	if g := got.Rounds[1].Boards[0]; g.GameID == "" || g.GameID == game || g.Result != "" {
		t.Fatalf("second wave %+v", g)
	}
}
