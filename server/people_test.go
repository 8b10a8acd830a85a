package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// Finding people (people.go): the search by name prefix and the site's
// online list.

type foundUsers struct {
	Users []struct {
		Name   string
		Online bool
	}
}

func (f foundUsers) names() []string {
	out := []string{}
	for _, u := range f.Users {
		out = append(out, u.Name)
	}
	return out
}

type onlineList struct {
	Players []struct {
		Name  string
		State string
		Games []struct{ ID, Game string }
	}
	Users, Guests int
	Truncated     bool
}

// state is each listed player's state, with their games: "alice playing
// tnim:ID", "bob idle".
func (l onlineList) state() []string {
	out := []string{}
	for _, p := range l.Players {
		s := p.Name + " " + p.State
		for _, g := range p.Games {
			s += " " + g.Game + ":" + g.ID
		}
		out = append(out, s)
	}
	return out
}

func (e *env) online() onlineList {
	e.t.Helper()
	var l onlineList
	e.anon().must(http.StatusOK, "GET", "/api/online/players", nil, &l)
	return l
}

// openPage opens c's page of game id and waits until the server counts it
// as a player's.
func (c *client) openPage(id string) *wsClient {
	c.e.t.Helper()
	w := c.dial("/api/games/" + id + "/ws")
	deadline := time.Now().Add(10 * time.Second)
	for server.OpenPages(c.e.srv, id, c.id) == 0 {
		if time.Now().After(deadline) {
			c.e.t.Fatalf("%s's page of %s never counted", c.name, id)
		}
		time.Sleep(5 * time.Millisecond)
	}
	return w
}

// TestSearchUsers: a prefix finds the registered users whose names begin
// with it, ignoring case, in name order, limit at most; guests are never
// found; "online" says who is in the online list.
func TestSearchUsers(t *testing.T) {
	e := newEnv(t)
	users := map[string]*client{}
	for _, n := range []string{"Alice", "alfred", "al_x", "alpx", "bob"} {
		users[n] = e.register(n)
	}
	g := e.guest()
	search := func(q string) []string {
		t.Helper()
		var f foundUsers
		e.anon().must(http.StatusOK, "GET", "/api/users?"+q, nil, &f)
		return f.names()
	}
	for q, want := range map[string][]string{
		"prefix=al":         {"al_x", "alfred", "Alice", "alpx"},
		"prefix=AL":         {"al_x", "alfred", "Alice", "alpx"},
		"prefix=aLi":        {"Alice"},
		"prefix=al&limit=2": {"al_x", "alfred"},
		"prefix=al_":        {"al_x"}, // "_" is a plain character, not LIKE's any-one
		"prefix=zed":        {},
		"prefix=guest":      {}, // guests are not searched
		"prefix=" + g.name:  {},
	} {
		if got := search(q); !slices.Equal(got, want) {
			t.Errorf("%s: %v, want %v", q, got, want)
		}
	}
	// Alice is seen (a signed-in request): online in her search result.
	users["Alice"].must(http.StatusOK, "GET", "/api/me", nil, nil)
	server.PresenceSync(e.srv)
	var f foundUsers
	e.anon().must(http.StatusOK, "GET", "/api/users?prefix=ali", nil, &f)
	if len(f.Users) != 1 || !f.Users[0].Online {
		t.Fatalf("alice signed in, searched: %+v, want her online", f)
	}
	e.anon().must(http.StatusOK, "GET", "/api/users?prefix=alf", nil, &f)
	if len(f.Users) != 1 || f.Users[0].Online {
		t.Fatalf("alfred not seen since registering? %+v", f)
	}
}

