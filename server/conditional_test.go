package server_test

import (
	"context"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// TestConditional: conditional moves of a correspondence game (issue
// 27.9). Only the seat's own player reads or changes its lines (others,
// spectators and anonymous callers refused); a game that is not
// correspondence, or hides information, is a 409, as is saving on one's own
// turn; a line that does not play out legally, or breaks a bound, is a 4xx
// and stores nothing. When the opponent plays a line's first move, the
// reply is in the game at once, published as a normal move, and the rest of
// the line stays; a move off the lines clears them.
func TestConditional(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testConditional(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testConditional(t, newEnvWith(t, postgresStore(t))) })
}

type conditionalBody struct {
	Ply   int        `json:"ply"`
	Lines [][]string `json:"lines"`
}

func testConditional(t *testing.T, e *env) {
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	corr := map[string]any{"kind": "correspondence", "days": 2}
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "30"}, "clock": corr})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	path := "/api/games/" + g.ID + "/conditional"
	get := func(c *client) conditionalBody {
		t.Helper()
		var out conditionalBody
		c.must(http.StatusOK, "GET", path, nil, &out)
		return out
	}

	// Alice (seat 0) is to move: bob may save lines, alice may not.
	want := [][]string{{"1", "2", "3", "1"}, {"2", "3"}}
	var saved conditionalBody
	bob.must(http.StatusOK, "PUT", path, map[string]any{"lines": want}, &saved)
	if saved.Ply != 0 || !reflect.DeepEqual(saved.Lines, want) {
		t.Fatalf("PUT answered %+v, want ply 0 and %v", saved, want)
	}
	alice.apiErr(http.StatusConflict, "not_opponents_turn", "PUT", path, map[string]any{"lines": [][]string{{"1", "2"}}})
	if got := get(alice); got.Lines != nil {
		t.Fatalf("alice reads lines %v: want none (bob's are his)", got.Lines)
	}

	// Nobody but the seat's player: 403, and 401 without a session.
	guest := e.guest()
	for _, c := range []*client{carol, guest} {
		c.apiErr(http.StatusForbidden, "forbidden", "GET", path, nil)
		c.apiErr(http.StatusForbidden, "forbidden", "PUT", path, map[string]any{"lines": want})
		c.apiErr(http.StatusForbidden, "forbidden", "DELETE", path, nil)
	}
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", path, nil)
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "PUT", path, map[string]any{"lines": want})
	bob.apiErr(http.StatusNotFound, "not_found", "GET", "/api/games/nosuchgame/conditional", nil)

	// Bad input: a clear 4xx, and bob's lines are as they were.
	many := make([][]string, 21)
	for i := range many {
		many[i] = []string{"1", "1"}
	}
	long := strings.Split("1 1 1 1 1 1 1 1 1 1 1 1", " ")
	for _, bad := range []struct {
		name   string
		status int
		code   string
		body   any
	}{
		{"an illegal first move", 422, "bad_conditional", map[string]any{"lines": [][]string{{"4", "1"}}}},
		{"an illegal reply", 422, "bad_conditional", map[string]any{"lines": [][]string{{"1", "9"}}}},
		{"not a move", 422, "bad_conditional", map[string]any{"lines": [][]string{{"1", "x"}}}},
		{"an odd line", 422, "bad_conditional", map[string]any{"lines": [][]string{{"1", "2", "3"}}}},
		{"a line of one move", 422, "bad_conditional", map[string]any{"lines": [][]string{{"1"}}}},
		{"no lines", 422, "bad_conditional", map[string]any{"lines": [][]string{}}},
		{"two replies to one move", 422, "bad_conditional", map[string]any{"lines": [][]string{{"1", "2"}, {"1", "3"}}}},
		{"21 lines", 422, "bad_conditional", map[string]any{"lines": many}},
		{"12 moves in a line", 422, "bad_conditional", map[string]any{"lines": [][]string{long}}},
		{"a move of 65 bytes", 422, "bad_conditional", map[string]any{"lines": [][]string{{strings.Repeat("1", 65), "1"}}}},
		{"an unknown key", 400, "bad_json", map[string]any{"lines": want, "seat": 0}},
		{"not JSON", 400, "bad_json", `{"lines":`},
		{"lines of numbers", 400, "bad_json", `{"lines":[[1,2]]}`},
		{"a huge body", 413, "too_large", map[string]any{"lines": [][]string{{strings.Repeat("1", 20000), "1"}}}},
	} {
		t.Run(bad.name, func(t *testing.T) {
			bob.apiErr(bad.status, bad.code, "PUT", path, bad.body)
			if got := get(bob); !reflect.DeepEqual(got.Lines, want) {
				t.Fatalf("after a refused PUT bob's lines are %v, want %v", got.Lines, want)
			}
		})
	}

	// Games that offer none: 409.
	rt := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "30"}, "clock": map[string]any{"kind": "realtime", "initialMs": 600000}})
	bob.must(http.StatusOK, "POST", "/api/games/"+rt.ID+"/join", nil, nil)
	bob.apiErr(http.StatusConflict, "conditional_not_offered", "PUT", "/api/games/"+rt.ID+"/conditional", map[string]any{"lines": [][]string{{"1", "2"}}})
	hid := alice.create(map[string]any{"game": "tnimh", "options": map[string]string{"stones": "30"}, "clock": corr})
	bob.must(http.StatusOK, "POST", "/api/games/"+hid.ID+"/join", nil, nil)
	bob.apiErr(http.StatusConflict, "conditional_not_offered", "PUT", "/api/games/"+hid.ID+"/conditional", map[string]any{"lines": [][]string{{"1", "2"}}})
	var none conditionalBody
	bob.must(http.StatusOK, "GET", "/api/games/"+rt.ID+"/conditional", nil, &none)
	if none.Lines != nil {
		t.Fatalf("a refused PUT stored %v", none.Lines)
	}

	// Alice plays the first move of a line: bob's reply follows at once,
	// as a normal move event, and the rest of the line stays.
	ws := alice.dial("/api/games/" + g.ID + "/ws")
	defer ws.close()
	ws.next("snapshot")
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	if m := ws.nextMove(1); !strings.Contains(string(m.raw), `"seat":1`) || !strings.Contains(string(m.raw), `"move":"2"`) {
		t.Fatalf("the move after alice's: %s, want bob's conditional 2", m.raw)
	}
	if _, moves, _ := alice.game(g.ID); len(moves) != 2 || moves[1].Seat != 1 || moves[1].Move != "2" {
		t.Fatalf("moves %+v: want alice's 1 and bob's 2", moves)
	}
	waitConditional(t, bob, path, func(c conditionalBody) bool { return c.Ply == 2 && reflect.DeepEqual(c.Lines, [][]string{{"3", "1"}}) })

	// Alice plays off the line: nothing is played for bob, and his lines
	// are cleared.
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 2, "move": "2"}, nil)
	waitConditional(t, bob, path, func(c conditionalBody) bool { return c.Lines == nil })
	if s, moves, _ := alice.game(g.ID); len(moves) != 3 || s.ToMove != 1 {
		t.Fatalf("after alice's move off the line: %d moves, seat %d to move; want 3 and bob", len(moves), s.ToMove)
	}

	// DELETE: bob's new lines are gone.
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 3, "move": "1"}, nil)
	bob.must(http.StatusOK, "PUT", path, map[string]any{"lines": [][]string{{"3", "3"}}}, nil)
	bob.must(http.StatusOK, "DELETE", path, nil, nil)
	if got := get(bob); got.Lines != nil {
		t.Fatalf("after DELETE: %v", got.Lines)
	}
}

