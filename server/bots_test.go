package server_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/store"
)

type meResp struct {
	User struct {
		Name  string `json:"name"`
		Guest bool   `json:"guest"`
		Bot   bool   `json:"bot"`
	} `json:"user"`
}

// TestMakeBot: a registered user with no games becomes a bot account, for
// good, and shows as one; guests, users with games and bots are refused.
func TestMakeBot(t *testing.T) {
	e := newEnv(t)
	robo, alice := e.register("robo"), e.register("alice")
	e.guest().apiErr(http.StatusForbidden, "forbidden", "POST", "/api/me/bot", nil)
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/me/bot", nil)

	var me meResp
	robo.must(http.StatusOK, "POST", "/api/me/bot", nil, &me.User)
	if !me.User.Bot || me.User.Name != "robo" {
		t.Fatalf("after POST /api/me/bot: %+v", me)
	}
	robo.apiErr(http.StatusConflict, "conflict", "POST", "/api/me/bot", nil) // twice
	for _, path := range []string{"/api/me", "/api/users/robo", "/api/session"} {
		me = meResp{}
		robo.must(http.StatusOK, "GET", path, nil, &me)
		if !me.User.Bot {
			t.Errorf("GET %s: not marked a bot: %+v", path, me)
		}
	}
	me = meResp{}
	e.anon().must(http.StatusOK, "GET", "/api/users/alice", nil, &me)
	if me.User.Bot {
		t.Errorf("a person marked a bot: %+v", me)
	}

	// A user with a game cannot become a bot, creator or seated.
	g := alice.create(map[string]any{"game": "tnim"})
	alice.apiErr(http.StatusConflict, "conflict", "POST", "/api/me/bot", nil)
	bob := e.register("bob")
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	bob.apiErr(http.StatusConflict, "conflict", "POST", "/api/me/bot", nil)
	me = meResp{}
	bob.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.User.Bot {
		t.Fatal("a refused conversion made a bot")
	}
	// A body that is not JSON is refused before anything happens.
	carol := e.register("carol")
	carol.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/me/bot", "{")
	me = meResp{}
	carol.must(http.StatusOK, "GET", "/api/me", nil, &me)
	if me.User.Bot {
		t.Fatal("a bad request made a bot")
	}
}

// TestMakeBotRace: of many conversions at once, one answers 200 and the
// rest 409.
func TestMakeBotRace(t *testing.T) {
	e := newEnv(t)
	robo := e.register("robo")
	var wg sync.WaitGroup
	var mu sync.Mutex
	codes := map[int]int{}
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			st, _ := robo.do("POST", "/api/me/bot", nil)
			mu.Lock()
			codes[st]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	if codes[http.StatusOK] != 1 || codes[http.StatusConflict] != 7 {
		t.Fatalf("statuses %v; want one 200 and seven 409", codes)
	}
}

// TestBotPlaysByInvitation: a bot account never uses quick pairing, never
// takes an open seat in a person's game, but takes a seat it is invited
// to (marked BOT there) and any seat of another bot's game.
func TestBotPlaysByInvitation(t *testing.T) {
	e := newEnv(t)
	robo, robo2, alice := e.register("robo"), e.register("robo2"), e.register("alice")
	robo.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	robo2.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)

	robo.apiErr(http.StatusForbidden, "bot_account", "POST", "/api/pairing", map[string]string{"game": "sploof", "clock": "blitz"})
	open := alice.create(map[string]any{"game": "tnim"})
	robo.apiErr(http.StatusForbidden, "bot_account", "POST", "/api/games/"+open.ID+"/join", nil)
	robo.apiErr(http.StatusForbidden, "bot_account", "POST", "/api/games/"+open.ID+"/join", map[string]int{"seat": 1})
	if g, _, _ := alice.game(open.ID); g.Status != "open" {
		t.Fatalf("the refused join changed the game: %+v", g)
	}

	inv := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "robo"}}})
	robo.must(http.StatusOK, "POST", "/api/games/"+inv.ID+"/join", nil, nil)
	var got struct {
		Game struct {
			Status string `json:"status"`
			Seats  []struct {
				User string `json:"user"`
				Bot  bool   `json:"bot"`
			} `json:"seats"`
		} `json:"game"`
	}
	e.anon().must(http.StatusOK, "GET", "/api/games/"+inv.ID, nil, &got)
	if got.Game.Status != "live" || got.Game.Seats[1].User != "robo" || !got.Game.Seats[1].Bot || got.Game.Seats[0].Bot {
		t.Fatalf("an invited bot's game: %+v", got.Game)
	}
	// A bot's open game: another bot and a person may take the seat.
	bg := robo2.create(map[string]any{"game": "tnim"})
	robo.must(http.StatusOK, "POST", "/api/games/"+bg.ID+"/join", nil, nil)
	bg2 := robo2.create(map[string]any{"game": "tnim"})
	alice.must(http.StatusOK, "POST", "/api/games/"+bg2.ID+"/join", nil, nil)
	// People still pair with people.
	alice.must(http.StatusOK, "POST", "/api/pairing", map[string]string{"game": "sploof", "clock": "blitz"}, nil)
}

