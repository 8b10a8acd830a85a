package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/server/wire"
)

// startLadderBot runs the connector for robot on the ladders given.
func (s *site) startLadderBot(engine string, p botPolicy, onStop string, ladders ...string) *running {
	s.t.Helper()
	r := &running{log: &syncBuffer{}, stops: make(chan struct{}, 2), done: make(chan error, 1)}
	o := connectOptions{server: s.base, token: s.robot, engine: engine, policy: p, onStop: onStop, seed: 1,
		sweep: 500 * time.Millisecond, ladders: ladders}
	go func() { r.done <- connect(context.Background(), o, r.stops, r.log) }()
	s.t.Cleanup(func() {
		for range 2 {
			select {
			case r.stops <- struct{}{}:
			default:
			}
		}
		select {
		case <-r.done:
		case <-time.After(30 * time.Second):
			s.t.Errorf("the connector did not stop; its log:\n%s", r.log)
		}
	})
	return r
}

// TestBotLadder: tabula bot --ladder sgolte joins the ladder at start,
// plays the game the ladder gives it (a start on the user channel, not a
// challenge: the connector neither accepts nor declines it, even past its
// policy's maxGames), and on a clean stop leaves the ladder before
// resigning.
func TestBotLadder(t *testing.T) {
	s := startSite(t)
	s.call(s.robot, http.MethodPost, "/api/me/bot", nil, nil)
	bot := s.startLadderBot(connectSpec(t, "any"), botPolicy{MaxGames: 1}, "resign", "sgolte")
	bot.waitLog(t, `ladder sgolte: joined \(at most 1 games at once\)`)
	// The ladder may pair the bot before its user channel is up: the game
	// is then resumed, not started.
	bot.waitLog(t, `game \w+: (started|resumed) \(sgolte, seat \d, vs bot (easy|medium|hard)`)
	bot.waitLog(t, `game \w+: ply \d+: played`)
	if strings.Contains(bot.log.String(), "challenge ") {
		t.Fatalf("the connector took a ladder game for a challenge:\n%s", bot.log)
	}
	var page struct {
		Entrants []struct {
			Name    string `json:"name"`
			Active  bool   `json:"active"`
			Playing int    `json:"playing"`
			Losses  int    `json:"losses"`
		} `json:"entrants"`
		Games []struct {
			ID     string `json:"id"`
			Result string `json:"result"`
		} `json:"games"`
	}
	robot := func() (active bool, playing, losses int) {
		s.call("", http.MethodGet, "/api/ladder/sgolte", nil, &page)
		for _, e := range page.Entrants {
			if e.Name == "robot" {
				return e.Active, e.Playing, e.Losses
			}
		}
		t.Fatalf("robot is not on the ladder: %+v", page.Entrants)
		return
	}
	if active, playing, _ := robot(); !active || playing != 1 {
		t.Fatalf("robot on the ladder: active %v, playing %d; want active, 1", active, playing)
	}
	bot.stops <- struct{}{}
	bot.stopped(t)
	log := bot.log.String()
	left, resigned := strings.Index(log, "ladder sgolte: left"), strings.Index(log, "resigned (stopping)")
	if left < 0 || resigned < 0 || left > resigned {
		t.Fatalf("want the ladder left, then the game resigned:\n%s", log)
	}
	// The result is recorded at the matchmaker's next look (every 3 s).
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		active, playing, losses := robot()
		if !active && playing == 0 && losses == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited 60s for robot off the ladder with its resigned game counted; last seen: active %v, playing %d, losses %d (want false, 0, 1); the ladder's games: %+v; the connector's log:\n%s",
				active, playing, losses, page.Games, log)
		}
	}
}

// TestBotLadderRefused: a person's account cannot join a ladder; the
// connector says so and exits with an error instead of playing.
func TestBotLadderRefused(t *testing.T) {
	s := startSite(t)
	r := s.startLadderBot("easy", botPolicy{}, "finish", "sgolte")
	select {
	case err := <-r.done:
		if err == nil || !strings.Contains(err.Error(), "--ladder sgolte: joining refused") || !strings.Contains(err.Error(), "bot accounts") {
			t.Fatalf("connect: %v; want the ladder's refusal", err)
		}
		r.done <- err // for the cleanup
	case <-time.After(30 * time.Second):
		t.Fatalf("the connector did not stop:\n%s", r.log)
	}
	if err := (ladderFlag{&[]string{}}).Set("sgolte,chess"); err == nil || !strings.Contains(err.Error(), `"chess"`) {
		t.Fatalf("--ladder chess: %v", err)
	}
}

