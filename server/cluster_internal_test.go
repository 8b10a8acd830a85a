package server

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	_ "github.com/tabula-games/tabula/match/matchtest"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// fakeCluster records the games it is asked to create elsewhere.
type fakeCluster struct {
	Cluster
	journal match.Journal
	created []match.Meta
}

func (f *fakeCluster) Journal() match.Journal                          { return f.journal }
func (f *fakeCluster) Publisher(local match.Publisher) match.Publisher { return local }
func (f *fakeCluster) CreateElsewhere(_ context.Context, _ match.User, m match.Meta) (match.Ack, error) {
	f.created = append(f.created, m)
	return match.Ack{Meta: m}, nil
}

// fullPool is a bot pool at its budget.
type fullPool struct{ match.BotPool }

func (fullPool) Saturated() bool { return true }

func (fullPool) Think(ctx context.Context, _ match.BotTask, choose func(context.Context) (game.Move, error)) (game.Move, error) {
	return choose(ctx)
}

// TestCreateAtBotBudget: a cluster node whose bot pool is at its budget
// has a new game with a bot seat made by another node; a game between
// people it makes itself, and so does a node with room.
func TestCreateAtBotBudget(t *testing.T) {
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	fc := &fakeCluster{journal: st}
	s, err := New(Config{Store: st, Cluster: fc})
	if err != nil {
		t.Fatal(err)
	}
	defer s.games.StopAll()
	u := &store.User{Name: "ann"}
	if err := st.CreateUser(context.Background(), u); err != nil {
		t.Fatal(err)
	}
	bot := createReq{Game: "tnim", Seats: []seatReq{{Kind: "me"}, {Kind: "bot", Level: "random"}}}
	people := createReq{Game: "tnim", Seats: []seatReq{{Kind: "me"}, {Kind: "open"}}}
	for _, tc := range []struct {
		full      bool
		req       createReq
		elsewhere bool
	}{
		{false, bot, false},
		{true, people, false},
		{true, bot, true},
	} {
		if tc.full {
			s.bots = fullPool{}
		}
		before := len(fc.created)
		if _, err := s.createGame(context.Background(), u, tc.req); err != nil {
			t.Fatal(err)
		}
		if got := len(fc.created) > before; got != tc.elsewhere {
			t.Errorf("full %v, seats %v: made elsewhere %v, want %v", tc.full, tc.req.Seats, got, tc.elsewhere)
		}
	}
}