type tokenResp struct {
	ID       int64      `json:"id"`
	Name     string     `json:"name"`
	Token    string     `json:"token"`
	Scopes   []string   `json:"scopes"`
	LastUsed *time.Time `json:"lastUsed"`
}

func (c *client) newToken(name string, scopes ...string) *client {
	c.e.t.Helper()
	body := map[string]any{"name": name}
	if scopes != nil {
		body["scopes"] = scopes
	}
	var tok tokenResp
	c.must(http.StatusCreated, "POST", "/api/tokens", body, &tok)
	if !strings.HasPrefix(tok.Token, "tbl_") {
		c.e.t.Fatalf("token %+v", tok)
	}
	return &client{e: c.e, name: c.name, id: c.id, token: tok.Token}
}

// dialStatus tries a WebSocket and answers the HTTP status of a refusal
// (0: it opened).
func (c *client) dialStatus(path string) int {
	h := http.Header{"Authorization": {"Bearer " + c.token}}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	conn, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.e.hs.URL, "http")+path, &websocket.DialOptions{HTTPHeader: h})
	if err == nil {
		conn.CloseNow()
		return 0
	}
	if resp == nil {
		c.e.t.Fatalf("dial %s: %v", path, err)
	}
	return resp.StatusCode
}

// TestTokenScopes: a read token only reads (no socket, no write); a
// bot:play token plays but does not manage the account; a token made
// without scopes is full, as before scopes.
func TestTokenScopes(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	g := bob.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "alice"}}})
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": "1"}, nil)

	read := alice.newToken("reader", "read")
	var me meResp
	read.must(http.StatusOK, "GET", "/api/me", nil, &me)
	read.must(http.StatusOK, "GET", "/api/games/"+g.ID, nil, nil)
	read.must(http.StatusOK, "GET", "/api/tokens", nil, nil)
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"POST", "/api/games", map[string]any{"game": "tnim"}},
		{"POST", "/api/games/" + g.ID + "/moves", map[string]any{"ply": 1, "move": "1"}},
		{"POST", "/api/games/" + g.ID + "/resign", nil},
		{"POST", "/api/tokens", map[string]any{"name": "more"}},
		{"DELETE", "/api/tokens/1", nil},
		{"POST", "/api/me/bot", nil},
		{"POST", "/api/pairing", map[string]string{"game": "sploof", "clock": "blitz"}},
	} {
		read.apiErr(http.StatusForbidden, "scope", c.method, c.path, c.body)
	}
	if st := read.dialStatus("/api/games/" + g.ID + "/ws"); st != http.StatusForbidden {
		t.Errorf("a read token opened the game socket: %d", st)
	}
	if st := read.dialStatus("/api/ws"); st != http.StatusForbidden {
		t.Errorf("a read token opened the user channel: %d", st)
	}
	if s, _, _ := alice.game(g.ID); s.Ply != 1 || s.Status != "live" {
		t.Fatalf("the read token changed the game: %+v", s)
	}

	play := alice.newToken("player", "bot:play")
	play.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 1, "move": "1"}, nil)
	if st := play.dialStatus("/api/ws"); st != 0 {
		t.Errorf("a bot:play token could not open the user channel: %d", st)
	}
	play.create(map[string]any{"game": "tnim"})
	play.apiErr(http.StatusForbidden, "scope", "POST", "/api/tokens", map[string]any{"name": "more"})
	play.apiErr(http.StatusForbidden, "scope", "GET", "/api/tokens", nil)
	play.apiErr(http.StatusForbidden, "scope", "DELETE", "/api/tokens/1", nil)
	play.apiErr(http.StatusForbidden, "scope", "POST", "/api/me/bot", nil)

	full := alice.newToken("old style") // no scopes: full
	full.newToken("made by a token", "read")
	var list struct{ Tokens []tokenResp }
	full.must(http.StatusOK, "GET", "/api/tokens", nil, &list)
	want := map[string]string{"reader": "read", "player": "bot:play", "old style": "full", "made by a token": "read"}
	if len(list.Tokens) != 4 {
		t.Fatalf("tokens %+v", list)
	}
	for _, tk := range list.Tokens {
		if len(tk.Scopes) != 1 || tk.Scopes[0] != want[tk.Name] || tk.Token != "" {
			t.Errorf("token %+v; want scope %s and no secret", tk, want[tk.Name])
		}
	}
	// Sessions (the site) are not tokens: they may do everything.
	alice.must(http.StatusOK, "GET", "/api/tokens", nil, nil)
}