// TestSearchUsersBadInput: every malformed search is a 400 with a clear
// message, and searches nothing — a missing or empty prefix, one longer
// than any name (a huge one too), characters no name has (LIKE's % among
// them), a limit out of 1…50.
func TestSearchUsersBadInput(t *testing.T) {
	e := newEnv(t)
	e.register("alice")
	for _, q := range []string{
		"", "prefix=", "prefix=" + strings.Repeat("a", 25), "prefix=" + strings.Repeat("a", 100000),
		"prefix=%25", "prefix=al%25", "prefix=a*", "prefix=a+b", "prefix=%C3%A9", "prefix=a%00", "prefix=a'--",
		"prefix=al&limit=0", "prefix=al&limit=51", "prefix=al&limit=x", "prefix=al&limit=-1",
	} {
		status, data := e.anon().do("GET", "/api/users?"+q, nil)
		var body struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(data, &body)
		if status != http.StatusBadRequest || body.Error.Code == "" || body.Error.Message == "" {
			t.Errorf("%.60s: %d %.200s, want 400 with a code and a message", q, status, data)
		}
	}
	// A name of 24 characters, the longest, is a prefix of itself.
	long := strings.Repeat("z", 24)
	e.register(long)
	var f foundUsers
	e.anon().must(http.StatusOK, "GET", "/api/users?prefix="+url.QueryEscape(long), nil, &f)
	if !slices.Equal(f.names(), []string{long}) {
		t.Fatalf("the longest name: %v", f.names())
	}
}

// TestOnlinePlayersPlayingAndIdle: the list names the registered users
// online, playing (a live game's page open as one of its players: the
// game, to watch) or idle; guests are counted, not named; a game once
// over is no longer played.
func TestOnlinePlayersPlayingAndIdle(t *testing.T) {
	e := newEnv(t)
	if l := e.online(); len(l.Players) != 0 || l.Users != 0 || l.Guests != 0 {
		t.Fatalf("nobody yet: %+v", l)
	}
	alice, bob, carol := e.register("alice"), e.register("bob"), e.register("carol")
	g := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	page := alice.openPage(g.ID)
	defer page.close()
	carol.must(http.StatusOK, "GET", "/api/me", nil, nil)
	guest := e.guest()
	guest.must(http.StatusOK, "GET", "/api/me", nil, nil)
	// A spectator's page is not playing.
	spect := carol.dial("/api/games/" + g.ID + "/ws")
	defer spect.close()
	spect.next()
	server.PresenceSync(e.srv)
	l := e.online()
	want := []string{"alice playing tnim:" + g.ID, "bob idle", "carol idle"}
	if !slices.Equal(l.state(), want) || l.Users != 3 || l.Guests != 1 || l.Truncated {
		t.Fatalf("online: %v, %d users, %d guests; want %v, 3 users, 1 guest", l.state(), l.Users, l.Guests, want)
	}
	var count struct{ Players int }
	e.anon().must(http.StatusOK, "GET", "/api/online", nil, &count)
	if count.Players != 4 {
		t.Fatalf("GET /api/online: %d, want 4 (3 users and a guest)", count.Players)
	}
	// The game ends: alice's page stays open, but she plays no more.
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
	server.PresenceSync(e.srv)
	if got := e.online().state(); !slices.Equal(got, []string{"alice idle", "bob idle", "carol idle"}) {
		t.Fatalf("after the game: %v", got)
	}
}

