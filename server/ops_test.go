package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/tabula-games/tabula/server"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestRealtimeClock: a seat that lets its clock run out loses on time.
func TestRealtimeClock(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}},
		"clock": map[string]any{"kind": "realtime", "initialMs": 2500, "incrementMs": 0}})
	ws := alice.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	m := ws.next("move")
	var mv struct {
		Clocks []struct {
			Seat        int
			RemainingMs int64
		}
		Deadline *time.Time
	}
	json.Unmarshal(m.raw, &mv)
	if len(mv.Clocks) != 2 || mv.Clocks[1].RemainingMs != 2500 || mv.Deadline == nil {
		t.Fatalf("clocks after the first move: %s", m.raw)
	}
	end := ws.next("end") // bob lets his 2.5 seconds run out
	var es struct{ Game summary }
	json.Unmarshal(end.raw, &es)
	if es.Game.Result == nil || es.Game.Result.Reason != "timeout" || len(es.Game.Result.Winners) != 1 || es.Game.Result.Winners[0] != 0 {
		t.Fatalf("end %s", end.raw)
	}
	bob.apiErr(http.StatusConflict, "game_over", "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 1, "move": "1"})
}

// TestCorrespondence: the turn shows in the notifications with its
// deadline; a move after the deadline loses on time.
func TestCorrespondence(t *testing.T) {
	var offset atomic.Int64
	e := newEnv(t, func(c *serverConfig) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(offset.Load())) }
	})
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}},
		"clock": map[string]any{"kind": "correspondence", "days": 1}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	var n struct {
		YourTurn []struct {
			ID       string
			Ply      int
			Deadline *time.Time
		}
	}
	alice.must(http.StatusOK, "GET", "/api/notifications", nil, &n)
	if len(n.YourTurn) != 1 || n.YourTurn[0].ID != g.ID || n.YourTurn[0].Deadline == nil ||
		n.YourTurn[0].Deadline.Sub(time.Now()) < 23*time.Hour {
		t.Fatalf("alice's notifications: %+v", n)
	}
	bob.must(http.StatusOK, "GET", "/api/notifications", nil, &n)
	if len(n.YourTurn) != 0 {
		t.Fatalf("bob is not to move: %+v", n)
	}
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "2"}, nil)
	bob.must(http.StatusOK, "GET", "/api/notifications", nil, &n)
	if len(n.YourTurn) != 1 || n.YourTurn[0].Ply != 1 {
		t.Fatalf("bob's notifications: %+v", n)
	}
	offset.Store(int64(25 * time.Hour))
	bob.apiErr(http.StatusConflict, "game_over", "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 1, "move": "1"})
	sum, _, _ := alice.game(g.ID)
	if sum.Status != "finished" || sum.Result.Reason != "timeout" || sum.Result.Winners[0] != 0 {
		t.Fatalf("after the deadline: %+v", sum)
	}
}

type ratingsResp struct {
	Ratings []struct {
		Game      string
		Rating    float64
		Deviation float64
		Games     int
	}
}

