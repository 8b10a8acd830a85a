package match_test

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/botpool"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// twoCores is a bot whose search would run two goroutines (a hard bot's);
// it reports the cap on its search's goroutines that each decision gets.
type twoCores struct{ caps chan int }

func (b twoCores) Name() string { return "two cores" }
func (b twoCores) Cores() int   { return 2 }
func (b twoCores) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	b.caps <- agent.CoresIn(ctx)
	return obs.World().ParseMove("1")
}

// TestPoolBotsKeepToTheirCores (issue 16, finding 2): a decision runs on
// no more cores than the pool granted it. On a two-core node the pool has
// one core, and a hard bot, whose search runs two goroutines, was granted
// that one and ran both anyway, so a flood of hard bots took both cores
// and people's moves waited for the scheduler (p99 ×12–16 under
// `tabula loadtest --flood`). A pool with cores to spare lets it run both.
func TestPoolBotsKeepToTheirCores(t *testing.T) {
	for _, c := range []struct{ pool, want int }{{1, 1}, {3, 2}} {
		p := compute.New(compute.Config{Cores: c.pool})
		bot := twoCores{caps: make(chan int, 4)}
		n := newNode(t, func(cfg *match.Config) {
			cfg.Bots = botpool.New(p)
			cfg.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
		})
		id := n.create(match.Meta{Options: map[string]string{"stones": "6"},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "hard"}}})
		n.must(id, move(alice, 0, "1"))
		if got := <-bot.caps; got != c.want {
			t.Errorf("a pool of %d cores let a two-core search run %d goroutines (0: no cap); want %d", c.pool, got, c.want)
		}
	}
}
