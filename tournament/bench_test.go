//go:build unix

package tournament

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"
)

// cpuTime is the process's user and system time: on a shared machine the
// wall clock of a benchmark says more about the neighbours than the code.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the CPU milliseconds per operation since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// swissHistory plays rounds-1 random rounds of an n-player Swiss, so that
// the benchmark pairs the last round, the one with the most score groups.
func swissHistory(b *testing.B, n, rounds int) []Round {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	var hist []Round
	for r := 0; r < rounds-1; r++ {
		rd, err := PairSwiss(n, hist, all(n), SwissOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for i := range rd.Pairings {
			rd.Pairings[i].Result = randomResult(rng)
		}
		hist = append(hist, rd)
	}
	return hist
}

// BenchmarkSwissPair200 pairs round 9 of a 200-player Swiss.
func BenchmarkSwissPair200(b *testing.B) {
	hist := swissHistory(b, 200, 9)
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := PairSwiss(200, hist, all(200), SwissOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkSwissPair200Round1 pairs the first round: one score group of 200.
func BenchmarkSwissPair200Round1(b *testing.B) {
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if _, err := PairSwiss(200, nil, all(200), SwissOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkArenaPair1000 pairs 1,000 free players at once (an arena's
// start, its largest wave).
func BenchmarkArenaPair1000(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 3))
	w := make([]ArenaWaiting, 1000)
	for i := range w {
		w[i] = ArenaWaiting{Player: i, Points: rng.IntN(40), Rating: 1000 + rng.IntN(1500), LastOpponent: rng.IntN(1000)}
	}
	b.ResetTimer()
	start := cpuTime()
	for i := 0; i < b.N; i++ {
		if len(PairArena(w)) != 500 {
			b.Fatal("not everyone paired")
		}
	}
	reportCPU(b, start)
}
