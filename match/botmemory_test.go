package match_test

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/sploof"
	_ "github.com/tabula-games/tabula/games/sploof/solve"
	"github.com/tabula-games/tabula/match"
)

// hardBot is a small hard bot: two workers and Sploof's solver, with
// budgets a test can afford. It keeps a subtree and a solver table
// between moves, as the hard level does.
func hardBot(string, game.Game, uint64) (agent.Agent, error) {
	return agent.NewMCTS(agent.MCTSConfig{Iters: 3000, Workers: 2, Solver: true, SolverNodes: 20000}, 7), nil
}

// eventually polls cond until it holds or ten seconds pass.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("after 10 s: %s", what)
		}
	}
}

// humanMove plays the first legal move of the person's seat at ply.
func (n *node) humanMove(id string, u match.User, ply int) {
	n.t.Helper()
	snap, err := n.reg.Snapshot(context.Background(), id)
	if err != nil {
		n.t.Fatal(err)
	}
	mv := snap.State.Legal(nil)[0]
	n.must(id, move(u, ply, snap.State.FormatMove(mv)))
}

// botMoved waits for the move at ply of game id.
func (n *node) botMoved(id string, ply int) {
	n.t.Helper()
	if _, err := n.events.Wait(func(e match.Event) bool { return e.Game == id && e.Kind == match.EventMove && e.Move.Ply == ply }); err != nil {
		n.t.Fatal(err, n.log())
	}
}

// TestNodeAtItsBotMemoryRefusesNewBotGames: a node whose bot memory budget
// is nearly spent refuses a new game with a bot (bots_busy), and still
// accepts a game between people; once the memory is given back, bot games
// are accepted again.
func TestNodeAtItsBotMemoryRefusesNewBotGames(t *testing.T) {
	mem := compute.NewMemory(1000)
	n := newNode(t, func(c *match.Config) {
		c.Bots = match.WithBotMemory(match.NewBotSemaphore(1), mem)
		c.NewAgent = hardBot
	})
	mem.Reserve(800, false)
	bots := match.Meta{ID: "bots", Game: "sploof", Options: map[string]string{"first": "white"}, Created: t0, Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "hard"}}}
	if _, err := n.reg.Create(context.Background(), alice, bots); codeOf(err) != match.CodeBotsBusy {
		t.Fatalf("a bot game on a node at its bot memory: %v; want %s", err, match.CodeBotsBusy)
	}
	n.create(match.Meta{Game: "sploof", Options: map[string]string{"first": "white"}, Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatOpen}}})
	mem.Release(800, false)
	if _, err := n.reg.Create(context.Background(), alice, bots); err != nil {
		t.Fatalf("a bot game once the memory is back: %v", err)
	}
}

// TestIdleBotGameLetsGoOfItsMemory: a hard bot that has moved keeps its
// subtree and its solver table, reserved from the node's budget, while the
// person thinks; after BotIdle the game lets go of them (the budget is
// empty again), and the bot's next move is still a move.
func TestIdleBotGameLetsGoOfItsMemory(t *testing.T) {
	mem := compute.NewMemory(1 << 30)
	n := newNode(t, func(c *match.Config) {
		c.Bots = match.WithBotMemory(match.NewBotSemaphore(1), mem)
		c.NewAgent = hardBot
	})
	id := n.create(match.Meta{Game: "sploof", Options: map[string]string{"first": "white"}, Seats: []match.Seat{{Kind: match.SeatBot, Level: "hard"}, {Kind: match.SeatHuman, UserID: alice.ID}}})
	n.botMoved(id, 0)
	if kept := mem.Stats().Kept; kept < agent.SolverTableBytes {
		t.Fatalf("the bot waiting for its person keeps %d bytes reserved; want its solver table and subtree", kept)
	}
	eventually(t, "the waiting game still holds its bot's memory", func() bool {
		n.time.Advance(match.BotIdle)
		return mem.Stats().Used == 0
	})
	n.humanMove(id, alice, 1)
	n.botMoved(id, 2)
}

// gatePool is a BotPool that runs a decision only once the test lets it
// (one token a decision), as a busy node's pool would.
type gatePool chan struct{}

func (g gatePool) Think(ctx context.Context, _ match.BotTask, choose func(context.Context) (game.Move, error)) (game.Move, error) {
	select {
	case <-g:
		return choose(ctx)
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// TestBotWaitingForThePoolLetsGoOfItsMemory: a game whose bot's decision
// waits long for the node's pool (a busy node) lets go of what its bots
// kept while it waits — in a game of bots only, the other bot's subtree
// and solver table too — and the bot moves when the pool runs it.
func TestBotWaitingForThePoolLetsGoOfItsMemory(t *testing.T) {
	mem := compute.NewMemory(1 << 30)
	gate := make(gatePool, 4)
	n := newNode(t, func(c *match.Config) {
		c.Bots = match.WithBotMemory(gate, mem)
		c.NewAgent = hardBot
	})
	gate <- struct{}{}
	id := n.create(match.Meta{Game: "sploof", Options: map[string]string{"first": "white"}, Seats: []match.Seat{{Kind: match.SeatBot, Level: "hard"}, {Kind: match.SeatHuman, UserID: alice.ID}}})
	n.botMoved(id, 0)
	n.humanMove(id, alice, 1) // the bot's next decision waits at the gate
	if kept := mem.Stats().Kept; kept == 0 {
		t.Fatal("the bot kept nothing from its first move: the test proves nothing")
	}
	eventually(t, "the bot waiting for the pool still holds its memory", func() bool {
		n.time.Advance(match.BotIdle)
		return mem.Stats().Used == 0
	})
	gate <- struct{}{}
	n.botMoved(id, 2)

	// Bots only: the first bot moves, the second waits at the gate.
	gate <- struct{}{}
	id = n.create(match.Meta{Game: "sploof", Options: map[string]string{"first": "white"}, Seats: []match.Seat{{Kind: match.SeatBot, Level: "hard"}, {Kind: match.SeatBot, Level: "hard"}}})
	n.botMoved(id, 0)
	if kept := mem.Stats().Kept; kept < agent.SolverTableBytes {
		t.Fatalf("the bot that moved keeps %d bytes: the test proves nothing", kept)
	}
	eventually(t, "the bot waiting for the pool still holds its memory", func() bool {
		n.time.Advance(match.BotIdle)
		return mem.Stats().Used == 0
	})
	gate <- struct{}{}
	n.botMoved(id, 1)
}
