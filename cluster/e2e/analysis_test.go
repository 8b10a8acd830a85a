package e2e

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sseEvent is one event of a Server-Sent Events stream.
type sseEvent struct{ Name, Data string }

// analysisStream opens the events of analysis job id at base as c: the
// status, and (200) the stream's events until it ends; stop closes it.
func (c *client) analysisStream(t *testing.T, base, id string) (status int, events <-chan sseEvent, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/api/analysis/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := (&http.Client{}).Do(req) // no timeout: a stream
	if err != nil {
		cancel()
		t.Fatalf("GET %s's events at %s: %v", id, base, err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return resp.StatusCode, nil, func() {}
	}
	ch := make(chan sseEvent, 256)
	go func() {
		defer close(ch)
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.Name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.Data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.Name != "":
				ch <- ev
				ev = sseEvent{}
			}
		}
	}()
	return resp.StatusCode, ch, cancel
}

// next is the next event of a stream named what other than those named in
// skip; it fails the test when none comes within d or the stream ends.
func nextEvent(t *testing.T, what string, events <-chan sseEvent, d time.Duration, skip ...string) sseEvent {
	t.Helper()
	timeout := time.After(d)
	for {
		select {
		case ev, ok := <-events:
			if !ok {
				t.Fatalf("%s: the stream ended", what)
			}
			if !strings.Contains(" "+strings.Join(skip, " ")+" ", " "+ev.Name+" ") {
				return ev
			}
		case <-timeout:
			t.Fatalf("%s: no event within %v", what, d)
		}
	}
}

// endOf reads a stream to its "end" event and returns its reason.
func endOf(t *testing.T, what string, events <-chan sseEvent) string {
	t.Helper()
	ev := nextEvent(t, what, events, 30*time.Second, "report", "queued")
	if ev.Name != "end" {
		t.Fatalf("%s: event %s %s, want end", what, ev.Name, ev.Data)
	}
	var end struct{ Reason string }
	json.Unmarshal([]byte(ev.Data), &end)
	return end.Reason
}

// TestAnalysisAcrossNodes: behind the proxy a page's requests reach any
// node, so an analysis started on one node is read and stopped through
// another; a stranger is told there is no such job wherever they ask; a
// user's new job, on any node, stops the old one — one job a user on the
// whole site —; and a page that leaves a job it read through another node
// stops it there (an analysis nobody reads is stopped).
func TestAnalysisAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	alice, mallory := s.guest(), s.guest()
	start := func(c *client, node int) string {
		t.Helper()
		var st struct{ ID string }
		status, err := c.callAt(s.nodeURL(node), "POST", "/api/analysis", map[string]any{"game": "sploof", "timeMs": 40000}, &st)
		if err != nil || status != http.StatusCreated || st.ID == "" {
			t.Fatalf("start an analysis at node %d: %d %v", node+1, status, err)
		}
		return st.ID
	}

	// Started on node1, read and stopped through node2.
	id := start(alice, 0)
	status, events, stop := alice.analysisStream(t, s.nodeURL(1), id)
	if status != http.StatusOK {
		t.Fatalf("the events of node1's job through node2: %d", status)
	}
	defer stop()
	// Sploof's start is solved (the proof's book): the report read through
	// the other node says who wins.
	if ev := nextEvent(t, "node1's job through node2", events, 30*time.Second, "queued"); ev.Name != "report" || !strings.Contains(ev.Data, `"lines"`) || !strings.Contains(ev.Data, `"solved":{"winner":`) {
		t.Fatalf("the first event through node2: %s %s", ev.Name, ev.Data)
	}
	for node := range 2 {
		if status, _, _ := mallory.analysisStream(t, s.nodeURL(node), id); status != http.StatusNotFound {
			t.Errorf("a stranger's GET of alice's job at node %d: %d, want 404", node+1, status)
		}
		if status, err := mallory.callAt(s.nodeURL(node), "POST", "/api/analysis/"+id+"/stop", struct{}{}, nil); status != http.StatusNotFound {
			t.Errorf("a stranger's stop of alice's job at node %d: %d %v, want 404", node+1, status, err)
		}
	}
	if status, err := alice.callAt(s.nodeURL(1), "POST", "/api/analysis/"+id+"/stop", struct{}{}, nil); err != nil || status != http.StatusOK {
		t.Fatalf("alice stops her job through node2: %d %v", status, err)
	}
	if end := endOf(t, "the stopped job through node2", events); end != "stopped" {
		t.Fatalf("the job stopped through node2 ended %q", end)
	}

	// One job a user: a new one on node2 stops hers on node1.
	first := start(alice, 0)
	_, firstEvents, stopFirst := alice.analysisStream(t, s.nodeURL(0), first)
	defer stopFirst()
	nextEvent(t, "the first job", firstEvents, 30*time.Second, "queued")
	second := start(alice, 1)
	if end := endOf(t, "the first job once a second started on node2", firstEvents); end != "stopped" {
		t.Fatalf("alice's first job, on node1, ended %q when she started another on node2", end)
	}

	// The second, on node2, read through node1 by a page that then leaves:
	// the job on node2 stops.
	_, secondEvents, leave := alice.analysisStream(t, s.nodeURL(0), second)
	nextEvent(t, "the second job through node1", secondEvents, 30*time.Second, "queued")
	leave()
	// One look at the job at its node, a moment later: a job that is over
	// gives its last report and its end at once; one still running (40 s
	// of search asked) gives reports only. The look is itself a reader, so
	// there is one look.
	time.Sleep(2 * time.Second)
	status, events, stop = alice.analysisStream(t, s.nodeURL(1), second)
	if status != http.StatusOK {
		t.Fatalf("the second job at its node after the page left: %d", status)
	}
	defer stop()
	ev := nextEvent(t, "the second job at its node, after its page left through node1", events, 15*time.Second, "report", "queued")
	var end struct{ Reason string }
	json.Unmarshal([]byte(ev.Data), &end)
	if ev.Name != "end" || end.Reason != "stopped" {
		t.Fatalf("the second job after its reader left: %s %s, want its end, stopped", ev.Name, ev.Data)
	}
}

