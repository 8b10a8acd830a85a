package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store"
)

type historyResp struct {
	User  string
	Games []struct {
		Outcome      string
		Opponents    []string
		RatingChange *struct{ Before, After, Delta float64 }
		Game         struct {
			summary
			Rated bool `json:"rated"`
		}
	}
	Next *string
}

func (h historyResp) ids() []string {
	var out []string
	for _, g := range h.Games {
		out = append(out, g.Game.ID)
	}
	return out
}

// playTnim plays a game of tnim with one stone, which its first mover
// wins, between first (seat 0) and second.
func playTnim(first, second *client, req map[string]any) string {
	first.e.t.Helper()
	r := map[string]any{"game": "tnim", "options": map[string]string{"stones": "1"}}
	for k, v := range req {
		r[k] = v
	}
	g := first.create(r)
	second.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	first.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	return g.ID
}

// storeFinished stores a finished tnim game (no moves) with its result, as
// the store keeps games the server ended: a drawn game, which tnim itself
// never is.
func storeFinished(e *env, id string, seats []int64, res match.Result, finished time.Time) {
	e.t.Helper()
	m := match.Meta{ID: id, Game: "tnim", Options: map[string]string{"stones": "1"}, Status: match.Finished, Clock: match.Clock{Kind: match.ClockNone},
		Created: finished.Add(-time.Minute), Started: finished.Add(-time.Minute), Finished: finished, CreatorID: seats[0], ToMove: -1, Result: &res}
	for _, u := range seats {
		m.Seats = append(m.Seats, match.Seat{Kind: match.SeatHuman, UserID: u})
	}
	if err := e.db.CreateGame(context.Background(), &m); err != nil {
		e.t.Fatal(err)
	}
}

// TestHistory: every filter of a player's game history, each bad value a
// 400 naming its parameter, and what is never listed (live and open games,
// games only created or imported).
func TestHistory(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testHistory(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testHistory(t, newEnvWith(t, postgresStore(t))) })
}

func testHistory(t *testing.T, e *env) {
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	g1 := playTnim(alice, bob, map[string]any{"rated": true})
	g2 := playTnim(bob, alice, map[string]any{"clock": map[string]any{"kind": "realtime", "initialMs": 60000, "incrementMs": 0}})
	g3 := playTnim(alice, carol, map[string]any{"clock": map[string]any{"kind": "correspondence", "days": 2}})
	storeFinished(e, "drawnac", []int64{carol.id, alice.id}, match.Result{Status: match.Drawn, Winners: []int{}, Reason: match.ReasonAgreed}, time.Now().Add(time.Hour))
	// Never listed: a live game, an open one, a game bob only created, a
	// record alice imported.
	live := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "3"}})
	bob.must(http.StatusOK, "POST", "/api/games/"+live.ID+"/join", nil, nil)
	alice.create(map[string]any{"game": "tnim"})
	var rec json.RawMessage
	alice.must(http.StatusOK, "GET", "/api/games/"+g1+"/record", nil, &rec)
	alice.must(http.StatusCreated, "POST", "/api/records", map[string]any{"record": rec}, nil)

	list := func(c *client, name, query string) historyResp {
		t.Helper()
		var h historyResp
		c.must(http.StatusOK, "GET", "/api/users/"+name+"/games?"+query, nil, &h)
		return h
	}
	anon := e.anon()
	all := list(anon, "ALICE", "")
	if want := []string{"drawnac", g3, g2, g1}; !slices.Equal(all.ids(), want) || all.User != "alice" || all.Next != nil {
		t.Fatalf("alice's history: %v (next %v), want %v", all.ids(), all.Next, want)
	}
	byID := map[string]int{}
	for i, g := range all.Games {
		byID[g.Game.ID] = i
	}
	if g := all.Games[byID[g1]]; g.Outcome != "win" || !slices.Equal(g.Opponents, []string{"bob"}) || g.RatingChange == nil || g.RatingChange.Delta <= 0 || !g.Game.Rated {
		t.Fatalf("g1 as listed: %+v", g)
	}
	if g := all.Games[byID[g2]]; g.Outcome != "loss" || g.RatingChange != nil {
		t.Fatalf("g2 as listed: %+v", g)
	}
	if g := all.Games[byID["drawnac"]]; g.Outcome != "draw" || !slices.Equal(g.Opponents, []string{"carol"}) {
		t.Fatalf("the drawn game as listed: %+v", g)
	}
	today := time.Now().UTC().Format(time.DateOnly)
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"game=tnim", []string{"drawnac", g3, g2, g1}},
		{"game=sgolte", nil},
		{"result=win", []string{g3, g1}},
		{"result=draw", []string{"drawnac"}},
		{"result=loss", []string{g2}},
		{"opponent=Bob", []string{g2, g1}},
		{"opponent=bob&result=win", []string{g1}},
		{"opponent=carol", []string{"drawnac", g3}},
		{"rated=true", []string{g1}},
		{"rated=false", []string{"drawnac", g3, g2}},
		{"clock=realtime", []string{g2}},
		{"clock=correspondence", []string{g3}},
		{"clock=none", []string{"drawnac", g1}},
		{"from=2020-01-01", []string{"drawnac", g3, g2, g1}},
		{"to=2020-01-01", nil},
		{"from=" + url.QueryEscape(time.Now().Add(30*time.Minute).Format(time.RFC3339)), []string{"drawnac"}},
		{"to=" + url.QueryEscape(time.Now().Add(30*time.Minute).Format(time.RFC3339)) + "&from=" + today, []string{g3, g2, g1}},
		{"game=tnim&result=win&opponent=bob&rated=true&clock=none&from=2020-01-01&limit=5", []string{g1}},
	} {
		if got := list(anon, "alice", tc.query); !slices.Equal(got.ids(), tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, got.ids(), tc.want)
		}
	}
	if got := list(anon, "bob", "result=win"); !slices.Equal(got.ids(), []string{g2}) {
		t.Errorf("bob's wins: %v", got.ids())
	}

	// Bad values: 400 naming the parameter.
	for _, tc := range []struct{ query, param string }{
		{"game=chess", "game"},
		{"result=won", "result"},
		{"opponent=nobody-here", "opponent"},
		{"rated=yes", "rated"},
		{"clock=hyper", "clock"},
		{"from=yesterday", "from"},
		{"to=2026-13-01", "to"},
		{"from=2026-12-02&to=2026-12-01", "to"},
		{"limit=0", "limit"},
		{"limit=101", "limit"},
		{"limit=99999999999999999999", "limit"},
		{"cursor=%21%21", "cursor"},
		{"cursor=" + url.QueryEscape("aDEuMDAwMDAwMDAwMDAwMDAwMC4xLng"), "cursor"},
		{"game=tnim&game=skyjo", "game"},
		{"user=bob", "user"},
		{"opponent=" + strings.Repeat("x", 5000), "opponent"},
		{"game=" + strings.Repeat("x", 201), "game"},
	} {
		code, data := anon.do("GET", "/api/users/alice/games?"+tc.query, nil)
		var er struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(data, &er)
		if code != http.StatusBadRequest || er.Error.Code != "bad_request" || !strings.HasPrefix(er.Error.Message, tc.param+" ") && !strings.HasPrefix(er.Error.Message, tc.param+":") {
			t.Errorf("%s: %d %s, want 400 bad_request naming %s", tc.query, code, data, tc.param)
		}
	}
	anon.apiErr(http.StatusNotFound, "not_found", "GET", "/api/users/nobody-here/games", nil)

	// A guest's games are listed like anyone's (they are public already).
	guest := e.guest()
	gg := playTnim(guest, carol, nil)
	if got := list(anon, guest.name, ""); !slices.Equal(got.ids(), []string{gg}) || got.Games[0].Outcome != "win" {
		t.Fatalf("a guest's history: %+v", got)
	}
}

