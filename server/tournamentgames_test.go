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
				Name  string
				Sheet []int
			}
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
	}
	c.must(http.StatusOK, "GET", "/api/tournaments/"+id, nil, &got)
	check("GET")

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
	for _, l := range got.Arena.Standings {
		if l.Name == name && len(l.Sheet) != finished {
			t.Errorf("%s's sheet %v has %d games, the endpoint %d finished", name, l.Sheet, len(l.Sheet), finished)
		}
	}

	// What a hostile or careless caller gets: a clear error, nothing else.
	c.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/tournaments/"+id+"/games", nil)
	c.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/tournaments/"+id+"/games?player="+strings.Repeat("x", 5000), nil)
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/"+id+"/games?player=nobody", nil)
	c.apiErr(http.StatusNotFound, "not_found", "GET", "/api/tournaments/nope/games?player="+name, nil)
}
