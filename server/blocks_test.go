package server_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// TestBlocks: a user blocks another, who then cannot invite them (403
// blocked, no game stored); blocking is one-way, listed only to its
// author, idempotent, and undone by DELETE; bad requests are clear 4xx
// and store nothing.
func TestBlocks(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testBlocks(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testBlocks(t, newEnvWith(t, postgresStore(t))) })
}

func testBlocks(t *testing.T, e *env) {
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	ctx := context.Background()
	bobGames := func() int {
		t.Helper()
		bu, err := e.db.UserByName(ctx, "bob")
		if err != nil {
			t.Fatal(err)
		}
		gs, err := e.db.Games(ctx, store.GameFilter{Creator: bu.ID, Statuses: []match.Status{match.Open, match.Live}})
		if err != nil {
			t.Fatal(err)
		}
		return len(gs)
	}
	invite := func(who string) map[string]any {
		return map[string]any{"game": "tnim", "options": map[string]string{"stones": "5"},
			"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": who}}}
	}
	type blocks struct {
		Blocks []struct{ User string }
	}
	list := func(c *client) []string {
		t.Helper()
		var b blocks
		c.must(http.StatusOK, "GET", "/api/blocks", nil, &b)
		if b.Blocks == nil {
			t.Fatal("blocks: null, want a list")
		}
		var names []string
		for _, x := range b.Blocks {
			names = append(names, x.User)
		}
		return names
	}

	// Authorization and bad input: nothing is stored.
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/blocks/bob", nil)
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/blocks", nil)
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "DELETE", "/api/blocks/bob", nil)
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/blocks/Alice", nil)
	alice.apiErr(http.StatusNotFound, "not_found", "POST", "/api/blocks/nobody", nil)
	alice.apiErr(http.StatusNotFound, "not_found", "DELETE", "/api/blocks/bob", nil)
	if got := list(alice); len(got) != 0 {
		t.Fatalf("blocks after refused requests: %v", got)
	}
	bob.create(invite("alice")) // not blocked yet (the block declines it: blocks_challenges_test.go)

	alice.must(http.StatusNoContent, "POST", "/api/blocks/bob", nil, nil)
	alice.must(http.StatusNoContent, "POST", "/api/blocks/BOB", nil, nil) // again: still one block
	before := bobGames()
	if got := list(alice); len(got) != 1 || got[0] != "bob" {
		t.Fatalf("alice's blocks: %v", got)
	}
	if got := list(bob); len(got) != 0 {
		t.Fatalf("bob sees blocks that are not his: %v", got)
	}
	bob.apiErr(http.StatusForbidden, "blocked", "POST", "/api/games", invite("alice"))
	bob.apiErr(http.StatusForbidden, "blocked", "POST", "/api/games", invite("Alice"))
	if n := bobGames(); n != before {
		t.Fatalf("a refused invitation stored a game: %d games, had %d", n, before)
	}
	// One-way: alice may still invite bob; others may invite alice.
	alice.create(invite("bob"))
	carol.create(invite("alice"))

	alice.must(http.StatusNoContent, "DELETE", "/api/blocks/bob", nil, nil)
	alice.apiErr(http.StatusNotFound, "not_found", "DELETE", "/api/blocks/bob", nil)
	if got := list(alice); len(got) != 0 {
		t.Fatalf("alice's blocks after unblocking: %v", got)
	}
	bob.create(invite("alice"))
}

// TestBlockedChat: a player does not see the chat lines of a player they
// block, live or in the snapshot; the blocked player still sees theirs and
// is not told.
func TestBlockedChat(t *testing.T) {
	e := newEnv(t)
	id, alice, bob, aws, bws, _ := liveTnim(t, e, "20")
	alice.must(http.StatusNoContent, "POST", "/api/blocks/"+bob.name, nil, nil)
	wantAsk(t, bws, map[string]any{"type": "chat", "text": "from bob"}, "")
	if r := decodeRoom(t, bws.next("chat")); r.Line.Text != "from bob" {
		t.Fatalf("bob's own line: %+v", r.Line)
	}
	wantAsk(t, aws, map[string]any{"type": "chat", "text": "from alice"}, "")
	// Lines come in order: alice's next chat message is her own line, so
	// bob's, before it, was not sent to her.
	if r := decodeRoom(t, aws.next("chat")); r.Line.Text != "from alice" {
		t.Fatalf("alice heard %+v", r.Line)
	}
	if r := decodeRoom(t, bws.next("chat")); r.Line.Text != "from alice" {
		t.Fatalf("bob heard %+v", r.Line)
	}
	chat := func(c *client) []string {
		t.Helper()
		r := decodeRoom(t, c.dial("/api/games/"+id+"/ws").next("snapshot"))
		if r.Room == nil {
			t.Fatal("no room in the snapshot")
		}
		var out []string
		for _, l := range r.Room.Chat {
			out = append(out, l.Text)
		}
		return out
	}
	if got := chat(alice); len(got) != 1 || got[0] != "from alice" {
		t.Fatalf("alice's snapshot chat: %q", got)
	}
	if got := chat(bob); len(got) != 2 {
		t.Fatalf("bob's snapshot chat: %q", got)
	}
	alice.must(http.StatusNoContent, "DELETE", "/api/blocks/"+bob.name, nil, nil)
	if got := chat(alice); len(got) != 2 {
		t.Fatalf("alice's snapshot chat after unblocking: %q", got)
	}
}
