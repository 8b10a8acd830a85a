package server_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/server"
)

// tournamentStream is one client's GET /api/tournaments/{id}/events.
type tournamentStream struct {
	status int
	header http.Header
	body   []byte // the answer, when refused
	cancel context.CancelFunc
}

// openTournamentStream asks for tournament id's stream as the client at
// addr (sent as X-Forwarded-For by a trusted proxy). An accepted stream
// is read up to its first event and kept open until cancel.
func openTournamentStream(t *testing.T, e *env, id, addr string) *tournamentStream {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, err := http.NewRequestWithContext(ctx, "GET", e.hs.URL+"/api/tournaments/"+id+"/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Forwarded-For", addr)
	resp, err := e.hs.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	st := &tournamentStream{status: resp.StatusCode, header: resp.Header, cancel: cancel}
	if resp.StatusCode != http.StatusOK {
		st.body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		return st
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if sc.Text() == "event: tournament" {
			break
		}
	}
	if sc.Err() != nil {
		t.Fatalf("reading the stream: %v", sc.Err())
	}
	go func() { // keep reading, so that the server never blocks on this client
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}()
	return st
}

// refused says whether st was answered status with error code, as JSON.
func (st *tournamentStream) refused(t *testing.T, status int, code string) {
	t.Helper()
	var body struct {
		Error struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if st.status != status || json.Unmarshal(st.body, &body) != nil || body.Error.Code != code || body.Error.Message == "" {
		t.Fatalf("answered %d %s, want %d %s", st.status, st.body, status, code)
	}
	if !strings.HasPrefix(st.header.Get("Content-Type"), "application/json") || st.header.Get("Retry-After") == "" {
		t.Fatalf("refusal's headers: %v", st.header)
	}
}

// waitStreams waits until s serves all streams, ofAddr of them to addr.
func waitStreams(t *testing.T, s *server.Server, addr string, all, ofAddr int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		a, n := server.TournamentStreams(s, addr)
		if a == all && n == ofAddr {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("streams: %d, %d of %s; want %d, %d", a, n, addr, all, ofAddr)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestTournamentStreamCaps: one address holds at most its share of a
// node's tournament streams — past it that address is refused (429
// rate_limited) while another address is still served; the node's own cap
// holds over all addresses (503); and a stream whose client goes away is
// counted no longer, so its place serves another. The caps are set low
// (2 an address, 5 a node) to reach them; the addresses are the clients'
// behind a trusted proxy, as the other per-address limits see them.
func TestTournamentStreamCaps(t *testing.T) {
	e := newEnv(t, func(c *serverConfig) { c.TrustedProxies = mustPrefixes(t, "127.0.0.1/32") })
	server.SetTournamentStreamCaps(e.srv, 5, 2)
	ann := e.register("ann")
	req := swissReq("Followed", 3)
	req["start"] = time.Now().Add(time.Hour).UTC().Format(time.RFC3339)
	var tr tournamentResp
	ann.must(http.StatusCreated, "POST", "/api/tournaments", req, &tr)
	id := tr.Tournament.ID

	const a, b = "198.51.100.7", "203.0.113.9"
	a1 := openTournamentStream(t, e, id, a)
	a2 := openTournamentStream(t, e, id, a)
	if a1.status != http.StatusOK || a2.status != http.StatusOK {
		t.Fatalf("a's first two streams: %d, %d", a1.status, a2.status)
	}
	openTournamentStream(t, e, id, a).refused(t, http.StatusTooManyRequests, "rate_limited")
	// An IPv4-mapped form of a is a, not a fresh address.
	openTournamentStream(t, e, id, "::ffff:"+a).refused(t, http.StatusTooManyRequests, "rate_limited")
	if st := openTournamentStream(t, e, id, b); st.status != http.StatusOK {
		t.Fatalf("another address was refused while a was full: %d %s", st.status, st.body)
	}
	waitStreams(t, e.srv, a, 3, 2)

	// The node's cap: two more addresses fill it, and then even a fresh
	// address is refused.
	for _, addr := range []string{"192.0.2.1", "192.0.2.2"} {
		if st := openTournamentStream(t, e, id, addr); st.status != http.StatusOK {
			t.Fatalf("%s: %d %s", addr, st.status, st.body)
		}
	}
	openTournamentStream(t, e, id, "192.0.2.3").refused(t, http.StatusServiceUnavailable, "unavailable")
	waitStreams(t, e.srv, a, 5, 2)

	// a's client goes away: its stream is counted no longer, on the node
	// and for a, and a is served again.
	a1.cancel()
	waitStreams(t, e.srv, a, 4, 1)
	if st := openTournamentStream(t, e, id, a); st.status != http.StatusOK {
		t.Fatalf("a after one of its streams ended: %d %s", st.status, st.body)
	}
	openTournamentStream(t, e, id, "192.0.2.3").refused(t, http.StatusServiceUnavailable, "unavailable")

	// Every client gone: nothing is held.
	e.hs.CloseClientConnections()
	waitStreams(t, e.srv, a, 0, 0)
	if st := openTournamentStream(t, e, id, "192.0.2.3"); st.status != http.StatusOK {
		t.Fatalf("after every stream ended: %d %s", st.status, st.body)
	}
}
