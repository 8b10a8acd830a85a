package server_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestSecurity: every way of acting wrongly on a live game gets a clear 4xx
// and leaves the game exactly as it was.
func TestSecurity(t *testing.T) {
	e := newEnv(t)
	alice, bob, eve := e.register("alice"), e.register("bob"), e.register("eve")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "20"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}})
	eve.apiErr(http.StatusConflict, "conflict", "POST", "/api/games/"+g.ID+"/join", nil)
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	moves := "/api/games/" + g.ID + "/moves"
	alice.must(http.StatusOK, "POST", moves, map[string]any{"ply": 0, "move": "1"}, nil)
	bob.must(http.StatusOK, "POST", moves, map[string]any{"ply": 1, "move": "2"}, nil)
	// Alice (seat 0) is to move at ply 2.
	before, beforeMoves, beforeView := alice.game(g.ID)

	wrongToken := &client{e: e, token: "tbl_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}
	badSession := &client{e: e, token: "not-a-session"}
	cases := []struct {
		name   string
		c      *client
		body   any
		status int
		code   string
	}{
		{"move for another seat", alice, map[string]any{"ply": 2, "move": "1", "seat": 1}, 403, "forbidden"},
		{"move out of turn", bob, map[string]any{"ply": 2, "move": "1"}, 409, "not_your_turn"},
		{"not a player", eve, map[string]any{"ply": 2, "move": "1"}, 403, "forbidden"},
		{"malformed JSON", alice, `{"ply": 2, "move": `, 400, "bad_json"},
		{"unknown field", alice, `{"ply": 2, "move": "1", "extra": true}`, 400, "bad_json"},
		{"two values", alice, `{"ply": 2, "move": "1"} {}`, 400, "bad_json"},
		{"missing ply", alice, map[string]any{"move": "1"}, 400, "bad_request"},
		{"oversized body", alice, `{"ply": 2, "move": "` + strings.Repeat("1", 100<<10) + `"}`, 413, "too_large"},
		{"illegal move", alice, map[string]any{"ply": 2, "move": "4"}, 422, "illegal_move"},
		{"unreadable move", alice, map[string]any{"ply": 2, "move": "take all"}, 400, "bad_move"},
		{"wrong token", wrongToken, map[string]any{"ply": 2, "move": "1"}, 401, "unauthorized"},
		{"wrong session", badSession, map[string]any{"ply": 2, "move": "1"}, 401, "unauthorized"},
		{"no credentials", e.anon(), map[string]any{"ply": 2, "move": "1"}, 401, "unauthorized"},
		{"replayed old move", alice, map[string]any{"ply": 0, "move": "1"}, 409, "stale_ply"},
		{"move from the future", alice, map[string]any{"ply": 3, "move": "1"}, 409, "stale_ply"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.c.apiErr(tc.status, tc.code, "POST", moves, tc.body)
		})
	}
	t.Run("wrong content type", func(t *testing.T) {
		req, _ := http.NewRequest("POST", e.hs.URL+moves, strings.NewReader(`{"ply":2,"move":"1"}`))
		req.Header.Set("Authorization", "Bearer "+alice.token)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("status %d", resp.StatusCode)
		}
	})
	t.Run("unknown game", func(t *testing.T) {
		alice.apiErr(404, "not_found", "POST", "/api/games/nosuchgame/moves", map[string]any{"ply": 0, "move": "1"})
	})
	t.Run("over the game channel", func(t *testing.T) {
		ws := bob.dial("/api/games/" + g.ID + "/ws")
		ws.next("snapshot")
		for _, m := range []struct {
			msg  any
			code string
		}{
			{map[string]any{"type": "move", "id": "a", "ply": 2, "move": "1"}, "not_your_turn"},
			{map[string]any{"type": "move", "id": "b", "ply": 2, "move": "1", "seat": 0}, "forbidden"},
			{map[string]any{"type": "move", "id": "c", "move": "1"}, "bad_request"},
			{map[string]any{"type": "dance", "id": "d"}, "bad_request"},
			{"{not json", "bad_json"},
		} {
			if s, ok := m.msg.(string); ok {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				ws.c.Write(ctx, websocket.MessageText, []byte(s))
				cancel()
			} else {
				ws.send(m.msg)
			}
			got := ws.next("error", "ack")
			if got.Type != "error" || got.Error.Code != m.code {
				t.Fatalf("%v: got %s, want error %s", m.msg, got.raw, m.code)
			}
		}
		// An oversized message ends the connection.
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		ws.c.Write(ctx, websocket.MessageText, []byte(`{"type":"move","move":"`+strings.Repeat("1", 64<<10)+`"}`))
		select {
		case <-ws.done:
		case <-time.After(10 * time.Second):
			t.Fatal("connection survived an oversized message")
		}
	})
	t.Run("spectators cannot act", func(t *testing.T) {
		ws := e.anon().dial("/api/games/" + g.ID + "/ws")
		ws.next("snapshot")
		ws.send(map[string]any{"type": "move", "ply": 2, "move": "1"})
		if got := ws.next("error"); got.Error.Code != "unauthorized" {
			t.Fatalf("got %s", got.raw)
		}
	})
	t.Run("the user channel needs credentials", func(t *testing.T) {
		status, _ := e.anon().do("GET", "/api/ws", nil)
		if status != http.StatusUnauthorized {
			t.Fatalf("status %d", status)
		}
	})
	t.Run("private data", func(t *testing.T) {
		var tok struct{ ID int64 }
		alice.must(http.StatusCreated, "POST", "/api/tokens", map[string]string{"name": "mine"}, &tok)
		bob.apiErr(404, "not_found", "DELETE", "/api/tokens/"+jsonStr(tok.ID), nil)
		_, list := bob.do("GET", "/api/tokens", nil)
		if strings.Contains(string(list), "mine") {
			t.Fatalf("bob sees alice's tokens: %s", list)
		}
	})
	t.Run("lobby actions by others", func(t *testing.T) {
		g2 := alice.create(map[string]any{"game": "tnim"})
		bob.apiErr(403, "forbidden", "POST", "/api/games/"+g2.ID+"/abort", nil)
		bob.apiErr(403, "forbidden", "POST", "/api/games/"+g2.ID+"/leave", nil)
		bob.apiErr(409, "conflict", "POST", "/api/games/"+g.ID+"/leave", nil)
		eve.apiErr(403, "forbidden", "POST", "/api/games/"+g.ID+"/resign", nil)
	})
	t.Run("bad game requests", func(t *testing.T) {
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "chess"})
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "options": map[string]string{"stones": "0"}})
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "options": map[string]string{"colour": "red"}})
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}}})
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "exec:/bin/sh"}}})
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "mcts:time=1h"}}})
		alice.apiErr(422, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "clock": map[string]any{"kind": "realtime", "initialMs": 5}})
	})

	after, afterMoves, afterView := alice.game(g.ID)
	if after.Ply != before.Ply || after.ToMove != before.ToMove || after.Status != "live" ||
		!slices.Equal(afterMoves, beforeMoves) || string(afterView) != string(beforeView) {
		t.Fatalf("the game changed: %+v %v %s → %+v %v %s", before, beforeMoves, beforeView, after, afterMoves, afterView)
	}
	// And it still plays.
	alice.must(http.StatusOK, "POST", moves, map[string]any{"ply": 2, "move": "3"}, nil)
}

// TestRateLimit: a client over its budget gets 429 with Retry-After.
func TestRateLimit(t *testing.T) {
	e := newEnv(t, func(c *serverConfig) { c.RateLimit = 1; c.RateBurst = 5 })
	a := e.guest()
	limited := false
	for i := 0; i < 20; i++ {
		status, _ := a.do("GET", "/api/me", nil)
		if status == http.StatusTooManyRequests {
			limited = true
			break
		}
	}
	if !limited {
		t.Fatal("20 requests at once were never limited")
	}
}
