package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skyjo"
)

// TestWithCores (issue 16, finding 2): a search told by its pool that it
// has fewer cores than it has workers (a hard bot's two on a two-core
// node, whose pool has one) runs only that many, and they share the whole
// iteration budget, so the level plays as strong, only slower. Before, the
// hard bot ran both goroutines whatever the pool granted, and on a
// two-core node took the core left to serve people.
func TestWithCores(t *testing.T) {
	check := func(name string, stats func() SearchStats, choose func(ctx context.Context) error, workers, iters int) {
		t.Helper()
		if err := choose(context.Background()); err != nil {
			t.Fatal(err)
		}
		if s := stats(); s.Workers != workers || s.Iterations != iters {
			t.Fatalf("%s without a cap: %d workers, %d iterations; want %d, %d", name, s.Workers, s.Iterations, workers, iters)
		}
		if err := choose(WithCores(context.Background(), 1)); err != nil {
			t.Fatal(err)
		}
		if s := stats(); s.Workers != 1 || s.Iterations != iters {
			t.Fatalf("%s on one core: %d workers, %d iterations; want 1, %d", name, s.Workers, s.Iterations, iters)
		}
		// A cap above what the agent has changes nothing.
		if err := choose(WithCores(context.Background(), 8)); err != nil {
			t.Fatal(err)
		}
		if s := stats(); s.Workers != workers {
			t.Fatalf("%s with 8 cores: %d workers; want %d", name, s.Workers, workers)
		}
	}

	m := NewMCTS(MCTSConfig{Iters: 300, Workers: 2}, 1)
	s, _ := nimGame{}.New(nil, 1)
	check("mcts", m.Stats, func(ctx context.Context) error { _, err := Ask(ctx, m, s); return err }, 2, 600)

	hard := SamplingLevels["hard"]
	a := NewSampling(hard, 1)
	sk, err := skyjo.NewState(game.Options{"players": "2"}, 5)
	if err != nil {
		t.Fatal(err)
	}
	for sk.ToMove() >= 0 && len(sk.Legal(nil)) < 2 {
		sk.Play(sk.Legal(nil)[0])
	}
	check("sampling", a.Stats, func(ctx context.Context) error { _, err := Ask(ctx, a, sk); return err }, hard.Workers, hard.Iters*hard.Workers)

	if CoresIn(context.Background()) != 0 || CoresIn(WithCores(context.Background(), 0)) != 1 {
		t.Fatal("CoresIn: want 0 without a cap, and a cap of at least 1")
	}
}

// TestWithWorkerStart: each worker goroutine of a search calls the start
// function first (where a server lowers the thread's priority), once per
// worker that searches.
func TestWithWorkerStart(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	start := func() { mu.Lock(); calls++; mu.Unlock() }
	m := NewMCTS(MCTSConfig{Iters: 50, Workers: 3}, 1)
	s, _ := nimGame{}.New(nil, 1)
	if _, err := Ask(WithWorkerStart(context.Background(), start), m, s); err != nil {
		t.Fatal(err)
	}
	if calls != 3 {
		t.Fatalf("start called %d times for 3 workers", calls)
	}
	calls = 0
	if _, err := Ask(WithWorkerStart(WithCores(context.Background(), 2), start), m, s); err != nil {
		t.Fatal(err)
	}
	if calls != 2 {
		t.Fatalf("start called %d times for 2 workers", calls)
	}
}
