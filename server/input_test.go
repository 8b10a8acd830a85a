package server_test

import (
	"net/http"
	"strings"
	"testing"
)

// TestTextIsChecked: a NUL byte or invalid UTF-8 anywhere a client can put
// text — a path, a query, any JSON string or key, a WebSocket message — is
// refused with 400 before the store sees it, on both stores (finding 5 of
// issue 16: PostgreSQL answered 503 and logged an ERROR, SQLite a 404 or
// 401 that hid the cause).
func TestTextIsChecked(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { checkText(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { checkText(t, newEnvWith(t, postgresStore(t))) })
}

func checkText(t *testing.T, e *env) {
	alice := e.register("alice")
	e.register("bob")
	g := alice.create(map[string]any{"game": "tnim"})
	anon := e.anon()
	cases := []struct {
		name         string
		c            *client
		method, path string
		body         any
	}{
		{"NUL in a path value", anon, "GET", "/api/users/a%00b", nil},
		{"invalid UTF-8 in a path value", anon, "GET", "/api/users/a%ffb", nil},
		{"NUL in a game id", anon, "GET", "/api/games/" + g.ID + "%00", nil},
		{"NUL in a query value", anon, "GET", "/api/games?user=a%00", nil},
		{"invalid UTF-8 in a query value", anon, "GET", "/api/games?user=%c3%28", nil},
		{"NUL in a query key", anon, "GET", "/api/games?us%00er=bob", nil},
		{"NUL in a static path", anon, "GET", "/index%00.html", nil},
		{"NUL in a login name", anon, "POST", "/api/session", map[string]string{"name": "alice\x00", "password": "password-alice"}},
		{"NUL in a password", anon, "POST", "/api/session", map[string]string{"name": "alice", "password": "password-alice\x00"}},
		{"NUL in a new name", anon, "POST", "/api/users", map[string]string{"name": "a\x00b", "password": "a fine password"}},
		{"NUL in a token name", alice, "POST", "/api/tokens", map[string]string{"name": "bot\x00"}},
		{"invalid UTF-8 in a token name", alice, "POST", "/api/tokens", "{\"name\": \"bot\xff\"}"},
		{"invalid UTF-8 outside strings", alice, "POST", "/api/tokens", "{\"name\": \"bot\"}\xff"},
		{"NUL in an invitation", alice, "POST", "/api/games", map[string]any{"game": "tnim",
			"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bo\x00b"}}}},
		{"NUL in an option key", alice, "POST", "/api/games", map[string]any{"game": "tnim", "options": map[string]string{"sto\x00nes": "3"}}},
		{"NUL in an object key", alice, "POST", "/api/tokens", `{"na\u0000me": "x"}`},
		{"NUL in a move", alice, "POST", "/api/games/" + g.ID + "/moves", map[string]any{"ply": 0, "move": "1\x00"}},
		{"NUL in a record", alice, "POST", "/api/records", map[string]any{"record": map[string]any{"game": "tnim\x00", "moves": []string{}}}},
		{"NUL in a text record", alice, "POST", "/api/records", map[string]any{"record": "tnim | \x00"}},
	}
	for _, tc := range cases {
		status, data := tc.c.do(tc.method, tc.path, tc.body)
		if status != http.StatusBadRequest || !strings.Contains(string(data), `"bad_text"`) {
			t.Errorf("%s: got %d %s, want 400 bad_text", tc.name, status, data)
		}
	}
	// The user channel (the bot API) checks its messages the same way.
	ws := alice.dial("/api/ws")
	ws.send(map[string]any{"type": "move", "id": g.ID + "\x00", "ply": 0, "move": "1"})
	if m := ws.next("error"); m.Error == nil || m.Error.Code != "bad_text" {
		t.Errorf("NUL on the user channel: %s", m.raw)
	}
	if strings.Contains(e.logs.String(), `"level":"ERROR"`) {
		t.Errorf("bad text reached the store: %s", e.logs.String())
	}
	// Nothing was made of it.
	var toks struct{ Tokens []any }
	alice.must(http.StatusOK, "GET", "/api/tokens", nil, &toks)
	if len(toks.Tokens) != 0 {
		t.Errorf("tokens made from bad text: %+v", toks)
	}
	// Ordinary text beyond ASCII is fine.
	alice.must(http.StatusCreated, "POST", "/api/tokens", map[string]string{"name": "봇 — Бот"}, nil)
}
