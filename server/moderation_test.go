package server_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/moderation"
	"github.com/tabula-games/tabula/store"
)

// grantModerator gives c the moderator role as `tabula admin grant` does.
func grantModerator(t *testing.T, db store.Store, c *client) {
	t.Helper()
	if _, err := moderation.New(db.(moderation.Store), nil).Grant(context.Background(),
		moderation.Actor{Name: "command line (test)", CommandLine: true}, c.name, "test"); err != nil {
		t.Fatal(err)
	}
}

type reportsJSON struct {
	Reports []struct {
		ID       int64  `json:"id"`
		Reporter string `json:"reporter"`
		User     string `json:"user"`
		Game     string `json:"game"`
		Line     int64  `json:"line"`
		LineText string `json:"lineText"`
		Context  []struct {
			N    int64  `json:"n"`
			User string `json:"user"`
			Text string `json:"text"`
		} `json:"context"`
		Reason string `json:"reason"`
		Status string `json:"status"`
	} `json:"reports"`
}

// TestModerationEndpointsForModeratorsOnly: every moderator endpoint is 401
// without credentials and 403 for a signed-in player without the role —
// also for one whose role was revoked a moment ago — and nothing is
// changed or logged by a refused call.
func TestModerationEndpointsForModeratorsOnly(t *testing.T) {
	e := newEnv(t)
	mona, mallory, rita := e.register("mona"), e.register("mallory"), e.register("rita")
	calls := []struct{ method, path string }{
		{"GET", "/api/moderation/reports"}, {"GET", "/api/moderation/log"},
		{"POST", "/api/moderation/mute"}, {"POST", "/api/moderation/unmute"}, {"POST", "/api/moderation/close"},
		{"POST", "/api/moderation/reopen"}, {"POST", "/api/moderation/dismiss"}, {"POST", "/api/moderation/reopen-report"},
	}
	body := map[string]any{"user": "rita", "reason": "because", "report": 1}
	for _, c := range calls {
		e.anon().apiErr(http.StatusUnauthorized, "unauthorized", c.method, c.path, body)
		mallory.apiErr(http.StatusForbidden, "forbidden", c.method, c.path, body)
	}
	var role map[string]bool
	mallory.must(http.StatusOK, "GET", "/api/moderation/role", nil, &role)
	if role["moderator"] {
		t.Fatal("mallory is a moderator")
	}
	grantModerator(t, e.db, mona)
	mona.must(http.StatusOK, "GET", "/api/moderation/role", nil, &role)
	if !role["moderator"] {
		t.Fatal("mona is not a moderator")
	}
	mona.must(http.StatusNoContent, "POST", "/api/moderation/mute", map[string]any{"user": "rita", "reason": "spam", "minutes": 10}, nil)
	if _, err := moderation.New(e.db.(moderation.Store), nil).Revoke(context.Background(),
		moderation.Actor{Name: "command line (test)", CommandLine: true}, "mona", "stepped down"); err != nil {
		t.Fatal(err)
	}
	for _, c := range calls {
		mona.apiErr(http.StatusForbidden, "forbidden", c.method, c.path, body)
	}
	log, err := e.db.(store.Moderation).AuditLog(context.Background(), 0, 0)
	if err != nil || len(log) != 3 { // grant, mute, revoke
		t.Fatalf("log after refused calls: %+v, %v", log, err)
	}
	_ = rita
}

