package server_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

type followsJSON struct {
	Follows []struct {
		User    string `json:"user"`
		Online  bool   `json:"online"`
		Playing []struct {
			ID   string `json:"id"`
			Game string `json:"game"`
		} `json:"playing"`
	} `json:"follows"`
	Max int `json:"max"`
}

func (c *client) follows() followsJSON {
	c.e.t.Helper()
	var f followsJSON
	c.must(http.StatusOK, "GET", "/api/follows", nil, &f)
	if f.Follows == nil {
		c.e.t.Fatal("follows: null, want a list")
	}
	return f
}

// TestFollows: follow and unfollow with clear refusals (yourself, nobody,
// a guest either way, twice); the list is one's own only and shows the
// followed player online with their live game; their start is a notice on
// the follower's channel; a block either way ends the follows both ways
// and refuses new ones.
func TestFollows(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testFollows(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testFollows(t, newEnvWith(t, postgresStore(t))) })
}

func testFollows(t *testing.T, e *env) {
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	guest := e.guest()
	for _, m := range []string{"POST", "DELETE"} {
		e.anon().apiErr(http.StatusUnauthorized, "unauthorized", m, "/api/follows/bob", nil)
	}
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/follows", nil)
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/follows/ALICE", nil)
	code, body := alice.do("POST", "/api/follows/nobody", nil)
	if code != http.StatusNotFound || !strings.Contains(string(body), `no player named \"nobody\"`) {
		t.Fatalf("following nobody: %d %s", code, body)
	}
	guest.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/follows/bob", nil)
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/follows/"+guest.name, nil)
	alice.apiErr(http.StatusNotFound, "not_found", "DELETE", "/api/follows/bob", nil)
	if f := alice.follows(); len(f.Follows) != 0 || f.Max != 500 {
		t.Fatalf("follows after refusals: %+v", f)
	}

	alice.must(http.StatusNoContent, "POST", "/api/follows/bob", nil, nil)
	alice.must(http.StatusNoContent, "POST", "/api/follows/Bob", nil, nil) // twice: one follow
	bob.must(http.StatusNoContent, "POST", "/api/follows/alice", nil, nil)
	f := alice.follows()
	if len(f.Follows) != 1 || f.Follows[0].User != "bob" || !f.Follows[0].Online || len(f.Follows[0].Playing) != 0 {
		t.Fatalf("alice follows %+v", f)
	}
	if f := carol.follows(); len(f.Follows) != 0 {
		t.Fatalf("carol sees follows that are not hers: %+v", f)
	}

	// Bob starts a game with carol: alice hears it and sees it to watch.
	aws := alice.dial("/api/ws")
	g := bob.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "5"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "carol"}}})
	carol.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	if n := nextNotice(aws, "started"); n.User != "bob" || n.GameID != g.ID {
		t.Fatalf("alice heard %+v, want bob's start of %s", n, g.ID)
	}
	f = alice.follows()
	if len(f.Follows) != 1 || len(f.Follows[0].Playing) != 1 || f.Follows[0].Playing[0].ID != g.ID || f.Follows[0].Playing[0].Game != "tnim" {
		t.Fatalf("alice follows %+v, want bob playing %s", f, g.ID)
	}

	// Carol blocks alice: alice cannot follow her. Alice blocks bob: the
	// follows between them end both ways, and alice must unblock first.
	carol.must(http.StatusNoContent, "POST", "/api/blocks/alice", nil, nil)
	alice.apiErr(http.StatusForbidden, "blocked", "POST", "/api/follows/carol", nil)
	alice.must(http.StatusNoContent, "POST", "/api/blocks/bob", nil, nil)
	if f := alice.follows(); len(f.Follows) != 0 {
		t.Fatalf("alice still follows %+v after blocking bob", f)
	}
	if f := bob.follows(); len(f.Follows) != 0 {
		t.Fatalf("bob still follows %+v after alice blocked him", f)
	}
	alice.apiErr(http.StatusConflict, "conflict", "POST", "/api/follows/bob", nil)
	bob.apiErr(http.StatusForbidden, "blocked", "POST", "/api/follows/alice", nil)
	alice.must(http.StatusNoContent, "DELETE", "/api/blocks/bob", nil, nil)
	if f := alice.follows(); len(f.Follows) != 0 {
		t.Fatalf("unblocking brought back %+v", f)
	}
	alice.must(http.StatusNoContent, "POST", "/api/follows/bob", nil, nil)
	alice.must(http.StatusNoContent, "DELETE", "/api/follows/bob", nil, nil)
	alice.apiErr(http.StatusNotFound, "not_found", "DELETE", "/api/follows/bob", nil)
}

// TestFollowLimit: a user who follows 500 players already is refused one
// more (409 follow_limit) and nothing is stored; unfollowing one makes room.
func TestFollowLimit(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	ctx := context.Background()
	ss := e.db.(store.Social)
	for i := 0; i < 500; i++ {
		u := store.User{Name: fmt.Sprintf("p%03d", i), PasswordHash: "x", Created: time.Now()}
		if err := e.db.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		if err := ss.AddFollow(ctx, store.Follow{UserID: alice.id, FollowedID: u.ID, Created: time.Now()}, 0); err != nil {
			t.Fatal(err)
		}
	}
	alice.apiErr(http.StatusConflict, "follow_limit", "POST", "/api/follows/bob", nil)
	if f := alice.follows(); len(f.Follows) != 500 {
		t.Fatalf("alice follows %d after the refusal, want 500", len(f.Follows))
	}
	alice.must(http.StatusNoContent, "DELETE", "/api/follows/p000", nil, nil)
	alice.must(http.StatusNoContent, "POST", "/api/follows/"+bob.name, nil, nil)
}
