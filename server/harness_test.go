package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	_ "github.com/tabula-games/tabula/games/all"
	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// env is a real server on a loopback port with a real SQLite file.
type env struct {
	t    *testing.T
	srv  *server.Server
	hs   *httptest.Server
	db   store.Store
	path string
	// open opens the store (default: SQLite at path).
	open func() (store.Store, error)
	logs *syncBuffer
	seed atomic.Uint64
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

type serverConfig = server.Config

type envOption func(*server.Config)

func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	return newEnvWith(t, nil, opts...)
}

// newEnvWith runs the server on the store open returns (nil: SQLite).
func newEnvWith(t *testing.T, open func() (store.Store, error), opts ...envOption) *env {
	t.Helper()
	e := &env{t: t, path: filepath.Join(t.TempDir(), "tabula.db"), logs: &syncBuffer{}, open: open}
	e.seed.Store(12345)
	e.start(opts...)
	t.Cleanup(e.stop)
	return e
}

func (e *env) start(opts ...envOption) {
	t := e.t
	open := e.open
	if open == nil {
		open = func() (store.Store, error) {
			return sqlite.Open(context.Background(), e.path, sqlite.Options{NoSync: true})
		}
	}
	db, err := open()
	if err != nil {
		t.Fatal(err)
	}
	cfg := server.Config{
		Store:        db,
		Logger:       slog.New(slog.NewJSONHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelInfo})),
		PasswordCost: server.PasswordCost{MemoryKiB: 64, Time: 1},
		Seed:         func() uint64 { return e.seed.Add(0x9E3779B97F4A7C15) },
	}
	for _, o := range opts {
		o(&cfg)
	}
	srv, err := server.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	e.db, e.srv = db, srv
	e.hs = httptest.NewServer(srv.Handler())
}

func (e *env) stop() {
	if e.hs == nil {
		return
	}
	e.hs.Config.SetKeepAlivesEnabled(false)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	e.srv.Shutdown(ctx)
	e.hs.CloseClientConnections()
	e.hs.Close()
	e.db.Close()
	e.hs = nil
}

// client is one user of the site with its own credentials.
type client struct {
	e     *env
	name  string
	token string
	id    int64
}

func (e *env) anon() *client { return &client{e: e} }

func (e *env) guest() *client {
	c := e.anon()
	var resp struct {
		User struct {
			ID   int64  `json:"id"`
			Name string `json:"name"`
		} `json:"user"`
		Token string `json:"token"`
	}
	c.must(http.StatusCreated, "POST", "/api/guest", nil, &resp)
	c.name, c.token, c.id = resp.User.Name, resp.Token, resp.User.ID
	return c
}

func (e *env) register(name string) *client {
	c := e.anon()
	var resp struct {
		User struct {
			ID int64 `json:"id"`
		} `json:"user"`
		Token string `json:"token"`
	}
	c.must(http.StatusCreated, "POST", "/api/users", map[string]string{"name": name, "password": "password-" + name}, &resp)
	c.name, c.token, c.id = name, resp.Token, resp.User.ID
	return c
}

// do sends a request; body may be nil, a string (sent as is) or a value
// (sent as JSON).
func (c *client) do(method, path string, body any) (int, []byte) {
	c.e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			c.e.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.e.hs.URL+path, rd)
	if err != nil {
		c.e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		c.e.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, data
}

