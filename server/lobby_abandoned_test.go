package server_test

import (
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// The lobby's list of games being played leaves out a live game whose
// people have all been away (no page open, no move) for
// match.UnattendedAfter (issue 27, item 5: guest-versus-bot games without
// a clock stayed listed for ever after the browser closed).

// listed reports whether the public list of live games holds id.
func listed(t *testing.T, e *env, path, id string) bool {
	t.Helper()
	var resp struct{ Games []summary }
	e.anon().must(http.StatusOK, "GET", path, nil, &resp)
	return slices.ContainsFunc(resp.Games, func(g summary) bool { return g.ID == id })
}

// awaySeats is the seats the game's owner counts as away now.
func awaySeats(t *testing.T, e *env, id string) []int {
	t.Helper()
	var page struct {
		Room *struct {
			Away []struct{ Seat int }
		}
	}
	e.anon().must(http.StatusOK, "GET", "/api/games/"+id, nil, &page)
	var out []int
	if page.Room != nil {
		for _, a := range page.Room.Away {
			out = append(out, a.Seat)
		}
	}
	return out
}

func waitAway(t *testing.T, e *env, id string, want []int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		got := awaySeats(t, e, id)
		if slices.Equal(got, want) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("away %v, want %v", got, want)
		}
	}
}

func TestLobbyLeavesOutAbandonedBotGames(t *testing.T) {
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	e := newEnv(t, func(c *serverConfig) { c.Now = clock })
	// An older game whose guest plays on: it stays.
	other := e.guest()
	o := other.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	guest := e.guest()
	g := guest.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	if g.Status != "live" {
		t.Fatalf("status %q, want live", g.Status)
	}

	ws := guest.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	waitAway(t, e, g.ID, nil)
	for _, path := range []string{"/api/games?status=live", "/api/games"} {
		if !listed(t, e, path, g.ID) {
			t.Fatalf("%s: the game is missing while its guest is there", path)
		}
	}

	// The guest closes the page: still listed for the window.
	ws.close()
	waitAway(t, e, g.ID, []int{0})
	advance(match.UnattendedAfter - time.Minute)
	if !listed(t, e, "/api/games?status=live", g.ID) {
		t.Fatal("the game left the list before the window")
	}
	// After it, the game is gone from the public list, open or live, and
	// still live (the idle rule ends it later); the other game stays (a
	// page of limit=1 reads past the newer abandoned one to find it), and
	// the guest's own list still has it.
	advance(2 * time.Minute)
	other.must(http.StatusOK, "POST", "/api/games/"+o.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)
	for _, path := range []string{"/api/games?status=live", "/api/games", "/api/games?status=live&limit=1"} {
		if listed(t, e, path, g.ID) {
			t.Fatalf("%s: an abandoned game is listed", path)
		}
	}
	if !listed(t, e, "/api/games?status=live&limit=1", o.ID) {
		t.Fatal("limit=1: the attended game is missing")
	}
	if !listed(t, e, "/api/games?status=live&user="+guest.name, g.ID) {
		t.Fatal("the guest's own list lost the game")
	}
	if s, _, _ := guest.game(g.ID); s.Status != "live" {
		t.Fatalf("status %q, want live", s.Status)
	}
	// The guest comes back: listed again.
	guest.dial("/api/games/" + g.ID + "/ws").next("snapshot")
	waitAway(t, e, g.ID, nil)
	if !listed(t, e, "/api/games?status=live", g.ID) {
		t.Fatal("the game is missing after its guest came back")
	}
}
