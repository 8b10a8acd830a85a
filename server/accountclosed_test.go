package server_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// dialRaw opens a WebSocket of c on path and returns it as it is: the
// test reads it to its end.
func dialRaw(t *testing.T, c *client, path string) *websocket.Conn {
	t.Helper()
	h := http.Header{}
	if c.token != "" {
		h.Set("Authorization", "Bearer "+c.token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.e.hs.URL, "http")+path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		t.Fatalf("dial %s: %v", path, err)
	}
	conn.SetReadLimit(1 << 22)
	t.Cleanup(func() { conn.CloseNow() })
	return conn
}

// readToClose reads conn until the server closes it and returns the close
// frame's error; it fails the test if the connection is still open after
// 10 seconds.
func readToClose(t *testing.T, conn *websocket.Conn) websocket.CloseError {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		_, _, err := conn.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("the connection ended without a close frame: %v", err)
		}
		return ce
	}
}

// TestCloseAccountClosesSockets: when a moderator closes an account, the
// user channel and the game channels that account has open are closed at
// once, with a close reason that says so ("closed"); another user's are
// not.
func TestCloseAccountClosesSockets(t *testing.T) {
	e := newEnv(t)
	mona, mallory, bob := e.register("mona"), e.register("mallory"), e.register("bob")
	grantModerator(t, e.db, mona)
	var g challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("mallory"), &g)
	mallory.must(http.StatusOK, "POST", "/api/challenges/"+g.ID+"/accept", nil, nil)

	user := dialRaw(t, mallory, "/api/ws")
	game := dialRaw(t, mallory, "/api/games/"+g.ID+"/ws")
	bobs := bob.dial("/api/games/" + g.ID + "/ws")
	bobs.next("snapshot")

	mona.must(http.StatusNoContent, "POST", "/api/moderation/close", map[string]string{"user": "mallory", "reason": "test"}, nil)
	for name, conn := range map[string]*websocket.Conn{"user channel": user, "game channel": game} {
		ce := readToClose(t, conn)
		if ce.Code != websocket.StatusPolicyViolation || !strings.HasPrefix(ce.Reason, "closed") {
			t.Errorf("mallory's %s closed with %d %q, want %d \"closed: …\"", name, ce.Code, ce.Reason, websocket.StatusPolicyViolation)
		}
	}
	select {
	case <-bobs.done:
		t.Fatal("bob's game channel closed with mallory's")
	default:
	}
	// And a closed account cannot open one again.
	h := http.Header{"Authorization": {"Bearer " + mallory.token}}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, resp, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.hs.URL, "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: h}); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a closed account's new user channel: %v %v, want 401", resp, err)
	}
}