// TestBotStopNotHeldByALadderPage: a stop waits on a ladder page that
// counts a game of the bot's in progress (one recorded just before its
// leave may be on its way), but not for ever: a page that never stops
// counting one (a result its matchmaker never records) lets the connector
// end after ladderSettleWait; a page that counts none ends it at once.
func TestBotStopNotHeldByALadderPage(t *testing.T) {
	defer func(d time.Duration) { ladderSettleWait = d }(ladderSettleWait)
	ladderSettleWait = 1200 * time.Millisecond // the page read at 0, 0.5 and 1 s, then let go
	var asked atomic.Int32
	playing := 1
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		fmt.Fprintf(w, `{"entrants":[{"name":"other","playing":1},{"name":"Robot","playing":%d}]}`, playing)
	}))
	defer srv.Close()
	for _, p := range []int{1, 0} {
		playing = p
		asked.Store(0)
		hard, stop := context.WithCancel(context.Background())
		c := &connector{o: connectOptions{server: srv.URL, ladders: []string{"sgolte"}}, http: srv.Client(), me: "robot",
			hard: hard, stopHard: stop, games: map[string]*botGame{}}
		done := make(chan struct{})
		go func() { c.stopWhenLaddersSettled(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			t.Fatalf("playing %d: the stop was held", p)
		}
		if hard.Err() == nil {
			t.Fatalf("playing %d: the connector was not ended", p)
		}
		if n := asked.Load(); p == 1 && n < 2 || p == 0 && n != 1 {
			t.Errorf("playing %d: the page was read %d times", p, n)
		}
	}
}

// TestBotStopResignsAfterLeavingLadders: as a stop begins, a sweep sees
// the connector stopping before the stop has left the ladders; its pass
// must not resign anything yet (the ladder could pair the bot again in
// that gap, and CI once saw the game resigned before the ladder left).
// Once the ladders are left, the same pass resigns the live game.
func TestBotStopResignsAfterLeavingLadders(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.Method+" "+r.URL.Path)
		mu.Unlock()
		switch {
		case r.URL.Path == "/api/games" && r.URL.Query().Get("status") == "live" && len(r.URL.Query()["status"]) == 1:
			fmt.Fprint(w, `{"games":[]}`) // after the resign: none live
		case r.URL.Path == "/api/games":
			json.NewEncoder(w).Encode(wire.GameList{Games: []wire.Summary{{ID: "g1", Game: "sgolte", Status: wire.StatusLive,
				Seats: []wire.Seat{{Seat: 0, Kind: wire.SeatHuman, User: "robot"}, {Seat: 1, Kind: wire.SeatHuman, User: "other"}}}}})
		case r.URL.Path == "/api/ladder/sgolte":
			fmt.Fprint(w, `{"entrants":[]}`)
		default:
			fmt.Fprint(w, `{}`)
		}
	}))
	defer srv.Close()
	hard, stop := context.WithCancel(context.Background())
	defer stop()
	c := &connector{o: connectOptions{server: srv.URL, ladders: []string{"sgolte"}, onStop: "resign"}, http: srv.Client(),
		me: "robot", hard: hard, stopHard: stop, log: io.Discard, games: map[string]*botGame{}, over: map[string]*botGame{}}
	c.stopping.Store(true)
	c.finishStop(hard)
	mu.Lock()
	before := slices.Clone(asked)
	mu.Unlock()
	if len(before) != 0 {
		t.Fatalf("before the ladders were left, a stopping pass asked %v; want nothing", before)
	}
	c.laddersLeft.Store(true)
	c.finishStop(hard)
	mu.Lock()
	defer mu.Unlock()
	if !slices.Contains(asked, "POST /api/games/g1/resign") {
		t.Fatalf("after the ladders were left, the pass asked %v; want g1 resigned", asked)
	}
}
