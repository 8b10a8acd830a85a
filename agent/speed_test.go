package agent

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/sgolte"
	_ "github.com/tabula-games/tabula/games/skjuub"
	_ "github.com/tabula-games/tabula/games/sploof"
)

// benchmarkSearch is what SearchSpeed measures, by iterations: the game's
// search agent on one worker from the default start, no tree reused; each op
// is one search of iters iterations.
func benchmarkSearch(b *testing.B, name string, iters int) {
	benchmarkSearchWith(b, name, MCTSConfig{Iters: iters, Workers: 1, NoReuse: true})
}

// benchmarkSearchWith is benchmarkSearch with the search's config given.
func benchmarkSearchWith(b *testing.B, name string, cfg MCTSConfig) {
	g, err := game.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	s, _ := g.New(nil, 1)
	obs, err := game.Observe(s, s.ToMove())
	if err != nil {
		b.Fatal(err)
	}
	a := newSearch(g, cfg, 1, "mcts")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := a.Choose(context.Background(), obs); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*cfg.Iters)/b.Elapsed().Seconds(), "iters/s")
}

func BenchmarkSearchSploof(b *testing.B) { benchmarkSearch(b, "sploof", 100000) }
func BenchmarkSearchSkjuub(b *testing.B) { benchmarkSearch(b, "skjuub", 50000) }
func BenchmarkSearchSgolte(b *testing.B) { benchmarkSearch(b, "sgolte", 20000) }

// BenchmarkSearchSkjuubMinimax is BenchmarkSearchSkjuub with the implicit
// minimax backups of Skjuub's (and Sgolte's) medium and hard levels: their
// cost per iteration, in the same run.
func BenchmarkSearchSkjuubMinimax(b *testing.B) {
	benchmarkSearchWith(b, "skjuub", MCTSConfig{Iters: 50000, Workers: 1, NoReuse: true, Minimax: minimaxWeight})
}

// BenchmarkSearchSgolteMinimax is BenchmarkSearchSgolte with the implicit
// minimax backups of Sgolte's medium and hard levels.
func BenchmarkSearchSgolteMinimax(b *testing.B) {
	benchmarkSearchWith(b, "sgolte", MCTSConfig{Iters: 20000, Workers: 1, NoReuse: true, Minimax: minimaxWeight})
}
