package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestTournamentStreamAcrossNodes (issue 25 item 6, "players on different
// nodes see the same standings"): a page that follows a tournament through
// one node's stream (GET /api/tournaments/{id}/events) hears a player join
// through another node at once. The node that streams keeps the answer it
// last built until something tells it the tournament changed; a join on
// another node reaches it only as that node's news on the bus — without
// it, the stream would never show the new player (its heartbeat re-sends
// nothing but a comment).
func TestTournamentStreamAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	var users []*client
	for _, name := range []string{"tsa", "tsb"} {
		c := s.anonymous()
		var resp struct{ Token string }
		if _, err := c.callAt(s.nodeURL(0), "POST", "/api/users", map[string]string{"name": name, "password": "plum tart at noon"}, &resp); err != nil {
			t.Fatalf("%s registers: %v", name, err)
		}
		c.token, c.name = resp.Token, name
		users = append(users, c)
	}
	req := map[string]any{"name": "Streamed Swiss", "format": "swiss", "game": "sgolte", "rounds": 1,
		"start": time.Now().Add(time.Hour).UTC().Format(time.RFC3339Nano), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	var created struct{ Tournament struct{ ID string } }
	if st, err := users[0].callAt(s.nodeURL(0), "POST", "/api/tournaments", req, &created); err != nil {
		t.Fatalf("create: %d %v", st, err)
	}
	id := created.Tournament.ID

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, "GET", s.nodeURL(1)+"/api/tournaments/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("the stream on node 2: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	events := make(chan []string, 16)
	go func() {
		defer close(events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<22)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var d struct{ Players []struct{ Name string } }
			if err := json.Unmarshal([]byte(data), &d); err != nil {
				t.Errorf("a stream event that is not the tournament: %v", err)
				return
			}
			var names []string
			for _, p := range d.Players {
				names = append(names, p.Name)
			}
			events <- names
		}
	}()
	next := func(within time.Duration, what string) []string {
		t.Helper()
		select {
		case names, ok := <-events:
			if !ok {
				t.Fatalf("the stream ended waiting for %s", what)
			}
			return names
		case <-time.After(within):
			t.Fatalf("no stream event within %v: %s", within, what)
		}
		return nil
	}
	if first := next(30*time.Second, "the first answer"); len(first) != 0 {
		t.Fatalf("players before anyone joined: %v", first)
	}

	// Each joins through node 1; the stream on node 2 shows each. The
	// wait is well under the 15 s heartbeat: what brings the news is the
	// bus, not a timer.
	for i, c := range users {
		sent := time.Now()
		if st, err := c.callAt(s.nodeURL(0), "POST", "/api/tournaments/"+id+"/join", nil, nil); err != nil {
			t.Fatalf("%s joins on node 1: %d %v", c.name, st, err)
		}
		names := next(10*time.Second, c.name+"'s join on node 1, streamed by node 2")
		want := []string{users[0].name, users[1].name}[:i+1]
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Fatalf("node 2 streamed players %v, want %v", names, want)
		}
		t.Logf("%s's join on node 1 streamed by node 2 %v after the request", c.name, time.Since(sent).Round(time.Millisecond))
	}
}
