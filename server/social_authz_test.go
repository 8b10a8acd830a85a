package server_test

// The attacker's view of issue 24's endpoints that the tests of each
// feature leave out (the audit in notes/issue24-audit.md): every endpoint
// that needs credentials refuses none or bad ones without doing anything;
// a moderator's malformed actions change and log nothing; a third player
// sees none of two others' challenges; the inbox leaves out an offer from
// a player one blocks; the leaderboard's limit is checked.

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// TestSocialEndpointsNeedCredentials: each of issue 24's endpoints that
// acts for a user answers 401 unauthorized with no credentials and with a
// token or session that does not exist, and nothing is stored for anyone.
func TestSocialEndpointsNeedCredentials(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	calls := []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/tokens", nil}, {"POST", "/api/tokens", map[string]any{"name": "x"}}, {"DELETE", "/api/tokens/1", nil},
		{"POST", "/api/me/bot", nil},
		{"GET", "/api/blocks", nil}, {"POST", "/api/blocks/bob", nil}, {"DELETE", "/api/blocks/bob", nil},
		{"GET", "/api/follows", nil}, {"POST", "/api/follows/bob", nil}, {"DELETE", "/api/follows/bob", nil},
		{"GET", "/api/inbox", nil}, {"GET", "/api/inbox/unread", nil}, {"POST", "/api/inbox/read", map[string]any{"all": true}},
		{"POST", "/api/challenges", challengeReq("bob")}, {"GET", "/api/challenges", nil},
		{"POST", "/api/challenges/" + c.ID + "/accept", nil},
		{"POST", "/api/challenges/" + c.ID + "/decline", map[string]string{"reason": "later"}},
		{"POST", "/api/challenges/" + c.ID + "/cancel", nil},
		{"POST", "/api/records", map[string]any{"record": "tabula-record/1 | game=tnim | seed=1 | moves="}},
		{"POST", "/api/reports", map[string]any{"user": "bob", "reason": "spam"}},
		{"GET", "/api/moderation/role", nil}, {"GET", "/api/moderation/reports", nil}, {"GET", "/api/moderation/log", nil},
		{"POST", "/api/moderation/close", map[string]any{"user": "bob", "reason": "x"}},
	}
	strangers := []*client{
		e.anon(),
		{e: e, token: "tbl_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"},
		{e: e, token: "not-a-session"},
	}
	for _, who := range strangers {
		for _, call := range calls {
			who.apiErr(http.StatusUnauthorized, "unauthorized", call.method, call.path, call.body)
		}
		if st := who.dialStatus("/api/ws"); st != http.StatusUnauthorized {
			t.Errorf("the user channel without valid credentials: %d, want 401", st)
		}
	}
	// Nothing happened: the challenge still waits, nobody blocks, follows
	// or is reported, no game was imported.
	if g, _, _ := bob.game(c.ID); g.Status != "open" {
		t.Fatalf("the challenge is %s after the refused calls", g.Status)
	}
	ctx := context.Background()
	for _, u := range []*client{alice, bob} {
		if bs, err := e.db.(store.Blocks).BlockList(ctx, u.id); err != nil || len(bs) != 0 {
			t.Fatalf("%s's blocks: %v, %v", u.name, bs, err)
		}
		if f := u.follows(); len(f.Follows) != 0 {
			t.Fatalf("%s follows %+v", u.name, f)
		}
	}
	if rs, err := e.db.(store.Moderation).Reports(ctx, store.ReportFilter{}); err != nil || len(rs) != 0 {
		t.Fatalf("reports stored: %v, %v", rs, err)
	}
	if n := storedGames(t, e, "alice"); n != 1 {
		t.Fatalf("alice has %d games, want the one challenge", n)
	}
}

