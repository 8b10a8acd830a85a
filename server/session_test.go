package server_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestSessionNeverFails: the page asks who is signed in on every visit, so
// the answer for nobody (or for a stale token) is 200 with a null user, not
// a 401 that browsers log as an error.
func TestSessionNeverFails(t *testing.T) {
	e := newEnv(t)
	var resp struct {
		User *struct {
			Name string `json:"name"`
		} `json:"user"`
	}
	e.anon().must(http.StatusOK, "GET", "/api/session", nil, &resp)
	if resp.User != nil {
		t.Errorf("anonymous session names %+v", resp.User)
	}
	alice := e.register("alice")
	alice.must(http.StatusOK, "GET", "/api/session", nil, &resp)
	if resp.User == nil || resp.User.Name != "alice" {
		t.Errorf("alice's session: %+v", resp.User)
	}
	stale := e.anon()
	stale.token = "not-a-session"
	var raw json.RawMessage
	stale.must(http.StatusOK, "GET", "/api/session", nil, &raw)
	if string(raw) != `{"user":null}` {
		t.Errorf("stale token: %s", raw)
	}
	// /api/me keeps its meaning: credentials required.
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/me", nil)
}
