//go:build unix

package tournament

import (
	"math/rand/v2"
	"runtime"
	"testing"
)

// BenchmarkArenaHour1000 runs an arena of 1,000 players through 50
// pairing waves in which everyone free is paired and every game ends
// before the next wave: 25,000 games, about what an hour of 1,000 players
// makes (a player's game every 72 s). It reports the CPU per wave and the
// heap the arena keeps at the end (its players, standings and games),
// measured after a garbage collection.
func BenchmarkArenaHour1000(b *testing.B) {
	const players, waves = 1000, 50
	var kept uint64
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		rng := rand.New(rand.NewPCG(4, uint64(i)))
		a := NewArena(ArenaOptions{Clock: true})
		for p := 0; p < players; p++ {
			if err := a.Join(p, 1000+rng.IntN(1500)); err != nil {
				b.Fatal(err)
			}
		}
		for w := 0; w < waves; w++ {
			prs, err := a.Pair()
			if err != nil {
				b.Fatal(err)
			}
			for _, pr := range prs {
				g := ArenaGame{White: pr.White, Black: pr.Black, Result: randomResult(rng), WhiteBerserk: rng.IntN(10) == 0}
				if err := a.Finish(g); err != nil {
					b.Fatal(err)
				}
			}
		}
		if len(a.Standings()) != players {
			b.Fatal("standings incomplete")
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		kept = after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
		runtime.KeepAlive(a)
	}
	b.ReportMetric(float64(cpuTime()-start)/1e6/float64(b.N*waves), "cpu-ms/wave")
	b.ReportMetric(float64(kept)/(1<<20), "kept-MiB")
}
