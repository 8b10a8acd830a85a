package e2e

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// TestProxyResendsARequestItsNodeDropped: what the proxy of
// docs/haproxy.cfg does with a request whose node dies after reading it
// and before answering. It does not answer 502: it tells the client the
// request was not processed (over HTTP/2 RST_STREAM REFUSED_STREAM, for any
// request; over HTTP/1.1 the connection closed without an answer, for any
// request but a connection's first), and the client —
// Go's HTTP client here, browsers alike — sends it again by itself. So a
// join, move or abort that the dead node had run (or forwarded to the
// game's owner, which ran it) reaches another node a second time: why the
// API's commands take an Idempotency-Key (docs/api.md; server/idempotency.go;
// TestResentHTTPCommandWithItsKey). A body the client cannot read again is
// not resent: the copy is the client's, not the proxy's.
//
// The node is a stand-in that drops the connection of the first POST it
// reads, as a node killed at that moment would.
func TestProxyResendsARequestItsNodeDropped(t *testing.T) {
	needCluster(t)
	port := freePort(t)
	ln, err := net.Listen("tcp", fmt.Sprint("127.0.0.1:", port))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	var posts []string // the bodies of the POSTs the node read
	dropNext := true
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				for {
					req, err := http.ReadRequest(br)
					if err != nil {
						return
					}
					body, _ := io.ReadAll(req.Body)
					if req.Method == http.MethodPost {
						mu.Lock()
						posts = append(posts, string(body))
						drop := dropNext
						dropNext = false
						mu.Unlock()
						if drop {
							return // read, maybe run, never answered
						}
					}
					fmt.Fprint(c, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
				}
			}()
		}
	}()
	s := &site{t: t, dir: t.TempDir(), ports: []int{port}, nodes: []*proc{nil}}
	s.certificate()
	s.startProxy()
	defer s.proxy.stop()
	c := s.anonymous()

	resp, err := c.http.Post(s.https+"/api/games/g/join", "application/json", strings.NewReader(`{"n":1}`))
	if err != nil {
		t.Fatalf("the POST through the proxy: %v", err)
	}
	resp.Body.Close()
	mu.Lock()
	got := append([]string(nil), posts...)
	mu.Unlock()
	if resp.StatusCode != http.StatusOK || len(got) != 2 || got[0] != got[1] {
		t.Fatalf("the client saw %s (%s); the node read %q: want 200 OK, and the POST read twice", resp.Status, resp.Proto, got)
	}

	// The same with a body that cannot be read again: the client cannot
	// resend it and says so; the node read it once.
	mu.Lock()
	posts, dropNext = nil, true
	mu.Unlock()
	req, err := http.NewRequest(http.MethodPost, s.https+"/api/games/g/join", io.NopCloser(strings.NewReader(`{"n":2}`)))
	if err != nil {
		t.Fatal(err)
	}
	resp, err = c.http.Do(req)
	if err == nil {
		resp.Body.Close()
	}
	mu.Lock()
	got = append([]string(nil), posts...)
	mu.Unlock()
	if err == nil || len(got) != 1 {
		t.Fatalf("a body the client cannot resend: %v; the node read %q: want an error and one read", err, got)
	}
	t.Logf("without a body to send again, the client says: %v", err)
}
