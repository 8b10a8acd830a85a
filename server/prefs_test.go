package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestPrefs: a registered player's board preferences are kept with the
// account (GET/PUT /api/me/prefs) and read back by another session of the
// same account; anonymous callers get 401, guests 403; unknown keys,
// values the page does not offer and an oversize body are 4xx and store
// nothing; one account's preferences are not another's.
func TestPrefs(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testPrefs(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testPrefs(t, newEnvWith(t, postgresStore(t))) })
}

func testPrefs(t *testing.T, e *env) {
	alice, bob := e.register("alice"), e.register("bob")
	get := func(c *client) string {
		t.Helper()
		var out struct{ Prefs json.RawMessage }
		c.must(http.StatusOK, "GET", "/api/me/prefs", nil, &out)
		return string(out.Prefs)
	}

	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/me/prefs", nil)
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "PUT", "/api/me/prefs", map[string]any{"zen": true})
	guest := e.guest()
	guest.apiErr(http.StatusForbidden, "forbidden", "GET", "/api/me/prefs", nil)
	guest.apiErr(http.StatusForbidden, "forbidden", "PUT", "/api/me/prefs", map[string]any{"zen": true})

	if got := get(alice); got != "null" {
		t.Fatalf("prefs before any save = %s, want null", got)
	}
	want := `{"boardSize":"small","zen":true,"scheme":"dark","boardThemes":{"sgolte":"forest","skyjo":"wine"}}`
	alice.must(http.StatusOK, "PUT", "/api/me/prefs", want, nil)
	if got := get(alice); got != want {
		t.Fatalf("prefs = %s, want %s", got, want)
	}
	// Another browser: a new session of the same account.
	other := e.anon()
	var login struct{ Token string }
	other.must(http.StatusOK, "POST", "/api/session", map[string]string{"name": "alice", "password": "password-alice"}, &login)
	if login.Token == "" || login.Token == alice.token {
		t.Fatalf("login token %q: want a new session", login.Token)
	}
	other.token = login.Token
	if got := get(other); got != want {
		t.Fatalf("prefs in a second session = %s, want %s", got, want)
	}
	if got := get(bob); got != "null" {
		t.Fatalf("bob sees prefs %s", got)
	}

	// Bad input: a clear 4xx, and alice's saved document is unchanged.
	for _, bad := range []struct {
		status int
		code   string
		body   string
	}{
		{http.StatusBadRequest, "bad_json", `{"zen":true,"colour":"red"}`},
		{http.StatusBadRequest, "bad_json", `{"zen":"yes"}`},
		{http.StatusBadRequest, "bad_json", `{"zen":true,"zen":false}`},
		{http.StatusBadRequest, "bad_request", `{"boardSize":"huge"}`},
		{http.StatusBadRequest, "bad_request", `{"scheme":"sepia"}`},
		{http.StatusBadRequest, "bad_request", `{"boardThemes":{"chess":"wood"}}`},
		{http.StatusBadRequest, "bad_request", `{"boardThemes":{"sgolte":"wood"}}`},
		{http.StatusBadRequest, "bad_json", `[]`},
		{http.StatusRequestEntityTooLarge, "too_large", `{"boardSize":"small"` + strings.Repeat(" ", 3000) + `}`},
	} {
		alice.apiErr(bad.status, bad.code, "PUT", "/api/me/prefs", bad.body)
	}
	if got := get(alice); got != want {
		t.Fatalf("prefs after refused requests = %s, want %s", got, want)
	}
	// A save replaces the whole document.
	alice.must(http.StatusOK, "PUT", "/api/me/prefs", `{"boardSize":"medium"}`, nil)
	if got := get(other); got != `{"boardSize":"medium"}` {
		t.Fatalf("prefs after a second save = %s", got)
	}
}
