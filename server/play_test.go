package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server"
)

func TestAccounts(t *testing.T) {
	e := newEnv(t)
	g := e.guest()
	if !strings.HasPrefix(g.name, "guest-") || g.token == "" {
		t.Fatalf("guest %q token %q", g.name, g.token)
	}
	var me struct {
		User struct {
			Name  string
			Guest bool
		}
	}
	g.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if !me.User.Guest || me.User.Name != g.name {
		t.Fatalf("me = %+v", me)
	}
	// A guest registering keeps its account.
	g.must(http.StatusCreated, "POST", "/api/users", map[string]string{"name": "Alice", "password": "long enough"}, nil)
	g.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.User.Guest || me.User.Name != "Alice" {
		t.Fatalf("after registering: %+v", me)
	}
	a := e.anon()
	a.apiErr(http.StatusConflict, "conflict", "POST", "/api/users", map[string]string{"name": "alice", "password": "long enough"})
	a.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/users", map[string]string{"name": "guest-x", "password": "long enough"})
	a.apiErr(http.StatusBadRequest, "weak_password", "POST", "/api/users", map[string]string{"name": "bob", "password": "short"})
	a.apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/session", map[string]string{"name": "alice", "password": "wrong one"})
	a.apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/session", map[string]string{"name": "nobody", "password": "wrong one"})
	var login struct{ Token string }
	a.must(http.StatusOK, "POST", "/api/session", map[string]string{"name": "alice", "password": "long enough"}, &login)
	a.token = login.Token
	a.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.User.Name != "Alice" {
		t.Fatalf("login as %+v", me)
	}
	// Tokens: created once, listed without the secret, usable, revocable.
	var tok struct {
		ID    int64
		Token string
	}
	a.must(http.StatusCreated, "POST", "/api/tokens", map[string]string{"name": "bot"}, &tok)
	if !strings.HasPrefix(tok.Token, "tbl_") {
		t.Fatalf("token %q", tok.Token)
	}
	_, list := a.do("GET", "/api/tokens", nil)
	if strings.Contains(string(list), tok.Token) || !strings.Contains(string(list), `"bot"`) {
		t.Fatalf("token list %s", list)
	}
	bot := &client{e: e, token: tok.Token}
	bot.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.User.Name != "Alice" {
		t.Fatalf("token user %+v", me)
	}
	e.guest().apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tokens", map[string]string{"name": "x"})
	a.must(http.StatusNoContent, "DELETE", "/api/tokens/"+jsonStr(tok.ID), nil, nil)
	bot.apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/me", nil)
	// Logging out ends the session.
	a.must(http.StatusNoContent, "DELETE", "/api/session", nil, nil)
	a.apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/me", nil)
	// Public profiles show nothing private.
	_, prof := e.anon().do("GET", "/api/users/alice", nil)
	if strings.Contains(string(prof), "argon2") || strings.Contains(string(prof), "password") {
		t.Fatalf("profile leaks: %s", prof)
	}
}

// TestPlayOverWebSocket: two users play a whole game of tnim, one over the
// game channel and one over HTTP, while a spectator watches.
func TestPlayOverWebSocket(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "10"}})
	if g.Status != "open" || len(g.Seats) != 2 || g.Seats[0].User != "alice" || g.Seats[1].Kind != "open" {
		t.Fatalf("created %+v", g)
	}
	spec := e.anon().dial("/api/games/" + g.ID + "/ws")
	if m := spec.next("snapshot"); m.Seat != -1 {
		t.Fatalf("spectator snapshot %s", m.raw)
	}
	aws := alice.dial("/api/games/" + g.ID + "/ws")
	aws.next("snapshot")
	var joined struct{ Game summary }
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, &joined)
	if joined.Game.Status != "live" {
		t.Fatalf("after join: %+v", joined.Game)
	}
	spec.next("lobby")
	// The start reaches every connection as a fresh snapshot, taken when
	// it is sent: waiting for it keeps Alice's first move out of it.
	spec.next("snapshot")
	aws.next("snapshot")
	// Alice (seat 0) moves over WebSocket, Bob over HTTP.
	ply := 0
	for stones := 10; stones > 0; {
		take := min(stones, 1+ply%3)
		if ply%2 == 0 {
			aws.send(map[string]any{"type": "move", "id": "c" + jsonStr(ply), "ply": ply, "move": jsonStr(take)})
			m := aws.nextMove(ply)
			if m.Move != jsonStr(take) {
				t.Fatalf("alice saw %s", m.raw)
			}
			if ack := aws.next("ack", "error"); ack.Type != "ack" || ack.Ply != ply {
				t.Fatalf("alice's move %d: %s", ply, ack.raw)
			}
		} else {
			var resp struct {
				Ply  int
				Move string
			}
			bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": ply, "move": jsonStr(take)}, &resp)
			if resp.Ply != ply {
				t.Fatalf("bob's move: %+v", resp)
			}
		}
		m := spec.next("move")
		if m.Ply != ply || m.Seat != ply%2 || m.Legal != nil {
			t.Fatalf("spectator saw %s", m.raw)
		}
		stones -= take
		ply++
	}
	end := spec.next("end")
	var es struct{ Game summary }
	json.Unmarshal(end.raw, &es)
	// 10 stones taken 1,2,3,1,2,1: the 6th move (seat 1) takes the last.
	if es.Game.Status != "finished" || es.Game.Result == nil || es.Game.Result.Winners[0] != 1 {
		t.Fatalf("end %s", end.raw)
	}
	sum, moves, _ := alice.game(g.ID)
	if sum.Status != "finished" || len(moves) != ply {
		t.Fatalf("final %+v %d moves", sum, len(moves))
	}
	// A finished game never changes.
	bob.apiErr(http.StatusConflict, "game_over", "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": ply, "move": "1"})
	var rec struct {
		Moves []moveJSON
		Final json.RawMessage
	}
	e.anon().must(http.StatusOK, "GET", "/api/games/"+g.ID+"/record", nil, &rec)
	if len(rec.Moves) != ply || len(rec.Final) == 0 {
		t.Fatalf("record %+v", rec)
	}
}

