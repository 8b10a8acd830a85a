package storetest

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// People runs the conformance tests of finding people (store.People and
// store.Presence) on the stores open gives.
func People(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("prefix", func(t *testing.T) { testUsersByPrefix(t, open(t)) })
	t.Run("presence", func(t *testing.T) { testPresence(t, open(t)) })
}

func names(us []store.User) []string {
	out := []string{}
	for _, u := range us {
		out = append(out, u.Name)
	}
	return out
}

// testUsersByPrefix: a prefix matches the registered users whose names
// begin with it, ignoring case, by name, at most limit; "%" and "_" are
// plain characters (no LIKE); guests are never found, a guest who
// registered is.
func testUsersByPrefix(t *testing.T, s store.Store) {
	t.Cleanup(func() { s.Close() })
	p, ok := s.(store.People)
	if !ok {
		t.Fatalf("%T does not search users", s)
	}
	ctx := context.Background()
	for _, n := range []string{"Alice", "alfred", "al_x", "alpx", "ALYX", "bob", "al-1"} {
		newUser(t, s, n)
	}
	g := store.User{Name: "guest-alpha", Guest: true, Created: t0}
	must(t, s.CreateUser(ctx, &g))
	find := func(prefix string, limit int) []string {
		t.Helper()
		us, err := p.UsersByPrefix(ctx, prefix, limit)
		must(t, err)
		return names(us)
	}
	for _, tc := range []struct {
		prefix string
		limit  int
		want   []string
	}{
		{"al", 10, []string{"al-1", "al_x", "alfred", "Alice", "alpx", "ALYX"}}, // byte order of the lower-case names
		{"AL", 10, []string{"al-1", "al_x", "alfred", "Alice", "alpx", "ALYX"}},
		{"al", 2, []string{"al-1", "al_x"}},
		{"ALI", 10, []string{"Alice"}},
		{"al_", 10, []string{"al_x"}}, // "_" is not LIKE's any-character: alpx is not found
		{"al%", 10, []string{}},       // nor "%" any-string
		{"%", 10, []string{}},
		{"_", 10, []string{}},
		{"g", 10, []string{}}, // no guests
		{"alicexyz", 10, []string{}},
		{"al", 0, []string{}},
	} {
		if got := find(tc.prefix, tc.limit); !slices.Equal(got, tc.want) {
			t.Errorf("prefix %q limit %d: %v, want %v", tc.prefix, tc.limit, got, tc.want)
		}
	}
	// A guest who registers is found under the new name.
	g.Name, g.Guest, g.PasswordHash = "gale", false, "hash"
	must(t, s.UpdateUser(ctx, g))
	if got := find("g", 10); !slices.Equal(got, []string{"gale"}) {
		t.Errorf("after a guest registered: %v", got)
	}
}