// TestReportChatLine: a player reports the other's chat line; the report
// keeps the line's text and the lines around it as they were; reporting
// oneself, a line that does not exist or is one's own, a game one does not
// play, a huge text and a flood are refused with clear 4xx and store
// nothing; a moderator sees the report, mutes the player from it (the
// report is then actioned), the muted player's chat is refused with a
// clear error, and the moderator's undo restores it. Everything is logged.
func TestReportChatLine(t *testing.T) {
	e := newEnv(t)
	id, alice, bob, aws, bws, sws := liveTnim(t, e, "20")
	mona := e.register("mona")
	grantModerator(t, e.db, mona)
	wantAsk(t, aws, map[string]any{"type": "chat", "text": "good luck"}, "")
	wantAsk(t, bws, map[string]any{"type": "chat", "text": "you <b>fool</b>"}, "")
	wantAsk(t, sws, map[string]any{"type": "chat", "text": "from the stands"}, "") // the spectators' chat: not in the players' context
	wantAsk(t, aws, map[string]any{"type": "chat", "text": "be nice"}, "")
	ms := e.db.(store.Moderation)
	count := func() int {
		t.Helper()
		l, err := ms.Reports(context.Background(), store.ReportFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return len(l)
	}
	rep := func(extra map[string]any) map[string]any {
		b := map[string]any{"user": bob.name, "game": id, "line": 2, "reason": "abuse", "text": "rude"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	// Bad reports: nothing stored.
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/reports", rep(nil))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(map[string]any{"user": alice.name, "line": 1}))
	alice.apiErr(http.StatusNotFound, "not_found", "POST", "/api/reports", rep(map[string]any{"line": 99}))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(map[string]any{"line": 1}))                          // her own line, not bob's
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", map[string]any{"game": id, "line": 3, "reason": "spam"}) // a spectator's line
	alice.apiErr(http.StatusNotFound, "not_found", "POST", "/api/reports", rep(map[string]any{"game": "nosuchgame"}))
	alice.apiErr(http.StatusNotFound, "not_found", "POST", "/api/reports", rep(map[string]any{"user": "nobody"}))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(map[string]any{"reason": "meh"}))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(map[string]any{"text": strings.Repeat("x", moderation.MaxReportText+1)}))
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(map[string]any{"text": "a\x1b[2Jb"}))
	alice.apiErr(http.StatusRequestEntityTooLarge, "too_large", "POST", "/api/reports", rep(map[string]any{"text": strings.Repeat("x", 100<<10)}))
	outsider := e.register("outsider")
	outsider.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(nil)) // not a player of the game
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", rep(map[string]any{"game": "", "line": 2}))
	if n := count(); n != 0 {
		t.Fatalf("%d reports stored by refused requests", n)
	}

	var made struct {
		ID       int64  `json:"id"`
		LineText string `json:"lineText"`
		Status   string `json:"status"`
	}
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", map[string]any{"reason": "abuse"})                        // whom?
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/reports", map[string]any{"game": id, "line": 1, "reason": "abuse"}) // her own line
	// The page reports a line by its game and number: who said it is the server's to say.
	alice.must(http.StatusCreated, "POST", "/api/reports", map[string]any{"game": id, "line": 2, "reason": "abuse", "text": "rude"}, &made)
	if made.LineText != "you <b>fool</b>" || made.Status != "open" {
		t.Fatalf("report: %+v", made)
	}
	// The reporter may not read reports; a moderator does, with context.
	alice.apiErr(http.StatusForbidden, "forbidden", "GET", "/api/moderation/reports", nil)
	var list reportsJSON
	mona.must(http.StatusOK, "GET", "/api/moderation/reports", nil, &list)
	if len(list.Reports) != 1 {
		t.Fatalf("reports: %+v", list)
	}
	r := list.Reports[0]
	if r.Reporter != alice.name || r.User != bob.name || r.Game != id || r.Line != 2 || r.LineText != "you <b>fool</b>" ||
		len(r.Context) != 3 || r.Context[0].Text != "good luck" || r.Context[0].User != alice.name || r.Context[2].Text != "be nice" {
		t.Fatalf("report as a moderator sees it: %+v", r)
	}
	mona.apiErr(http.StatusBadRequest, "bad_request", "GET", "/api/moderation/reports?status=weird", nil)

	// The moderator mutes bob from the report; his chat is refused.
	mona.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/moderation/mute", map[string]any{"user": bob.name, "minutes": 60})                // no reason
	mona.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/moderation/mute", map[string]any{"user": bob.name, "minutes": -1, "reason": "x"}) // bad duration
	mona.apiErr(http.StatusNotFound, "not_found", "POST", "/api/moderation/mute", map[string]any{"user": bob.name, "reason": "x", "report": 999})
	mona.apiErr(http.StatusNotFound, "not_found", "POST", "/api/moderation/frobnicate", map[string]any{"user": bob.name, "reason": "x"})
	mona.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/moderation/close", map[string]any{"user": "mona", "reason": "x"}) // herself
	mona.must(http.StatusNoContent, "POST", "/api/moderation/mute", map[string]any{"user": bob.name, "reason": "abuse in chat", "report": made.ID}, nil)
	m := ask(bws, map[string]any{"type": "chat", "text": "still here"})
	if m.Error == nil || m.Error.Code != "muted" || !strings.Contains(string(m.raw), "until they undo it") {
		t.Fatalf("a muted player's chat: %s", m.raw)
	}
	wantAsk(t, aws, map[string]any{"type": "chat", "text": "alice may talk"}, "")
	mona.must(http.StatusOK, "GET", "/api/moderation/reports", nil, &list)
	if len(list.Reports) != 0 {
		t.Fatalf("open reports after the mute: %+v", list)
	}
	mona.must(http.StatusOK, "GET", "/api/moderation/reports?status=actioned", nil, &list)
	if len(list.Reports) != 1 || list.Reports[0].Status != "actioned" {
		t.Fatalf("actioned reports: %+v", list)
	}
	// The undo restores his chat.
	mona.must(http.StatusNoContent, "POST", "/api/moderation/unmute", map[string]any{"user": bob.name, "reason": "appeal"}, nil)
	mona.apiErr(http.StatusConflict, "conflict", "POST", "/api/moderation/unmute", map[string]any{"user": bob.name, "reason": "appeal"})
	wantAsk(t, bws, map[string]any{"type": "chat", "text": "sorry"}, "")

	// Reopen and dismiss the report.
	var rj struct{ Status string }
	mona.must(http.StatusOK, "POST", "/api/moderation/reopen-report", map[string]any{"report": made.ID, "reason": "again"}, &rj)
	mona.must(http.StatusOK, "POST", "/api/moderation/dismiss", map[string]any{"report": made.ID, "reason": "settled"}, &rj)
	if rj.Status != "dismissed" {
		t.Fatalf("dismissed: %+v", rj)
	}
	mona.apiErr(http.StatusConflict, "conflict", "POST", "/api/moderation/dismiss", map[string]any{"report": made.ID, "reason": "settled"})

	var log struct {
		Log []struct {
			Actor, Action, Target, Reason string
			Report                        int64
		}
	}
	mona.must(http.StatusOK, "GET", "/api/moderation/log", nil, &log)
	want := []string{"dismiss", "reopen-report", "unmute", "actioned", "mute", "grant"}
	if len(log.Log) != len(want) {
		t.Fatalf("log: %+v", log.Log)
	}
	for i, w := range want {
		if log.Log[i].Action != w {
			t.Fatalf("log[%d] = %+v, want %s", i, log.Log[i], w)
		}
	}
	if log.Log[4].Actor != "mona" || log.Log[4].Target != bob.name || log.Log[4].Report != made.ID || log.Log[4].Reason != "abuse in chat" {
		t.Fatalf("the mute's log entry: %+v", log.Log[4])
	}
}

