package agent

import (
	"context"
	"strings"
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
	benchmarkSearchAt(b, name, nil, cfg)
}

// benchmarkSearchAt is benchmarkSearchWith from the position after moves.
func benchmarkSearchAt(b *testing.B, name string, moves []string, cfg MCTSConfig) {
	g, err := game.Lookup(name)
	if err != nil {
		b.Fatal(err)
	}
	s, _ := g.New(nil, 1)
	for _, m := range moves {
		if err := game.Play(s, m); err != nil {
			b.Fatal(err)
		}
	}
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

// skjuubMiddle is a Skjuub middle game: the first 40 plies of game 11 of
// docs/measurements/skjuub-hard-greedy-imb.log (both pools empty, six
// active pieces a side), where the searching seat's heuristics score
// positions with pieces to count, unlike the start's.
var skjuubMiddle = strings.Fields("a5N d4S c2N b5S e5E a2S b3N b5~b4 b1E f6E f1S d1S d4-d2 f4W f3E f4~e4 " +
	"d6W d5S f2W b6N e3W a3W c4S c2~c3 f6~e6 f6E a2~a1 d5~d4 b1~c1 a3-a4 a1-a2 d4~d5 c1-b1 a5~a6 c1N " +
	"d5~d4 b1~a1 a6~a5 a2~a3 d4~d5")

// BenchmarkSearchSkjuubMiddle is the level's search (with its minimax
// backups) in a middle game, one worker, 50,000 iterations, as it is and
// with each of the searching seat's heuristics at every move, and with
// stuck positions counted toward a draw: what each costs an iteration
// (docs/ai.md), all measured in one run.
func BenchmarkSearchSkjuubMiddle(b *testing.B) {
	for _, c := range []struct {
		name     string
		exchange SeekMode
		contact  SeekMode
		stuck    float64
	}{{"level", SeekOff, SeekOff, 0}, {"contact", SeekOff, SeekOn, 0}, {"exchange", SeekOn, SeekOff, 0}, {"stuck", SeekOff, SeekOff, 0.5}} {
		b.Run(c.name, func(b *testing.B) {
			benchmarkSearchAt(b, "skjuub", skjuubMiddle, MCTSConfig{Iters: 50000, Workers: 1, NoReuse: true,
				Minimax: minimaxWeight, Exchange: c.exchange, Contact: c.contact, Stuck: c.stuck})
		})
	}
}

// TestSkjuubMiddleIsAMiddleGame: the benchmark's moves are legal under
// today's rules and leave the game going on (go test
// does not run benchmarks, so a rules change would otherwise only show
// when someone measures).
func TestSkjuubMiddleIsAMiddleGame(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := g.New(nil, 1)
	for i, m := range skjuubMiddle {
		if err := game.Play(s, m); err != nil {
			t.Fatalf("ply %d, %s: %v", i, m, err)
		}
	}
	if s.Outcome().Over() {
		t.Fatal("the game is over after the middle game's moves")
	}
	if len(s.Legal(nil)) == 0 {
		t.Fatal("no legal move after the middle game's moves")
	}
}
