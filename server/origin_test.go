package server_test

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// send is a request with explicit headers; a cookie-authenticated client
// sends its session as the browser would, in the cookie.
func (c *client) send(method, path, body string, cookie bool, hdr map[string]string) (int, string) {
	c.e.t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, c.e.hs.URL+path, rd)
	if err != nil {
		c.e.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		if cookie {
			req.AddCookie(&http.Cookie{Name: "tabula_session", Value: c.token})
		} else {
			req.Header.Set("Authorization", "Bearer "+c.token)
		}
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

// TestCrossOrigin: no other site can act with a visitor's cookie, with or
// without a body (finding 3 of issue 16: a body-less resign with a foreign
// Origin was accepted), while the bot API and curl, which send neither
// Origin nor Sec-Fetch-Site, keep working.
func TestCrossOrigin(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "20"}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	self := e.hs.URL // http://127.0.0.1:PORT
	host := strings.TrimPrefix(self, "http://")
	resign := "/api/games/" + g.ID + "/resign"

	refused := []struct {
		name   string
		cookie bool
		hdr    map[string]string
	}{
		{"foreign Origin", true, map[string]string{"Origin": "https://evil.example"}},
		{"foreign Origin, cross-site", true, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}},
		{"sibling subdomain", true, map[string]string{"Origin": "http://evil." + host, "Sec-Fetch-Site": "same-site"}},
		{"same host, other scheme by Sec-Fetch-Site", true, map[string]string{"Origin": "https://" + host, "Sec-Fetch-Site": "same-site"}},
		{"Origin null (a sandboxed frame)", true, map[string]string{"Origin": "null"}},
		{"other port", true, map[string]string{"Origin": "http://127.0.0.1:1"}},
		{"cookie and no Origin nor Sec-Fetch-Site", true, nil},
		{"a token and a foreign Origin", false, map[string]string{"Origin": "https://evil.example"}},
		// Issue 23, finding 8: Sec-Fetch-Site same-origin let a foreign
		// Origin through, and Origin's scheme was never compared.
		{"foreign Origin, Sec-Fetch-Site same-origin", true, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "same-origin"}},
		{"a token, foreign Origin, same-origin", false, map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "same-origin"}},
		{"same host, other scheme", true, map[string]string{"Origin": "https://" + host}},
		{"same host, other scheme, same-origin", true, map[string]string{"Origin": "https://" + host, "Sec-Fetch-Site": "same-origin"}},
		{"same host, a path in Origin", true, map[string]string{"Origin": self + "/x"}},
	}
	for _, tc := range refused {
		for _, body := range []string{"", "{}"} {
			status, data := alice.send("POST", resign, body, tc.cookie, tc.hdr)
			if status != http.StatusForbidden || !strings.Contains(data, `"cross_origin"`) {
				t.Errorf("%s (body %q): got %d %s, want 403 cross_origin", tc.name, body, status, data)
			}
		}
	}
	// Every other state-changing route is behind the same check.
	for _, r := range []struct{ method, path string }{
		{"POST", "/api/games/" + g.ID + "/abort"}, {"POST", "/api/games/" + g.ID + "/leave"},
		{"POST", "/api/games/" + g.ID + "/join"}, {"DELETE", "/api/session"}, {"DELETE", "/api/tokens/1"},
		{"POST", "/api/session"}, {"POST", "/api/guest"}, {"PUT", "/api/me"}, {"PATCH", "/api/me"},
	} {
		if status, data := bob.send(r.method, r.path, "", true, map[string]string{"Sec-Fetch-Site": "cross-site"}); status != http.StatusForbidden {
			t.Errorf("%s %s cross-site: got %d %s, want 403", r.method, r.path, status, data)
		}
	}
	if s, _, _ := alice.game(g.ID); s.Status != "live" {
		t.Fatalf("a refused request changed the game: %+v", s)
	}

	// Reading is not guarded: a page may link to a game.
	if status, _ := alice.send("GET", "/api/me", "", true, map[string]string{"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}); status != http.StatusOK {
		t.Fatalf("GET with a foreign Origin: %d", status)
	}
	// Without credentials and without either header: curl making a guest.
	if status, data := e.anon().send("POST", "/api/guest", "", false, nil); status != http.StatusCreated {
		t.Fatalf("curl-like guest: %d %s", status, data)
	}
	// The site's own page: Sec-Fetch-Site same-origin, or only Origin (an
	// older browser), with the cookie.
	if status, data := alice.send("POST", "/api/games/"+g.ID+"/moves", `{"ply":0,"move":"1"}`, true,
		map[string]string{"Origin": self, "Sec-Fetch-Site": "same-origin"}); status != http.StatusOK {
		t.Fatalf("same-origin move: %d %s", status, data)
	}
	if status, data := bob.send("POST", "/api/games/"+g.ID+"/moves", `{"ply":1,"move":"1"}`, true,
		map[string]string{"Origin": self}); status != http.StatusOK {
		t.Fatalf("same-origin move by Origin alone: %d %s", status, data)
	}
	// A bot with its bearer token sends neither header.
	if status, data := alice.send("POST", resign, "", false, nil); status != http.StatusOK {
		t.Fatalf("token resign: %d %s", status, data)
	}
	if s, _, _ := alice.game(g.ID); s.Status != "finished" {
		t.Fatalf("after the bot's resign: %+v", s)
	}
}
