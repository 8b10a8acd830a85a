package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

type arenaResp struct {
	Tournament struct {
		ID     string `json:"id"`
		Format string `json:"format"`
		Status string `json:"status"`
	} `json:"tournament"`
	Arena *struct {
		Minutes   int    `json:"minutes"`
		Berserk   bool   `json:"berserk"`
		End       string `json:"end"`
		Standings []struct {
			Name     string `json:"name"`
			Points   int    `json:"points"`
			Berserks int    `json:"berserks"`
			Playing  string `json:"playing"`
			Paused   bool   `json:"paused"`
		} `json:"standings"`
	} `json:"arena"`
}

// TestArenaThroughAPI: an arena with berserk is created, three players
// join, two are paired at once; a stranger cannot berserk their game nor
// berserk through another tournament; the player berserks (twice: the
// same), wins and has 3 points; both are paired again at once; pausing
// keeps a player out; the refusals: berserk and minutes outside an arena,
// berserk without a realtime clock, pausing outside an arena or when not
// in it.
func TestArenaThroughAPI(t *testing.T) {
	e := newEnv(t)
	// A game that is no arena's is a plain answer (the game page asks for
	// each realtime game; a 404 was an error in its console).
	if code, body := e.anon().do("GET", "/api/arena-game?game=none", nil); code != http.StatusOK || !strings.Contains(string(body), `"tournament":null`) {
		t.Fatalf("GET /api/arena-game of no arena's game: %d %s", code, body)
	}
	ann, bob, cyd, eve := e.register("ann"), e.register("bob"), e.register("cyd"), e.register("eve")
	req := map[string]any{"name": "Quick arena", "format": "arena", "game": "sgolte", "minutes": 30, "berserk": true,
		"start": time.Now().Add(-time.Second).UTC().Format(time.RFC3339), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	noClock := map[string]any{"name": "x", "format": "arena", "game": "sgolte", "minutes": 30, "berserk": true, "start": req["start"]}
	ann.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/tournaments", noClock)
	swiss := swissReq("s", 1)
	swiss["minutes"] = 5
	ann.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/tournaments", swiss)
	var created arenaResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
	id := created.Tournament.ID
	eve.apiErr(http.StatusConflict, "conflict", "POST", "/api/tournaments/"+id+"/pause", nil)
	for _, c := range []*client{ann, bob} {
		c.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	}
	var a arenaResp
	wait := func(what string, ok func() bool) {
		t.Helper()
		for end := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			ann.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &a)
			if ok() {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("%s: %+v", what, a.Arena)
			}
		}
	}
	line := func(name string) (int, string, int) {
		for _, l := range a.Arena.Standings {
			if l.Name == name {
				return l.Points, l.Playing, l.Berserks
			}
		}
		return -1, "", 0
	}
	wait("ann and bob paired", func() bool { _, g, _ := line("ann"); return a.Arena != nil && g != "" })
	_, game, _ := line("ann")
	// cyd joins with nobody free, and pauses.
	cyd.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	cyd.must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/pause", nil, nil)
	if _, g, _ := line("cyd"); g != "" {
		t.Fatal("the paused player was paired")
	}
	var ag struct {
		Tournament string `json:"tournament"`
		Berserk    bool   `json:"berserk"`
	}
	e.anon().must(http.StatusOK, "GET", "/api/arena-game?game="+game, nil, &ag)
	if ag.Tournament != id || !ag.Berserk {
		t.Fatalf("arena-game %+v", ag)
	}
	eve.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tournaments/"+id+"/berserk?game="+game, nil)
	eve.apiErr(http.StatusNotFound, "not_found", "POST", "/api/tournaments/other/berserk?game="+game, nil)
	eve.apiErr(http.StatusNotFound, "not_found", "POST", "/api/tournaments/"+id+"/berserk?game=nope", nil)
	var bz struct{ Clock struct{ Berserk int } }
	ann.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/berserk?game="+game, nil, &bz)
	ann.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/berserk?game="+game, nil, &bz)
	g, _, _ := ann.game(game)
	loser := bob
	if g.Seats[0].User == "bob" {
		if bz.Clock.Berserk != 2 {
			t.Fatalf("ann (seat 1) berserked: bits %b", bz.Clock.Berserk)
		}
	} else if bz.Clock.Berserk != 1 {
		t.Fatalf("ann (seat 0) berserked: bits %b", bz.Clock.Berserk)
	}
	loser.must(http.StatusOK, "POST", "/api/games/"+game+"/resign", nil, nil)
	wait("ann's berserk win counted and both paired again", func() bool {
		p, g2, _ := line("ann")
		_, g3, _ := line("bob")
		return p == 3 && g2 != "" && g2 != game && g2 == g3
	})
	if _, _, b := line("ann"); b != 1 {
		t.Fatalf("ann's berserks %d", b)
	}
}
