package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/director"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store"
)

// busyArena stores an arena of n players whose first done waves of three
// boards have ended and whose next pending waves are being played, as
// its director would have; it returns the arena's id and the players'
// names by user id.
func busyArena(t *testing.T, e *env, n, done, pending int) (string, []string, map[int64]string) {
	t.Helper()
	ctx := context.Background()
	db := e.db.(interface {
		store.Store
		store.Tournaments
		store.Arenas
	})
	start := time.Now().Add(time.Hour).UTC().Truncate(time.Second) // no director of this server claims it
	arena := store.Arena{Duration: time.Hour, Berserk: true}
	tr, err := director.Spec{Name: "Busy", Game: "sgolte", Start: start, Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 180000}}.ArenaTournament(start, arena)
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	var order []string
	names := map[int64]string{}
	for i := 0; i < n; i++ {
		u := store.User{Name: fmt.Sprintf("busy%03d", i), PasswordHash: "x", Created: start}
		if err := db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		ids, order, names[u.ID] = append(ids, u.ID), append(order, u.Name), u.Name
	}
	tr.ID, tr.CreatorID, tr.Created = "busyarena", ids[0], time.Now()
	if err := db.CreateArena(ctx, &tr, arena); err != nil {
		t.Fatal(err)
	}
	for _, u := range ids {
		if _, err := db.JoinTournament(ctx, tr.ID, u, time.Now(), tr.MaxPlayers); err != nil {
			t.Fatal(err)
		}
	}
	epoch, err := db.ClaimTournament(ctx, tr.ID, "test", 0, 2*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	results := []string{store.BoardWhiteWins, store.BoardBlackWins, store.BoardDraw}
	for w := 1; w <= done+pending; w++ {
		r := store.TournamentRound{Number: w}
		for b := 0; b < 3; b++ {
			k := (w*6 + 2*b) % n
			r.Boards = append(r.Boards, store.TournamentBoard{Board: b, White: ids[k], Black: ids[(k+1)%n], GameID: director.GameID(tr.ID, w, b)})
		}
		if err := db.AddRoundFenced(ctx, epoch, tr.ID, r); err != nil {
			t.Fatal(err)
		}
		if w > done {
			continue
		}
		for _, bd := range r.Boards {
			g := store.ArenaGame{Round: w, Board: bd.Board, Ended: start.Add(time.Duration(w) * time.Second), BlackBerserk: w%5 == 0}
			if err := db.SetArenaResultFenced(ctx, epoch, tr.ID, results[(w+bd.Board)%3], g); err != nil {
				t.Fatal(err)
			}
		}
	}
	return tr.ID, order, names
}

type wireBoard struct {
	Board                      int
	White, Black, GameID       string
	Result                     string
	WhiteBerserk, BlackBerserk bool
}

type wireRound struct {
	Number int
	Boards []wireBoard
}

