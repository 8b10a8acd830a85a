package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

type statsResp struct {
	User   struct{ Name string }
	Total  gameStats
	Games  []gameStats
	Recent []struct {
		ID, Game, Outcome string
		Rated             bool
		Opponents         []string
		RatingChange      *struct{ Before, After, Delta float64 }
	}
	Counted          int
	Complete         bool
	ProvisionalAbove float64
}

type gameStats struct {
	Game                      string
	Played, Won, Drawn, Lost  int
	WinRate                   float64
	CurrentStreak, BestStreak int
	PlayedSeconds             int64
	Rating                    *struct {
		Rating, Deviation, Best float64
		RatedGames              int
		Provisional             bool
		History                 []struct {
			GameID string
			Rating float64
		}
	}
}

// TestUserStats: after three rated games and an unrated one, a profile's
// statistics count each game once with its outcome, streaks in the order
// the games ended, the rating history one point per rated game ending at
// the current rating, and each recent rated game's rating change; an end
// tried again (a resignation after the last move) writes no second change.
func TestUserStats(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testUserStats(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testUserStats(t, newEnvWith(t, postgresStore(t))) })
}

func testUserStats(t *testing.T, e *env) {
	alice, bob := e.register("alice"), e.register("bob")
	e.register("carol")
	// In tnim with one stone the first to move wins.
	play := func(first, second *client, rated bool) string {
		t.Helper()
		g := first.create(map[string]any{"game": "tnim", "rated": rated, "options": map[string]string{"stones": "1"}})
		second.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
		first.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
		return g.ID
	}
	g1 := play(alice, bob, true)
	g2 := play(bob, alice, true)
	g3 := play(alice, bob, true)
	g4 := play(alice, bob, false)
	// The end again, as a client retrying would send it: refused, and no
	// second rating change is written.
	bob.apiErr(http.StatusConflict, "game_over", "POST", "/api/games/"+g3+"/resign", nil)

	var st statsResp
	e.anon().must(http.StatusOK, "GET", "/api/users/ALICE/stats", nil, &st)
	if st.User.Name != "alice" || st.Counted != 4 || !st.Complete || st.ProvisionalAbove != 110 {
		t.Fatalf("stats header: %+v", st)
	}
	if tt := st.Total; tt.Played != 4 || tt.Won != 3 || tt.Lost != 1 || tt.Drawn != 0 || tt.WinRate != 0.75 || tt.CurrentStreak != 2 || tt.BestStreak != 2 {
		t.Fatalf("total: %+v", tt)
	}
	if len(st.Games) != 1 || st.Games[0].Game != "tnim" || st.Games[0].Played != 4 || st.Games[0].Rating == nil {
		t.Fatalf("games: %+v", st.Games)
	}
	r := st.Games[0].Rating
	if r.RatedGames != 3 || !r.Provisional || len(r.History) != 3 || r.History[0].GameID != g1 || r.History[1].GameID != g2 || r.History[2].GameID != g3 {
		t.Fatalf("rating: %+v", r)
	}
	if r.History[2].Rating != r.Rating || r.History[1].Rating >= r.History[0].Rating || r.Best < r.History[0].Rating || r.Best < r.Rating {
		t.Fatalf("history does not match the rating: %+v", r)
	}
	if len(st.Recent) != 4 || st.Recent[0].ID != g4 || st.Recent[0].Rated || st.Recent[0].RatingChange != nil ||
		st.Recent[1].ID != g3 || st.Recent[1].Outcome != "win" || st.Recent[1].RatingChange == nil || st.Recent[1].RatingChange.Delta <= 0 ||
		st.Recent[2].ID != g2 || st.Recent[2].Outcome != "loss" || st.Recent[2].RatingChange.Delta >= 0 ||
		st.Recent[3].RatingChange.Before != 1500 || len(st.Recent[3].Opponents) != 1 || st.Recent[3].Opponents[0] != "bob" {
		t.Fatalf("recent: %+v", st.Recent)
	}
	if st.Recent[1].RatingChange.After != r.Rating {
		t.Fatalf("the last game's rating after %v, current %v", st.Recent[1].RatingChange.After, r.Rating)
	}
	h := e.db.(store.RatingHistory)
	for _, id := range []string{g1, g2, g3, g4} {
		cs, err := h.GameRatingChanges(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: 2, false: 0}[id != g4]; len(cs) != want {
			t.Fatalf("game %s has %d rating changes, want %d", id, len(cs), want)
		}
	}

	// A player with no games; a missing one.
	var none statsResp
	e.anon().must(http.StatusOK, "GET", "/api/users/carol/stats", nil, &none)
	if st := none; st.Counted != 0 || st.Total.Played != 0 || st.Games == nil || len(st.Games) != 0 || st.Recent == nil || len(st.Recent) != 0 {
		t.Fatalf("stats of a new player: %+v", st)
	}
	e.anon().apiErr(http.StatusNotFound, "not_found", "GET", "/api/users/nobody/stats", nil)
}