// TestOnlineAcrossNodes: two nodes on one PostgreSQL store list the same
// players: alice playing on one, bob idle on the other. A node stopping
// takes its users off at once; the word of a node that died (it never
// says goodbye) runs out after the expiry.
func TestOnlineAcrossNodes(t *testing.T) {
	a, b, offset := twoNodes(t, 0)
	alice := a.register("alice")
	bob := b.register("bob")
	a.register("carol")
	// A live game on node a (a bot's seat: it waits for alice's move).
	g := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	page := alice.openPage(g.ID)
	defer page.close()
	bob.must(http.StatusOK, "GET", "/api/me", nil, nil)
	server.PresenceSync(a.srv, b.srv)
	want := []string{"alice playing tnim:" + g.ID, "bob idle"}
	for i, n := range []*env{a, b} {
		if got := n.online().state(); !slices.Equal(got, want) {
			t.Fatalf("node %d: %v, want %v", i+1, got, want)
		}
	}

	// A node that died: its rows stay until the expiry, then count no
	// more, and the next beat of a live node deletes them.
	carol, err := a.db.UserByName(context.Background(), "carol")
	if err != nil {
		t.Fatal(err)
	}
	// The nodes' clock stands still at about time.Now() (twoNodes).
	now := time.Now().Add(time.Duration(offset.Load()))
	if _, err := a.db.(store.Presence).WritePresence(context.Background(), store.PresenceWrite{Node: "dead", At: now,
		Add: []store.PresenceEntry{{UserID: carol.ID}}}); err != nil {
		t.Fatal(err)
	}
	server.PresenceSync(a.srv, b.srv)
	if got := a.online().state(); !slices.Equal(got, []string{"alice playing tnim:" + g.ID, "bob idle", "carol idle"}) {
		t.Fatalf("with the dead node's word: %v", got)
	}
	offset.Add(int64(server.PresenceExpiry + 10*time.Second)) // bob, seen, is still within two minutes
	server.PresenceSync(a.srv, b.srv)
	for i, n := range []*env{a, b} {
		if got := n.online().state(); !slices.Equal(got, want) {
			t.Fatalf("node %d after the expiry: %v, want %v (carol gone)", i+1, got, want)
		}
	}

	// Node b stops: bob is gone from the list on a.
	b.stop()
	server.PresenceSync(a.srv)
	if got := a.online().state(); !slices.Equal(got, []string{"alice playing tnim:" + g.ID}) {
		t.Fatalf("after node b stopped: %v", got)
	}
}

// countingStore counts the reads of the online list.
type countingStore struct {
	*sqlite.DB
	reads atomic.Int64
}

func (c *countingStore) OnlineUsers(ctx context.Context, since time.Time, limit int) ([]store.OnlineEntry, error) {
	c.reads.Add(1)
	return c.DB.OnlineUsers(ctx, since, limit)
}

// TestPeopleFlood: a flood costs the store little — many requests for the
// online list at once share one read of it; one user's many sockets are
// one row; a client searching too fast is refused 429 like any other.
func TestPeopleFlood(t *testing.T) {
	var cs *countingStore
	e := newEnvWith(t, func() (store.Store, error) {
		db, err := sqlite.Open(context.Background(), t.TempDir()+"/t.db", sqlite.Options{NoSync: true})
		cs = &countingStore{DB: db}
		return cs, err
	})
	alice := e.register("alice")
	var socks []*wsClient
	for i := 0; i < 20; i++ {
		socks = append(socks, alice.dial("/api/ws"))
	}
	defer func() {
		for _, s := range socks {
			s.close()
		}
	}()
	server.PresenceSync(e.srv)
	before := cs.reads.Load()
	start := time.Now()
	var wg sync.WaitGroup
	var bad atomic.Int64
	for i := 0; i < 200; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if status, _ := e.anon().do("GET", "/api/online/players", nil); status != http.StatusOK {
				bad.Add(1)
			}
		}()
	}
	wg.Wait()
	reads := cs.reads.Load() - before
	if most := int64(time.Since(start)/time.Second) + 2; reads > most || bad.Load() > 0 {
		t.Fatalf("200 requests in %v read the list %d times (at most %d), %d failed", time.Since(start), reads, most, bad.Load())
	}
	if got := e.online(); !slices.Equal(got.state(), []string{"alice idle"}) || got.Users != 1 {
		t.Fatalf("twenty sockets of one user: %+v", got)
	}

	// The rate limit holds for searches as for every read.
	r := newEnv(t, func(c *serverConfig) { c.RateLimit = 2; c.RateBurst = 5 })
	searcher := r.register("alice")
	limited := 0
	for i := 0; i < 40; i++ {
		if status, _ := searcher.do("GET", fmt.Sprintf("/api/users?prefix=a%d", i%10), nil); status == http.StatusTooManyRequests {
			limited++
		}
	}
	if limited == 0 {
		t.Fatal("40 searches at once by one user: none refused")
	}
}