// testPresence: each node writes its own rows; the list is every node's,
// one row per user and game with the newest stamp, registered users only
// (guests are counted); rows stamped before the expiry are deleted, a
// node's refresh says how many rows it still had, and Clear empties it.
func testPresence(t *testing.T, s store.Store) {
	t.Cleanup(func() { s.Close() })
	pr, ok := s.(store.Presence)
	if !ok {
		t.Fatalf("%T keeps no presence", s)
	}
	ctx := context.Background()
	ann, bob, cat := newUser(t, s, "ann"), newUser(t, s, "bob"), newUser(t, s, "cat")
	guest := store.User{Name: "guest-x1", Guest: true, Created: t0}
	must(t, s.CreateUser(ctx, &guest))
	live := newGame(t, s, "live1", bob.ID, match.Live, t0)
	done := newGame(t, s, "done1", ann.ID, match.Finished, t0)

	write := func(w store.PresenceWrite) int {
		t.Helper()
		n, err := pr.WritePresence(ctx, w)
		must(t, err)
		return n
	}
	at := func(s int) time.Time { return t0.Add(time.Duration(s) * time.Second) }
	write(store.PresenceWrite{Node: "A", At: at(0), Add: []store.PresenceEntry{{UserID: ann.ID}, {UserID: bob.ID}, {UserID: bob.ID, GameID: live.ID}, {UserID: guest.ID}}})
	write(store.PresenceWrite{Node: "B", At: at(5), Add: []store.PresenceEntry{{UserID: ann.ID}, {UserID: ann.ID, GameID: done.ID}}})
	write(store.PresenceWrite{Node: "dead", At: at(-60), Add: []store.PresenceEntry{{UserID: cat.ID}}})

	type row struct {
		name, game, kind string
		status           match.Status
		seen             time.Time
	}
	list := func(since time.Time, limit int) []row {
		t.Helper()
		es, err := pr.OnlineUsers(ctx, since, limit)
		must(t, err)
		out := []row{}
		for _, e := range es {
			out = append(out, row{e.Name, e.GameID, e.Game, e.Status, e.Seen})
		}
		return out
	}
	want := []row{
		{"ann", "", "", "", at(5)}, // the newest stamp of A's and B's
		{"ann", "done1", "sgolte", match.Finished, at(5)},
		{"bob", "", "", "", at(0)},
		{"bob", "live1", "sgolte", match.Live, at(0)},
	}
	if got := list(at(-30), 100); !slices.Equal(got, want) {
		t.Fatalf("online since -30 s:\n%v\nwant\n%v", got, want)
	}
	if got := list(at(-30), 3); !slices.Equal(got, want[:3]) {
		t.Fatalf("limit 3: %v", got)
	}
	if got := list(at(-90), 100); len(got) != 5 || got[4].name != "cat" {
		t.Fatalf("since -90 s (the dead node's row too): %v", got)
	}
	if users, guests, err := pr.OnlineCount(ctx, at(-30)); err != nil || users != 2 || guests != 1 {
		t.Fatalf("count: %d users, %d guests, %v; want 2 and 1", users, guests, err)
	}

	// A's beat: bob left his game's page; everything else refreshed; the
	// dead node's rows expire.
	if n := write(store.PresenceWrite{Node: "A", At: at(10), Remove: []store.PresenceEntry{{UserID: bob.ID, GameID: live.ID}}, Refresh: true, ExpireBefore: at(-30)}); n != 3 {
		t.Fatalf("A refreshed %d rows, want 3", n)
	}
	want = []row{
		{"ann", "", "", "", at(10)},
		{"ann", "done1", "sgolte", match.Finished, at(5)},
		{"bob", "", "", "", at(10)},
	}
	if got := list(at(-90), 100); !slices.Equal(got, want) {
		t.Fatalf("after A's beat:\n%v\nwant\n%v", got, want)
	}
	// B stops: its rows go at once. A refresh of a node with no rows says 0.
	write(store.PresenceWrite{Node: "B", Clear: true})
	if n := write(store.PresenceWrite{Node: "B", At: at(11), Refresh: true}); n != 0 {
		t.Fatalf("B, cleared, refreshed %d rows", n)
	}
	if got := list(at(-90), 100); len(got) != 2 || got[0].game != "" || got[1].name != "bob" {
		t.Fatalf("after B stopped: %v", got)
	}
	// Expiry reaches every node's rows, A's too when A stops speaking.
	write(store.PresenceWrite{Node: "C", At: at(100), Add: []store.PresenceEntry{{UserID: cat.ID}}, ExpireBefore: at(50)})
	if got := list(at(-90), 100); len(got) != 1 || got[0].name != "cat" {
		t.Fatalf("after A's rows expired: %v", got)
	}
	// Many rows in one write (several INSERT chunks), written twice.
	var many []store.PresenceEntry
	for i := 0; i < 450; i++ {
		many = append(many, store.PresenceEntry{UserID: ann.ID, GameID: "g" + string(rune('a'+i%26)) + string(rune('a'+i/26))})
	}
	write(store.PresenceWrite{Node: "D", At: at(101), Add: many})
	write(store.PresenceWrite{Node: "D", At: at(102), Add: many})
	if n := write(store.PresenceWrite{Node: "D", At: at(103), Refresh: true}); n != 450 {
		t.Fatalf("D refreshed %d rows, want 450", n)
	}
}
