package server

import (
	"context"
	"encoding/json"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// forwardCluster forwards every command to another node's owners, as the
// cluster does for a game owned elsewhere.
type forwardCluster struct {
	fakeCluster
	owner *Server
}

func (f *forwardCluster) Forward(ctx context.Context, id string, c match.Command) (match.Ack, error) {
	return f.owner.games.Do(ctx, id, c)
}

// TestLobbyAbandonedAcrossNodes: the node that lists the games is not the
// game's owner, and the guest's page is on a third: the list asks the
// owner, which counts each node's pages apart.
func TestLobbyAbandonedAcrossNodes(t *testing.T) {
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var mu sync.Mutex
	now := time.Now()
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	a, err := New(Config{Store: st, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	defer a.games.StopAll()
	b, err := New(Config{Store: st, Now: clock, Cluster: &forwardCluster{fakeCluster: fakeCluster{journal: st}, owner: a}})
	if err != nil {
		t.Fatal(err)
	}
	defer b.games.StopAll()
	u := &store.User{Name: "guest-1", Guest: true}
	if err := st.CreateUser(ctx, u); err != nil {
		t.Fatal(err)
	}
	res, err := a.createGame(ctx, u, createReq{Game: "tnim", Seats: []seatReq{{Kind: "me"}, {Kind: "bot", Level: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	id := res.Game.ID
	// A correspondence game of the same guest: nobody is expected to stay.
	res, err = a.createGame(ctx, u, createReq{Game: "tnim", Clock: &match.Clock{Kind: match.ClockCorrespondence, Days: 3},
		Seats: []seatReq{{Kind: "me"}, {Kind: "bot", Level: "random"}}})
	if err != nil {
		t.Fatal(err)
	}
	corr := res.Game.ID
	listed := func(id string) bool {
		t.Helper()
		w := httptest.NewRecorder()
		b.handleListGames(w, httptest.NewRequest("GET", "/api/games?status=live", nil))
		var out wire.GameList
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatalf("%d %s: %v", w.Code, w.Body, err)
		}
		return slices.ContainsFunc(out.Games, func(s wire.Summary) bool { return s.ID == id })
	}
	presence := func(id string, here bool, source string) {
		t.Helper()
		if _, err := b.tell(ctx, id, match.Command{Kind: match.CmdPresence, User: actor(u), Here: here, Source: source}); err != nil {
			t.Fatal(err)
		}
	}
	presence(id, true, "node-c")
	if !listed(id) {
		t.Fatal("missing while the guest's page is open on another node")
	}
	presence(id, false, "node-c")
	presence(corr, false, "node-c")
	mu.Lock()
	now = now.Add(match.UnattendedAfter + time.Second)
	mu.Unlock()
	if listed(id) {
		t.Fatal("listed after the guest's page closed on another node and the window passed")
	}
	if !listed(corr) {
		t.Fatal("a correspondence game left the list")
	}
	presence(id, true, "node-d")
	if !listed(id) {
		t.Fatal("missing after the guest opened a page on a fourth node")
	}
}