// TestBotSeat: a server-side bot answers every move of its seat.
func TestBotSeat(t *testing.T) {
	e := newEnv(t)
	alice := e.guest()
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "30"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	if g.Status != "live" {
		t.Fatalf("a game without open seats starts at once: %+v", g)
	}
	ws := alice.dial("/api/games/" + g.ID + "/ws")
	snap := ws.next("snapshot")
	if snap.Seat != 0 || len(snap.Legal) != 3 {
		t.Fatalf("snapshot %s", snap.raw)
	}
	var page struct {
		Seat  int
		Legal []string
	}
	alice.must(http.StatusOK, "GET", "/api/games/"+g.ID, nil, &page)
	if page.Seat != 0 || len(page.Legal) != 3 {
		t.Fatalf("game page for the seat to move: %+v", page)
	}
	ply := 0
	for {
		ws.send(map[string]any{"type": "move", "ply": ply, "move": "1"})
		m := ws.next("move", "error", "end")
		if m.Type != "move" || m.Seat != 0 {
			t.Fatalf("after my move %d: %s", ply, m.raw)
		}
		ply++
		m = ws.next("move", "end")
		if m.Type == "end" {
			break
		}
		if m.Seat != 1 || m.Ply != ply {
			t.Fatalf("bot move: %s", m.raw)
		}
		ply++
		if m.ToMove == -1 {
			ws.next("end")
			break
		}
	}
	sum, _, _ := alice.game(g.ID)
	if sum.Status != "finished" {
		t.Fatalf("game %+v", sum)
	}
}

// TestEventNumbers: every message about a game carries its event number,
// one more with each change; a client watching from before the start gets
// the start as it was (a snapshot without moves), then every move as a
// message, however late its connection renders the start; a gap in the
// numbers gets the client a fresh snapshot.
func TestEventNumbers(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "5"}})
	spec := e.anon().dial("/api/games/" + g.ID + "/ws")
	seqOf := func(m wsMsg) int64 {
		var s struct{ Seq int64 }
		json.Unmarshal(m.raw, &s)
		return s.Seq
	}
	if m := spec.next("snapshot"); seqOf(m) != 1 {
		t.Fatalf("snapshot of a new game: %s", m.raw)
	}
	// The spectator's connection tells of the start only after alice has
	// moved twice.
	release := make(chan struct{})
	server.HoldGameStarts(t, func() { <-release })
	var joined struct{ Seq int64 }
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, &joined)
	if joined.Seq != 3 { // created 1, seat taken 2, started 3
		t.Fatalf("join answered at seq %d, want 3", joined.Seq)
	}
	for ply, who := range []*client{alice, bob} {
		var res struct{ Seq, Ply int64 }
		who.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": ply, "move": "1"}, &res)
		if res.Seq != int64(4+ply) || res.Ply != int64(ply) {
			t.Fatalf("move %d answered %+v", ply, res)
		}
	}
	close(release)
	if m := spec.next("lobby"); seqOf(m) != 2 {
		t.Fatalf("lobby %s", m.raw)
	}
	if m := spec.next("snapshot", "move"); m.Type != "snapshot" || len(m.Moves) != 0 || seqOf(m) != 3 || m.Seat != -1 {
		t.Fatalf("the start: %s", m.raw)
	}
	for ply := 0; ply < 2; ply++ {
		if m := spec.next("move", "snapshot"); m.Type != "move" || m.Ply != ply || seqOf(m) != int64(4+ply) {
			t.Fatalf("move %d: %s", ply, m.raw)
		}
	}

	// An event the connection missed (seq 9 after 5): a fresh snapshot, at
	// the game's real number. An old one (seq 2) is not shown again.
	meta := match.Meta{ID: g.ID, Game: "tnim", Status: match.Live, Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.id}, {Kind: match.SeatHuman, UserID: bob.id}}}
	meta.Version = 2
	server.Publish(e.srv, match.Event{Game: g.ID, Seq: 2, Kind: match.EventLobby, Meta: meta})
	meta.Version = 9
	server.Publish(e.srv, match.Event{Game: g.ID, Seq: 9, Kind: match.EventLobby, Meta: meta})
	if m := spec.next("snapshot", "lobby", "move"); m.Type != "snapshot" || seqOf(m) != 5 || len(m.Moves) != 2 {
		t.Fatalf("after a gap: %s", m.raw)
	}
}
