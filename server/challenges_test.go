package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store"
)

type challengeJSON struct {
	ID      string
	From    string
	To      []string
	Expires time.Time
	Game    summary
}

type challengeNews struct {
	Type      string
	News      string
	By        string
	Reason    string
	Challenge challengeJSON
}

// nextNews waits for the user channel's next challenge message (of one
// of the kinds of news, if any are given).
func (w *wsClient) nextNews(kinds ...string) challengeNews {
	w.t.Helper()
	for {
		m := w.next("challenge")
		var n challengeNews
		if err := json.Unmarshal(m.raw, &n); err != nil {
			w.t.Fatal(err)
		}
		if len(kinds) == 0 || slices.Contains(kinds, n.News) {
			return n
		}
	}
}

func challengeReq(players ...string) map[string]any {
	return map[string]any{"game": "tnim", "options": map[string]string{"stones": "5"}, "players": players, "seat": 0}
}

// storedGames is how many games user name created.
func storedGames(t *testing.T, e *env, name string) int {
	t.Helper()
	u, err := e.db.UserByName(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	gs, err := e.db.Games(context.Background(), store.GameFilter{Creator: u.ID})
	if err != nil {
		t.Fatal(err)
	}
	return len(gs)
}

// TestChallenges: a challenge is received on the challenged player's user
// channel at once, listed for both, declined with a reason that the
// challenger hears; a second one is accepted and both are in the live
// game; the challenger cancels a third.
func TestChallenges(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testChallenges(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testChallenges(t, newEnvWith(t, postgresStore(t))) })
}

func testChallenges(t *testing.T, e *env) {
	alice, bob := e.register("alice"), e.register("bob")
	aws, bws := alice.dial("/api/ws"), bob.dial("/api/ws")

	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	if c.From != "alice" || len(c.To) != 1 || c.To[0] != "bob" || c.Game.Status != "open" || time.Until(c.Expires) < 9*time.Minute {
		t.Fatalf("challenge %+v", c)
	}
	if n := bws.nextNews(); n.News != "received" || n.Challenge.ID != c.ID || n.Challenge.From != "alice" || n.Challenge.Expires.IsZero() {
		t.Fatalf("bob heard %+v", n)
	}
	var list struct{ Incoming, Outgoing []challengeJSON }
	bob.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Incoming) != 1 || list.Incoming[0].ID != c.ID || len(list.Outgoing) != 0 {
		t.Fatalf("bob's list %+v", list)
	}
	alice.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Outgoing) != 1 || len(list.Incoming) != 0 {
		t.Fatalf("alice's list %+v", list)
	}
	// A channel connecting later hears of it too (a bot that was away).
	if n := bob.dial("/api/ws").nextNews(); n.News != "received" || n.Challenge.ID != c.ID {
		t.Fatalf("bob's new channel heard %+v", n)
	}
	bob.must(http.StatusNoContent, "POST", "/api/challenges/"+c.ID+"/decline", map[string]string{"reason": "too_fast"}, nil)
	if n := aws.nextNews(); n.News != "declined" || n.By != "bob" || n.Reason != "too_fast" || n.Challenge.ID != c.ID {
		t.Fatalf("alice heard %+v", n)
	}
	if g, _, _ := alice.game(c.ID); g.Status != "aborted" {
		t.Fatalf("declined challenge is %s", g.Status)
	}
	alice.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Outgoing) != 0 {
		t.Fatalf("a declined challenge is still listed: %+v", list)
	}

	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	bws.nextNews()
	var res struct{ Game summary }
	bob.must(http.StatusOK, "POST", "/api/challenges/"+c.ID+"/accept", nil, &res)
	if res.Game.Status != "live" || res.Game.Seats[0].User != "alice" || res.Game.Seats[1].User != "bob" {
		t.Fatalf("accepted: %+v", res.Game)
	}
	if n := aws.nextNews(); n.News != "accepted" || n.Challenge.ID != c.ID {
		t.Fatalf("alice heard %+v", n)
	}

	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	bws.nextNews()
	bob.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/challenges/"+c.ID+"/cancel", nil)
	alice.must(http.StatusNoContent, "POST", "/api/challenges/"+c.ID+"/cancel", nil, nil)
	if n := bws.nextNews("cancelled"); n.By != "alice" || n.Challenge.ID != c.ID {
		t.Fatalf("bob heard %+v", n)
	}
}

