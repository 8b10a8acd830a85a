package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
)

type inboxJSON struct {
	Items []struct {
		ID      string     `json:"id"`
		Kind    string     `json:"kind"`
		Game    string     `json:"game"`
		GameID  string     `json:"gameId"`
		From    string     `json:"from"`
		Offer   string     `json:"offer"`
		Link    string     `json:"link"`
		Read    bool       `json:"read"`
		Expires *time.Time `json:"expires"`
	} `json:"items"`
	Unread int  `json:"unread"`
	Total  int  `json:"total"`
	Next   *int `json:"next"`
}

type noticeJSON struct {
	Type   string `json:"type"`
	Kind   string `json:"kind"`
	Unread *int   `json:"unread"`
	User   string `json:"user"`
	GameID string `json:"gameId"`
}

// nextNotice waits for the next notice of kind on a user channel.
func nextNotice(w *wsClient, kind string) noticeJSON {
	w.t.Helper()
	for {
		m := w.next("notice")
		var n noticeJSON
		if err := json.Unmarshal(m.raw, &n); err != nil {
			w.t.Fatalf("notice %s: %v", m.raw, err)
		}
		if n.Kind == kind {
			return n
		}
	}
}

func (c *client) inbox(query string) inboxJSON {
	c.e.t.Helper()
	var in inboxJSON
	c.must(http.StatusOK, "GET", "/api/inbox"+query, nil, &in)
	if in.Items == nil {
		c.e.t.Fatal("inbox items: null, want a list")
	}
	return in
}

// TestInbox: an invitation, a correspondence turn and a draw offer are in
// the inbox of the player they wait for, and only theirs; marking read
// holds across requests and tells the user's every channel the new count;
// marking another user's item ids marks nothing; bad input is a clear 400
// and marks nothing.
func TestInbox(t *testing.T) {
	t.Run("sqlite", func(t *testing.T) { testInbox(t, newEnv(t)) })
	t.Run("postgres", func(t *testing.T) { testInbox(t, newEnvWith(t, postgresStore(t))) })
}

