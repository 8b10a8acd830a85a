package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/learn"
	"github.com/tabula-games/tabula/server"
)

// A puzzle of the learn data with its solution and a legal move that is not it.
type testPuzzle struct {
	id, solution, wrong string
	line                []string
}

func testPuzzles(t *testing.T, g string) []testPuzzle {
	t.Helper()
	set, err := learn.LoadPuzzles(learn.Files(), g)
	if err != nil {
		t.Fatal(err)
	}
	gm, err := game.Lookup(g)
	if err != nil {
		t.Fatal(err)
	}
	var out []testPuzzle
	for _, pz := range set.Puzzles {
		st, err := gm.ParsePosition(pz.Position)
		if err != nil {
			t.Fatal(err)
		}
		tp := testPuzzle{id: pz.ID, solution: pz.Line[0], line: pz.Line}
		for _, m := range game.LegalTexts(st) {
			if m != pz.Line[0] {
				tp.wrong = m
				break
			}
		}
		out = append(out, tp)
	}
	return out
}

type puzzleAttemptResp struct {
	Correct, First, Rated bool
	Line                  []string
	Player                *struct{ Before, After float64 }
	Puzzle                struct{ Before, After float64 }
	Streak                *struct {
		Current, Best, N int
		Puzzle           string
	}
}

type puzzleSetResp struct {
	Player *struct {
		Rated  bool
		Rating struct {
			Rating, Deviation float64
			Provisional       bool
		}
		Plays  int
		Streak struct {
			Current, Best int
			Puzzle        string
		}
	}
	Puzzles []struct {
		ID     string
		N      int
		Rating struct{ Rating float64 }
		Plays  int
		Tried  string
	}
}

func attempt(c *client, g, id string, body any) puzzleAttemptResp {
	c.e.t.Helper()
	var out puzzleAttemptResp
	c.must(http.StatusOK, "POST", "/api/puzzles/"+g+"/"+id+"/attempt", body, &out)
	return out
}

// TestPuzzleAttempts: the rated puzzles over HTTP (issue 27.8). A
// registered player's first attempt at a puzzle rates them and the
// puzzle, and nothing after it does (no farming by replaying a solved or
// missed puzzle); a wrong answer gets no solution, so the player may try
// again, unrated; an illegal move records nothing; giving up is a rated
// miss that shows the solution; a guest's attempts are kept but never
// rated; the set never carries a solution; anonymous callers may read the
// set but not attempt; the history lists the first attempts newest first.
func TestPuzzleAttempts(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testPuzzleAttempts(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testPuzzleAttempts(t, newEnvWith(t, postgresStore(t))) })
}