// TestReviewKeptForEveryNode: a finished game's review, made on one node,
// is kept in the database: another user asking another node gets it whole
// at once (200), not made again.
func TestReviewKeptForEveryNode(t *testing.T) {
	s := newSite(t, 2)
	alice, bob := s.guest(), s.guest()
	moves := []map[string]any{}
	for i, m := range []string{"1c3", "1c5", "1e3", "1e5", "*1a1", "*1a3"} {
		moves = append(moves, map[string]any{"ply": i, "move": m})
	}
	var imp struct{ Game struct{ ID string } }
	if status, err := alice.callAt(s.nodeURL(0), "POST", "/api/records", map[string]any{"record": map[string]any{
		"format": "tabula-record/1", "game": "sploof", "seed": "1", "options": map[string]string{"first": "white"}, "moves": moves}}, &imp); err != nil || status != http.StatusCreated {
		t.Fatalf("import a game at node1: %d %v", status, err)
	}
	var st struct{ ID string }
	if status, err := alice.callAt(s.nodeURL(0), "POST", "/api/games/"+imp.Game.ID+"/review", struct{}{}, &st); err != nil || status != http.StatusCreated {
		t.Fatalf("review at node1: %d %v", status, err)
	}
	status, events, stop := alice.analysisStream(t, s.nodeURL(0), st.ID)
	if status != http.StatusOK {
		t.Fatalf("the review's events at node1: %d", status)
	}
	defer stop()
	made := nextEvent(t, "the review at node1", events, 2*time.Minute, "progress", "queued")
	if made.Name != "review" {
		t.Fatalf("the review at node1 gave %s %s", made.Name, made.Data)
	}
	var kept struct {
		ID     string
		Review json.RawMessage
	}
	if status, err := bob.callAt(s.nodeURL(1), "POST", "/api/games/"+imp.Game.ID+"/review", struct{}{}, &kept); err != nil || status != http.StatusOK {
		t.Fatalf("bob asks node2 for the review: %d %v, want 200 and the kept review", status, err)
	}
	var a, b any
	json.Unmarshal([]byte(made.Data), &a)
	json.Unmarshal(kept.Review, &b)
	if kept.ID != "" || !reflect.DeepEqual(a, b) {
		t.Fatalf("node2's review is not node1's:\n%s\n%s", kept.Review, made.Data)
	}
}
