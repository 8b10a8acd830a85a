package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestClusterLimits: three nodes behind the proxy hold the limits that
// protect an account or the site as one site (issue 23, finding 1: each
// node counted its own, so an attacker had 15 free guesses at a password
// instead of 5, and three times every address's budget). Each request comes
// on a new connection from an address of its own choosing (127.0.0.N: the
// proxy says so in X-Forwarded-For), so the proxy spreads them over the
// nodes; which node answered is in X-Tabula-Node.
func TestClusterLimits(t *testing.T) {
	s := newSite(t, 3, "--signup-rate", "10", "--max-open-games", "2")
	alice := s.guest()
	if _, err := alice.call("POST", "/api/users", map[string]string{"name": "alice", "password": "plum tart at noon"}, nil); err != nil {
		t.Fatalf("alice registers: %v", err)
	}

	t.Run("sign-in back-off", func(t *testing.T) {
		// Five wrong passwords from five addresses, on the nodes the proxy
		// picks: each a plain 401.
		nodes := map[string]bool{}
		for i := range 5 {
			status, node := s.postFrom(byte(10+i), "/api/session", map[string]string{"name": "alice", "password": fmt.Sprint("guess-", i, "-xyz")})
			if status != http.StatusUnauthorized {
				t.Fatalf("guess %d (on %s): %d, want 401", i+1, node, status)
			}
			nodes[node] = true
		}
		if len(nodes) < 2 {
			t.Fatalf("the proxy sent all five guesses to %v: the test shows nothing", nodes)
		}
		// The sixth is refused, whichever node gets it: guess until every
		// node has answered (the right password too, during the wait).
		refused := map[string]bool{}
		for i := 0; len(refused) < 3; i++ {
			if i == 30 {
				t.Fatalf("30 more tries reached only %v", refused)
			}
			pw := "guess-x-xyz"
			if i%2 == 1 {
				pw = "plum tart at noon"
			}
			status, node := s.postFrom(byte(20+i), "/api/session", map[string]string{"name": "alice", "password": pw})
			if status != http.StatusTooManyRequests {
				t.Fatalf("try %d after five failures (on %s): %d, want 429", i+6, node, status)
			}
			refused[node] = true
		}
	})

	t.Run("address budget", func(t *testing.T) {
		// Ten a minute, bursts of five, from one address on the whole site.
		nodes := map[string]bool{}
		for i := range 5 {
			status, node := s.postFrom(77, "/api/guest", struct{}{})
			if status != http.StatusCreated {
				t.Fatalf("guest %d from one address (on %s): %d, want 201", i+1, node, status)
			}
			nodes[node] = true
		}
		if len(nodes) < 2 {
			t.Fatalf("the proxy sent all five to %v: the test shows nothing", nodes)
		}
		for i := range 3 {
			if status, node := s.postFrom(77, "/api/guest", struct{}{}); status != http.StatusTooManyRequests {
				t.Fatalf("guest %d from the address (on %s): %d, want 429", i+6, node, status)
			}
		}
		if status, node := s.postFrom(78, "/api/guest", struct{}{}); status != http.StatusCreated {
			t.Fatalf("a guest from another address (on %s): %d", node, status)
		}
	})

	t.Run("quota", func(t *testing.T) {
		// Two open games each: twelve creations at once over the three
		// nodes make two.
		var mu sync.Mutex
		codes := map[int]int{}
		var wg sync.WaitGroup
		for range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, _ := alice.call("POST", "/api/games", map[string]any{"game": "sploof",
					"seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}}, nil)
				mu.Lock()
				codes[status]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		if codes[http.StatusCreated] != 2 || codes[http.StatusTooManyRequests] != 10 {
			t.Fatalf("twelve creations at once with two places: %v", codes)
		}
	})
	s.cleanLogs()
}

// postFrom posts body as JSON through the proxy on a new connection from
// the address 127.0.0.last, and returns the status and the node that
// answered.
func (s *site) postFrom(last byte, path string, body any) (int, string) {
	s.t.Helper()
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, last)}}
	tr := &http.Transport{TLSClientConfig: s.tlsConf.Clone(), ForceAttemptHTTP2: true,
		DialContext: func(ctx context.Context, network, addr string) (net.Conn, error) {
			return d.DialContext(ctx, network, addr)
		}}
	defer tr.CloseIdleConnections()
	data, _ := json.Marshal(body)
	req, err := http.NewRequest("POST", s.https+path, strings.NewReader(string(data)))
	if err != nil {
		s.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		s.t.Fatalf("POST %s from 127.0.0.%d: %v", path, last, err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header.Get("X-Tabula-Node")
}