// must sends a request, checks the status and decodes the answer into out.
func (c *client) must(status int, method, path string, body, out any) {
	c.e.t.Helper()
	got, data := c.do(method, path, body)
	if got != status {
		c.e.t.Fatalf("%s %s: status %d, want %d: %s", method, path, got, status, data)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			c.e.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
}

// apiErr checks that a request fails with the status and error code.
func (c *client) apiErr(status int, code, method, path string, body any) {
	c.e.t.Helper()
	got, data := c.do(method, path, body)
	var e struct {
		Error struct{ Code, Message string }
	}
	json.Unmarshal(data, &e)
	if got != status || e.Error.Code != code || e.Error.Message == "" {
		c.e.t.Fatalf("%s %s: got %d %s, want %d %s", method, path, got, data, status, code)
	}
}

type summary struct {
	ID      string            `json:"id"`
	Game    string            `json:"game"`
	Status  string            `json:"status"`
	Options map[string]string `json:"options"`
	Seats   []struct {
		Seat  int    `json:"seat"`
		Kind  string `json:"kind"`
		User  string `json:"user"`
		Level string `json:"level"`
	} `json:"seats"`
	Ply    int `json:"ply"`
	ToMove int `json:"toMove"`
	Result *struct {
		Status  string `json:"status"`
		Winners []int  `json:"winners"`
		Reason  string `json:"reason"`
		Scores  []int  `json:"scores"`
	} `json:"result"`
}

func (c *client) create(req map[string]any) summary {
	c.e.t.Helper()
	var resp struct{ Game summary }
	c.must(http.StatusCreated, "POST", "/api/games", req, &resp)
	return resp.Game
}

func (c *client) game(id string) (summary, []moveJSON, json.RawMessage) {
	c.e.t.Helper()
	var resp struct {
		Game  summary
		Moves []moveJSON
		View  json.RawMessage
	}
	c.must(http.StatusOK, "GET", "/api/games/"+id, nil, &resp)
	return resp.Game, resp.Moves, resp.View
}

type moveJSON struct {
	Ply  int    `json:"ply"`
	Seat int    `json:"seat"`
	Move string `json:"move"`
}

// wsClient is a WebSocket connection that collects every message.
type wsClient struct {
	t    *testing.T
	c    *websocket.Conn
	msgs chan []byte
	all  [][]byte
	mu   sync.Mutex
	done chan struct{}
}

func (c *client) dial(path string) *wsClient {
	c.e.t.Helper()
	h := http.Header{}
	if c.token != "" {
		h.Set("Authorization", "Bearer "+c.token)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(c.e.hs.URL, "http")+path, &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		c.e.t.Fatalf("dial %s: %v", path, err)
	}
	conn.SetReadLimit(1 << 22)
	w := &wsClient{t: c.e.t, c: conn, msgs: make(chan []byte, 100000), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		for {
			_, data, err := conn.Read(context.Background())
			if err != nil {
				return
			}
			w.mu.Lock()
			w.all = append(w.all, data)
			w.mu.Unlock()
			w.msgs <- data
		}
	}()
	c.e.t.Cleanup(func() { conn.CloseNow() })
	return w
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	data, _ := json.Marshal(v)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := w.c.Write(ctx, websocket.MessageText, data); err != nil {
		w.t.Fatalf("ws send: %v", err)
	}
}

type wsMsg struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Game   json.RawMessage `json:"game"`
	Seat   int             `json:"seat"`
	Ply    int             `json:"ply"`
	Move   string          `json:"move"`
	ToMove int             `json:"toMove"`
	View   json.RawMessage `json:"view"`
	Legal  []string        `json:"legal"`
	Moves  []moveJSON      `json:"moves"`
	TimeMs int64           `json:"timeMs"`
	Error  *struct {
		Code    string `json:"code"`
		Message string `json:"message"`
	} `json:"error"`
	raw []byte
}

// next waits for the next message whose type is one of types.
func (w *wsClient) next(types ...string) wsMsg {
	w.t.Helper()
	timeout := time.After(20 * time.Second)
	for {
		select {
		case data := <-w.msgs:
			var m wsMsg
			if err := json.Unmarshal(data, &m); err != nil {
				w.t.Fatalf("bad message %s: %v", data, err)
			}
			m.raw = data
			if len(types) == 0 {
				return m
			}
			for _, t := range types {
				if m.Type == t {
					return m
				}
			}
		case <-timeout:
			w.t.Fatalf("no %v message within 20s", types)
		}
	}
}

// nextMove waits for the move message of ply, skipping earlier ones.
func (w *wsClient) nextMove(ply int) wsMsg {
	w.t.Helper()
	for {
		m := w.next("move")
		if m.Ply == ply {
			return m
		}
		if m.Ply > ply {
			w.t.Fatalf("waiting for ply %d, got %s", ply, m.raw)
		}
	}
}

func (w *wsClient) received() [][]byte {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([][]byte(nil), w.all...)
}

func (w *wsClient) close() {
	w.c.Close(websocket.StatusNormalClosure, "")
}

func jsonStr(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