// waitConditional waits until c's lines at path satisfy ok: the owner
// writes them just after the move it played.
func waitConditional(t *testing.T, c *client, path string, ok func(conditionalBody) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got conditionalBody
		c.must(http.StatusOK, "GET", path, nil, &got)
		if ok(got) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("conditional moves at %s: %+v", path, got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestConditionalReadBeforeTheOwnerRewrites: the owner plays a stored reply
// and rewrites the entry after; a read in between (the page reads after
// each move, and did so in a clean-clone CI run) must show what is left —
// here nothing — not the entry as it was stored. The entry is written back
// by hand after the moves, standing for the owner's write not yet done.
func TestConditionalReadBeforeTheOwnerRewrites(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "30"}, "clock": map[string]any{"kind": "correspondence", "days": 2}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	path := "/api/games/" + g.ID + "/conditional"
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 1, "move": "2"}, nil)
	book := e.db.(store.Conditionals)
	stale := match.Conditional{Game: g.ID, Seat: 1, Ply: 0, Lines: [][]string{{"1", "2"}, {"2", "3"}}, Created: time.Now()}
	if err := book.SetConditional(context.Background(), stale); err != nil {
		t.Fatal(err)
	}
	var got conditionalBody
	bob.must(http.StatusOK, "GET", path, nil, &got)
	if got.Lines != nil {
		t.Fatalf("after the line was played out bob reads %v (ply %d): want none", got.Lines, got.Ply)
	}
	// A line that goes on past the moves played: its rest, at the ply now.
	stale.Lines = [][]string{{"1", "2", "3", "1"}, {"2", "3"}}
	if err := book.SetConditional(context.Background(), stale); err != nil {
		t.Fatal(err)
	}
	bob.must(http.StatusOK, "GET", path, nil, &got)
	if got.Ply != 2 || !reflect.DeepEqual(got.Lines, [][]string{{"3", "1"}}) {
		t.Fatalf("bob reads %+v: want ply 2 and [[3 1]]", got)
	}
}