func testPuzzleAttempts(t *testing.T, e *env) {
	pzs := testPuzzles(t, "sgolte")
	p1, p2, p3 := pzs[0], pzs[1], pzs[2]
	alice, guest := e.register("alice"), e.guest()

	// The set, as anyone sees it, has ratings and no solutions.
	code, body := e.anon().do("GET", "/api/puzzles/sgolte", nil)
	if code != http.StatusOK || strings.Contains(string(body), `"line"`) || strings.Contains(string(body), strings.Join(p1.line, `","`)) {
		t.Fatalf("anonymous set: %d %.300s", code, body)
	}
	var set puzzleSetResp
	json.Unmarshal(body, &set)
	if set.Player != nil || len(set.Puzzles) != len(pzs) || set.Puzzles[0].ID != p1.id || set.Puzzles[0].Rating.Rating == 0 {
		t.Fatalf("anonymous set = %+v", set)
	}
	start := set.Puzzles[0].Rating.Rating
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/puzzles/sgolte/"+p1.id+"/attempt", map[string]string{"move": p1.solution})
	alice.apiErr(http.StatusNotFound, "not_found", "POST", "/api/puzzles/sgolte/sploof-001/attempt", map[string]string{"move": "a1"})
	alice.apiErr(http.StatusNotFound, "unknown_game", "GET", "/api/puzzles/chess", nil)

	// An illegal move is refused and records nothing.
	alice.apiErr(http.StatusBadRequest, "bad_move", "POST", "/api/puzzles/sgolte/"+p1.id+"/attempt", map[string]string{"move": "zz99"})
	// A wrong first answer: a rated miss, no solution.
	miss := attempt(alice, "sgolte", p1.id, map[string]string{"move": p1.wrong})
	if miss.Correct || !miss.First || !miss.Rated || miss.Line != nil || miss.Player == nil ||
		miss.Player.Before != 1500 || !(miss.Player.After < 1500) || miss.Puzzle.Before != start || !(miss.Puzzle.After > start) {
		t.Fatalf("wrong first answer = %+v", miss)
	}
	// Trying again with the solution: right, with the line, and unrated.
	again := attempt(alice, "sgolte", p1.id, map[string]string{"move": p1.solution})
	if !again.Correct || again.First || again.Rated || again.Player != nil || fmt.Sprint(again.Line) != fmt.Sprint(p1.line) {
		t.Fatalf("second answer = %+v", again)
	}
	// A solve, then the same solve replayed: rated once.
	solve := attempt(alice, "sgolte", p2.id, map[string]string{"move": p2.solution})
	if !solve.Correct || !solve.Rated || solve.Player.Before != miss.Player.After || !(solve.Player.After > solve.Player.Before) {
		t.Fatalf("solve = %+v", solve)
	}
	for range 3 {
		if r := attempt(alice, "sgolte", p2.id, map[string]string{"move": p2.solution}); r.Rated || r.First || r.Player != nil {
			t.Fatalf("replayed solve = %+v: rated again", r)
		}
	}
	// Giving up: a rated miss that shows the solution.
	gave := attempt(alice, "sgolte", p3.id, map[string]bool{"giveUp": true})
	if gave.Correct || !gave.Rated || fmt.Sprint(gave.Line) != fmt.Sprint(p3.line) || !(gave.Player.After < solve.Player.After) {
		t.Fatalf("give up = %+v", gave)
	}
	alice.must(http.StatusOK, "GET", "/api/puzzles/sgolte", nil, &set)
	if set.Player == nil || !set.Player.Rated || set.Player.Plays != 3 || set.Player.Rating.Rating != gave.Player.After {
		t.Fatalf("alice's rating after 3 rated attempts and replays = %+v, want %v", set.Player, gave.Player.After)
	}
	if set.Puzzles[0].Tried != "missed" || set.Puzzles[1].Tried != "solved" || set.Puzzles[2].Tried != "missed" || set.Puzzles[3].Tried != "" || set.Puzzles[1].Plays != 1 {
		t.Fatalf("alice's puzzles = %+v", set.Puzzles[:4])
	}

	// A guest solves: kept, not rated, and their rating stays the start one.
	g := attempt(guest, "sgolte", p2.id, map[string]string{"move": p2.solution})
	if !g.Correct || !g.First || g.Rated || g.Player != nil || g.Puzzle.After != g.Puzzle.Before || g.Puzzle.Before != solve.Puzzle.After {
		t.Fatalf("guest's solve = %+v", g)
	}
	guest.must(http.StatusOK, "GET", "/api/puzzles/sgolte", nil, &set)
	if set.Player == nil || set.Player.Rated || set.Player.Plays != 0 || set.Player.Rating.Rating != 1500 || set.Puzzles[1].Plays != 1 {
		t.Fatalf("guest's view = %+v / %+v", set.Player, set.Puzzles[1])
	}

	// The history: first attempts only, newest first.
	var hist struct {
		Attempts []struct {
			ID, Mode      string
			N             int
			Solved, Rated bool
			Player        *struct{ Before, After float64 }
		}
	}
	alice.must(http.StatusOK, "GET", "/api/puzzles/history", nil, &hist)
	var got []string
	for _, h := range hist.Attempts {
		got = append(got, fmt.Sprintf("%d:%v:%v", h.N, h.Solved, h.Rated))
	}
	if fmt.Sprint(got) != "[3:false:true 2:true:true 1:false:true]" || hist.Attempts[0].Player.After != gave.Player.After {
		t.Fatalf("history = %v", got)
	}
	hist.Attempts = nil // decoding into the old one would keep its Player pointers
	guest.must(http.StatusOK, "GET", "/api/puzzles/history?game=sgolte&limit=5", nil, &hist)
	if len(hist.Attempts) != 1 || hist.Attempts[0].Rated || hist.Attempts[0].Player != nil {
		t.Fatalf("guest's history = %+v", hist)
	}
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/puzzles/history", nil)
	alice.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/puzzles/history?limit=1000", nil)
}

