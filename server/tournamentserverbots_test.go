package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/director"
)

// TestServerBotsGuarded: only a tournament's creator adds or removes the
// server's bots — a stranger, a guest and nobody signed in are refused and
// add nothing; a level must be a server bot's; a rated tournament, or one
// that admits no bots, takes none; and a tournament has had at most
// director.MaxBots (a request for more adds what fits, then 429), removing
// one giving no room back — so nobody can flood a tournament or the
// node's bots.
func TestServerBotsGuarded(t *testing.T) {
	e := newEnv(t)
	ann, bob := e.register("ann"), e.register("bob")
	later := time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	req := map[string]any{"name": "Skyjo with bots", "format": "tables", "game": "skyjo", "rounds": 1, "bots": true,
		"options": map[string]string{"players": "4"}, "start": later}
	var tr tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &tr)
	id := tr.Tournament.ID
	bots := "/api/tournaments/" + id + "/bots"
	bob.apiErr(http.StatusForbidden, "forbidden", "POST", bots, map[string]any{"level": "easy"})
	e.guest().apiErr(http.StatusForbidden, "forbidden", "POST", bots, map[string]any{"level": "easy"})
	if code, _ := e.anon().do("POST", bots, map[string]any{"level": "easy"}); code != http.StatusUnauthorized {
		t.Fatalf("nobody signed in adds a bot: %d", code)
	}
	ann.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", bots, map[string]any{"level": "exec:/bin/sh"})
	ann.apiErr(http.StatusBadRequest, "bad_request", "POST", bots, map[string]any{"level": "easy", "count": director.MaxBots + 1})
	if got := playerBots(ann, id); len(got) != 0 {
		t.Fatalf("refused requests added players: %v", got)
	}

	var added struct {
		Players []struct {
			Number int    `json:"number"`
			Name   string `json:"name"`
			Bot    bool   `json:"bot"`
			Level  string `json:"level"`
		} `json:"players"`
	}
	ann.must(http.StatusOK, "POST", bots, map[string]any{"level": "easy", "count": 3}, &added)
	if len(added.Players) != 3 || added.Players[2].Name != "easy #3" || !added.Players[0].Bot || added.Players[1].Level != "easy" {
		t.Fatalf("added %+v", added)
	}
	bob.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	if got := playerBots(ann, id); len(got) != 4 || !got["easy #1"] || got["bob"] {
		t.Fatalf("players %v", got)
	}
	// Removing: the creator alone, a bot alone.
	bob.apiErr(http.StatusForbidden, "forbidden", "DELETE", bots+"/1", nil)
	ann.apiErr(http.StatusNotFound, "not_found", "DELETE", bots+"/4", nil) // bob, a person
	ann.must(http.StatusNoContent, "DELETE", bots+"/1", nil, nil)
	var detail tournamentResp
	ann.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &detail)
	if !detail.Players[0].Withdrawn || detail.Players[1].Withdrawn {
		t.Fatalf("after removing bot 1: %+v", detail.Players)
	}
	// The cap counts the removed one: 12 more fit, then none.
	ann.must(http.StatusOK, "POST", bots, map[string]any{"level": "random", "count": director.MaxBots}, &added)
	if len(added.Players) != director.MaxBots-3 {
		t.Fatalf("a request past the cap added %d, want %d", len(added.Players), director.MaxBots-3)
	}
	ann.apiErr(http.StatusTooManyRequests, "quota", "POST", bots, map[string]any{"level": "random"})

	// A rated tournament, or one without bots, takes none.
	rated := map[string]any{"name": "Rated", "format": "tables", "game": "skyjo", "rounds": 1, "bots": true, "rated": true, "start": later}
	ann.must(http.StatusCreated, "POST", "/api/tournaments", rated, &tr)
	ann.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tournaments/"+tr.Tournament.ID+"/bots", map[string]any{"level": "easy"})
	people := map[string]any{"name": "People", "format": "tables", "game": "skyjo", "rounds": 1, "start": later}
	ann.must(http.StatusCreated, "POST", "/api/tournaments", people, &tr)
	ann.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tournaments/"+tr.Tournament.ID+"/bots", map[string]any{"level": "easy"})
}

// streamTournament reads GET /api/tournaments/{id}/events, sending the
// data of each tournament event on the channel it returns.
func streamTournament(t *testing.T, e *env, id string) <-chan tablesResp {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", e.hs.URL+"/api/tournaments/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("events: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := make(chan tablesResp, 100)
	go func() {
		defer resp.Body.Close()
		defer close(out)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(nil, 1<<20)
		event := ""
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				event = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: ") && event == "tournament":
				var tr tablesResp
				if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &tr); err != nil {
					panic(fmt.Sprintf("event data: %v", err))
				}
				out <- tr
			}
		}
	}()
	return out
}

// TestServerBotsTableLive: ann and three of the server's random bots at a
// Skyjo table tournament of one round. The page's stream pushes the
// tournament as it changes — upcoming, then seated and running, then
// finished — with nobody asking again; the table's game has a bot seat for
// each bot, which the server plays; when ann resigns the bots share the
// places above her, and the stream ends with the final standings.
func TestServerBotsTableLive(t *testing.T) {
	e := newEnv(t)
	ann := e.register("ann")
	req := map[string]any{"name": "Bots' table", "format": "tables", "game": "skyjo", "rounds": 1, "bots": true,
		"options": map[string]string{"players": "4"}, "start": time.Now().Add(6 * time.Second).UTC().Format(time.RFC3339Nano)}
	var tr tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &tr)
	id := tr.Tournament.ID
	events := streamTournament(t, e, id)
	next := func(what string) tablesResp {
		t.Helper()
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended before %s", what)
			}
			return ev
		case <-time.After(30 * time.Second):
			t.Fatalf("no event for %s", what)
		}
		return tablesResp{}
	}
	if ev := next("the first"); ev.Tournament.Status != "upcoming" {
		t.Fatalf("first event: %+v", ev.Tournament)
	}
	ann.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	ann.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/bots", map[string]any{"level": "random", "count": 3}, nil)
	var gameID string
	for gameID == "" {
		ev := next("the table")
		if ev.Tables != nil && len(ev.Tables.Rounds) == 1 && ev.Tournament.Status == "running" {
			gameID = ev.Tables.Rounds[0].Tables[0].GameID
		}
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if code, _ := ann.do("GET", "/api/games/"+gameID, nil); code == http.StatusOK {
			if g, _, _ := ann.game(gameID); g.Status == "live" {
				for i, s := range g.Seats {
					if (i == 0) != (s.User == "ann") || (i > 0 && (s.Kind != "bot" || s.Level != "random")) {
						t.Fatalf("the table's seats: %+v", g.Seats)
					}
				}
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the table's game never went live")
		}
		time.Sleep(20 * time.Millisecond)
	}
	ann.must(http.StatusOK, "POST", "/api/games/"+gameID+"/resign", nil, nil)
	for {
		ev := next("the end")
		if ev.Tournament.Status != "finished" {
			continue
		}
		st := ev.Tables.Standings
		if len(st) != 4 || st[3].Name != "ann" || st[3].Points != 0 || st[0].Points != 2 || st[0].Rank != 1 || st[2].Rank != 1 {
			t.Fatalf("final standings %+v", st)
		}
		break
	}
	if _, ok := <-events; ok {
		t.Fatal("the stream goes on after the end")
	}
}