// TestRatings: a rated game moves both ratings by Glicko-2; a three-seat
// game rates every pair by finishing order.
func TestRatings(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	e.guest().apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/games", map[string]any{"game": "tnim", "rated": true})
	g := alice.create(map[string]any{"game": "tnim", "rated": true, "options": map[string]string{"stones": "1"}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	var ra, rb ratingsResp
	alice.must(http.StatusOK, "GET", "/api/me", nil, &ra)
	bob.must(http.StatusOK, "GET", "/api/me", nil, &rb)
	// Two new players, one game: the winner goes up by what the loser
	// loses (Glicko-2 with both at 1500/350).
	if len(ra.Ratings) != 1 || ra.Ratings[0].Rating <= 1500 || ra.Ratings[0].Games != 1 || ra.Ratings[0].Deviation >= 350 ||
		len(rb.Ratings) != 1 || rb.Ratings[0].Rating >= 1500 || ra.Ratings[0].Rating-1500 != 1500-rb.Ratings[0].Rating {
		t.Fatalf("ratings %+v %+v", ra, rb)
	}
	// Three seats: carol takes the last stone; alice and bob tie behind.
	g3 := alice.create(map[string]any{"game": "tnim", "rated": true, "options": map[string]string{"stones": "3", "players": "3"}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g3.ID+"/join", nil, nil)
	carol.must(http.StatusOK, "POST", "/api/games/"+g3.ID+"/join", nil, nil)
	alice.must(http.StatusOK, "POST", "/api/games/"+g3.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	bob.must(http.StatusOK, "POST", "/api/games/"+g3.ID+"/moves", map[string]any{"ply": 1, "move": "1"}, nil)
	carol.must(http.StatusOK, "POST", "/api/games/"+g3.ID+"/moves", map[string]any{"ply": 2, "move": "1"}, nil)
	var rc ratingsResp
	carol.must(http.StatusOK, "GET", "/api/me", nil, &rc)
	alice.must(http.StatusOK, "GET", "/api/me", nil, &ra)
	if len(rc.Ratings) != 1 || rc.Ratings[0].Rating <= 1500 || ra.Ratings[0].Games != 2 {
		t.Fatalf("after the three-seat game: carol %+v alice %+v", rc, ra)
	}
	var lb struct {
		Game         string
		MaxDeviation float64
		Players      []any
	}
	e.anon().must(http.StatusOK, "GET", "/api/leaderboard/tnim", nil, &lb)
	// The answer carries its rule, which the web page states.
	if lb.Game != "tnim" || lb.MaxDeviation != 110 || lb.Players == nil || len(lb.Players) != 0 {
		t.Fatalf("players with a deviation this high are not on the leaderboard yet: %+v", lb)
	}
	e.anon().apiErr(http.StatusNotFound, "not_found", "GET", "/api/leaderboard/chess", nil)
}

// TestShutdownAndReconnect: shutting down closes WebSockets with "going
// away"; after a restart on the same file the game is live with every
// move, and a reconnecting client gets it all in its snapshot.
func TestShutdownAndReconnect(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "50"}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	for ply := 0; ply < 6; ply++ {
		c := alice
		if ply%2 == 1 {
			c = bob
		}
		c.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": ply, "move": "1"}, nil)
	}
	ws := alice.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	<-ws.done
	_, _, err := ws.c.Read(context.Background())
	if status := websocket.CloseStatus(err); status != websocket.StatusGoingAway && !errors.Is(err, context.Canceled) && status != -1 {
		t.Fatalf("close status %v (%v)", status, err)
	}
	e.stop()
	e.start()
	ws = alice.dial("/api/games/" + g.ID + "/ws")
	snap := ws.next("snapshot")
	if len(snap.Moves) != 6 || len(snap.Legal) == 0 {
		t.Fatalf("after the restart: %s", snap.raw)
	}
	ws.send(map[string]any{"type": "move", "ply": 6, "move": "3"})
	if ack := ws.next("ack", "error"); ack.Type != "ack" {
		t.Fatalf("move after restart: %s", ack.raw)
	}
}

func TestMetricsAndHealth(t *testing.T) {
	e := newEnv(t)
	a := e.guest()
	g := a.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	a.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	ws := a.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	var h struct{ Status string }
	e.anon().must(http.StatusOK, "GET", "/healthz", nil, &h)
	if h.Status != "ok" {
		t.Fatalf("health %+v", h)
	}
	// Metrics are served apart from the site (tabula serve --metrics-addr).
	ms := httptest.NewServer(e.srv.MetricsHandler())
	defer ms.Close()
	resp, err := http.Get(ms.URL)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{"tabula_live_games 1", "tabula_ws_clients 1", "tabula_moves_total", "tabula_move_latency_seconds_bucket",
		"tabula_http_requests_total", "go_goroutines", "process_resident_memory_bytes"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %q", want)
		}
	}
}

// TestWSClientsCountedFromTheHandshake: tabula_ws_clients counts a channel
// from its handshake to its end. It counted from the first write on, so
// a client that had its snapshot could read a count without itself (this
// file's TestMetricsAndHealth failed so in a clean-clone run): held
// between handshake and load, the channel is counted; once it ends, not.
func TestWSClientsCountedFromTheHandshake(t *testing.T) {
	e := newEnv(t)
	a := e.guest()
	g := a.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	ms := httptest.NewServer(e.srv.MetricsHandler())
	defer ms.Close()
	clients := func() string {
		resp, err := http.Get(ms.URL)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		for _, line := range strings.Split(string(body), "\n") {
			if strings.HasPrefix(line, "tabula_ws_clients ") {
				return line
			}
		}
		t.Fatalf("metrics lack tabula_ws_clients:\n%s", body)
		return ""
	}
	held := make(chan string, 1)
	server.HoldGameLoads(t, func() { held <- clients() })
	ws := a.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	if got := <-held; got != "tabula_ws_clients 1" {
		t.Fatalf("between the handshake and the snapshot: %q, want tabula_ws_clients 1", got)
	}
	ws.c.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(10 * time.Second)
	for clients() != "tabula_ws_clients 0" {
		if time.Now().After(deadline) {
			t.Fatalf("after the close: %q, want tabula_ws_clients 0", clients())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