// TestModerationBadInputChangesNothing: a moderator's action with no
// reason, a reason too long, a player nobody has, fields the API does not
// know, an undo of what was never done, or a bad page is a clear 4xx; the
// player's standing is unchanged and the log holds the grant alone.
func TestModerationBadInputChangesNothing(t *testing.T) {
	e := newEnv(t)
	mona, rita := e.register("mona"), e.register("rita")
	grantModerator(t, e.db, mona)
	long := strings.Repeat("r", 501)
	for _, tc := range []struct {
		status int
		code   string
		action string
		body   any
	}{
		{400, "bad_request", "close", map[string]any{"user": "rita"}},
		{400, "bad_request", "close", map[string]any{"user": "rita", "reason": "  "}},
		{400, "bad_request", "close", map[string]any{"user": "rita", "reason": long}},
		{400, "bad_request", "mute", map[string]any{"user": "rita", "reason": long}},
		{400, "bad_request", "mute", map[string]any{"user": "rita", "reason": "x", "minutes": 1 << 40}},
		{404, "not_found", "close", map[string]any{"user": "nobody", "reason": "x"}},
		{404, "not_found", "mute", map[string]any{"user": "nobody", "reason": "x"}},
		{400, "bad_json", "close", `{"user": "rita", "reason": "x", "permanent": true}`},
		{400, "bad_json", "mute", `{"user": "rita", "reason": "x", "minutes": "ten"}`},
		{409, "conflict", "reopen", map[string]any{"user": "rita", "reason": "x"}},
		{409, "conflict", "unmute", map[string]any{"user": "rita", "reason": "x"}},
		{404, "not_found", "dismiss", map[string]any{"report": 12345, "reason": "x"}},
	} {
		mona.apiErr(tc.status, tc.code, "POST", "/api/moderation/"+tc.action, tc.body)
	}
	for _, p := range []string{"/api/moderation/log?before=x", "/api/moderation/reports?before=-"} {
		mona.apiErr(http.StatusBadRequest, "bad_request", "GET", p, nil)
	}
	ms := e.db.(store.Moderation)
	st, err := ms.Standing(context.Background(), rita.id)
	if err != nil || st.Closed != nil || st.Mute != nil || st.Moderator {
		t.Fatalf("rita's standing after refused actions: %+v, %v", st, err)
	}
	rita.must(http.StatusOK, "GET", "/api/me", nil, nil)
	log, err := ms.AuditLog(context.Background(), 0, 0)
	if err != nil || len(log) != 1 {
		t.Fatalf("log after refused actions: %+v, %v (want the grant alone)", log, err)
	}
}

// TestChallengesOnlyTheirs: a third player neither lists nor hears two
// others' challenge, and cannot cancel it.
func TestChallengesOnlyTheirs(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	cws := carol.dial("/api/ws")
	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	var list struct{ Incoming, Outgoing []challengeJSON }
	carol.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Incoming)+len(list.Outgoing) != 0 {
		t.Fatalf("carol lists %+v", list)
	}
	carol.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/challenges/"+c.ID+"/cancel", nil)
	if in := carol.inbox(""); len(in.Items) != 0 {
		t.Fatalf("carol's inbox: %+v", in)
	}
	// Carol's own challenge is the next challenge message her channel
	// hears: alice's, made before it, was not sent to her.
	var mine challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("carol"), &mine)
	if n := cws.nextNews(); n.Challenge.ID != mine.ID {
		t.Fatalf("carol heard %+v, want only bob's challenge %s", n, mine.ID)
	}
	if g, _, _ := alice.game(c.ID); g.Status != "open" {
		t.Fatalf("alice's challenge is %s", g.Status)
	}
}

