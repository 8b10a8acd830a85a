package match_test

import (
	"context"
	"syscall"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/botpool"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// niceProbe reports the nice value of the thread its decisions run on.
type niceProbe struct{ nices chan int }

func (b niceProbe) Name() string { return "nice probe" }
func (b niceProbe) Cores() int   { return 1 }
func (b niceProbe) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	raw, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	b.nices <- 20 - raw
	return obs.World().ParseMove("1")
}

// TestPoolBotsThinkAtLowPriority (issue 16, finding 2): a bot's decision on
// the node's pool runs on a thread of lower priority than the process's
// others, so that even when the machine's cores are all busy the kernel
// runs the threads serving people's moves first.
func TestPoolBotsThinkAtLowPriority(t *testing.T) {
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := 20 - raw
	if base >= 19 {
		t.Skip("the process already runs at the lowest priority")
	}
	p := compute.New(compute.Config{Cores: 1})
	bot := niceProbe{nices: make(chan int, 4)}
	n := newNode(t, func(cfg *match.Config) {
		cfg.Bots = botpool.New(p)
		cfg.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
	})
	id := n.create(match.Meta{Options: map[string]string{"stones": "6"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "hard"}}})
	n.must(id, move(alice, 0, "1"))
	if got := <-bot.nices; got <= base {
		t.Fatalf("the decision ran at nice %d, the process's %d", got, base)
	}
}
