package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// TestBlockEndsPendingChallenges: bob challenges and invites alice, then
// alice blocks bob. The challenge and the invitation made before the
// block vanish from alice's lists (they are declined as if by hand, with
// the neutral reason "generic": bob learns nothing of the block), and
// accepting the challenge fails.
func TestBlockEndsPendingChallenges(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	bws := bob.dial("/api/ws")

	var c, other challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &c)
	// carol's challenge to alice is no business of the block.
	carol.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &other)
	inv := bob.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "5"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "alice"}}})

	alice.must(http.StatusNoContent, "POST", "/api/blocks/bob", nil, nil)

	var list struct{ Incoming, Outgoing []challengeJSON }
	alice.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Incoming) != 1 || list.Incoming[0].ID != other.ID {
		t.Fatalf("alice's incoming challenges after blocking bob: %+v, want only carol's", list.Incoming)
	}
	if n := bws.nextNews("declined", "cancelled", "expired"); n.Challenge.ID != c.ID || n.News != "declined" || n.Reason != "generic" {
		t.Fatalf("bob heard %+v, want his challenge declined for the generic reason", n)
	}
	alice.apiErr(http.StatusForbidden, "you_block", "POST", "/api/challenges/"+c.ID+"/accept", nil)
	if g, _, _ := bob.game(c.ID); g.Status != "aborted" {
		t.Fatalf("bob's challenge is %s after the block, want aborted", g.Status)
	}
	if g, _, _ := bob.game(inv.ID); g.Status != "aborted" {
		t.Fatalf("bob's invitation is %s after the block, want aborted", g.Status)
	}
	for _, it := range alice.inbox("").Items {
		if it.GameID == inv.ID || it.GameID == c.ID {
			t.Fatalf("alice's inbox still holds bob's %+v", it)
		}
	}
	// carol's challenge is untouched and can be accepted.
	alice.must(http.StatusOK, "POST", "/api/challenges/"+other.ID+"/accept", nil, nil)
}

// TestBlockHidesChallengeStillOpen: a challenge of a blocked player that is
// still open (the block reached the store but the decline did not, as
// when its owner was away) is not listed to the blocker, and accepting it
// fails with "blocked".
func TestBlockHidesChallengeStillOpen(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	var c challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &c)
	ctx := context.Background()
	au, err := e.db.UserByName(ctx, "alice")
	if err != nil {
		t.Fatal(err)
	}
	bu, err := e.db.UserByName(ctx, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if err := e.db.(store.Blocks).Block(ctx, store.Block{UserID: au.ID, BlockedID: bu.ID, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	var list struct{ Incoming, Outgoing []challengeJSON }
	alice.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Incoming) != 0 {
		t.Fatalf("alice's incoming challenges: %+v, want none from bob, whom she blocks", list.Incoming)
	}
	alice.apiErr(http.StatusForbidden, "you_block", "POST", "/api/challenges/"+c.ID+"/accept", nil)
	if g, _, _ := bob.game(c.ID); g.Status != "open" {
		t.Fatalf("a refused accept changed the challenge: %s", g.Status)
	}
}