// TestArenaAnswerCarriesRecentBoards: an arena's answer (and so every
// event of its stream) carries the boards being played and only the last
// 30 finished ones, however many games the arena has had — an hour of a
// busy arena ends thousands, which the page and every push carried whole.
// One player's boards, all of them, come from .../games?player=NAME.
func TestArenaAnswerCarriesRecentBoards(t *testing.T) {
	e := newEnv(t)
	const done, pending = 55, 5
	id, players, _ := busyArena(t, e, 120, done, pending)
	c := e.anon()
	var got struct {
		Rounds []wireRound
		Arena  struct {
			FinishedGames int
			Standings     []struct {
				Rank  int
				Name  string
				Sheet []int
			}
			StandingsTotal int
		}
	}
	check := func(what string) {
		t.Helper()
		var finished, playing []int
		for _, r := range got.Rounds {
			if len(r.Boards) == 0 {
				t.Errorf("%s: round %d is listed with no boards", what, r.Number)
			}
			for _, b := range r.Boards {
				if b.Result == "" {
					playing = append(playing, r.Number)
				} else {
					finished = append(finished, r.Number)
				}
			}
		}
		// The last 30 finished boards are waves 46-55's (three a wave).
		if len(finished) != 30 || finished[0] != done-9 || finished[29] != done {
			t.Errorf("%s: finished boards of rounds %v, want the 30 of rounds %d-%d", what, finished, done-9, done)
		}
		if len(playing) != 3*pending || playing[0] != done+1 {
			t.Errorf("%s: boards being played in rounds %v, want all %d of rounds %d-%d", what, playing, 3*pending, done+1, done+pending)
		}
		if got.Arena.FinishedGames != 3*done {
			t.Errorf("%s: finishedGames %d, want %d", what, got.Arena.FinishedGames, 3*done)
		}
		// The top 100 standings lines of the 120.
		if n := len(got.Arena.Standings); n != 100 || got.Arena.StandingsTotal != 120 || got.Arena.Standings[0].Rank != 1 {
			t.Errorf("%s: %d standings lines of %d, want the top 100 of 120", what, n, got.Arena.StandingsTotal)
		}
	}
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &got)
	check("GET")
	top := got.Arena.Standings

	// The stream's first event is the same answer.
	resp, err := http.Get(e.hs.URL + "/api/tournaments/" + id + "/events")
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	for sc.Scan() {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			got.Rounds, got.Arena.FinishedGames = nil, 0
			if err := json.Unmarshal([]byte(data), &got); err != nil {
				t.Fatal(err)
			}
			break
		}
	}
	resp.Body.Close()
	check("the stream's first event")

	// Every board of one player, named in any case, in round order, one
	// finished board for each point of their sheet.
	name := players[0]
	var mine struct {
		Player string
		Rounds []wireRound
		Line   struct {
			Name  string
			Sheet []int
		}
	}
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id+"/games?player="+strings.ToUpper(name), nil, &mine)
	var rounds []int
	finished := 0
	for _, r := range mine.Rounds {
		for _, b := range r.Boards {
			if b.White != name && b.Black != name {
				t.Errorf("round %d board %+v is not %s's", r.Number, b, name)
			}
			rounds = append(rounds, r.Number)
			if b.Result != "" {
				finished++
			}
		}
	}
	// busyArena seats White (6w+2b) mod 120 at board b of wave w: player
	// 0 is White at board 0 of waves 20, 40 and 60 (being played).
	if want := []int{20, 40, 60}; finished != 2 || mine.Player != name || fmt.Sprint(rounds) != fmt.Sprint(want) {
		t.Errorf("%s's games: player %q, rounds %v, want %v", name, mine.Player, rounds, want)
	}
	if mine.Line.Name != name || len(mine.Line.Sheet) != finished {
		t.Errorf("%s's line %+v has %d games, the endpoint %d finished", name, mine.Line, len(mine.Line.Sheet), finished)
	}

	// The standings below the top 100 are paged: page 2 holds the other
	// 20, each player on exactly one page, and a player's page is found
	// by name.
	type page struct {
		Page, Pages, Total int
		Standings          []struct {
			Rank int
			Name string
		}
	}
	var p1, p2, found page
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id+"/standings?page=1", nil, &p1)
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id+"/standings?page=2", nil, &p2)
	seen := map[string]int{}
	for i, l := range append(p1.Standings, p2.Standings...) {
		seen[l.Name]++
		if i < 100 && l.Name != top[i].Name {
			t.Errorf("page 1 line %d is %s, the answer's %s", i, l.Name, top[i].Name)
		}
	}
	if p2.Page != 2 || p2.Pages != 2 || p2.Total != 120 || len(p2.Standings) != 20 || len(seen) != 120 {
		t.Errorf("page 2: page %d of %d, total %d, %d lines; %d players over both pages", p2.Page, p2.Pages, p2.Total, len(p2.Standings), len(seen))
	}
	last := p2.Standings[len(p2.Standings)-1].Name
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id+"/standings?player="+strings.ToUpper(last), nil, &found)
	if found.Page != 2 || len(found.Standings) != 20 {
		t.Errorf("%s's page: %d (%d lines), want 2", last, found.Page, len(found.Standings))
	}

	// What a hostile or careless caller gets: a clear error, nothing else.
	c.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/tournaments/"+id+"/games", nil)
	c.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/tournaments/"+id+"/games?player="+strings.Repeat("x", 5000), nil)
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/"+id+"/games?player=nobody", nil)
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/nope/games?player="+name, nil)
	for _, q := range []string{"", "?page=0", "?page=-1", "?page=two", "?page=1&player=" + name, "?player=" + strings.Repeat("x", 5000)} {
		c.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/tournaments/"+id+"/standings"+q, nil)
	}
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/"+id+"/standings?page=3", nil)
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/"+id+"/standings?player=nobody", nil)
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/nope/standings?page=1", nil)

	// A Swiss's answer has its whole table: no pages. Its players' games
	// are listed the same way.
	sam := e.register("sam")
	var sw struct{ Tournament struct{ ID string } }
	req := swissReq("Paged?", 3)
	req["start"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	sam.must(http.StatusCreated, "POST", "/api/tournaments", req, &sw)
	sam.must(http.StatusOK, "POST", "/api/tournaments/"+sw.Tournament.ID+"/join", nil, nil)
	c.apiErr(http.StatusConflict, "conflict", "GET", "/api/tournaments/"+sw.Tournament.ID+"/standings?page=1", nil)
	var samGames struct {
		Player string
		Rounds []wireRound
	}
	c.must(http.StatusOK, "GET", "/api/tournaments/"+sw.Tournament.ID+"/games?player=SAM", nil, &samGames)
	if samGames.Player != "sam" || samGames.Rounds == nil {
		t.Errorf("sam's Swiss games: %+v", samGames)
	}
}

// TestArenaPagesFlood: the standings pages and a player's games rebuild
// an arena's standings from every game at each request; an address that
// floods them is held to the site's request rate (429 with Retry-After)
// like every other request, not served without end.
func TestArenaPagesFlood(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.RateLimit, c.RateBurst = 0.1, 2 }) // an address: 2 a second, bursts of 40
	id, players, _ := busyArena(t, e, 120, 20, 2)
	for _, path := range []string{"/standings?page=2", "/games?player=" + players[3]} {
		refused := false
		for i := 0; i < 100 && !refused; i++ {
			req, err := http.NewRequest("GET", e.hs.URL+"/api/tournaments/"+id+path, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			switch {
			case resp.StatusCode == http.StatusTooManyRequests && resp.Header.Get("Retry-After") != "":
				refused = true
			case resp.StatusCode != http.StatusOK:
				t.Fatalf("%s, request %d: %d", path, i, resp.StatusCode)
			}
		}
		if !refused {
			t.Errorf("100 requests of %s at once from one address were all served", path)
		}
	}
}
