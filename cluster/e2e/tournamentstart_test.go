package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestTournamentStartNoticeAcrossNodes (issue 24 item 6): a Swiss starts
// under the lease of one node's director; its two players, whose user
// channels are on different nodes, each hear their inbox change, and the
// inbox read through the other node holds the notice linking to the
// tournament.
func TestTournamentStartNoticeAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	ann, bob := s.anonymous(), s.anonymous()
	for _, c := range []struct {
		cl   *client
		name string
	}{{ann, "ann"}, {bob, "bob"}} {
		var resp struct{ Token string }
		if _, err := c.cl.call("POST", "/api/users", map[string]string{"name": c.name, "password": "plum tart at noon"}, &resp); err != nil {
			t.Fatalf("%s registers: %v", c.name, err)
		}
		c.cl.token, c.cl.name = resp.Token, c.name
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	notices := func(c *client, node int) func() {
		h := http.Header{"Authorization": {"Bearer " + c.token}}
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.nodeURL(node), "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		return func() {
			t.Helper()
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					t.Fatalf("%s waiting for an inbox notice on node %d: %v", c.name, node+1, err)
				}
				var n struct{ Type, Kind string }
				json.Unmarshal(data, &n)
				if n.Type == "notice" && n.Kind == "inbox" {
					return
				}
			}
		}
	}
	annHears, bobHears := notices(ann, 0), notices(bob, 1)
	req := map[string]any{"name": "Cluster Swiss", "format": "swiss", "game": "sgolte", "rounds": 1,
		"start": time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	var created struct{ Tournament struct{ ID string } }
	if st, err := ann.callAt(s.nodeURL(0), "POST", "/api/tournaments", req, &created); err != nil {
		t.Fatalf("create: %d %v", st, err)
	}
	id := created.Tournament.ID
	for i, c := range []*client{ann, bob} {
		if st, err := c.callAt(s.nodeURL(i), "POST", "/api/tournaments/"+id+"/join", nil, nil); err != nil {
			t.Fatalf("%s joins: %d %v", c.name, st, err)
		}
	}
	// The round's game invitation nudges the bell too, and may come first:
	// each player listens until their inbox, read through the other node,
	// has the start notice.
	for i, c := range []*client{ann, bob} {
		hears := []func(){annHears, bobHears}[i]
		for {
			hears()
			var in struct {
				Items []struct{ Kind, Topic, Title, Link string }
			}
			if st, err := c.callAt(s.nodeURL(1-i), "GET", "/api/inbox", nil, &in); err != nil {
				t.Fatalf("%s's inbox: %d %v", c.name, st, err)
			}
			if slices.ContainsFunc(in.Items, func(it struct{ Kind, Topic, Title, Link string }) bool {
				return it.Kind == "notice" && it.Topic == "tournament" && it.Title == "Cluster Swiss" && it.Link == "#/tournament/"+id
			}) {
				break
			}
			t.Logf("%s's inbox through node %d, not yet the start notice: %+v", c.name, 2-i, in.Items)
		}
	}
}
