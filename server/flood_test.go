package server_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server"
)

// TestFloodQuotas (issue 16, finding 2): one user cannot fill the node
// with games. A guest may not start a game with no seat for a person
// (403); beyond the games with bots and the open games a user may have,
// creation is refused with 429 and a message that says why; a registered
// user gets one game of bots only; a game that ends frees its place.
func TestFloodQuotas(t *testing.T) {
	e := newEnv(t)
	g := e.guest()
	hard := map[string]any{"game": "sgolte", "seats": []map[string]string{{"kind": "bot", "level": "hard"}, {"kind": "bot", "level": "hard"}}}
	g.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/games", hard)

	vsBot := map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}}
	var first summary
	for i := range 3 {
		s := g.create(vsBot)
		if i == 0 {
			first = s
		}
	}
	g.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/games", vsBot)
	// Resigning one frees its place.
	g.must(http.StatusOK, "POST", "/api/games/"+first.ID+"/resign", nil, nil)
	g.create(vsBot)
	g.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/games", vsBot)

	open := map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}}
	var waiting []summary
	for range 5 {
		waiting = append(waiting, g.create(open))
	}
	_, data := g.do("POST", "/api/games", open)
	if !strings.Contains(string(data), "open games") {
		t.Fatalf("the refusal does not say why: %s", data)
	}
	g.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/games", open)
	g.must(http.StatusOK, "POST", "/api/games/"+waiting[0].ID+"/abort", nil, nil)
	g.create(open)

	// Twenty requests at once find room for none.
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _ := g.do("POST", "/api/games", open)
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[http.StatusTooManyRequests] != 20 {
		t.Fatalf("answers to 20 creations over the quota: %v", codes)
	}

	// A registered user: one game of bots only (slow ones: 500ms a move).
	r := e.register("robot-fan")
	botOnly := map[string]any{"game": "sgolte", "seats": []map[string]string{{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}}}
	r.create(botOnly)
	r.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/games", botOnly)
}

// TestQuotaFlags: an operator's quotas replace the defaults; -1 lifts one.
func TestQuotaFlags(t *testing.T) {
	e := newEnv(t, func(c *serverConfig) {
		c.Quotas = &match.Quotas{OpenGames: -1, BotGames: 1, BotOnlyGames: 0}
	})
	r := e.register("carol")
	for range 8 {
		r.create(map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}})
	}
	r.create(map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	r.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/games", map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	r.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/games", map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}}})
}

// TestExpiredNotReloaded: after a restart, games abandoned while the
// server was down are ended — the open one aborted, the live one lost by
// the person to move — and the node holds no owner for them; finished
// games were never loaded.
func TestExpiredNotReloaded(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	withClock := func(c *serverConfig) { c.Now = clock }
	e := newEnv(t, withClock)
	alice, bob := e.register("alice"), e.register("bob")
	open := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}})
	live := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "9"}, "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}})
	bob.must(http.StatusOK, "POST", "/api/games/"+live.ID+"/join", nil, nil)
	alice.must(http.StatusOK, "POST", "/api/games/"+live.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	if got := liveGames(t, e); got != 2 {
		t.Fatalf("%d owners before the restart; want 2", got)
	}
	e.stop()
	mu.Lock()
	now = now.Add(server.DefaultIdleGameExpiry + time.Hour)
	mu.Unlock()
	e.start(withClock)

	waitStatus := func(id, want string) summary {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
			if s, _, _ := alice.game(id); s.Status == want {
				return s
			}
		}
		s, _, _ := alice.game(id)
		t.Fatalf("game %s is %s; want %s", id, s.Status, want)
		return s
	}
	waitStatus(open.ID, "aborted")
	s := waitStatus(live.ID, "finished")
	if s.Result == nil || s.Result.Reason != "abandoned" || len(s.Result.Winners) != 1 || s.Result.Winners[0] != 0 {
		t.Fatalf("the abandoned game's result: %+v; want Bob (to move) to lose", s.Result)
	}
	for deadline := time.Now().Add(10 * time.Second); liveGames(t, e) != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d owners after the restart; want 0", liveGames(t, e))
		}
	}
	if !strings.Contains(e.logs.String(), `"msg":"game expired"`) {
		t.Fatal("the expiries are not logged")
	}
}

// liveGames reads the server's count of the games it holds an owner for.
func liveGames(t *testing.T, e *env) int {
	rec := httptest.NewRecorder()
	e.srv.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	sc := bufio.NewScanner(bytes.NewReader(rec.Body.Bytes()))
	for sc.Scan() {
		if n, ok := strings.CutPrefix(sc.Text(), "tabula_live_games "); ok {
			var v int
			json.Unmarshal([]byte(n), &v)
			return v
		}
	}
	t.Fatal("no tabula_live_games in the metrics")
	return -1
}
