package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"
)

// answersTo is every answer (ack or error) w received to its message id.
func answersTo(w *wsClient, id string) []wsMsg {
	var out []wsMsg
	for _, raw := range w.received() {
		var m wsMsg
		if json.Unmarshal(raw, &m) == nil && m.ID == id && (m.Type == "ack" || m.Type == "error") {
			m.raw = raw
			out = append(out, m)
		}
	}
	return out
}

// TestResentMessageAppliedOnce: a message a client sends again with the
// same id on the same connection is its command's copy (the id is the
// command's idempotency key there): a chat line is said once, a
// resignation answers as it did the first time; each copy is answered.
// The same id on another connection (a reload numbers its messages
// afresh) is a new command.
func TestResentMessageAppliedOnce(t *testing.T) {
	e := newEnv(t)
	id, alice, _, aws, bws, _ := liveTnim(t, e, "20")
	line := map[string]any{"type": "chat", "id": "c1", "text": "gl hf"}
	aws.send(line)
	aws.send(line)
	// Alice's connection after a reload, whose first message is c1 too.
	aws2 := alice.dial("/api/games/" + id + "/ws")
	aws2.next("snapshot")
	aws2.send(line)
	deadline := time.Now().Add(20 * time.Second)
	for len(answersTo(aws2, "c1")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no answer to c1 on the new connection")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if a := answersTo(aws2, "c1"); a[0].Type != "ack" {
		t.Fatalf("c1 on the new connection: %s", a[0].raw)
	}
	resign := map[string]any{"type": "resign", "id": "c2"}
	aws.send(resign)
	aws.send(resign)
	for len(answersTo(aws, "c1")) < 2 || len(answersTo(aws, "c2")) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("answers: %d to c1, %d to c2", len(answersTo(aws, "c1")), len(answersTo(aws, "c2")))
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, c := range []string{"c1", "c2"} {
		as := answersTo(aws, c)
		if as[0].Type != "ack" || string(as[0].raw) != string(as[1].raw) {
			t.Fatalf("%s and its copy answered %s and %s", c, as[0].raw, as[1].raw)
		}
	}
	bws.next("end")
	said := 0
	for _, raw := range bws.received() {
		if strings.Contains(string(raw), `"type":"chat"`) && strings.Contains(string(raw), "gl hf") {
			said++
		}
	}
	if said != 2 {
		t.Fatalf("bob heard the line %d times: once for the message and its copy, once for the new connection's", said)
	}
}

// TestResentRematchAnsweredOnce: a rematch request sent again with the
// same message id (a client that lost the answer) gets the first answer —
// not "you have offered a rematch already" — and asks for one rematch.
func TestResentRematchAnsweredOnce(t *testing.T) {
	e := newEnv(t)
	_, _, _, aws, bws, _ := liveTnim(t, e, "20")
	aws.send(map[string]any{"type": "resign", "id": "r0"})
	bws.next("end")
	ask := map[string]any{"type": "rematch", "id": "r1"}
	aws.send(ask)
	aws.send(ask)
	deadline := time.Now().Add(20 * time.Second)
	for len(answersTo(aws, "r1")) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("answers to r1: %d", len(answersTo(aws, "r1")))
		}
		time.Sleep(5 * time.Millisecond)
	}
	as := answersTo(aws, "r1")
	if as[0].Type != "ack" || string(as[0].raw) != string(as[1].raw) {
		t.Fatalf("the rematch and its copy answered %s and %s", as[0].raw, as[1].raw)
	}
}

