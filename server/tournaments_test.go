package server_test

import (
	"fmt"
	"net/http"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

type tournamentResp struct {
	Tournament struct {
		ID       string `json:"id"`
		Name     string `json:"name"`
		Status   string `json:"status"`
		Rounds   int    `json:"rounds"`
		Password bool   `json:"password"`
		Note     string `json:"note"`
	} `json:"tournament"`
	Players []struct {
		Number    int    `json:"number"`
		Name      string `json:"name"`
		Withdrawn bool   `json:"withdrawn"`
	} `json:"players"`
	Standings []struct {
		Rank   int     `json:"rank"`
		Name   string  `json:"name"`
		Points float64 `json:"points"`
		Byes   int     `json:"byes"`
	} `json:"standings"`
	Rounds []struct {
		Number int `json:"number"`
		Boards []struct {
			Board  int    `json:"board"`
			White  string `json:"white"`
			Black  string `json:"black"`
			GameID string `json:"gameId"`
			Result string `json:"result"`
		} `json:"boards"`
	} `json:"rounds"`
}

func swissReq(name string, rounds int) map[string]any {
	return map[string]any{"name": name, "format": "swiss", "game": "sgolte", "rounds": rounds, "rated": true,
		"start": time.Now().UTC().Format(time.RFC3339), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
}

func (c *client) tournament(id string) tournamentResp {
	c.e.t.Helper()
	var t tournamentResp
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &t)
	return t
}

// TestTournamentSwissThroughAPI: a registered user creates a rated Swiss
// of 3 rounds starting now, five players join (one twice), the director
// starts it and pairs each round; the players finish their games by
// resigning; the standings the API shows equal a recomputation from the
// stored games, and the TRF report lists every round.
func TestTournamentSwissThroughAPI(t *testing.T) { playSwiss(t, newEnv(t)) }

// TestTournamentSwissOnPostgres: the same on the PostgreSQL store.
func TestTournamentSwissOnPostgres(t *testing.T) { playSwiss(t, newEnvWith(t, postgresStore(t))) }

func playSwiss(t *testing.T, e *env) {
	names := []string{"ann", "bob", "cyd", "dee", "eve"}
	clients := map[string]*client{}
	for _, n := range names {
		clients[n] = e.register(n)
	}
	ann := clients["ann"]
	// It starts in 6 s: the players join before (2 s was short on a loaded machine).
	req := swissReq("Tuesday Swiss", 3)
	req["start"] = time.Now().Add(6 * time.Second).UTC().Format(time.RFC3339Nano)
	var created tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
	id := created.Tournament.ID
	if created.Tournament.Status != "upcoming" || created.Tournament.Rounds != 3 {
		t.Fatalf("created %+v", created.Tournament)
	}
	for _, n := range names {
		clients[n].must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	}
	var again struct{ Player struct{ Number int } }
	clients["bob"].must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, &again)
	if again.Player.Number != 2 {
		t.Fatalf("bob joining twice: number %d, want 2", again.Player.Number)
	}
	var list struct{ Tournaments []struct{ ID string } }
	e.anon().must(http.StatusOK, "GET", "/api/tournaments", nil, &list)
	if len(list.Tournaments) != 1 || list.Tournaments[0].ID != id {
		t.Fatalf("list %+v", list)
	}

	tr := playOut(t, clients, id)
	if len(tr.Rounds) != 3 || tr.Tournament.Note != "" {
		t.Fatalf("finished with %d rounds (%s)", len(tr.Rounds), tr.Tournament.Note)
	}
	// The standings from the games themselves.
	points := map[string]float64{}
	met := map[string]bool{}
	for _, r := range tr.Rounds {
		seen := map[string]bool{}
		for _, b := range r.Boards {
			if seen[b.White] || (b.Black != "" && seen[b.Black]) {
				t.Fatalf("round %d pairs a player twice: %+v", r.Number, r.Boards)
			}
			seen[b.White], seen[b.Black] = true, true
			if b.Black == "" {
				points[b.White]++
				continue
			}
			pair := fmt.Sprint(min(b.White, b.Black), max(b.White, b.Black))
			if met[pair] {
				t.Fatalf("%s meet twice", pair)
			}
			met[pair] = true
			g, _, _ := ann.game(b.GameID)
			if g.Status != "finished" || g.Result == nil || len(g.Seats) != 2 || g.Seats[0].User != b.White || g.Seats[1].User != b.Black {
				t.Fatalf("game %s: %+v", b.GameID, g)
			}
			switch {
			case g.Result.Status == "drawn":
				points[b.White] += 0.5
				points[b.Black] += 0.5
			case g.Result.Winners[0] == 0:
				points[b.White]++
			default:
				points[b.Black]++
			}
		}
	}
	if len(tr.Standings) != 5 {
		t.Fatalf("standings %+v", tr.Standings)
	}
	for i, st := range tr.Standings {
		if st.Points != points[st.Name] {
			t.Fatalf("%s has %v points in the standings, %v from the games", st.Name, st.Points, points[st.Name])
		}
		if i > 0 && st.Points > tr.Standings[i-1].Points {
			t.Fatalf("standings out of order: %+v", tr.Standings)
		}
	}
	// Rated: the games count in the players' ratings.
	var me struct {
		Ratings []struct{ Game string }
	}
	ann.must(http.StatusOK, "GET", "/api/users/ann", nil, &me)

	code, trf := e.anon().do("GET", "/api/tournaments/"+id+"/trf", nil)
	lines := strings.Split(string(trf), "\n")
	var players []string
	for _, l := range lines {
		if strings.HasPrefix(l, "001") {
			players = append(players, l)
		}
	}
	sort.Strings(players)
	if code != http.StatusOK || !strings.Contains(string(trf), "012 Tuesday Swiss") || !strings.Contains(string(trf), "XXR 3") || len(players) != 5 {
		t.Fatalf("TRF %d:\n%s", code, trf)
	}
	var finished struct{ Tournaments []struct{ ID string } }
	e.anon().must(http.StatusOK, "GET", "/api/tournaments?status=finished", nil, &finished)
	if len(finished.Tournaments) != 1 {
		t.Fatalf("finished list %+v", finished)
	}
}

