package match_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/match/matchtest"
)

// cancelAfterCreate is a journal whose game creation succeeds and then
// cancels the creator's context, as a client that goes away (or a director
// that stops) just after the game is stored.
type cancelAfterCreate struct {
	*matchtest.Journal
	cancel context.CancelFunc
}

func (j cancelAfterCreate) CreateGame(ctx context.Context, m *match.Meta) error {
	err := j.Journal.CreateGame(ctx, m)
	j.cancel()
	return err
}

// TestCreateStoredThenCancelled: once a game is stored, its creation is
// carried through — its owner announces it and arms its expiry — even if the creator's context ends meanwhile, and the
// creation answers as done: before, the owner's start could be skipped
// (the context's end raced the owner's inbox), leaving a stored game with
// an owner that never started it, answered with an error: refused but
// applied.
func TestCreateStoredThenCancelled(t *testing.T) {
	for i := range 20 {
		ctx, cancel := context.WithCancel(context.Background())
		var j cancelAfterCreate
		n := newNode(t, func(c *match.Config) {
			j = cancelAfterCreate{Journal: c.Journal.(*matchtest.Journal), cancel: cancel}
			c.Journal = j
		})
		id := fmt.Sprintf("c%d", i)
		if _, err := n.reg.Create(ctx, alice, match.Meta{ID: id, Game: "tnim", Created: n.time.Now()}); err != nil {
			t.Fatalf("run %d: a stored game's creation answered %v", i, err)
		}
		announced := false
		for _, e := range n.events.All() {
			announced = announced || (e.Game == id && e.Kind == match.EventCreated)
		}
		if !announced {
			t.Fatalf("run %d: the stored game was never announced", i)
		}
		// Its owner runs: bob joins and the game starts.
		if _, err := n.reg.Do(context.Background(), id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}); err != nil {
			t.Fatalf("run %d: join: %v", i, err)
		}
		if m, _ := j.Game(id); m.Status != match.Live {
			t.Fatalf("run %d: stored as %s after bob joined, want live", i, m.Status)
		}
	}
}