// TestResentHTTPCommandWithItsKey: an HTTP command sent again with its
// Idempotency-Key — what a client does by itself when a proxy says the
// node it went to died before answering (cluster/e2e
// TestProxyResendsARequestItsNodeDropped), though that node may have run it —
// gets the first answer, not "you already hold a seat", "stale ply", "the
// game is over", "you have offered a rematch already" or "the game was
// aborted"; without a key the copy is refused as before. A key marks the command as a possible
// copy, so a new key on a command whose effect is there already (the
// owner that kept the first answer died) is answered as done too.
func TestResentHTTPCommandWithItsKey(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.guest(), e.guest()
	g := alice.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "20"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": bob.name}}})
	base := "/api/games/" + g.ID
	keyed := func(c *client, path, body, key string) (int, string) {
		t.Helper()
		return c.send("POST", base+path, body, false, map[string]string{"Idempotency-Key": key})
	}
	same := func(what string, c *client, path, body, key string) {
		t.Helper()
		s1, b1 := keyed(c, path, body, key)
		s2, b2 := keyed(c, path, body, key)
		if s1 != http.StatusOK || s2 != http.StatusOK || b1 != b2 {
			t.Fatalf("%s and its copy: %d %s and %d %s", what, s1, b1, s2, b2)
		}
	}
	same("a join", bob, "/join", "{}", "j-1")
	bob.apiErr(http.StatusConflict, "conflict", "POST", base+"/join", map[string]any{})
	if s, b := keyed(bob, "/join", "{}", "j-2"); s != http.StatusOK {
		t.Fatalf("a join with a new key, the seat held: %d %s", s, b)
	}

	same("a move", alice, "/moves", `{"ply":0,"move":"1"}`, "m-1")
	alice.apiErr(http.StatusConflict, "not_your_turn", "POST", base+"/moves", map[string]any{"ply": 0, "move": "1"})

	same("a resignation", bob, "/resign", "{}", "r-1")
	bob.apiErr(http.StatusConflict, "game_over", "POST", base+"/resign", map[string]any{})
	if sum, _, _ := alice.game(g.ID); sum.Result == nil || sum.Result.Reason != "resign" || len(sum.Result.Winners) != 1 || sum.Result.Winners[0] != 0 {
		t.Fatalf("after bob's resignation and its copy: %+v", sum.Result)
	}

	same("a rematch", alice, "/rematch", "{}", "q-1")
	alice.apiErr(http.StatusConflict, "conflict", "POST", base+"/rematch", map[string]any{})

	// A challenge declined, another cancelled: each copy is answered as
	// the first; without a key, "the game was aborted".
	carol, dave := e.register("carol"), e.register("dave")
	for _, tc := range []struct {
		by   *client
		path string
	}{{dave, "decline"}, {carol, "cancel"}} {
		var ch struct{ ID string }
		carol.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("dave"), &ch)
		path := "/api/challenges/" + ch.ID + "/" + tc.path
		for i := range 2 {
			if s, b := tc.by.send("POST", path, "{}", false, map[string]string{"Idempotency-Key": tc.path}); s != http.StatusNoContent {
				t.Fatalf("%s, copy %d: %d %s", tc.path, i, s, b)
			}
		}
		tc.by.apiErr(http.StatusConflict, "conflict", "POST", path, map[string]any{})
	}

	// A game created, and its copy: one game. Another user's same key is
	// another game.
	erin, fay := e.register("erin"), e.register("fay")
	req := `{"game":"tnim","options":{"stones":"9"},"seats":[{"kind":"me"},{"kind":"open"}]}`
	var ids []string
	for _, u := range []*client{erin, erin, fay} {
		s, b := u.send("POST", "/api/games", req, false, map[string]string{"Idempotency-Key": "g-1"})
		var res struct{ Game struct{ ID string } }
		if json.Unmarshal([]byte(b), &res); s != http.StatusCreated || res.Game.ID == "" {
			t.Fatalf("a game created with a key: %d %s", s, b)
		}
		ids = append(ids, res.Game.ID)
	}
	if ids[0] != ids[1] || ids[2] == ids[0] || len(ids[0]) != 12 || storedGames(t, e, "erin") != 1 || storedGames(t, e, "fay") != 1 {
		t.Fatalf("games %v; erin created %d, fay %d: want erin's copy to name her first game, fay's another", ids, storedGames(t, e, "erin"), storedGames(t, e, "fay"))
	}

	if s, b := erin.send("POST", "/api/games", strings.Replace(req, "tnim", "sgolte", 1), false, map[string]string{"Idempotency-Key": "g-1"}); s != http.StatusBadRequest || !strings.Contains(b, "new key") {
		t.Fatalf("the key of a tnim game on an sgolte game: %d %s", s, b)
	}

	// A challenge likewise.
	before := storedGames(t, e, "carol")
	var chIDs []string
	for range 2 {
		s, b := carol.send("POST", "/api/challenges", `{"game":"tnim","options":{"stones":"5"},"players":["dave"],"seat":0}`, false, map[string]string{"Idempotency-Key": "ch-1"})
		var res struct{ ID string }
		if json.Unmarshal([]byte(b), &res); s != http.StatusCreated || res.ID == "" {
			t.Fatalf("a challenge with a key: %d %s", s, b)
		}
		chIDs = append(chIDs, res.ID)
	}
	if chIDs[0] != chIDs[1] || storedGames(t, e, "carol") != before+1 {
		t.Fatalf("a challenge and its copy: %v, %d games more", chIDs, storedGames(t, e, "carol")-before)
	}
	if s, b := carol.send("POST", "/api/games", req, false, map[string]string{"Idempotency-Key": "ch-1"}); s != http.StatusBadRequest {
		t.Fatalf("the key of a challenge on a game: %d %s", s, b)
	}

	for _, key := range []string{strings.Repeat("k", 65), "two words", "caf\u00e9"} {
		if s, b := keyed(alice, "/rematch", "{}", key); s != http.StatusBadRequest || !strings.Contains(b, "Idempotency-Key") {
			t.Fatalf("key %q: %d %s", key, s, b)
		}
	}
}
