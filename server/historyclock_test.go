package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestHistoryTimeControl: the history's clock filter takes, besides the
// kind of clock, a speed (bullet, blitz, rapid, classical: realtime games
// by their estimated duration, initial + 40 × increment) and an exact
// realtime control "minutes+seconds"; a bad one is 400 naming clock; a
// cursor of one speed is refused for another.
func TestHistoryTimeControl(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testHistoryTimeControl(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testHistoryTimeControl(t, newEnvWith(t, postgresStore(t))) })
}

func testHistoryTimeControl(t *testing.T, e *env) {
	alice, bob := e.register("alice"), e.register("bob")
	base := time.Now().Add(-time.Hour).Truncate(time.Millisecond)
	realtime := func(initialMs, incrementMs int64) match.Clock {
		return match.Clock{Kind: match.ClockRealtime, InitialMs: initialMs, IncrementMs: incrementMs}
	}
	for i, g := range []struct {
		id    string
		clock match.Clock
	}{
		{"c1", realtime(60000, 0)},       // 1+0: 60 s, bullet
		{"c2", realtime(180000, 2000)},   // 3+2: 260 s, blitz
		{"c3", realtime(300000, 3000)},   // 5+3: 420 s, blitz (quick pairing's)
		{"c4", realtime(900000, 10000)},  // 15+10: 1300 s, rapid (quick pairing's)
		{"c5", realtime(1800000, 20000)}, // 30+20: 2600 s, classical
		{"c6", match.Clock{Kind: match.ClockCorrespondence, Days: 3}},
		{"c7", match.Clock{Kind: match.ClockNone}},
		{"c8", realtime(150000, 1000)}, // 2.5+1: 190 s, blitz
	} {
		finished := base.Add(time.Duration(i) * time.Minute)
		res := match.Result{Status: match.Won, Winners: []int{0}, Reason: match.ReasonResign}
		m := match.Meta{ID: g.id, Game: "tnim", Options: map[string]string{"stones": "1"}, Status: match.Finished, Clock: g.clock,
			Created: finished.Add(-time.Minute), Started: finished.Add(-time.Minute), Finished: finished, CreatorID: alice.id, ToMove: -1, Result: &res,
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.id}, {Kind: match.SeatHuman, UserID: bob.id}}}
		if err := e.db.CreateGame(context.Background(), &m); err != nil {
			t.Fatal(err)
		}
	}
	list := func(query string) historyResp {
		t.Helper()
		var h historyResp
		alice.must(http.StatusOK, "GET", "/api/users/alice/games?"+query, nil, &h)
		return h
	}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		{"clock=bullet", []string{"c1"}},
		{"clock=blitz", []string{"c8", "c3", "c2"}},
		{"clock=rapid", []string{"c4"}},
		{"clock=classical", []string{"c5"}},
		{"clock=realtime", []string{"c8", "c5", "c4", "c3", "c2", "c1"}},
		{"clock=correspondence", []string{"c6"}},
		{"clock=none", []string{"c7"}},
		{"clock=" + url.QueryEscape("5+3"), []string{"c3"}},
		{"clock=" + url.QueryEscape("2.5+1"), []string{"c8"}},
		{"clock=" + url.QueryEscape("15+10"), []string{"c4"}},
		{"clock=" + url.QueryEscape("5+0"), nil},
		{"clock=blitz&result=win&opponent=bob", []string{"c8", "c3", "c2"}},
	} {
		if got := list(tc.query); !slices.Equal(got.ids(), tc.want) {
			t.Errorf("%s: %v, want %v", tc.query, got.ids(), tc.want)
		}
	}
	// Paging within a speed, and a cursor of one speed refused for another.
	p1 := list("clock=blitz&limit=2")
	if !slices.Equal(p1.ids(), []string{"c8", "c3"}) || p1.Next == nil {
		t.Fatalf("blitz page 1: %v next %v", p1.ids(), p1.Next)
	}
	if p2 := list("clock=blitz&limit=2&cursor=" + url.QueryEscape(*p1.Next)); !slices.Equal(p2.ids(), []string{"c2"}) {
		t.Fatalf("blitz page 2: %v", p2.ids())
	}
	alice.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/users/alice/games?clock=rapid&limit=2&cursor="+url.QueryEscape(*p1.Next), nil)
	for _, v := range []string{"hyper", "5+", "+3", "5+3.5", "-1+3", "5+-3", "0+0", "100000+0", "5+10000", "5 + 3", "1e3+0", "5+3+1", "BLITZ"} {
		code, data := alice.do("GET", "/api/users/alice/games?clock="+url.QueryEscape(v), nil)
		var er struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(data, &er)
		if code != http.StatusBadRequest || er.Error.Code != "bad_request" || !strings.HasPrefix(er.Error.Message, "clock:") {
			t.Errorf("clock=%s: %d %s, want 400 naming clock", v, code, data)
		}
	}
}
