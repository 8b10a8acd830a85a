package botpool_test

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/botpool"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 10s")
}

// TestSaturated: the pool's saturation shows through the BotPool, where a
// cluster node asks it (server.BotsFull).
func TestSaturated(t *testing.T) {
	p := compute.New(compute.Config{Cores: 1})
	s, ok := botpool.New(p).(interface{ Saturated() bool })
	if !ok {
		t.Fatal("the BotPool cannot say whether it is saturated")
	}
	hold := make(chan struct{})
	defer close(hold)
	for range 2 {
		go p.Run(context.Background(), compute.Task{User: 1}, func(context.Context) error { <-hold; return nil })
	}
	waitFor(t, func() bool { return p.Load().LiveWaiting == 1 })
	if !s.Saturated() {
		t.Error("a one-core pool with a decision waiting is not saturated")
	}
}

// TestBotMemory: the games' bots are offered the pool's memory budget.
func TestBotMemory(t *testing.T) {
	p := compute.New(compute.Config{Cores: 1})
	m, ok := botpool.New(p).(interface{ BotMemory() match.BotMemory })
	if !ok {
		t.Fatal("the BotPool offers no memory budget")
	}
	if got, want := m.BotMemory(), match.BotMemory(p.Memory()); got != want {
		t.Fatalf("the BotPool's budget %v is not the pool's %v", got, want)
	}
}

// TestThinkRunsOnThePool: a decision runs as a task of the pool, and its
// answer is the Think's.
func TestThinkRunsOnThePool(t *testing.T) {
	p := compute.New(compute.Config{Cores: 1})
	b := botpool.New(p)
	inside := make(chan compute.Load, 1)
	mv, err := b.Think(context.Background(), match.BotTask{Game: "g", Creator: 7, Cores: 1}, func(context.Context) (game.Move, error) {
		inside <- p.Load()
		return 3, nil
	})
	if err != nil || mv != 3 {
		t.Fatalf("Think = %v, %v", mv, err)
	}
	if l := <-inside; l.Busy != 1 {
		t.Fatalf("the decision ran outside the pool: %+v", l)
	}
}

// TestSaturatedByMemory: a pool whose bots' memory is pressed is saturated
// too, so that a cluster node hands new bot games to a node with room
// instead of refusing them (bots_busy).
func TestSaturatedByMemory(t *testing.T) {
	p := compute.New(compute.Config{Cores: 2, Memory: 100 << 20})
	s := botpool.New(p).(interface{ Saturated() bool })
	if s.Saturated() {
		t.Fatal("an idle pool is saturated")
	}
	if !p.Memory().Reserve(90<<20, false) {
		t.Fatal("the budget refused 90 of its 100 MiB")
	}
	if !p.Memory().Pressed() {
		t.Fatal("90% of the budget reserved is not pressed")
	}
	if !s.Saturated() {
		t.Error("a pool whose bots' memory is pressed is not saturated")
	}
	p.Memory().Release(90<<20, false)
	if s.Saturated() {
		t.Error("the pool is still saturated once the memory is given back")
	}
}