// TestTokenRequests: names and scopes are checked, guests get none, the
// cap holds, and another user's token cannot be revoked (404, it stays).
func TestTokenRequests(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	e.guest().apiErr(http.StatusForbidden, "forbidden", "POST", "/api/tokens", map[string]any{"name": "x"})
	for _, body := range []any{
		map[string]any{"name": ""},
		map[string]any{"name": " padded"},
		map[string]any{"name": strings.Repeat("n", 65)},
		map[string]any{"name": "tab\there"},
		map[string]any{"name": "ok", "scopes": []string{"admin"}},
		map[string]any{"name": "ok", "scopes": []string{}},
		map[string]any{"name": "ok", "scopes": []string{"READ"}},
	} {
		alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/tokens", body)
	}
	alice.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/tokens", map[string]any{"name": "ok", "scopes": "read"})
	var tok tokenResp
	alice.must(http.StatusCreated, "POST", "/api/tokens", map[string]any{"name": strings.Repeat("봇", 64), "scopes": []string{"read", "read", "bot:play"}}, &tok)
	if len(tok.Scopes) != 2 {
		t.Fatalf("scopes deduplicated: %+v", tok)
	}
	// Bob cannot revoke (or see) alice's token.
	bob.apiErr(http.StatusNotFound, "not_found", "DELETE", "/api/tokens/"+jsonStr(tok.ID), nil)
	var list struct{ Tokens []tokenResp }
	bob.must(http.StatusOK, "GET", "/api/tokens", nil, &list)
	if len(list.Tokens) != 0 {
		t.Fatalf("bob sees %+v", list)
	}
	(&client{e: e, token: tok.Token}).must(http.StatusOK, "GET", "/api/me", nil, nil)
	alice.must(http.StatusNoContent, "DELETE", "/api/tokens/"+jsonStr(tok.ID), nil, nil)
	(&client{e: e, token: tok.Token}).apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/me", nil)

	// A flood: twenty tokens, then 409 and nothing stored.
	for i := range 20 {
		alice.must(http.StatusCreated, "POST", "/api/tokens", map[string]any{"name": "t" + jsonStr(i)}, nil)
	}
	alice.apiErr(http.StatusConflict, "too_many_tokens", "POST", "/api/tokens", map[string]any{"name": "one more"})
	alice.must(http.StatusOK, "GET", "/api/tokens", nil, &list)
	if len(list.Tokens) != 20 {
		t.Fatalf("%d tokens after the flood; want 20", len(list.Tokens))
	}
	// The cap is per account.
	bob.must(http.StatusCreated, "POST", "/api/tokens", map[string]any{"name": "bob's"}, nil)
}

// TestTokenLastUse: a token's last use is shown, and written at most once
// a minute however often it is used.
func TestTokenLastUse(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	e := newEnv(t, func(c *serverConfig) { c.Now = clock })
	alice := e.register("alice")
	tc := alice.newToken("script", "read")
	lastUse := func() *time.Time {
		var list struct{ Tokens []tokenResp }
		alice.must(http.StatusOK, "GET", "/api/tokens", nil, &list)
		return list.Tokens[0].LastUsed
	}
	if lastUse() != nil {
		t.Fatal("a token never used has a last use")
	}
	start := clock()
	tc.must(http.StatusOK, "GET", "/api/me", nil, nil)
	if u := lastUse(); u == nil || !u.Equal(start) {
		t.Fatalf("last use %v; want %v", u, start)
	}
	advance(59 * time.Second)
	tc.must(http.StatusOK, "GET", "/api/me", nil, nil)
	if u := lastUse(); u == nil || !u.Equal(start) {
		t.Fatalf("a use within the minute was written: %v", u)
	}
	bs := e.db.(store.BotAccounts)
	advance(time.Second)
	tc.must(http.StatusOK, "GET", "/api/me", nil, nil)
	ts, err := bs.ScopedTokens(context.Background(), alice.id)
	if err != nil || len(ts) != 1 || !ts[0].LastUsed.Equal(start.Add(time.Minute)) {
		t.Fatalf("a use a minute later: %+v, %v", ts, err)
	}
}

// TestBotLeaderboardParam: ?bots=1 asks for the bots' board, and says so.
func TestBotLeaderboardParam(t *testing.T) {
	e := newEnv(t)
	var lb struct {
		Bots    bool  `json:"bots"`
		Players []any `json:"players"`
	}
	e.anon().must(http.StatusOK, "GET", "/api/leaderboard/tnim?bots=1", nil, &lb)
	if !lb.Bots || lb.Players == nil {
		t.Fatalf("bots' board %+v", lb)
	}
	e.anon().must(http.StatusOK, "GET", "/api/leaderboard/tnim", nil, &lb)
	if lb.Bots {
		t.Fatalf("people's board %+v", lb)
	}
	e.anon().apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/leaderboard/tnim?bots=yes", nil)
}

// TestBotTournament: a bot account joins only tournaments that admit bots
// (none can yet: "bots" must be false), a person the same tournament.
func TestBotTournament(t *testing.T) {
	e := newEnv(t)
	robo, ann := e.register("robo"), e.register("ann")
	robo.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	req := swissReq("People's cup", 3)
	req["start"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	var created tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &created)
	id := created.Tournament.ID
	robo.apiErr(http.StatusForbidden, "bot_account", "POST", "/api/tournaments/"+id+"/join", nil)
	ann.must(http.StatusOK, "POST", "/api/tournaments/"+id+"/join", nil, nil)
}
