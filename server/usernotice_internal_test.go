package server

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// noticeBus joins the fake clusters of a test's nodes: what one node sends
// a user reaches the subscriptions of the others (never its own: NATS's
// NoEcho, as in package cluster).
type noticeBus struct {
	mu   sync.Mutex
	subs map[*noticeCluster]map[int64][]*func([]byte)
}

// noticeCluster is one node's Cluster for the test: games are this node's
// own (the test needs none elsewhere), notices go over the bus.
type noticeCluster struct {
	Cluster
	bus     *noticeBus
	journal match.Journal
}

func (c *noticeCluster) Journal() match.Journal                          { return c.journal }
func (c *noticeCluster) Publisher(local match.Publisher) match.Publisher { return local }
func (c *noticeCluster) Start(context.Context, *match.Registry, match.Publisher) error {
	return nil
}
func (c *noticeCluster) WatchGame(string) func()    { return func() {} }
func (c *noticeCluster) WatchUser(int64) func()     { return func() {} }
func (c *noticeCluster) Forget([]int64)             {}
func (c *noticeCluster) Healthy() error             { return nil }
func (c *noticeCluster) Stop(context.Context) error { return nil }

func (c *noticeCluster) NoticeUser(uid int64, data []byte) error {
	c.bus.mu.Lock()
	defer c.bus.mu.Unlock()
	for other, users := range c.bus.subs {
		if other == c {
			continue
		}
		for _, fn := range users[uid] {
			(*fn)(data)
		}
	}
	return nil
}

func (c *noticeCluster) WatchNotices(uid int64, deliver func([]byte)) func() {
	c.bus.mu.Lock()
	defer c.bus.mu.Unlock()
	if c.bus.subs[c] == nil {
		c.bus.subs[c] = map[int64][]*func([]byte){}
	}
	fn := &deliver
	c.bus.subs[c][uid] = append(c.bus.subs[c][uid], fn)
	return func() {
		c.bus.mu.Lock()
		defer c.bus.mu.Unlock()
		l := c.bus.subs[c][uid]
		for i, f := range l {
			if f == fn {
				c.bus.subs[c][uid] = append(l[:i], l[i+1:]...)
				break
			}
		}
	}
}

// subscriptions is how many notice subscriptions node c holds for uid.
func (c *noticeCluster) subscriptions(uid int64) int {
	c.bus.mu.Lock()
	defer c.bus.mu.Unlock()
	return len(c.bus.subs[c][uid])
}

// TestNoticeReachesOtherNode: two nodes on one store; a user's channel is
// open on node B. An invitation made on node A, and the user marking
// their inbox read on node A, reach that channel on B; B holds one
// subscription however many channels the user has there, and none once
// they close.
func TestNoticeReachesOtherNode(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	bus := &noticeBus{subs: map[*noticeCluster]map[int64][]*func([]byte){}}
	var nodes [2]*Server
	var clusters [2]*noticeCluster
	var urls [2]string
	for i := range nodes {
		clusters[i] = &noticeCluster{bus: bus, journal: st}
		s, err := New(Config{Store: st, Cluster: clusters[i], PasswordCost: PasswordCost{MemoryKiB: 64, Time: 1}})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctx); err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewServer(s.Handler())
		defer func() {
			hs.CloseClientConnections()
			hs.Close()
			c, cancel := context.WithTimeout(ctx, 5*time.Second)
			defer cancel()
			s.Shutdown(c)
		}()
		nodes[i], urls[i] = s, hs.URL
	}
	ann, bob := &store.User{Name: "ann", Created: time.Now()}, &store.User{Name: "bob", Created: time.Now()}
	for _, u := range []*store.User{ann, bob} {
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	token := func(u *store.User) string {
		tok, _, err := nodes[0].accounts.StartSession(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		return tok
	}
	annTok, bobTok := token(ann), token(bob)
	dialAs := func(tok string, node int) (*websocket.Conn, chan []byte) {
		h := http.Header{"Authorization": {"Bearer " + tok}}
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(urls[node], "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			t.Fatal(err)
		}
		ch := make(chan []byte, 100)
		go func() {
			for {
				_, data, err := c.Read(ctx)
				if err != nil {
					return
				}
				ch <- data
			}
		}()
		return c, ch
	}
	dial := func(node int) (*websocket.Conn, chan []byte) { return dialAs(annTok, node) }
	waitNotice := func(ch chan []byte, want func(m map[string]any) bool) {
		t.Helper()
		timeout := time.After(10 * time.Second)
		for {
			select {
			case data := <-ch:
				var m map[string]any
				json.Unmarshal(data, &m)
				if m["type"] == "notice" && want(m) {
					return
				}
			case <-timeout:
				t.Fatal("no notice on the other node within 10 s")
			}
		}
	}
	c1, ch1 := dial(1)
	c2, _ := dial(1)
	if n := clusters[1].subscriptions(ann.ID); n != 1 {
		t.Fatalf("node B holds %d subscriptions for ann's two channels, want 1", n)
	}
	post := func(tok, path, body string) {
		t.Helper()
		req, _ := http.NewRequest("POST", urls[0]+path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("POST %s: %d", path, resp.StatusCode)
		}
	}
	// On node A, bob invites ann: her channel on node B hears it.
	post(bobTok, "/api/games", `{"game":"tnim","options":{"stones":"5"},"seats":[{"kind":"me"},{"kind":"invite","user":"ann"}]}`)
	waitNotice(ch1, func(m map[string]any) bool { return m["kind"] == "inbox" })
	// On node A, ann reads everything: node B's channel hears the count.
	post(annTok, "/api/inbox/read", `{"all":true}`)
	waitNotice(ch1, func(m map[string]any) bool { return m["kind"] == "inbox" && m["unread"] == float64(0) })
	// Cat has a channel open on node B only: bob, asking node A, sees her
	// online (the site's online list, in the store).
	cat := &store.User{Name: "cat", Created: time.Now()}
	if err := st.CreateUser(ctx, cat); err != nil {
		t.Fatal(err)
	}
	c3, _ := dialAs(token(cat), 1)
	defer c3.CloseNow()
	post(bobTok, "/api/follows/cat", "")
	deadline := time.Now().Add(10 * time.Second)
	for {
		req, _ := http.NewRequest("GET", urls[0]+"/api/follows", nil)
		req.Header.Set("Authorization", "Bearer "+bobTok)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var f struct {
			Follows []struct {
				User   string
				Online bool
			}
		}
		json.NewDecoder(resp.Body).Decode(&f)
		resp.Body.Close()
		if len(f.Follows) == 1 && f.Follows[0].Online {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("bob's follows on node A: %+v, want cat online (her channel is open on node B)", f)
		}
		time.Sleep(50 * time.Millisecond)
	}
	c1.Close(websocket.StatusNormalClosure, "")
	c2.Close(websocket.StatusNormalClosure, "")
	deadline = time.Now().Add(10 * time.Second)
	for clusters[1].subscriptions(ann.ID) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("node B still subscribed to ann's notices after her channels closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
}
