package server_test

import (
	"net/http"
	"testing"
	"time"
)

// TestTournamentStartInbox: when a Swiss and an arena start, each player
// still registered gets an inbox notice (topic "tournament", the
// tournament's name, a link to its page) and a bell nudge on their user
// channel; a player who withdrew before the start, and a user who never
// joined, get none.
func TestTournamentStartInbox(t *testing.T) {
	e := newEnv(t)
	ann, bob, cyd, dee := e.register("ann"), e.register("bob"), e.register("cyd"), e.register("dee")
	start := time.Now().Add(6 * time.Second).UTC().Format(time.RFC3339Nano) // 2 s was short for the joins and a withdrawal on a loaded machine
	swiss := swissReq("Tuesday Swiss", 1)
	swiss["start"] = start
	arena := map[string]any{"name": "Quick arena", "format": "arena", "game": "sgolte", "minutes": 30,
		"start": start, "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	ids := map[string]string{}
	for name, req := range map[string]map[string]any{"Tuesday Swiss": swiss, "Quick arena": arena} {
		var created tournamentResp
		ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
		ids[name] = created.Tournament.ID
		for _, c := range []*client{ann, bob, cyd} {
			c.must(http.StatusOK, "POST", "/api/tournaments/"+created.Tournament.ID+"/join", nil, nil)
		}
		cyd.must(http.StatusNoContent, "POST", "/api/tournaments/"+created.Tournament.ID+"/withdraw", nil, nil)
	}
	bws := bob.dial("/api/ws")
	deadline := time.Now().Add(20 * time.Second)
	notices := func(c *client) map[string]string {
		out := map[string]string{}
		var in struct {
			Items []struct{ Kind, Title, Link string }
		}
		c.must(http.StatusOK, "GET", "/api/inbox", nil, &in)
		for _, it := range in.Items {
			if it.Kind == "notice" {
				out[it.Link] = it.Title
			}
		}
		return out
	}
	for len(notices(bob)) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("bob's inbox after both starts: %+v", bob.inbox(""))
		}
		nextNotice(bws, "inbox")
	}
	for _, c := range []*client{ann, bob} {
		got := notices(c)
		for name, id := range ids {
			if got["#/tournament/"+id] != name {
				t.Errorf("%s's inbox notices %v: want %q linking #/tournament/%s", c.name, got, name, id)
			}
		}
		var in struct {
			Items []struct{ Kind, Topic string }
		}
		c.must(http.StatusOK, "GET", "/api/inbox", nil, &in)
		for _, it := range in.Items {
			if it.Kind == "notice" && it.Topic != "tournament" {
				t.Errorf("%s's notice topic %q, want tournament", c.name, it.Topic)
			}
		}
	}
	for _, c := range []*client{cyd, dee} {
		if got := notices(c); len(got) != 0 {
			t.Errorf("%s, not playing, has notices %v", c.name, got)
		}
	}
}