// TestChallengeRefusals: the attacker's and the careless user's requests,
// each a clear 4xx that stores nothing.
func TestChallengeRefusals(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	guest := e.guest()

	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/challenges", challengeReq("bob"))
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/challenges", nil)
	guest.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/challenges", challengeReq("bob"))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/challenges", challengeReq("alice"))
	alice.apiErr(http.StatusNotFound, "no_such_player", "POST", "/api/challenges", challengeReq("nobody"))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/challenges", challengeReq())
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/challenges", challengeReq("bob", "bob"))
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/challenges", map[string]any{"game": "chess", "players": []string{"bob"}})
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/challenges", map[string]any{"game": "tnim", "players": []string{"bob"}, "seat": 5})
	// A bot beside a player needs a seat left for it: Test Nim has two.
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/challenges", map[string]any{"game": "tnim", "players": []string{"bob"}, "bot": "easy"})
	// Skyjo for eight with a name nobody has among seven: nothing created.
	seven := []string{"bob", "carol", "dave", "erin", "frank", "grace", "nobody"}
	for _, n := range seven[2:6] {
		e.register(n)
	}
	alice.apiErr(http.StatusNotFound, "no_such_player", "POST", "/api/challenges", map[string]any{"game": "skyjo", "players": seven})
	// The lobby's invitation says the same (it said "bad_option").
	alice.apiErr(http.StatusNotFound, "no_such_player", "POST", "/api/games", map[string]any{"game": "tnim",
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "nobody"}}})
	// A player who blocks Alice cannot be challenged by her.
	carol.must(http.StatusNoContent, "POST", "/api/blocks/alice", nil, nil)
	alice.apiErr(http.StatusForbidden, "blocked", "POST", "/api/challenges", challengeReq("carol"))
	if n := storedGames(t, e, "alice"); n != 0 {
		t.Fatalf("%d games stored after refusals", n)
	}

	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	// Bob again while he has not answered: refused.
	alice.apiErr(http.StatusConflict, "conflict", "POST", "/api/challenges", challengeReq("bob"))
	// Declining or accepting someone else's challenge, with a bad reason,
	// or a challenge that does not exist.
	carol.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/challenges/"+c.ID+"/decline", map[string]string{"reason": "later"})
	carol.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/challenges/"+c.ID+"/accept", nil)
	alice.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/challenges/"+c.ID+"/decline", map[string]string{"reason": "later"})
	bob.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/challenges/"+c.ID+"/decline", map[string]string{"reason": "<script>"})
	bob.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/challenges/"+c.ID+"/decline", `{"reason": 7}`)
	bob.apiErr(http.StatusNotFound, "not_found", "POST", "/api/challenges/nosuch/decline", map[string]string{"reason": "later"})
	bob.apiErr(http.StatusNotFound, "not_found", "POST", "/api/challenges/nosuch/accept", nil)
	// An ordinary game is no challenge.
	g := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}})
	bob.apiErr(http.StatusNotFound, "not_found", "POST", "/api/challenges/"+g.ID+"/decline", map[string]string{"reason": "later"})
	if g, _, _ := bob.game(c.ID); g.Status != "open" {
		t.Fatalf("the challenge is %s after the refusals", g.Status)
	}

	// A flood: at most three waiting at once.
	for _, n := range []string{"carol2", "dave2"} {
		e.register(n)
		alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq(n), nil)
	}
	e.register("grace2")
	alice.apiErr(http.StatusTooManyRequests, "quota", "POST", "/api/challenges", challengeReq("grace2"))
}

// TestChallengeExpiry: a challenge accepted after it expired is refused
// (409) even before its owner's timer fires, and no longer listed.
func TestChallengeExpiry(t *testing.T) {
	var skew atomic.Int64
	e := newEnv(t, func(c *server.Config) {
		c.Now = func() time.Time { return time.Now().Add(time.Duration(skew.Load())) }
	})
	alice, bob := e.register("alice"), e.register("bob")
	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("bob"), &c)
	skew.Store(int64(11 * time.Minute))
	bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/challenges/"+c.ID+"/accept", nil)
	var list struct{ Incoming []challengeJSON }
	bob.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Incoming) != 0 {
		t.Fatalf("an expired challenge is listed: %+v", list)
	}
}

