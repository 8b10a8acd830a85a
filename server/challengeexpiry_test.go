package server_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/tabula-games/tabula/server"
)

// TestChallengeExpiredNews (issue 24 item 4, "it expires; the challenger
// sees the answer"): a challenge nobody answers is aborted by its owner at
// its expiry, and both the challenger's and the challenged player's user
// channels hear "expired" for it; it is listed for neither after, and its
// game reads aborted. (TestChallengeExpiry covers an accept that comes too
// late; match's TestChallengeExpires the owner's answer.)
func TestChallengeExpiredNews(t *testing.T) {
	server.ShortChallenges(t, 600*time.Millisecond)
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	aws, bws := alice.dial("/api/ws"), bob.dial("/api/ws")
	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	// The test's short expiry applies (not the default's days). Not a
	// lower bound: on a loaded machine the answer came after the 600 ms.
	if left := time.Until(c.Expires); left > time.Second {
		t.Fatalf("the challenge expires in %v, want the test's 600 ms", left)
	}
	if n := bws.nextNews(); n.News != "received" || n.Challenge.ID != c.ID {
		t.Fatalf("bob heard %+v, want received %s", n, c.ID)
	}
	for who, ws := range map[string]*wsClient{"alice": aws, "bob": bws} {
		if n := ws.nextNews("accepted", "declined", "cancelled", "expired"); n.News != "expired" || n.Challenge.ID != c.ID || n.Challenge.From != "alice" {
			t.Fatalf("%s heard %+v, want expired %s", who, n, c.ID)
		}
	}
	var g struct{ Game summary }
	alice.must(http.StatusOK, "GET", "/api/games/"+c.ID, nil, &g)
	if g.Game.Status != "aborted" {
		t.Fatalf("the expired challenge's game is %q, want aborted", g.Game.Status)
	}
	for _, who := range []*client{alice, bob} {
		var list struct{ Incoming, Outgoing []challengeJSON }
		who.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
		if len(list.Incoming)+len(list.Outgoing) != 0 {
			t.Fatalf("an expired challenge is still listed: %+v", list)
		}
	}
	bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/challenges/"+c.ID+"/accept", nil)
}
