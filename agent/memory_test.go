package agent

import (
	"context"
	"runtime"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skjuub"
	_ "github.com/tabula-games/tabula/games/sploof"
)

// hardByIters is the hard level with an iteration budget in place of its
// second, so that a test or benchmark does the same work on any machine
// (150,000 iterations a worker is about what a quiet core gives Skjuub's
// search in a second).
func hardByIters(iters int) MCTSConfig {
	cfg := Levels["hard"]
	cfg.Time, cfg.Iters = 0, iters
	return cfg
}

// botsGame is a bots-only game of Skjuub between two agents.
type botsGame struct {
	s      game.State
	agents [2]*MCTS
}

func newBotsGame(tb testing.TB, cfg MCTSConfig, seed uint64) *botsGame {
	tb.Helper()
	s, err := skjuub.Game.New(nil, seed)
	if err != nil {
		tb.Fatal(err)
	}
	return &botsGame{s: s, agents: [2]*MCTS{NewMCTS(cfg, seed), NewMCTS(cfg, seed+1)}}
}

// move plays the next move and reports false when the game is over.
func (g *botsGame) move(tb testing.TB) bool {
	tb.Helper()
	if g.s.Outcome().Over() {
		return false
	}
	mv, err := Ask(context.Background(), g.agents[g.s.ToMove()], g.s)
	if err != nil {
		tb.Fatal(err)
	}
	g.s.Play(mv)
	return true
}

// heapInUse is the live heap after collecting twice, which also empties the
// arenas' pool: what the process holds for good.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkHardMoveSkjuub is one move of a bots-only Skjuub game between two
// hard bots (two workers, 150,000 iterations each instead of a second): the
// bytes and allocations a hard move costs (B/op, allocs/op), and the heap the
// game holds while it waits for its next move once the moves are made
// (idle-KiB/game, the live heap after two collections), and the most its
// bots' trees held after any move (max-kept-KiB/game, from their pools'
// capacities: collecting after every move would empty the arenas' pool
// and make every move allocate a new arena). keep=all is the bots keeping
// the whole subtree of the move played, as before KeepBytes; edges=blocks
// is Skjuub's hard level since it gets a node's moves a block at a time.
func BenchmarkHardMoveSkjuub(b *testing.B) {
	for _, keep := range []struct {
		name   string
		bytes  int64
		blocks bool
	}{{"keep=default", 0, false}, {"keep=all", -1, false}, {"edges=blocks", 0, true}} {
		b.Run(keep.name, func(b *testing.B) {
			cfg := hardByIters(150000)
			cfg.KeepBytes, cfg.EdgeBlocks = keep.bytes, keep.blocks
			base := heapInUse()
			g := newBotsGame(b, cfg, 1)
			var most int64
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if !g.move(b) {
					g = newBotsGame(b, cfg, uint64(i))
				}
				var kept int64
				for _, a := range g.agents {
					for _, w := range a.workers {
						kept += heldBytes(w)
					}
				}
				most = max(most, kept)
			}
			b.StopTimer()
			held := heapInUse()
			runtime.KeepAlive(g)
			b.ReportMetric(float64(held-min(base, held))/1024, "idle-KiB/game")
			b.ReportMetric(float64(most)/1024, "max-kept-KiB/game")
		})
	}
}

// TestIdleKeepsTheSearchTheSame: a bot that keeps only the subtree of its
// move between moves (and gives its arena back) plays the same moves as one
// that keeps its whole tree, reusing the same visits and growing trees of
// the same size — in Skjuub (bonus plies: the next position may be the
// bot's own) and Sploof (drops: transpositions), with two workers, and with
// progressive bias (the priors are copied with the tree).
func TestIdleKeepsTheSearchTheSame(t *testing.T) {
	for _, tc := range []struct {
		game  string
		cfg   MCTSConfig
		plies int
	}{
		// Unbounded (KeepBytes -1): keepWhole keeps the whole tree, so
		// only a subtree kept whole can match it move for move.
		{"skjuub", MCTSConfig{Iters: 2000, Workers: 2, KeepBytes: -1}, 40},
		{"skjuub", MCTSConfig{Iters: 2000, Workers: 2, KeepBytes: -1, EdgeBlocks: true}, 40},
		{"sploof", MCTSConfig{Iters: 2000, KeepBytes: -1}, 30},
		{"sploof", MCTSConfig{Iters: 1000, Bias: 1, PlayoutPlies: 4, KeepBytes: -1}, 30},
	} {
		if testing.Short() {
			// A quarter of the iterations: trees of hundreds of nodes
			// still keep untried edges, bonus plies and priors through
			// every move (a subtree copied out of order or an untried
			// edge lost fails at the first reuse), in a quarter of the
			// time (the full size took 10 s of .ci/run's race step).
			tc.cfg.Iters /= 4
		}
		g, err := game.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := g.New(nil, 3)
		idle := [2]*MCTS{NewMCTS(tc.cfg, 5), NewMCTS(tc.cfg, 6)}
		whole := [2]*MCTS{NewMCTS(tc.cfg, 5), NewMCTS(tc.cfg, 6)}
		whole[0].keepWhole, whole[1].keepWhole = true, true
		reused := 0
		for ply := 0; ply < tc.plies && !s.Outcome().Over(); ply++ {
			a, b := idle[s.ToMove()], whole[s.ToMove()]
			m1, err1 := Ask(context.Background(), a, s)
			m2, err2 := Ask(context.Background(), b, s)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if m1 != m2 || a.LastStats.Reused != b.LastStats.Reused || a.LastStats.Nodes != b.LastStats.Nodes {
				t.Fatalf("%s ply %d: idle played %v (reused %d, %d nodes), whole tree %v (reused %d, %d nodes)", tc.game, ply,
					m1, a.LastStats.Reused, a.LastStats.Nodes, m2, b.LastStats.Reused, b.LastStats.Nodes)
			}
			reused += a.LastStats.Reused
			s.Play(m1)
		}
		if reused == 0 {
			t.Fatalf("%s: no search reused a tree: the test proves nothing", tc.game)
		}
	}
}

// TestHardMoveAllocations: once the process has warmed up, a search grows
// its tree in an arena from the pool and copies out only the subtree it
// keeps, so a move allocates a few dozen times whatever the tree's size.
// Before, the pools grew by doubling at every move, re-rooting allocated new
// pools, and looking for the new root cloned a position per node it passed
// (thousands of allocations a move in Skjuub).
func TestHardMoveAllocations(t *testing.T) {
	if testing.Short() {
		t.Skip("searches for a few seconds")
	}
	g := newBotsGame(t, hardByIters(3000), 2)
	for i := 0; i < 6; i++ { // warm up: arenas, scratch states
		g.move(t)
	}
	allocs := testing.AllocsPerRun(8, func() { g.move(t) })
	if allocs > 80 {
		t.Fatalf("a hard move allocated %.0f times, want at most 80", allocs)
	}
	t.Logf("%.0f allocations a move", allocs)
}