// TestChallengeBotsAndSkyjo: challenging a server bot starts the game at
// once; a Skyjo challenge to three players starts once all three accept,
// and each hears of it.
func TestChallengeBotsAndSkyjo(t *testing.T) {
	e := newEnv(t)
	alice, bob, carol, dave := e.register("alice"), e.register("bob"), e.register("carol"), e.register("dave")
	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", map[string]any{"game": "tnim", "bot": "random"}, &c)
	if c.Game.Status != "live" {
		t.Fatalf("a challenge of a bot is %s", c.Game.Status)
	}
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/challenges", map[string]any{"game": "tnim", "bot": "random", "rated": true})

	dws := dave.dial("/api/ws")
	alice.must(http.StatusCreated, "POST", "/api/challenges", map[string]any{"game": "skyjo", "players": []string{"bob", "carol", "dave"}, "seat": 0}, &c)
	if len(c.Game.Seats) != 4 || c.Game.Options["players"] != "4" || len(c.To) != 3 {
		t.Fatalf("skyjo challenge %+v", c)
	}
	if n := dws.nextNews(); n.News != "received" {
		t.Fatalf("dave heard %+v", n)
	}
	bob.must(http.StatusOK, "POST", "/api/challenges/"+c.ID+"/accept", nil, nil)
	carol.must(http.StatusOK, "POST", "/api/challenges/"+c.ID+"/accept", nil, nil)
	var res struct{ Game summary }
	dave.must(http.StatusOK, "POST", "/api/challenges/"+c.ID+"/accept", nil, &res)
	if res.Game.Status != "live" {
		t.Fatalf("after three accepts: %s", res.Game.Status)
	}
	// (A channel that connects as the challenge is made may hear
	// "received" twice: from the event and from the replay on connecting.)
	if n := dws.nextNews("accepted", "declined", "cancelled", "expired"); n.News != "accepted" {
		t.Fatalf("dave heard %+v", n)
	}
	_ = match.Open
}

// TestChallengeBotAccount: a bot account, connected by an API token (as
// `tabula bot` is), hears a challenge on its user channel at once; its
// decline reaches the challenger with the reason, its accept starts the
// game; and a bot account may challenge a person itself (docs/api.md:
// "a bot can challenge and be challenged").
func TestChallengeBotAccount(t *testing.T) {
	e := newEnv(t)
	alice, robo := e.register("alice"), e.register("robo")
	robo.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	bot := robo.newToken("connector", "bot:play")
	aws, rws := alice.dial("/api/ws"), bot.dial("/api/ws")

	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("robo"), &c)
	if n := rws.nextNews(); n.News != "received" || n.Challenge.ID != c.ID || n.Challenge.From != "alice" {
		t.Fatalf("the bot heard %+v", n)
	}
	var list struct{ Incoming []challengeJSON }
	bot.must(http.StatusOK, "GET", "/api/challenges", nil, &list)
	if len(list.Incoming) != 1 || list.Incoming[0].ID != c.ID {
		t.Fatalf("the bot's list %+v", list)
	}
	bot.must(http.StatusNoContent, "POST", "/api/challenges/"+c.ID+"/decline", map[string]string{"reason": "options"}, nil)
	if n := aws.nextNews(); n.News != "declined" || n.By != "robo" || n.Reason != "options" || n.Challenge.ID != c.ID {
		t.Fatalf("alice heard %+v", n)
	}

	alice.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("robo"), &c)
	for n := rws.nextNews("received"); n.Challenge.ID != c.ID; n = rws.nextNews("received") {
		// the first challenge's "received" again (the replay on connecting)
	}
	var res struct{ Game summary }
	bot.must(http.StatusOK, "POST", "/api/challenges/"+c.ID+"/accept", nil, &res)
	if res.Game.Status != "live" || res.Game.Seats[1].User != "robo" {
		t.Fatalf("accepted by the bot: %+v", res.Game)
	}
	if n := aws.nextNews(); n.News != "accepted" || n.Challenge.ID != c.ID {
		t.Fatalf("alice heard %+v", n)
	}

	// The bot challenges Alice; she hears it, as from anyone.
	bot.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), &c)
	if n := aws.nextNews("received"); n.Challenge.ID != c.ID || n.Challenge.From != "robo" {
		t.Fatalf("alice heard %+v", n)
	}
}

// TestChallengeClosedAccount: a closed account cannot be challenged (it
// could never answer, and the challenge would hold a place in the
// challenger's quota until it expired); nothing is stored.
func TestChallengeClosedAccount(t *testing.T) {
	e := newEnv(t)
	alice, mona := e.register("alice"), e.register("mona")
	e.register("mallory")
	grantModerator(t, e.db, mona)
	mona.must(http.StatusNoContent, "POST", "/api/moderation/close", map[string]any{"user": "mallory", "reason": "abuse"}, nil)
	alice.apiErr(http.StatusForbidden, "closed", "POST", "/api/challenges", challengeReq("mallory"))
	alice.apiErr(http.StatusForbidden, "closed", "POST", "/api/challenges", map[string]any{"game": "skyjo", "players": []string{"mona", "mallory"}})
	if n := storedGames(t, e, "alice"); n != 0 {
		t.Fatalf("%d games stored after challenging a closed account", n)
	}
}