// TestInboxLeavesOutBlockedOffer: a draw offer in a live game is in the
// other player's inbox until they block its maker; unblocking brings it
// back (docs/api.md, Blocks: the inbox leaves out their offers).
func TestInboxLeavesOutBlockedOffer(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := bob.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "9"},
		"clock": map[string]any{"kind": "correspondence", "days": 1},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "alice"}}})
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	ws := bob.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	wantAsk(t, ws, map[string]any{"type": "offer", "offer": "draw"}, "")
	offers := func() int {
		t.Helper()
		n := 0
		for _, it := range alice.inbox("").Items {
			if it.Kind == "offer" {
				if it.From != "bob" || it.GameID != g.ID {
					t.Fatalf("offer item %+v", it)
				}
				n++
			}
		}
		return n
	}
	if n := offers(); n != 1 {
		t.Fatalf("alice's inbox holds %d offers before the block, want 1", n)
	}
	alice.must(http.StatusNoContent, "POST", "/api/blocks/bob", nil, nil)
	if n := offers(); n != 0 {
		t.Fatalf("alice's inbox holds %d offers of bob, whom she blocks", n)
	}
	alice.must(http.StatusNoContent, "DELETE", "/api/blocks/bob", nil, nil)
	if n := offers(); n != 1 {
		t.Fatalf("alice's inbox holds %d offers after unblocking, want 1", n)
	}
}

// TestLeaderboardLimit: the leaderboard's limit is 1 to 200; anything else
// is a 400 that says so; a game nobody has is a 404.
func TestLeaderboardLimit(t *testing.T) {
	e := newEnv(t)
	for _, q := range []string{"limit=0", "limit=201", "limit=x", "limit=-1", "limit=1e3"} {
		st, body := e.anon().do("GET", "/api/leaderboard/tnim?"+q, nil)
		if st != http.StatusBadRequest || !strings.Contains(string(body), "limit") {
			t.Errorf("?%s: %d %s, want 400 naming the limit", q, st, body)
		}
	}
	e.anon().must(http.StatusOK, "GET", "/api/leaderboard/tnim?limit=200", nil, nil)
	e.anon().apiErr(http.StatusNotFound, "not_found", "GET", "/api/leaderboard/nosuchgame?limit=5", nil)
}

// TestBlockedChallengeStillOpenUnseen: a challenge of a player one blocks
// that is still open (the block reached the store, the decline did not)
// is neither in the blocker's inbox nor replayed to a user channel they
// open afterwards; a challenge of someone else is.
func TestBlockedChallengeStillOpenUnseen(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	var c challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &c)
	if err := e.db.(store.Blocks).Block(context.Background(), store.Block{UserID: alice.id, BlockedID: bob.id, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	for _, it := range alice.inbox("").Items {
		if it.GameID == c.ID {
			t.Fatalf("alice's inbox holds bob's challenge: %+v", it)
		}
	}
	var other, later challengeJSON
	carol.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &other)
	// The channel replays the challenges waiting for alice on connecting
	// (carol's, not bob's); dave's, made after, ends what we read.
	ws := alice.dial("/api/ws")
	dave := e.register("dave")
	dave.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &later)
	heard := map[string]bool{}
	for !heard[later.ID] {
		n := ws.nextNews()
		if n.Challenge.ID == c.ID {
			t.Fatalf("alice's new channel heard bob's challenge: %+v", n)
		}
		heard[n.Challenge.ID] = true
	}
	if !heard[other.ID] {
		t.Fatalf("alice's channel did not replay carol's challenge: heard %v", heard)
	}
	if g, _, _ := bob.game(c.ID); g.Status != "open" {
		t.Fatalf("bob's challenge is %s", g.Status)
	}
}

// TestMutedSpectatorChat: a mute holds in the spectators' chat as well as
// in the players' (docs/security.md: a mute silences a player's chat).
func TestMutedSpectatorChat(t *testing.T) {
	e := newEnv(t)
	id, _, _, _, _, _ := liveTnim(t, e, "20")
	carol, mona := e.register("carol"), e.register("mona")
	grantModerator(t, e.db, mona)
	cws := carol.dial("/api/games/" + id + "/ws")
	cws.next("snapshot")
	wantAsk(t, cws, map[string]any{"type": "chat", "text": "go on"}, "")
	mona.must(http.StatusNoContent, "POST", "/api/moderation/mute", map[string]any{"user": "carol", "reason": "spam", "minutes": 30}, nil)
	if m := ask(cws, map[string]any{"type": "chat", "text": "buy my stuff"}); m.Error == nil || m.Error.Code != "muted" {
		t.Fatalf("a muted spectator's chat: %s", m.raw)
	}
}
