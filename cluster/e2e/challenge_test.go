package e2e

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestChallengeAcrossNodes: a challenge between players on different
// nodes (issue 24 item 4). Alice challenges on node1, whose game it is;
// Bob, whose user channel is on node2, hears it at once, declines it there
// with a reason (a command node2 forwards to node1), and Alice hears the
// reason on node1; the second challenge Bob accepts on node2, and both
// hear that the game started.
func TestChallengeAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	alice, bob := s.guest(), s.guest()
	for _, c := range []struct {
		cl   *client
		name string
	}{{alice, "alice"}, {bob, "bob"}} {
		if _, err := c.cl.call("POST", "/api/users", map[string]string{"name": c.name, "password": "plum tart at noon"}, nil); err != nil {
			t.Fatalf("%s registers: %v", c.name, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type news struct {
		Type, News, By, Reason string
		Challenge              struct{ ID string }
	}
	channel := func(c *client, node int) func(want, id string) news {
		h := http.Header{"Authorization": {"Bearer " + c.token}}
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.nodeURL(node), "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { ws.CloseNow() })
		// A channel that opens as a challenge is made may hear it twice (the
		// waiting ones it is sent on opening, and the news), which the page
		// keys by id: what must come is the news of the challenge wanted.
		return func(want, id string) news {
			t.Helper()
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					t.Fatalf("waiting for %q news of %s: %v", want, id, err)
				}
				var n news
				json.Unmarshal(data, &n)
				if n.Type == "challenge" && n.News == want && n.Challenge.ID == id {
					return n
				}
			}
		}
	}
	aliceHears, bobHears := channel(alice, 0), channel(bob, 1)
	challenge := func() string {
		var c struct{ ID string }
		if _, err := alice.callAt(s.nodeURL(0), "POST", "/api/challenges", map[string]any{"game": "sploof", "players": []string{"bob"}}, &c); err != nil {
			t.Fatal(err)
		}
		bobHears("received", c.ID)
		return c.ID
	}
	id := challenge()
	if _, err := bob.callAt(s.nodeURL(1), "POST", "/api/challenges/"+id+"/decline", map[string]string{"reason": "too_slow"}, nil); err != nil {
		t.Fatal(err)
	}
	if n := aliceHears("declined", id); n.By != "bob" || n.Reason != "too_slow" {
		t.Fatalf("alice heard %+v", n)
	}
	id = challenge()
	if _, err := bob.callAt(s.nodeURL(1), "POST", "/api/challenges/"+id+"/accept", struct{}{}, nil); err != nil {
		t.Fatal(err)
	}
	aliceHears("accepted", id)
	bobHears("accepted", id)
}
