package e2e

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestOnlineListSameOnEveryNode: who is online (GET /api/online/players)
// is the whole site's, the same on every node (issue 24 item 3): alice
// plays a game owned by node1 from a page on node2, bob is seen on node1
// only; both nodes list alice playing and bob idle. When node2 stops, its
// word goes with it: alice plays no more (node1 saw her, idle).
func TestOnlineListSameOnEveryNode(t *testing.T) {
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
	id := s.create(alice, 0, map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	page, err := alice.dial(ctx, id, "node2")
	if err != nil {
		t.Fatal(err)
	}
	defer page.ws.Close(websocket.StatusNormalClosure, "")
	if _, err := bob.callAt(s.nodeURL(0), "GET", "/api/me", nil, nil); err != nil {
		t.Fatal(err)
	}

	lists := func() [2][]string {
		var out [2][]string
		for i := range 2 {
			var l struct {
				Players []struct {
					Name, State string
					Games       []struct{ ID, Game string }
				}
			}
			if status, err := s.anonymous().callAt(s.nodeURL(i), "GET", "/api/online/players", nil, &l); err != nil || status != http.StatusOK {
				out[i] = []string{fmt.Sprint("error ", status, err)}
				continue
			}
			for _, p := range l.Players {
				e := p.Name + " " + p.State
				for _, g := range p.Games {
					e += " " + g.Game + ":" + g.ID
				}
				out[i] = append(out[i], e)
			}
		}
		return out
	}
	wait := func(want []string, nodes int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second)
		for {
			got := lists()
			ok := true
			for i := range nodes {
				ok = ok && slices.Equal(got[i], want)
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("the online lists of the nodes: %q, want %q on the first %d", got, want, nodes)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	wait([]string{"alice playing sploof:" + id, "bob idle"}, 2)

	s.nodes[1].stop()
	wait([]string{"alice idle", "bob idle"}, 1)
}