// TestPuzzleStreak: a streak shows one puzzle at a time and accepts an
// answer only to that puzzle (no peeking at others, no answering twice);
// each solve moves it to a puzzle rated at least as high; the first miss
// ends it with the solution shown and the best kept; a streak attempt is
// the player's attempt at that puzzle like any other, rated once.
func TestPuzzleStreak(t *testing.T) {
	e := newEnv(t)
	bob := e.register("bob")
	sol := map[string]testPuzzle{}
	for _, p := range testPuzzles(t, "sploof") {
		sol[p.id] = p
	}
	var st struct {
		Player struct {
			Streak struct {
				Current, Best, N int
				Puzzle           string
			}
		}
	}
	bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/puzzles/sploof/streak/attempt", map[string]string{"puzzle": "sploof-001", "move": "a1"})
	bob.must(http.StatusOK, "POST", "/api/puzzles/sploof/streak", nil, &st)
	cur := st.Player.Streak.Puzzle
	if cur == "" || st.Player.Streak.Current != 0 || st.Player.Streak.N == 0 {
		t.Fatalf("new streak = %+v", st)
	}
	other := "sploof-001"
	if other == cur {
		other = "sploof-002"
	}
	bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/puzzles/sploof/streak/attempt", map[string]string{"puzzle": other, "move": sol[other].solution})
	var ratings []float64
	rated := map[string]float64{}
	var setR puzzleSetResp
	bob.must(http.StatusOK, "GET", "/api/puzzles/sploof", nil, &setR)
	for _, p := range setR.Puzzles {
		rated[p.ID] = p.Rating.Rating
	}
	for i := range 3 {
		var r puzzleAttemptResp
		bob.must(http.StatusOK, "POST", "/api/puzzles/sploof/streak/attempt", map[string]string{"puzzle": cur, "move": sol[cur].solution}, &r)
		if !r.Correct || !r.Rated || r.Streak == nil || r.Streak.Current != i+1 || r.Streak.Best != i+1 || r.Streak.Puzzle == "" || fmt.Sprint(r.Line) != fmt.Sprint(sol[cur].line) {
			t.Fatalf("streak solve %d = %+v", i+1, r)
		}
		bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/puzzles/sploof/streak/attempt", map[string]string{"puzzle": cur, "move": sol[cur].solution})
		ratings = append(ratings, rated[cur])
		cur = r.Streak.Puzzle
	}
	ratings = append(ratings, rated[cur])
	for i := 1; i < len(ratings); i++ {
		if ratings[i] < ratings[i-1] {
			t.Fatalf("streak ratings %v: not rising", ratings)
		}
	}
	var r puzzleAttemptResp
	bob.must(http.StatusOK, "POST", "/api/puzzles/sploof/streak/attempt", map[string]string{"puzzle": cur, "move": sol[cur].wrong}, &r)
	if r.Correct || r.Streak.Current != 3 || r.Streak.Best != 3 || r.Streak.Puzzle != "" || fmt.Sprint(r.Line) != fmt.Sprint(sol[cur].line) {
		t.Fatalf("streak miss = %+v", r)
	}
	// The puzzle missed in the streak is not rated again from the list.
	if a := attempt(bob, "sploof", cur, map[string]string{"move": sol[cur].solution}); a.Rated || a.First {
		t.Fatalf("after the streak, the list's attempt = %+v", a)
	}
	bob.must(http.StatusOK, "POST", "/api/puzzles/sploof/streak", nil, &st)
	if st.Player.Streak.Best != 3 || st.Player.Streak.Current != 0 {
		t.Fatalf("a new streak = %+v: want the best kept", st)
	}
}

