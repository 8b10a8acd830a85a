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

// TestRatingChangeAcrossNodes: the end of a rated game carries each seat's
// rating change on every node (issue 24 item 1: the game room shows it at
// once, without a reload). The game is node1's; Alice watches its channel
// on node1, Bob on node2, where he resigns (a command node2 forwards).
// The rating is updated in the transaction that ends the game, before the
// end is published, so node2 — which builds its own end message from the
// shared store — finds the change too, the same as node1's.
func TestRatingChangeAcrossNodes(t *testing.T) {
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
	var created struct{ Game struct{ ID string } }
	if _, err := alice.callAt(s.nodeURL(0), "POST", "/api/games", map[string]any{"game": "sgolte", "rated": true,
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}}, &created); err != nil {
		t.Fatal(err)
	}
	id := created.Game.ID
	if _, err := bob.callAt(s.nodeURL(1), "POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	type change struct{ Before, After, Delta float64 }
	type end struct {
		Type string
		Game struct {
			Status string
			Seats  []struct {
				User         string
				RatingChange *change
			}
		}
	}
	// channel opens c's game channel on node; what it returns reads on
	// until a message ok accepts.
	channel := func(c *client, node int) func(what string, ok func(end) bool) end {
		h := http.Header{"Authorization": {"Bearer " + c.token}}
		ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.nodeURL(node), "http")+"/api/games/"+id+"/ws", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatal(err)
		}
		ws.SetReadLimit(1 << 20)
		t.Cleanup(func() { ws.CloseNow() })
		return func(what string, ok func(end) bool) end {
			t.Helper()
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					t.Fatalf("waiting for %s on node %d: %v", what, node+1, err)
				}
				var e end
				json.Unmarshal(data, &e)
				if ok(e) {
					return e
				}
			}
		}
	}
	aliceHears, bobHears := channel(alice, 0), channel(bob, 1)
	// Both channels are open (their snapshot of the live game came) before
	// the game ends.
	live := func(e end) bool { return e.Type == "snapshot" && e.Game.Status == "live" }
	aliceHears("the snapshot", live)
	bobHears("the snapshot", live)
	if _, err := bob.callAt(s.nodeURL(1), "POST", "/api/games/"+id+"/resign", struct{}{}, nil); err != nil {
		t.Fatal(err)
	}
	// The end message (or a fresh snapshot, should a node have missed an
	// event and resynchronised: the page takes either).
	over := func(e end) bool { return e.Type == "end" || e.Type == "snapshot" && e.Game.Status == "finished" }
	var seen []change
	for node, e := range []end{aliceHears("the end", over), bobHears("the end", over)} {
		if e.Game.Status != "finished" || len(e.Game.Seats) != 2 {
			t.Fatalf("node %d's end: %+v", node+1, e)
		}
		for i, se := range e.Game.Seats {
			c := se.RatingChange
			// alice (seat 0) won: bob resigned
			if c == nil || c.Before != 1500 || (i == 0) != (c.Delta > 0) {
				t.Fatalf("node %d's end: seat %d (%s) rating change %+v", node+1, i, se.User, c)
			}
			seen = append(seen, *c)
		}
	}
	if seen[0] != seen[2] || seen[1] != seen[3] {
		t.Fatalf("the nodes' ends differ: node1 %+v, node2 %+v", seen[:2], seen[2:])
	}
}
