package match_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/botpool"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// TestPoolBots: a bot's decision runs on the node's compute pool, charged
// to the game's creator; while the pool is busy with someone else's search
// a decision of a game without a clock waits for it, longer than a
// decision may think, and then plays its own move rather than a random one.
func TestPoolBots(t *testing.T) {
	p := compute.New(compute.Config{Cores: 1})
	bot := &scripted{script: []string{"1"}}
	n := newNode(t, func(c *match.Config) {
		c.Bots = botpool.New(p)
		c.BotTimeout = 20 * time.Millisecond
		c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
	})

	// Someone else's search holds the only core.
	hold, started := make(chan struct{}), make(chan struct{})
	go p.Run(context.Background(), compute.Task{User: 99}, func(context.Context) error {
		close(started)
		<-hold
		return nil
	})
	<-started

	id := n.create(match.Meta{Options: map[string]string{"stones": "6"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
	n.must(id, move(alice, 0, "1"))
	waitFor(t, func() bool { return p.Load().LiveWaiting == 1 })
	time.Sleep(100 * time.Millisecond) // five times what the bot may think
	if l := p.Load(); l.LiveWaiting != 1 {
		t.Fatalf("the bot's decision gave up waiting: %+v", l)
	}
	close(hold)
	if _, err := n.events.Wait(func(e match.Event) bool { return e.Kind == match.EventMove && e.Move.Ply == 1 }); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(n.log(), "bot failed") {
		t.Fatalf("the bot's move was replaced:\n%s", n.log())
	}
	waitFor(t, func() bool { return p.Load().Busy == 0 })
}

// TestPoolChargesTheCreator: the decision counts against the user who
// created the game, not the one who moved.
func TestPoolChargesTheCreator(t *testing.T) {
	p := compute.New(compute.Config{Cores: 1})
	bot := &scripted{script: []string{"wait"}, release: make(chan struct{})}
	n := newNode(t, func(c *match.Config) {
		c.Bots = botpool.New(p)
		c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot, nil }
	})
	// Alice creates a game with a bot in seat 0 and an open seat Bob takes.
	id := n.create(match.Meta{Options: map[string]string{"stones": "6"},
		Seats: []match.Seat{{Kind: match.SeatBot, Level: "easy"}, {Kind: match.SeatOpen}}})
	n.must(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})
	waitFor(t, func() bool { return p.Load().Busy == 1 })
	// A task of Alice's waits behind it, then one of Carol's. When the
	// core frees, the one who used less goes first: Carol, since the
	// decision was Alice's (charged to Bob, it would leave the two equal
	// and Alice's older task first).
	order := make(chan int64, 2)
	for _, uid := range []int64{alice.ID, carol.ID} {
		go p.Run(context.Background(), compute.Task{User: uid}, func(context.Context) error { order <- uid; return nil })
		waitFor(t, func() bool { return p.Load().LiveWaiting >= 1 })
	}
	waitFor(t, func() bool { return p.Load().LiveWaiting == 2 })
	close(bot.release)
	if first := <-order; first != carol.ID {
		t.Fatalf("user %d went first: the bot's decision was not charged to the game's creator", first)
	}
	<-order
}

func waitFor(t testing.TB, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 10s")
}