// TestChallengeBadInput: a bad option, an unknown option, a bad clock and
// a bad seat are each a clear 4xx, and nothing is stored.
func TestChallengeBadInput(t *testing.T) {
	e := newEnv(t)
	alice := e.register("alice")
	e.register("bob")
	bad := []map[string]any{
		{"game": "tnim", "players": []string{"bob"}, "options": map[string]string{"stones": "99999"}},
		{"game": "tnim", "players": []string{"bob"}, "options": map[string]string{"stones": "many"}},
		{"game": "tnim", "players": []string{"bob"}, "options": map[string]string{"colour": "blue"}},
		{"game": "tnim", "players": []string{"bob"}, "clock": map[string]any{"kind": "sundial"}},
		{"game": "tnim", "players": []string{"bob"}, "clock": map[string]any{"kind": "realtime", "initialMs": -5}},
		{"game": "tnim", "players": []string{"bob"}, "clock": map[string]any{"kind": "correspondence", "days": 400}},
		{"game": "sploof", "players": []string{"bob"}, "seat": 2},
		{"game": "sploof", "players": []string{"bob"}, "bot": "nosuchlevel"},
	}
	for _, req := range bad {
		st, body := alice.do("POST", "/api/challenges", req)
		if st < 400 || st >= 500 {
			t.Errorf("%v: %d %s", req, st, body)
		}
	}
	if n := storedGames(t, e, "alice"); n != 0 {
		t.Fatalf("%d games stored after bad requests", n)
	}
}

// TestChallengeWithBots: a Skyjo challenge to a friend with the seats left
// to a server bot (options players=4): the bots sit at once, the friend is
// invited and hears it, the game starts when the friend accepts; a count
// leaving no seat for the bot, or a bot level nobody has, is refused with
// nothing stored.
func TestChallengeWithBots(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	bws := bob.dial("/api/ws")
	for _, req := range []map[string]any{
		{"game": "skyjo", "players": []string{"bob"}, "bot": "easy", "options": map[string]string{"players": "2"}},
		{"game": "skyjo", "players": []string{"bob"}, "bot": "easy"}, // two seats by default: none for the bot
		{"game": "skyjo", "players": []string{"bob"}, "bot": "nosuchlevel", "options": map[string]string{"players": "3"}},
		{"game": "skyjo", "players": []string{"bob"}, "bot": "easy", "options": map[string]string{"players": "3"}, "rated": true}, // never rated with bots
		{"game": "skyjo", "players": []string{"bob", "bob"}, "bot": "easy", "options": map[string]string{"players": "4"}},
		{"game": "skyjo", "players": []string{"alice"}, "bot": "easy", "options": map[string]string{"players": "3"}},
	} {
		if st, body := alice.do("POST", "/api/challenges", req); st < 400 || st >= 500 {
			t.Errorf("%v: %d %s", req, st, body)
		}
	}
	if n := storedGames(t, e, "alice"); n != 0 {
		t.Fatalf("%d games stored after refusals", n)
	}

	var c challengeJSON
	alice.must(http.StatusCreated, "POST", "/api/challenges", map[string]any{"game": "skyjo", "players": []string{"bob"}, "bot": "easy",
		"options": map[string]string{"players": "4"}, "seat": 0}, &c)
	if c.Game.Status != "open" || len(c.Game.Seats) != 4 || len(c.To) != 1 || c.To[0] != "bob" || c.Expires.IsZero() ||
		c.Game.Seats[1].User != "bob" || c.Game.Seats[2].Kind != "bot" || c.Game.Seats[3].Kind != "bot" {
		t.Fatalf("challenge with bots %+v", c)
	}
	if n := bws.nextNews(); n.News != "received" || n.Challenge.ID != c.ID {
		t.Fatalf("bob heard %+v", n)
	}
	var res struct{ Game summary }
	bob.must(http.StatusOK, "POST", "/api/challenges/"+c.ID+"/accept", nil, &res)
	if res.Game.Status != "live" {
		t.Fatalf("after bob's accept: %s", res.Game.Status)
	}
}