// TestRatingChangeInSummary: the end of a rated game in the room, the
// game and the game list carry each seat's rating change, the same as the
// profile's; an unrated game's carry none.
func TestRatingChangeInSummary(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	type seats struct {
		Seats []struct {
			User         string
			RatingChange *struct{ Before, After, Delta float64 }
		}
	}
	check := func(what string, s seats, rated bool) {
		t.Helper()
		if len(s.Seats) != 2 {
			t.Fatalf("%s: seats %+v", what, s)
		}
		for i, se := range s.Seats {
			c := se.RatingChange
			if !rated {
				if c != nil {
					t.Fatalf("%s: an unrated game's seat %d has a rating change %+v", what, i, c)
				}
				continue
			}
			// alice (seat 0) took the one stone and won.
			if c == nil || c.Before != 1500 || (i == 0) != (c.Delta > 0) || math.Abs(c.After-c.Before-c.Delta) > 0.05 {
				t.Fatalf("%s: seat %d (%s) rating change %+v", what, i, se.User, c)
			}
		}
	}
	for _, rated := range []bool{true, false} {
		g := alice.create(map[string]any{"game": "tnim", "rated": rated, "options": map[string]string{"stones": "1"}})
		bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
		ws := bob.dial("/api/games/" + g.ID + "/ws")
		ws.next("snapshot")
		alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
		var s seats
		end := ws.next("end")
		if err := json.Unmarshal(end.Game, &s); err != nil {
			t.Fatal(err)
		}
		check("the room's end", s, rated)
		ws.close()
		s = seats{}
		bob.must(http.StatusOK, "GET", "/api/games/"+g.ID, nil, &struct{ Game *seats }{&s})
		check("the game", s, rated)
		var list struct{ Games []json.RawMessage }
		bob.must(http.StatusOK, "GET", "/api/games?status=finished&game=tnim", nil, &list)
		if len(list.Games) == 0 {
			t.Fatal("no finished games listed")
		}
		s = seats{}
		json.Unmarshal(list.Games[0], &s)
		check("the list", s, rated)
	}
	var st statsResp
	e.anon().must(http.StatusOK, "GET", "/api/users/bob/stats", nil, &st)
	if len(st.Recent) != 2 || st.Recent[1].RatingChange == nil || st.Recent[1].RatingChange.Delta >= 0 {
		t.Fatalf("bob's recent games: %+v", st.Recent)
	}
}

// TestUserStatsPages: the record of a player with more finished games than
// one page of the store's list counts each once, also where a page ends
// in the middle of games created in the same millisecond.
func TestUserStatsPages(t *testing.T) {
	e := newEnv(t)
	e.register("pat")
	ctx := context.Background()
	pat, err := e.db.UserByName(ctx, "pat")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	const n = 250
	for i := range n {
		g := match.Meta{ID: fmt.Sprintf("p%03d", i), Game: "tnim", Options: map[string]string{"stones": "1"}, Status: match.Live,
			Seats:   []match.Seat{{Kind: match.SeatHuman, UserID: pat.ID}, {Kind: match.SeatBot, Level: "random"}},
			Created: t0.Add(time.Duration(i/3) * time.Millisecond), Started: t0, CreatorID: pat.ID, ToMove: 0}
		if err := e.db.CreateGame(ctx, &g); err != nil {
			t.Fatal(err)
		}
		res := match.Result{Status: match.Won, Winners: []int{i % 2}, Reason: match.ReasonNormal}
		if err := e.db.EndGame(ctx, g.ID, match.End{Result: res, Finished: t0.Add(time.Duration(i+1) * time.Second)}); err != nil {
			t.Fatal(err)
		}
	}
	var st statsResp
	e.anon().must(http.StatusOK, "GET", "/api/users/pat/stats", nil, &st)
	if st.Counted != n || !st.Complete || st.Total.Played != n || st.Total.Won != n/2 || st.Total.BestStreak != 1 ||
		st.Total.PlayedSeconds != n*(n+1)/2 || len(st.Recent) != 10 || st.Recent[0].ID != "p249" || st.Recent[0].Opponents[0] != "bot random" {
		t.Fatalf("stats of %d games: counted %d, complete %v, total %+v, recent %+v", n, st.Counted, st.Complete, st.Total, st.Recent)
	}
}
