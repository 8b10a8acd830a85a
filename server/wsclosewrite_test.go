package server_test

import (
	"context"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tabula-games/tabula/server"
)

// pipeListener serves HTTP over in-memory pipes: a write on the server's
// end waits until the client reads it, so a test can hold the server in
// the middle of sending a message. writing counts the server's WebSocket
// frame writes in progress.
type pipeListener struct {
	conns   chan net.Conn
	done    chan struct{}
	once    sync.Once
	writing atomic.Int32
}

func newPipeListener() *pipeListener {
	return &pipeListener{conns: make(chan net.Conn), done: make(chan struct{})}
}

func (l *pipeListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *pipeListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *pipeListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// dial is the client's end of a new pipe; the server accepts the other.
func (l *pipeListener) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	client, server := net.Pipe()
	select {
	case l.conns <- &countedConn{Conn: server, writing: &l.writing}:
		return client, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.done:
		return nil, net.ErrClosed
	}
}

type countedConn struct {
	net.Conn
	writing *atomic.Int32
}

// Write counts only frames: the upgrade's "HTTP/1.1 101" answer is a write
// too, and the client may return from Dial, having read it whole, before
// that write has returned on the server's side — counted, it made the test
// close the account before the snapshot was begun (CI, at load).
func (c *countedConn) Write(p []byte) (int, error) {
	if len(p) > 0 && p[0] != 'H' {
		c.writing.Add(1)
		defer c.writing.Add(-1)
	}
	return c.Conn.Write(p)
}

// TestClosedAccountWhileWriting: a moderator closes an account while the
// server is in the middle of sending that account's game channel a
// message. The message is sent whole, and then the close frame that says
// why (1008 "closed: …"). Before, the closure cancelled the write's
// context, on which the WebSocket library drops the connection: the
// client got an EOF and never learnt why (cluster e2e
// TestClosedAccountSocketsAcrossNodes failed so in CI, twice, when the
// closure came as the node sent the end of the account's game).
func TestClosedAccountWhileWriting(t *testing.T) {
	e := newEnv(t)
	mona, mallory, bob := e.register("mona"), e.register("mallory"), e.register("bob")
	grantModerator(t, e.db, mona)
	var g challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("mallory"), &g)
	mallory.must(http.StatusOK, "POST", "/api/challenges/"+g.ID+"/accept", nil, nil)

	l := newPipeListener()
	hs := &http.Server{Handler: e.hs.Config.Handler}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws://tabula.test/api/games/"+g.ID+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + mallory.token}},
		HTTPClient: &http.Client{Transport: &http.Transport{DialContext: l.dial}},
	})
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(1 << 22)
	t.Cleanup(func() { conn.CloseNow() })

	// The server sends the game's snapshot at once; nobody reads it yet,
	// so its write waits in the pipe.
	for l.writing.Load() == 0 {
		if ctx.Err() != nil {
			t.Fatal("the server never began to send the snapshot")
		}
		time.Sleep(time.Millisecond)
	}
	mona.must(http.StatusNoContent, "POST", "/api/moderation/close", map[string]string{"user": "mallory", "reason": "test"}, nil)

	var got []string
	for {
		_, data, err := conn.Read(ctx)
		if err == nil {
			var typ string
			if i := strings.Index(string(data), `"type":"`); i >= 0 {
				typ, _, _ = strings.Cut(string(data[i+8:]), `"`)
			}
			got = append(got, typ)
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) {
			t.Fatalf("after %v, the connection ended without a close frame: %v", got, err)
		}
		if ce.Code != websocket.StatusPolicyViolation || !strings.HasPrefix(ce.Reason, "closed") {
			t.Fatalf("closed with %d %q, want %d \"closed: …\"", ce.Code, ce.Reason, websocket.StatusPolicyViolation)
		}
		break
	}
	if len(got) == 0 || got[0] != "snapshot" {
		t.Fatalf("messages before the close: %v, want the snapshot whole first", got)
	}
}

// TestClosedAccountWhileLoading: a moderator closes an account while its
// game channel is loading the game, between the handshake and the
// snapshot. The channel closes with the closed account's 1008 "closed: …",
// not 1011 "cannot load the game" (cluster e2e
// TestClosedAccountSocketsAcrossNodes failed so in CI: on a node that did
// not own the game, the closure cancelled the snapshot's request to the
// owner, and the failed load was reported as the server's error).
func TestClosedAccountWhileLoading(t *testing.T) {
	e := newEnv(t)
	mona, mallory, bob := e.register("mona"), e.register("mallory"), e.register("bob")
	grantModerator(t, e.db, mona)
	var g challengeJSON
	bob.must(http.StatusCreated, "POST", "/api/challenges", challengeReq("mallory"), &g)
	mallory.must(http.StatusOK, "POST", "/api/challenges/"+g.ID+"/accept", nil, nil)
	server.HoldGameLoads(t, func() {
		mona.must(http.StatusNoContent, "POST", "/api/moderation/close", map[string]string{"user": "mallory", "reason": "test"}, nil)
	})

	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(e.hs.URL, "http")+"/api/games/"+g.ID+"/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + mallory.token}},
	})
	if err != nil {
		t.Fatal(err)
	}
	conn.SetReadLimit(1 << 22)
	t.Cleanup(func() { conn.CloseNow() })
	for {
		_, _, err := conn.Read(ctx)
		if err == nil {
			continue
		}
		var ce websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.StatusPolicyViolation || !strings.HasPrefix(ce.Reason, "closed") {
			t.Fatalf("the channel ended with %v, want a close frame %d \"closed: …\"", err, websocket.StatusPolicyViolation)
		}
		return
	}
}
