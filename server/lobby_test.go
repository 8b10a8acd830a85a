package server_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/tabula-games/tabula/server"
)

// TestLobby: listing, invitations on the user channel, leaving, aborting,
// resigning, the catalog and the web hook.
func TestLobby(t *testing.T) {
	web := fstest.MapFS{"index.html": {Data: []byte("<!doctype html><title>Tabula</title>")}}
	e := newEnv(t, func(c *serverConfig) { c.Web = web })
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	bobWS := bob.dial("/api/ws")

	open := alice.create(map[string]any{"game": "tnim"})
	invite := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"players": "3"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}, {"kind": "open"}}})
	if m := bobWS.next("invite"); !strings.Contains(string(m.raw), invite.ID) {
		t.Fatalf("invitation: %s", m.raw)
	}
	list := func(query string) []string {
		var resp struct{ Games []summary }
		e.anon().must(http.StatusOK, "GET", "/api/games"+query, nil, &resp)
		var ids []string
		for _, g := range resp.Games {
			ids = append(ids, g.ID)
		}
		return ids
	}
	if got := list("?status=open"); len(got) != 2 || got[0] != invite.ID || got[1] != open.ID {
		t.Fatalf("open games %v", got)
	}
	if got := list("?user=bob"); len(got) != 1 || got[0] != invite.ID {
		t.Fatalf("bob's games %v", got)
	}
	// An open game whose free seats are all invitations is not in the
	// public list (a visitor could not join it; it is bob's and carol's
	// business) but is in its players' own lists.
	private := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "carol"}}})
	if got := list("?status=open"); len(got) != 2 || got[0] != invite.ID || got[1] != open.ID {
		t.Fatalf("open games with an invitation-only game: %v", got)
	}
	if got := list("?user=carol&status=open"); len(got) != 1 || got[0] != private.ID {
		t.Fatalf("carol's open games %v", got)
	}
	if got := list("?user=alice&status=open"); len(got) != 3 || got[0] != private.ID {
		t.Fatalf("alice's open games %v", got)
	}
	carol.must(http.StatusOK, "POST", "/api/games/"+private.ID+"/abort", nil, nil)
	if got := list("?status=live"); len(got) != 0 {
		t.Fatalf("live games %v", got)
	}
	e.anon().apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/games?status=sleeping", nil)

	// Carol takes the open seat and leaves again; bob's seat stays his.
	carol.apiErr(http.StatusConflict, "conflict", "POST", "/api/games/"+invite.ID+"/join", map[string]int{"seat": 1})
	var j struct{ Game summary }
	carol.must(http.StatusOK, "POST", "/api/games/"+invite.ID+"/join", nil, &j)
	if j.Game.Seats[2].User != "carol" || j.Game.Status != "open" {
		t.Fatalf("after carol joined: %+v", j.Game)
	}
	carol.must(http.StatusOK, "POST", "/api/games/"+invite.ID+"/leave", nil, &j)
	if j.Game.Seats[2].Kind != "open" {
		t.Fatalf("after carol left: %+v", j.Game)
	}
	bob.must(http.StatusOK, "POST", "/api/games/"+invite.ID+"/join", nil, nil)
	carol.must(http.StatusOK, "POST", "/api/games/"+invite.ID+"/join", nil, &j)
	if j.Game.Status != "live" {
		t.Fatalf("full game did not start: %+v", j.Game)
	}
	if m := bobWS.next("start"); !strings.Contains(string(m.raw), invite.ID) {
		t.Fatalf("start notice: %s", m.raw)
	}
	if got := list("?status=live"); len(got) != 1 || got[0] != invite.ID {
		t.Fatalf("live games %v", got)
	}

	// Resigning: the other seats share the win.
	var r struct{ Game summary }
	bob.must(http.StatusOK, "POST", "/api/games/"+invite.ID+"/resign", nil, &r)
	if res := r.Game.Result; r.Game.Status != "finished" || res == nil || res.Reason != "resign" || len(res.Winners) != 2 || res.Winners[0] != 0 || res.Winners[1] != 2 {
		t.Fatalf("after resigning: %+v", r.Game)
	}
	if m := bobWS.next("end"); !strings.Contains(string(m.raw), invite.ID) {
		t.Fatalf("end notice: %s", m.raw)
	}

	// Aborting an open game.
	alice.must(http.StatusOK, "POST", "/api/games/"+open.ID+"/abort", nil, &r)
	if r.Game.Status != "aborted" {
		t.Fatalf("after abort: %+v", r.Game)
	}
	bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/games/"+open.ID+"/join", nil)

	// The catalog describes every registered game.
	var cat struct {
		Games []struct {
			Name  string
			Seats struct{ Min, Max, Default int }
		}
		Bots []string
	}
	e.anon().must(http.StatusOK, "GET", "/api/catalog", nil, &cat)
	found := false
	for _, g := range cat.Games {
		if g.Name == "tnim" {
			found = g.Seats.Min == 2 && g.Seats.Max == 4 && g.Seats.Default == 2
		}
	}
	if !found || len(cat.Bots) == 0 {
		t.Fatalf("catalog %+v", cat)
	}

	// The web application is served at /, the API's unknown routes are JSON 404s.
	status, page := e.anon().do("GET", "/", nil)
	if status != http.StatusOK || !strings.Contains(string(page), "<title>Tabula</title>") {
		t.Fatalf("web app: %d %s", status, page)
	}
	status, body := e.anon().do("GET", "/api/nothing", nil)
	var ae struct{ Error struct{ Code string } }
	json.Unmarshal(body, &ae)
	if status != http.StatusNotFound || ae.Error.Code != "not_found" {
		t.Fatalf("unknown route: %d %s", status, body)
	}
}