// TestReportFlood: a player's reports are limited per day (429, nothing
// more stored), and a player may report a player without a game.
func TestReportFlood(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	for i := 0; i < moderation.ReportsPerDay; i++ {
		alice.must(http.StatusCreated, "POST", "/api/reports", map[string]any{"user": "bob", "reason": "spam", "text": "again"}, nil)
	}
	alice.apiErr(http.StatusTooManyRequests, "rate_limited", "POST", "/api/reports", map[string]any{"user": "bob", "reason": "spam"})
	l, err := e.db.(store.Moderation).Reports(context.Background(), store.ReportFilter{Limit: 1000})
	if err != nil || len(l) != moderation.ReportsPerDay {
		t.Fatalf("%d reports stored, want %d (%v)", len(l), moderation.ReportsPerDay, err)
	}
	bob.must(http.StatusCreated, "POST", "/api/reports", map[string]any{"user": "alice", "reason": "other"}, nil) // bob's own quota
}

// TestClosedAccount runs on two servers sharing one PostgreSQL store (two
// nodes): a moderator on one closes an account; at once its session and
// API token are refused on both, it cannot sign in, and neither its name
// nor a case variant of it can be registered; reopening lets it sign in
// again. A moderator cannot close another moderator.
func TestClosedAccount(t *testing.T) {
	open := postgresStore(t)
	n1, n2 := newEnvWith(t, open), newEnvWith(t, open)
	mona, mallory := n1.register("mona"), n1.register("Mallory")
	grantModerator(t, n1.db, mona)
	var tok struct{ Token string }
	mallory.must(http.StatusCreated, "POST", "/api/tokens", map[string]string{"name": "bot"}, &tok)
	botClient := &client{e: n2, token: tok.Token}
	botClient.must(http.StatusOK, "GET", "/api/me", nil, nil)
	onN2 := &client{e: n2, token: mallory.token, name: mallory.name}
	onN2.must(http.StatusOK, "GET", "/api/me", nil, nil)

	mod2 := &client{e: n2, token: mona.token, name: "mona"}
	mod2.must(http.StatusNoContent, "POST", "/api/moderation/close", map[string]any{"user": "mallory", "reason": "abuse"}, nil)
	for _, c := range []*client{mallory, onN2, botClient, {e: n1, token: tok.Token}} {
		c.apiErr(http.StatusUnauthorized, "unauthorized", "GET", "/api/me", nil)
	}
	var sess struct{ User any }
	mallory.must(http.StatusOK, "GET", "/api/session", nil, &sess)
	if sess.User != nil {
		t.Fatalf("a closed account's session: %+v", sess)
	}
	n1.anon().apiErr(http.StatusForbidden, "forbidden", "POST", "/api/session", map[string]string{"name": "mallory", "password": "password-Mallory"})
	n2.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/session", map[string]string{"name": "mallory", "password": "wrong-password-x"})
	for _, name := range []string{"Mallory", "mallory", "MALLORY"} {
		n2.anon().apiErr(http.StatusConflict, "conflict", "POST", "/api/users", map[string]string{"name": name, "password": "another-password-1"})
	}
	// A guest registering cannot take it either.
	n2.guest().apiErr(http.StatusConflict, "conflict", "POST", "/api/users", map[string]string{"name": "mAllory", "password": "another-password-1"})

	// Moderators do not act on moderators from the site.
	other := n1.register("otto")
	grantModerator(t, n1.db, other)
	mona.apiErr(http.StatusForbidden, "forbidden", "POST", "/api/moderation/close", map[string]any{"user": "otto", "reason": "x"})

	mona.must(http.StatusNoContent, "POST", "/api/moderation/reopen", map[string]any{"user": "mallory", "reason": "appeal"}, nil)
	n2.anon().must(http.StatusOK, "POST", "/api/session", map[string]string{"name": "mallory", "password": "password-Mallory"}, nil)
	botClient.must(http.StatusOK, "GET", "/api/me", nil, nil)
}

// TestMuteOnAnotherNode: a mute made through one server holds for a game
// on another server sharing the store, and its undo too.
func TestMuteOnAnotherNode(t *testing.T) {
	open := postgresStore(t)
	n1, n2 := newEnvWith(t, open), newEnvWith(t, open)
	_, _, bob, _, bws, _ := liveTnim(t, n1, "20")
	mona := n2.register("mona")
	grantModerator(t, n2.db, mona)
	mona.must(http.StatusNoContent, "POST", "/api/moderation/mute", map[string]any{"user": bob.name, "reason": "spam", "minutes": 30}, nil)
	m := ask(bws, map[string]any{"type": "chat", "text": "hello"})
	if m.Error == nil || m.Error.Code != "muted" || !strings.Contains(string(m.raw), "until 20") {
		t.Fatalf("muted chat on the other node: %s", m.raw)
	}
	mona.must(http.StatusNoContent, "POST", "/api/moderation/unmute", map[string]any{"user": bob.name, "reason": "ok"}, nil)
	wantAsk(t, bws, map[string]any{"type": "chat", "text": "hello again"}, "")
}