// TestHistoryPaging: reading a history a page at a time while new games
// finish reads each game once, none missed, in order; a cursor from
// another filter or player, or a forged one, is refused.
func TestHistoryPaging(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	var want []string
	for i := 0; i < 7; i++ {
		want = append(want, playTnim(alice, bob, nil))
	}
	slices.Reverse(want)
	var got []string
	cursor := ""
	for page := 0; page < 10; page++ {
		var h historyResp
		alice.must(http.StatusOK, "GET", "/api/users/alice/games?limit=3&cursor="+url.QueryEscape(cursor), nil, &h)
		got = append(got, h.ids()...)
		if h.Next == nil {
			break
		}
		cursor = *h.Next
		// A game finishing between pages is newer than every page read:
		// it is on the first page of a new reading, not in this one.
		playTnim(bob, alice, nil)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("pages read %v, want %v", got, want)
	}

	var h historyResp
	alice.must(http.StatusOK, "GET", "/api/users/alice/games?limit=2&result=win", nil, &h)
	if h.Next == nil {
		t.Fatal("no next page")
	}
	next := url.QueryEscape(*h.Next)
	alice.must(http.StatusOK, "GET", "/api/users/alice/games?limit=5&result=win&cursor="+next, nil, nil) // the page size may change
	for _, q := range []string{
		"/api/users/alice/games?result=loss&cursor=" + next,
		"/api/users/alice/games?cursor=" + next,
		"/api/users/bob/games?result=win&cursor=" + next,
		"/api/users/alice/games?result=win&cursor=" + next + "%21",
		"/api/users/alice/games?result=win&cursor=" + strings.Repeat("a", 300),
	} {
		code, data := alice.do("GET", q, nil)
		if code != http.StatusBadRequest || !strings.Contains(string(data), `"cursor:`) {
			t.Errorf("%s: %d %s, want 400 naming the cursor", q, code, data)
		}
	}
}