// playOut has the players finish every game of tournament id as it
// starts, by resigning (who resigns alternates with the board and the
// round), until the tournament is finished; it returns the tournament then.
func playOut(t *testing.T, clients map[string]*client, id string) tournamentResp {
	t.Helper()
	var ann *client
	for _, c := range clients {
		ann = c
		break
	}
	resigned := map[string]bool{}
	deadline := time.Now().Add(60 * time.Second)
	var tr tournamentResp
	for {
		tr = ann.tournament(id)
		if tr.Tournament.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the tournament did not finish: %+v", tr)
		}
		if n := len(tr.Rounds); n > 0 {
			for _, b := range tr.Rounds[n-1].Boards {
				if b.GameID == "" || resigned[b.GameID] {
					continue
				}
				if code, _ := ann.do("GET", "/api/games/"+b.GameID, nil); code == http.StatusNotFound {
					// The round is stored before its games are created.
					continue
				}
				g, _, _ := ann.game(b.GameID)
				if g.Status != "live" {
					continue
				}
				loser := b.White
				if (b.Board+n)%2 == 0 {
					loser = b.Black
				}
				clients[loser].must(http.StatusOK, "POST", "/api/games/"+b.GameID+"/resign", nil, nil)
				resigned[b.GameID] = true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return tr
}

// TestTournamentRefusals: what an attacker or a careless client tries is
// refused, each with a clear error.
func TestTournamentRefusals(t *testing.T) {
	e := newEnv(t)
	ann, bob := e.register("ann"), e.register("bob")
	guest := e.guest()
	// The tournaments below start in an hour: none is started (nor
	// cancelled for want of players) while the test runs.
	swissReq := func(name string, rounds int) map[string]any {
		r := swissReq(name, rounds)
		r["start"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
		return r
	}
	guest.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tournaments", swissReq("Guests' cup", 3))
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/tournaments", swissReq("Anon cup", 3))

	bad := []struct {
		status int
		code   string
		change map[string]any
	}{
		{http.StatusBadRequest, "bad_request", map[string]any{"name": ""}},
		{http.StatusBadRequest, "bad_request", map[string]any{"name": strings.Repeat("x", 81)}},
		{http.StatusBadRequest, "bad_request", map[string]any{"format": "knockout"}},
		{http.StatusBadRequest, "bad_request", map[string]any{"rounds": 0}},
		{http.StatusBadRequest, "bad_request", map[string]any{"rounds": 21}},
		{http.StatusBadRequest, "bad_request", map[string]any{"start": "tomorrow"}},
		{http.StatusBadRequest, "bad_request", map[string]any{"start": "2020-01-01T00:00:00Z"}},
		{http.StatusBadRequest, "bad_request", map[string]any{"maxPlayers": 201}},
		{http.StatusBadRequest, "bad_request", map[string]any{"minRatedGames": -1}},
		{http.StatusUnprocessableEntity, "bad_option", map[string]any{"game": "chess"}},
		{http.StatusUnprocessableEntity, "bad_option", map[string]any{"options": map[string]string{"size": "banana"}}},
		{http.StatusUnprocessableEntity, "bad_option", map[string]any{"clock": map[string]any{"kind": "realtime", "initialMs": 5}}},
		{http.StatusBadRequest, "bad_request", map[string]any{"format": "roundrobin", "rounds": 3}},
		{http.StatusBadRequest, "bad_json", map[string]any{"surprise": 1}},
	}
	for _, b := range bad {
		req := swissReq("Bad cup", 3)
		for k, v := range b.change {
			req[k] = v
		}
		ann.apiErr(b.status, b.code, "POST", "/api/tournaments", req)
	}
	ann.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/tournaments", "{not json")

	// A password tournament needs its password.
	req := swissReq("Club night", 3)
	req["password"] = "sesame"
	var club tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &club)
	id := club.Tournament.ID
	if !club.Tournament.Password {
		t.Fatal("the tournament does not say it has a password")
	}
	bob.apiErr(http.StatusForbidden, "password", "POST", "/api/tournaments/"+id+"/join", nil)
	bob.apiErr(http.StatusForbidden, "password", "POST", "/api/tournaments/"+id+"/join", map[string]string{"password": "open"})
	bob.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", map[string]string{"password": "sesame"}, nil)
	bob.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", map[string]string{"password": "sesame"}, nil)
	if got := ann.tournament(id); len(got.Players) != 1 || got.Players[0].Name != "bob" {
		t.Fatalf("players after bob joined twice: %+v", got.Players)
	}
	guest.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tournaments/"+id+"/join", map[string]string{"password": "sesame"})
	ann.apiErr(http.StatusConflict, "conflict", "POST", "/api/tournaments/"+id+"/withdraw", nil)
	bob.must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/withdraw", nil, nil)
	if got := ann.tournament(id); len(got.Players) != 1 || !got.Players[0].Withdrawn {
		t.Fatalf("players after bob withdrew: %+v", got.Players)
	}

	// Minimum rated games.
	req = swissReq("Experts", 3)
	req["minRatedGames"] = 5
	var experts tournamentResp
	bob.must(http.StatusCreated, "POST", "/api/tournaments", req, &experts)
	ann.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tournaments/"+experts.Tournament.ID+"/join", nil)

	// A flood of creations meets the quota: ann has one upcoming, may
	// have three.
	later := swissReq("Later", 3)
	ann.must(http.StatusCreated, "POST", "/api/tournaments", later, nil)
	ann.must(http.StatusCreated, "POST", "/api/tournaments", later, nil)
	for range 5 {
		ann.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/tournaments", later)
	}

	e.anon().apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/nosuchthing", nil)
	bob.apiErr(http.StatusNotFound, "not_found", "POST", "/api/tournaments/nosuchthing/join", nil)
	e.anon().apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/tournaments?status=soon", nil)
	rr := swissReq("Round robin", 0)
	delete(rr, "rounds")
	rr["format"] = "roundrobin"
	var rrt tournamentResp
	bob.must(http.StatusCreated, "POST", "/api/tournaments", rr, &rrt)
	e.anon().apiErr(http.StatusConflict, "conflict", "GET", "/api/tournaments/"+rrt.Tournament.ID+"/trf", nil)
}

// TestTournamentCreationFlood: many creations at once by one user make
// exactly as many tournaments as the quota allows; the rest are refused.
func TestTournamentCreationFlood(t *testing.T) {
	e := newEnv(t)
	ann := e.register("ann")
	req := swissReq("Flood", 3)
	req["start"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	codes := make([]int, 8)
	var wg sync.WaitGroup
	for i := range codes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			codes[i], _ = ann.do("POST", "/api/tournaments", req)
		}()
	}
	wg.Wait()
	created := 0
	for _, c := range codes {
		switch c {
		case http.StatusCreated:
			created++
		case http.StatusTooManyRequests:
		default:
			t.Fatalf("status %d among %v", c, codes)
		}
	}
	var list struct{ Tournaments []struct{ ID string } }
	e.anon().must(http.StatusOK, "GET", "/api/tournaments", nil, &list)
	if created != 3 || len(list.Tournaments) != 3 {
		t.Fatalf("%d created (%d listed), want 3: %v", created, len(list.Tournaments), codes)
	}
}

// TestTournamentRoundRobinThroughAPI: a round robin of four (a fifth
// joined and withdrew before the start) is played through the API: three
// rounds, everyone meets everyone once, and its standings are the four
// players', with the round robin's tie-breaks.
func TestTournamentRoundRobinThroughAPI(t *testing.T) {
	e := newEnv(t)
	clients := map[string]*client{}
	for _, n := range []string{"ann", "bob", "cyd", "dee", "eve"} {
		clients[n] = e.register(n)
	}
	req := swissReq("Club round robin", 0)
	delete(req, "rounds")
	req["format"] = "roundrobin"
	// 8 s for five joins and a withdrawal: with 2 s, a loaded machine
	// (clean-clone .ci/run) started it before eve withdrew, and she was
	// paired.
	req["start"] = time.Now().Add(8 * time.Second).UTC().Format(time.RFC3339Nano)
	var created tournamentResp
	clients["ann"].must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
	id := created.Tournament.ID
	for _, c := range clients {
		c.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
	}
	eve := clients["eve"]
	eve.must(http.StatusNoContent, "POST", "/api/tournaments/"+id+"/withdraw", nil, nil)
	delete(clients, "eve")
	if st := clients["ann"].tournament(id).Tournament.Status; st != "upcoming" {
		t.Fatalf("the round robin is %s before the test was ready: its start came too soon for this machine", st)
	}
	tr := playOut(t, clients, id)
	if tr.Tournament.Rounds != 3 || len(tr.Rounds) != 3 || tr.Tournament.Note != "" {
		t.Fatalf("%d of %d rounds (%s)", len(tr.Rounds), tr.Tournament.Rounds, tr.Tournament.Note)
	}
	met := map[string]bool{}
	for _, r := range tr.Rounds {
		for _, b := range r.Boards {
			met[fmt.Sprint(min(b.White, b.Black), max(b.White, b.Black))] = true
		}
	}
	if len(met) != 6 || len(tr.Standings) != 4 {
		t.Fatalf("%d pairs met, %d in the standings: %+v", len(met), len(tr.Standings), tr.Standings)
	}
	total := 0.0
	for _, st := range tr.Standings {
		if st.Name == "eve" {
			t.Fatal("eve, who withdrew before the start, is in the standings")
		}
		total += st.Points
	}
	if total != 6 {
		t.Fatalf("%v points in all, want 6 (one a game)", total)
	}
	eve.apiErr(http.StatusConflict, "conflict", "POST", "/api/tournaments/"+id+"/join", nil)
}