func testInbox(t *testing.T, e *env) {
	alice, bob := e.register("alice"), e.register("bob")
	for _, p := range []string{"/api/inbox", "/api/inbox/unread"} {
		e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "GET", p, nil)
	}
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/inbox/read", map[string]any{"all": true})
	if in := alice.inbox(""); len(in.Items) != 0 || in.Unread != 0 {
		t.Fatalf("a new user's inbox: %+v", in)
	}
	tab1, tab2 := alice.dial("/api/ws"), alice.dial("/api/ws")

	g := bob.create(map[string]any{"game": "tnim", "options": map[string]string{"stones": "5"},
		"clock": map[string]any{"kind": "correspondence", "days": 1},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "alice"}}})
	for _, w := range []*wsClient{tab1, tab2} {
		nextNotice(w, "inbox")
	}
	in := alice.inbox("")
	if len(in.Items) != 1 || in.Unread != 1 || in.Items[0].Kind != "invitation" || in.Items[0].From != "bob" ||
		in.Items[0].GameID != g.ID || in.Items[0].Link != "#/game/"+g.ID || in.Items[0].Read {
		t.Fatalf("alice's inbox after bob's invitation: %+v", in)
	}
	if in := bob.inbox(""); len(in.Items) != 0 {
		t.Fatalf("bob's inbox holds his own invitation of alice: %+v", in)
	}
	var u struct {
		Unread int  `json:"unread"`
		Marked *int `json:"marked"`
	}
	alice.must(http.StatusOK, "GET", "/api/inbox/unread", nil, &u)
	if u.Unread != 1 {
		t.Fatalf("unread = %d, want 1", u.Unread)
	}

	// Bob marks alice's item: it is not his, nothing is marked.
	bob.must(http.StatusOK, "POST", "/api/inbox/read", map[string]any{"ids": []string{in.Items[0].ID}}, &u)
	if *u.Marked != 0 {
		t.Fatalf("bob marked %d of alice's items", *u.Marked)
	}
	if in := alice.inbox(""); in.Unread != 1 {
		t.Fatalf("after bob marked alice's item, alice has %d unread", in.Unread)
	}
	// Bad input: refused, nothing marked.
	for _, body := range []any{
		map[string]any{}, map[string]any{"all": true, "ids": []string{"x"}}, map[string]any{"ids": []string{""}},
		map[string]any{"ids": make([]string, 201)}, map[string]any{"ids": []string{strings.Repeat("x", 201)}}, map[string]any{"all": false},
	} {
		alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/inbox/read", body)
	}
	alice.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/inbox/read", "{")
	alice.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/inbox/read", `{"all":true,"who":"bob"}`)
	for _, q := range []string{"?limit=0", "?limit=101", "?offset=-1", "?offset=x"} {
		alice.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/inbox"+q, nil)
	}
	if in := alice.inbox(""); in.Unread != 1 {
		t.Fatalf("after refused requests alice has %d unread", in.Unread)
	}

	// Read in one tab: both tabs hear the count drop.
	alice.must(http.StatusOK, "POST", "/api/inbox/read", map[string]any{"ids": []string{in.Items[0].ID, "invite:nothing"}}, &u)
	if *u.Marked != 1 || u.Unread != 0 {
		t.Fatalf("marking alice's invitation: %+v", u)
	}
	for _, w := range []*wsClient{tab1, tab2} {
		if n := nextNotice(w, "inbox"); n.Unread == nil || *n.Unread != 0 {
			t.Fatalf("the tab heard %+v, want unread 0", n)
		}
	}
	if in := alice.inbox(""); in.Unread != 0 || !in.Items[0].Read {
		t.Fatalf("after reading: %+v", in)
	}

	// The game starts: the invitation is gone; the player to move has a turn.
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	nextNotice(tab1, "inbox")
	_, _, _ = bob.game(g.ID)
	live, _, _ := alice.game(g.ID)
	mover, other := bob, alice
	if live.ToMove == 1 {
		mover, other = alice, bob
	}
	in = mover.inbox("")
	if len(in.Items) != 1 || in.Items[0].Kind != "turn" || in.Items[0].From != other.name || in.Unread != 1 {
		t.Fatalf("%s's inbox when to move: %+v", mover.name, in)
	}
	if in := other.inbox(""); len(in.Items) != 0 {
		t.Fatalf("%s's inbox when not to move: %+v", other.name, in)
	}
	// A draw offer is in the other player's inbox (and the turn stays).
	ws := other.dial("/api/games/" + g.ID + "/ws")
	ws.next("snapshot")
	wantAsk(t, ws, map[string]any{"type": "offer", "offer": "draw"}, "")
	in = mover.inbox("")
	if len(in.Items) != 2 || in.Items[0].Kind != "offer" || in.Items[0].Offer != "draw" || in.Items[0].From != other.name {
		t.Fatalf("%s's inbox after a draw offer: %+v", mover.name, in)
	}
	// Pages.
	p1 := mover.inbox("?limit=1")
	if len(p1.Items) != 1 || p1.Next == nil || *p1.Next != 1 || p1.Total != 2 {
		t.Fatalf("first page of one: %+v", p1)
	}
	p2 := mover.inbox(fmt.Sprintf("?limit=1&offset=%d", *p1.Next))
	if len(p2.Items) != 1 || p2.Next != nil || p2.Items[0].ID == p1.Items[0].ID {
		t.Fatalf("second page: %+v", p2)
	}
	mover.must(http.StatusOK, "POST", "/api/inbox/read", map[string]any{"all": true}, &u)
	if *u.Marked != 2 || u.Unread != 0 {
		t.Fatalf("mark all: %+v", u)
	}

	// A challenge (an invitation that expires) is one, with its expiry.
	carol := e.register("carol")
	carol.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("alice"), nil)
	in = alice.inbox("")
	if len(in.Items) == 0 || in.Items[0].Kind != "challenge" || in.Items[0].From != "carol" || in.Items[0].Expires == nil || in.Unread != 1 {
		t.Fatalf("alice's inbox after carol's challenge: %+v", in)
	}
}