// TestUserChannelLiveOnDial: a notice sent as soon as the client's dial
// returns reaches the new connection. The server used to register the
// channel only after the handshake, and CI lost an invitation that way. The
// server is held just after the handshake while the notice is sent; the
// notice is an end, which (unlike turns and invitations) is not sent again
// on connecting, so only registering in time delivers it.
func TestUserChannelLiveOnDial(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim",
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	release := make(chan struct{})
	server.HoldUserChannels(t, func() { <-release })
	ws := bob.dial("/api/ws")
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
	close(release)
	if m := ws.next("end"); !strings.Contains(string(m.raw), g.ID) {
		t.Fatalf("end notice %s, want game %s", m.raw, g.ID)
	}
}

// TestUserChannelSendsOpenInvitations: a user who connects gets an invite
// for every open game that still holds a seat for them, and none for games
// that were aborted, that they have joined, or that only have open seats.
func TestUserChannelSendsOpenInvitations(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	inviteBob := func(players int) summary {
		seats := []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}
		for len(seats) < players {
			seats = append(seats, map[string]string{"kind": "open"})
		}
		return alice.create(map[string]any{"game": "tnim", "options": map[string]string{"players": strconv.Itoa(players)}, "seats": seats})
	}
	waiting := inviteBob(2)
	aborted := inviteBob(2)
	alice.must(http.StatusOK, "POST", "/api/games/"+aborted.ID+"/abort", nil, nil)
	joined := inviteBob(3)
	bob.must(http.StatusOK, "POST", "/api/games/"+joined.ID+"/join", nil, nil)
	openOnly := alice.create(map[string]any{"game": "tnim"})

	ws := bob.dial("/api/ws")
	first := ws.next("invite")
	if !strings.Contains(string(first.raw), waiting.ID) {
		t.Fatalf("first invitation on connecting: %s, want game %s", first.raw, waiting.ID)
	}
	// A live invitation next: nothing about the other games comes in between.
	later := inviteBob(2)
	if m := ws.next("invite"); !strings.Contains(string(m.raw), later.ID) {
		t.Fatalf("invitation %s, want game %s (aborted %s, joined %s, open only %s)", m.raw, later.ID, aborted.ID, joined.ID, openOnly.ID)
	}
}
