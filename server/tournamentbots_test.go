package server_test

import (
	"net/http"
	"testing"
	"time"
)

// TestTournamentBotsFlag: a tournament created with "bots" admits a bot
// account, which joins with a bot:play token and is marked as a bot among
// the players; one without refuses it with 403 bot_account, and a person
// joins either.
func TestTournamentBotsFlag(t *testing.T) {
	e := newEnv(t)
	robo, ann, bob := e.register("robo"), e.register("ann"), e.register("bob")
	robo.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	play := robo.newToken("tournaments", "bot:play")
	soon := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)

	people := swissReq("People's cup", 3)
	people["start"] = soon
	var pc tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", people, &pc)
	play.apiErr(http.StatusForbidden, "bot_account", "POST", "/api/tournaments/"+pc.Tournament.ID+"/join", nil)
	robo.apiErr(http.StatusForbidden, "bot_account", "POST", "/api/tournaments/"+pc.Tournament.ID+"/join", nil)
	bob.must(http.StatusOK, "POST", "/api/tournaments/"+pc.Tournament.ID+"/join", nil, nil)
	if got := playerBots(ann, pc.Tournament.ID); len(got) != 1 || got["bob"] {
		t.Fatalf("people's cup players %v: want bob alone, a person", got)
	}

	open := swissReq("Open cup", 3)
	open["start"] = soon
	open["bots"] = true
	var oc tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", open, &oc)
	id := oc.Tournament.ID
	play.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	bob.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	got := playerBots(ann, id)
	if len(got) != 2 || !got["robo"] || got["bob"] {
		t.Fatalf("open cup players %v: want robo marked a bot and bob not", got)
	}
	// Every format takes the flag: an arena that admits bots too.
	arena := map[string]any{"name": "Bot arena", "format": "arena", "game": "sgolte", "minutes": 30, "start": soon, "bots": true,
		"clock": map[string]any{"kind": "realtime", "initialMs": 60000}}
	var ac tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", arena, &ac)
	play.must(http.StatusOK, "POST", "/api/tournaments/"+ac.Tournament.ID+"/join", nil, nil)
}

// playerBots is a tournament's players, each with whether it is marked a
// bot.
func playerBots(c *client, id string) map[string]bool {
	c.e.t.Helper()
	var resp struct {
		Players []struct {
			Name string `json:"name"`
			Bot  bool   `json:"bot"`
		} `json:"players"`
	}
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &resp)
	out := map[string]bool{}
	for _, p := range resp.Players {
		out[p.Name] = p.Bot
	}
	return out
}
