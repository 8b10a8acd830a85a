package match_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
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
// budgets a test can afford. It keeps a subtree
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
// subtrees, reserved from the node's budget, while the person thinks — not
// its solver's table, which went back to the node's pool when it moved;
// after BotIdle the game lets go of them (the budget is empty again), and
// the bot's next move is still a move.
func TestIdleBotGameLetsGoOfItsMemory(t *testing.T) {
	mem := compute.NewMemory(1 << 30)
	n := newNode(t, func(c *match.Config) {
		c.Bots = match.WithBotMemory(match.NewBotSemaphore(1), mem)
		c.NewAgent = hardBot
	})
	id := n.create(match.Meta{Game: "sploof", Options: map[string]string{"first": "white"}, Seats: []match.Seat{{Kind: match.SeatBot, Level: "hard"}, {Kind: match.SeatHuman, UserID: alice.ID}}})
	n.botMoved(id, 0)
	if st := mem.Stats(); st.Kept == 0 || st.Kept >= agent.SolverTableBytes || st.Used != st.Kept {
		t.Fatalf("the bot waiting for its person reserves %d bytes, %d kept; want its subtrees only, kept", st.Used, st.Kept)
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
// kept while it waits — in a game of bots only, the other bot's subtrees
// too — and the bot moves when the pool runs it.
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
	if kept := mem.Stats().Kept; kept == 0 {
		t.Fatal("the bot that moved keeps nothing: the test proves nothing")
	}
	eventually(t, "the bot waiting for the pool still holds its memory", func() bool {
		n.time.Advance(match.BotIdle)
		return mem.Stats().Used == 0
	})
	gate <- struct{}{}
	n.botMoved(id, 1)
}

// TestBotGamesStayWithinTheBudget: four games of two hard bots each, on a
// node whose bot memory budget is 16 MiB (less than one solver table),
// play on: no moment's reservations pass the budget, their bots play
// legal moves (the owner would log a random replacement otherwise), and
// when they have all let go the budget is empty.
func TestBotGamesStayWithinTheBudget(t *testing.T) {
	const limit = 16 << 20
	mem := compute.NewMemory(limit)
	pool := &countPool{start: make(chan struct{}), left: map[string]int{"b0": 4, "b1": 4, "b2": 4, "b3": 4}}
	n := newNode(t, func(c *match.Config) {
		c.Bots = match.WithBotMemory(pool, mem)
		// Lighter than hardBot, so that a loaded machine under -race
		// keeps to the events' wait: the solver's smallest table is
		// still more than the budget lends eight bots.
		c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) {
			return agent.NewMCTS(agent.MCTSConfig{Iters: 1000, Workers: 2, Solver: true, SolverNodes: 5000}, 7), nil
		}
	})
	var ids []string
	for i := 0; i < 4; i++ {
		ids = append(ids, n.create(match.Meta{ID: fmt.Sprintf("b%d", i), Game: "sploof", Options: map[string]string{"first": "white"},
			Seats: []match.Seat{{Kind: match.SeatBot, Level: "hard"}, {Kind: match.SeatBot, Level: "hard"}}}))
	}
	close(pool.start) // all four created: now they think
	for _, id := range ids {
		n.botMoved(id, 3)
	}
	st := mem.Stats()
	if st.Peak > limit {
		t.Fatalf("the bots reserved %d bytes at once; the budget is %d", st.Peak, limit)
	}
	if st.Refused == 0 {
		t.Fatal("no reservation was refused: the budget was never short, and the test proves nothing")
	}
	if strings.Contains(n.log(), "bot failed") {
		t.Fatalf("a bot failed:\n%s", n.log())
	}
	eventually(t, "the waiting games still hold their bots' memory", func() bool {
		n.time.Advance(match.BotIdle)
		return mem.Stats().Used == 0
	})
}

// countPool is a BotPool that, once start is closed, runs a number of
// decisions of each game, all at once, and holds the others back until
// they are cancelled.
type countPool struct {
	start chan struct{}
	mu    sync.Mutex
	left  map[string]int
}

func (p *countPool) Think(ctx context.Context, t match.BotTask, choose func(context.Context) (game.Move, error)) (game.Move, error) {
	select {
	case <-p.start:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	p.mu.Lock()
	run := p.left[t.Game] > 0
	p.left[t.Game]--
	p.mu.Unlock()
	if run {
		return choose(ctx)
	}
	<-ctx.Done()
	return 0, ctx.Err()
}
