package e2e

import (
	"context"
	"errors"
	"net/http"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestClosedAccountSocketsAcrossNodes (issue 24 item 9): a moderator
// closes an account through node 1 while the account has its user channel
// and a game channel open on node 2 (and a user channel on node 1): every
// one of them is closed at once with the close reason "closed: …", on
// both nodes.
func TestClosedAccountSocketsAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	mona, mallory := s.anonymous(), s.anonymous()
	for _, c := range []struct {
		cl   *client
		name string
	}{{mona, "mona"}, {mallory, "mallory"}} {
		var resp struct{ Token string }
		if _, err := c.cl.call("POST", "/api/users", map[string]string{"name": c.name, "password": "plum tart at noon"}, &resp); err != nil {
			t.Fatalf("%s registers: %v", c.name, err)
		}
		c.cl.token, c.cl.name = resp.Token, c.name
	}
	if out, err := exec.Command(binary, "admin", "--db", s.pgURL, "--as", "e2e", "grant", "mona", "--reason", "e2e").CombinedOutput(); err != nil {
		t.Fatalf("tabula admin grant: %v\n%s", err, out)
	}
	var created struct{ Game struct{ ID string } }
	game := map[string]any{"game": "sgolte",
		"seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}}
	if st, err := mallory.callAt(s.nodeURL(0), "POST", "/api/games", game, &created); err != nil || created.Game.ID == "" {
		t.Fatalf("mallory creates a game: %d %v", st, err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dial := func(node int, path string) *websocket.Conn {
		h := http.Header{"Authorization": {"Bearer " + mallory.token}}
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.nodeURL(node), "http")+path, &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatalf("dial %s on node %d: %v", path, node+1, err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		return ws
	}
	socks := map[string]*websocket.Conn{
		"user channel on node 2": dial(1, "/api/ws"),
		"game channel on node 2": dial(1, "/api/games/"+created.Game.ID+"/ws"),
		"user channel on node 1": dial(0, "/api/ws"),
	}
	if st, err := mona.callAt(s.nodeURL(0), "POST", "/api/moderation/close", map[string]string{"user": "mallory", "reason": "e2e"}, nil); err != nil {
		t.Fatalf("close through node1: %d %v", st, err)
	}
	for name, ws := range socks {
		rctx, rcancel := context.WithTimeout(ctx, 15*time.Second)
		var err error
		for err == nil {
			_, _, err = ws.Read(rctx)
		}
		rcancel()
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || !strings.HasPrefix(ce.Reason, "closed") {
			t.Errorf("mallory's %s after the closure: %v, want a close frame 1008 \"closed: …\"", name, err)
		}
	}
}
