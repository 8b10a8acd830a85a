package server

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// TestInboxNotice: the hook for notices without a game (a tournament's)
// refuses a link off the site, an empty or over-long title, and stores
// nothing then; a good notice is an unread item of its user only, and
// the user's channels hear it.
func TestInboxNotice(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	s, err := New(Config{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	defer s.games.StopAll()
	ann, bob := &store.User{Name: "ann", Created: time.Now()}, &store.User{Name: "bob", Created: time.Now()}
	for _, u := range []*store.User{ann, bob} {
		if err := st.CreateUser(ctx, u); err != nil {
			t.Fatal(err)
		}
	}
	c := newSub(func() {})
	defer s.hub.watchUser(ann.ID, c)()
	for _, bad := range [][3]string{
		{"tournament", "Round 2 starts", "javascript:alert(1)"},
		{"tournament", "Round 2 starts", "https://elsewhere.example/"},
		{"tournament", "Round 2 starts", `#/x" onclick="y`},
		{"tournament", "", "#/tournament/t1"},
		{"", "Round 2 starts", "#/tournament/t1"},
		{"tournament", string(make([]byte, 301)), "#/tournament/t1"},
	} {
		if err := s.addInboxNotice(ctx, ann.ID, bad[0], bad[1], bad[2]); err == nil {
			t.Fatalf("notice %q accepted", bad)
		}
	}
	var ss store.Social = st
	if n, _ := ss.Notices(ctx, ann.ID, 0); len(n) != 0 {
		t.Fatalf("refused notices stored: %+v", n)
	}
	if err := s.addInboxNotice(ctx, ann.ID, "tournament", "Round 2 starts", "#/tournament/t1"); err != nil {
		t.Fatal(err)
	}
	select {
	case o := <-c.ch:
		if string(o.msg) != `{"type":"notice","kind":"inbox"}` {
			t.Fatalf("ann's channel got %s", o.msg)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("ann's channel heard nothing")
	}
	items, unread, err := s.inboxItems(ctx, ss, ann.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(items) != 1 || unread != 1 || items[0].Kind != "notice" || items[0].Topic != "tournament" || items[0].Title != "Round 2 starts" || items[0].Link != "#/tournament/t1" {
		t.Fatalf("ann's inbox: %+v (%d unread)", items, unread)
	}
	if items, _, _ := s.inboxItems(ctx, ss, bob.ID); len(items) != 0 {
		t.Fatalf("bob's inbox holds ann's notice: %+v", items)
	}
}