// export fetches an export and returns its status, headers and lines.
func export(t *testing.T, e *env, query string) (int, http.Header, []string) {
	t.Helper()
	resp, err := http.Get(e.hs.URL + "/api/users/alice/games.jsonl?" + query)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var lines []string
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<22)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return resp.StatusCode, resp.Header, lines
}

// TestHistoryExport: the export is the history's games as records, one a
// line, in the history's order and filters, paged by X-Next-Cursor, each
// importable again; bad filters are refused before anything is streamed.
func TestHistoryExport(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g1 := playTnim(alice, bob, nil)
	g2 := playTnim(bob, alice, nil)
	g3 := playTnim(alice, bob, map[string]any{"rated": true})
	code, h, lines := export(t, e, "")
	if code != http.StatusOK || h.Get("Content-Type") != "application/x-ndjson; charset=utf-8" ||
		h.Get("Content-Disposition") != `attachment; filename="tabula-alice-games.jsonl"` || h.Get("X-Record-Count") != "3" || h.Get("X-Next-Cursor") != "" {
		t.Fatalf("export: %d %v", code, h)
	}
	var got []string
	for _, l := range lines {
		var rec struct {
			Format, ID, Game, Status string
			Moves                    []json.RawMessage
			Result                   *struct{ Winners []int }
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Format != "tabula-record/1" || rec.Status != "finished" || len(rec.Moves) != 1 || rec.Result == nil {
			t.Fatalf("line %q: %+v, %v", l, rec, err)
		}
		got = append(got, rec.ID)
	}
	if want := []string{g3, g2, g1}; !slices.Equal(got, want) {
		t.Fatalf("exported %v, want %v", got, want)
	}
	// Each line imports as it is.
	var imp struct{ Game summary }
	alice.must(http.StatusCreated, "POST", "/api/records", `{"record": `+lines[0]+`}`, &imp)
	if imp.Game.Status != "imported" || imp.Game.Ply != 1 {
		t.Fatalf("imported: %+v", imp.Game)
	}
	// Filters and paging.
	code, h, lines = export(t, e, "result=win&limit=1")
	if code != http.StatusOK || len(lines) != 1 || !strings.Contains(lines[0], `"id":"`+g3+`"`) || h.Get("X-Next-Cursor") == "" {
		t.Fatalf("first page of wins: %d %v %v", code, h, lines)
	}
	code, h, lines = export(t, e, "result=win&limit=1&cursor="+url.QueryEscape(h.Get("X-Next-Cursor")))
	if code != http.StatusOK || len(lines) != 1 || !strings.Contains(lines[0], `"id":"`+g1+`"`) || h.Get("X-Next-Cursor") != "" {
		t.Fatalf("second page of wins: %d %v %v", code, h, lines)
	}
	for _, q := range []string{"limit=201", "result=lost", "clock=fast"} {
		if code, h, _ := export(t, e, q); code != http.StatusBadRequest || h.Get("Content-Disposition") != "" {
			t.Errorf("export?%s: %d %v", q, code, h)
		}
	}
}

// TestHistoryExportFlood: one address gets a burst of exports, then one
// every ten seconds (429 with Retry-After meanwhile); listing pages is not
// charged to it.
func TestHistoryExportFlood(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.RateLimit, c.RateBurst = 1000, 1000 })
	alice, bob := e.register("alice"), e.register("bob")
	playTnim(alice, bob, nil)
	for i := 0; i < 6; i++ {
		if code, _, lines := export(t, e, ""); code != http.StatusOK || len(lines) != 1 {
			t.Fatalf("export %d: %d, %d lines", i, code, len(lines))
		}
	}
	code, h, lines := export(t, e, "")
	if code != http.StatusTooManyRequests || h.Get("Retry-After") == "" || !strings.Contains(strings.Join(lines, ""), "rate_limited") {
		t.Fatalf("7th export: %d %v %v", code, h, lines)
	}
	alice.must(http.StatusOK, "GET", "/api/users/alice/games", nil, nil)
}

// TestHistoryImportRefused: a record that does not read, does not replay
// or is too large is refused with its reason, and nothing is stored.
func TestHistoryImportRefused(t *testing.T) {
	e := newEnv(t)
	alice := e.register("alice")
	alice.apiErr(http.StatusUnprocessableEntity, "illegal_move", "POST", "/api/records", map[string]any{"record": "tabula-record/1 | game=tnim | seed=1 | moves=1; zz"})
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/records", map[string]any{"record": "not a record"})
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/records", map[string]any{"record": map[string]any{"format": "tabula-record/1", "game": "chess"}})
	alice.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/records", `{"record": {`)
	huge := `{"record": "` + strings.Repeat("x", 2<<20) + `"}`
	alice.apiErr(http.StatusRequestEntityTooLarge, "too_large", "POST", "/api/records", huge)
	games, err := e.db.Games(context.Background(), store.GameFilter{Statuses: []match.Status{match.Imported}})
	if err != nil || len(games) != 0 {
		t.Fatalf("stored after refusals: %v, %v", games, err)
	}
}