// TestPuzzleFlood: a player's attempts are limited (30 at once, then one a
// second, counted in the store); the clock stands still here, so the 31st
// is refused whatever the machine's speed.
func TestPuzzleFlood(t *testing.T) {
	now := time.Date(2026, 12, 2, 12, 0, 0, 0, time.UTC)
	e := newEnv(t, func(c *server.Config) { c.Now = func() time.Time { return now } })
	c := e.register("flood")
	p := testPuzzles(t, "sgolte")[0]
	for i := range 30 {
		if code, body := c.do("POST", "/api/puzzles/sgolte/"+p.id+"/attempt", map[string]string{"move": p.wrong}); code != http.StatusOK {
			t.Fatalf("attempt %d: %d %s", i+1, code, body)
		}
	}
	c.apiErr(http.StatusTooManyRequests, "rate_limited", "POST", "/api/puzzles/sgolte/"+p.id+"/attempt", map[string]string{"move": p.solution})
	// Another player is not held up by the first.
	attempt(e.register("calm"), "sgolte", p.id, map[string]string{"move": p.solution})
}

// TestPuzzleDailyAPI: GET /api/puzzles/daily is the same on two servers
// (nodes) at different hours of one UTC day, and the next day's differs
// or at least is a valid puzzle; its answer goes through the attempt
// endpoint with mode daily.
func TestPuzzleDailyAPI(t *testing.T) {
	at := func(h int) func(c *server.Config) {
		return func(c *server.Config) {
			c.Now = func() time.Time { return time.Date(2026, 12, 2, h, 0, 0, 0, time.UTC) }
		}
	}
	type daily struct {
		Date, Game, ID string
		N, Plies       int
	}
	var a, b daily
	e1, e2 := newEnv(t, at(0)), newEnv(t, at(23))
	e1.anon().must(http.StatusOK, "GET", "/api/puzzles/daily", nil, &a)
	e2.anon().must(http.StatusOK, "GET", "/api/puzzles/daily", nil, &b)
	if a != b || a.Date != "2026-12-02" || a.ID == "" || a.N == 0 || !strings.HasPrefix(a.ID, a.Game+"-") {
		t.Fatalf("daily on two nodes: %+v and %+v", a, b)
	}
	sol := map[string]testPuzzle{}
	for _, p := range testPuzzles(t, a.Game) {
		sol[p.id] = p
	}
	r := attempt(e1.register("dana"), a.Game, a.ID, map[string]string{"move": sol[a.ID].solution, "mode": "daily"})
	if !r.Correct || !r.Rated {
		t.Fatalf("daily attempt = %+v", r)
	}
	e1.register("eve").apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/puzzles/"+a.Game+"/"+a.ID+"/attempt", map[string]string{"move": "x", "mode": "casual"})
}

// TestPuzzleConcurrentAttempts: players attempting one puzzle at the same
// time through the API lose no update of its rating: its play count is
// the number of players and each first attempt started from a different
// puzzle rating.
func TestPuzzleConcurrentAttempts(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testPuzzleConcurrent(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testPuzzleConcurrent(t, newEnvWith(t, postgresStore(t))) })
}

func testPuzzleConcurrent(t *testing.T, e *env) {
	p := testPuzzles(t, "sploof")[4]
	const n = 8
	cs := make([]*client, n)
	for i := range cs {
		cs[i] = e.register(fmt.Sprintf("player%d", i))
	}
	var wg sync.WaitGroup
	res := make([]puzzleAttemptResp, n)
	for i, c := range cs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			move := p.solution
			if i%2 == 1 {
				move = p.wrong
			}
			code, body := c.do("POST", "/api/puzzles/sploof/"+p.id+"/attempt", map[string]string{"move": move})
			if code != http.StatusOK {
				t.Errorf("player %d: %d %s", i, code, body)
				return
			}
			json.Unmarshal(body, &res[i])
		}()
	}
	wg.Wait()
	var set puzzleSetResp
	e.anon().must(http.StatusOK, "GET", "/api/puzzles/sploof", nil, &set)
	if got := set.Puzzles[4].Plays; got != n {
		t.Fatalf("puzzle plays = %d, want %d", got, n)
	}
	// The wire rounds ratings; with eight updates of tens of points each,
	// two attempts that started from the same rounded rating lost one.
	from := map[float64]bool{}
	for _, r := range res {
		if from[r.Puzzle.Before] {
			t.Fatalf("two attempts started from puzzle rating %v: %+v", r.Puzzle.Before, res)
		}
		from[r.Puzzle.Before] = true
	}
}
