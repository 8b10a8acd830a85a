package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store/sqlite"
)

// forgetCluster records the users the node says changed.
type forgetCluster struct {
	fakeCluster
	forgot []int64
}

func (f *forgetCluster) Forget(uids []int64) { f.forgot = append(f.forgot, uids...) }

// TestForgetAcrossNodes: a node hears only the games its connections
// watch, so the node where a user's ratings or name change tells the
// others (Cluster.Forget) — at a rated game's end on its owner, and when a
// guest registers — and drops its own copies; what another node says
// changed is dropped here (remoteEvents.ForgetUsers).
func TestForgetAcrossNodes(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fc := &forgetCluster{fakeCluster: fakeCluster{journal: st}}
	s, err := New(Config{Store: st, Cluster: fc})
	if err != nil {
		t.Fatal(err)
	}
	defer s.games.StopAll()
	now := time.Now()
	cached := func(uid int64) bool { _, ok := s.ratings.Get(uid, s.now()); return ok }
	for _, uid := range []int64{1, 2, 3} {
		s.ratings.Put(uid, []match.Rating{{Game: "tnim", Rating: 1500, Games: 1}}, now.Add(time.Hour), now)
	}

	// A rated game between users 1 and 2 (and a bot) ends on this node.
	seats := []match.Seat{{Kind: match.SeatHuman, UserID: 1}, {Kind: match.SeatBot, Level: "random"}, {Kind: match.SeatHuman, UserID: 2}}
	s.hub.Publish(match.Event{Game: "g", Kind: match.EventEnd, Meta: match.Meta{ID: "g", Rated: true, Status: match.Finished, Seats: seats}})
	if !slices.Equal(fc.forgot, []int64{1, 2}) {
		t.Fatalf("a rated game's end told the other nodes %v, want [1 2]", fc.forgot)
	}
	if cached(1) || cached(2) || !cached(3) {
		t.Fatalf("after the end, cached 1 %v, 2 %v, 3 %v: want false false true", cached(1), cached(2), cached(3))
	}
	// An unrated game's end changes no rating.
	fc.forgot = nil
	s.hub.Publish(match.Event{Game: "h", Kind: match.EventEnd, Meta: match.Meta{ID: "h", Status: match.Finished, Seats: seats}})
	if len(fc.forgot) != 0 {
		t.Fatalf("an unrated game's end told the other nodes %v", fc.forgot)
	}

	// Another node says user 3 changed.
	remoteEvents{s.hub}.ForgetUsers([]int64{3})
	if cached(3) {
		t.Fatal("user 3 is still cached after another node said it changed")
	}

	// A guest registers: its name changed, on every node.
	g, err := s.accounts.NewGuest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if name := s.accounts.Name(ctx, g.ID); name != g.Name {
		t.Fatalf("name %q, want %q", name, g.Name)
	}
	tok, _, err := s.accounts.StartSession(ctx, &g)
	if err != nil {
		t.Fatal(err)
	}
	fc.forgot = nil
	r := httptest.NewRequest("POST", "/api/users", strings.NewReader(`{"name":"forgetme","password":"a long unguessable phrase 42"}`))
	r.Header.Set("Content-Type", "application/json")
	r.Header.Set("Sec-Fetch-Site", "same-origin")
	r.AddCookie(&http.Cookie{Name: sessionCookie, Value: tok})
	w := httptest.NewRecorder()
	s.Handler().ServeHTTP(w, r)
	if w.Code != http.StatusCreated {
		t.Fatalf("register: %d %s", w.Code, w.Body)
	}
	if !slices.Equal(fc.forgot, []int64{g.ID}) {
		t.Fatalf("a guest's registration told the other nodes %v, want [%d]", fc.forgot, g.ID)
	}
	if name := s.accounts.Name(ctx, g.ID); name != "forgetme" {
		t.Fatalf("name after registering %q, want forgetme", name)
	}
}
