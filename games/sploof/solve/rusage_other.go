//go:build !unix

package solve

// cpuSeconds is 0 where there is no getrusage: the logs then show no CPU
// time, and a run is otherwise the same.
func cpuSeconds() float64 { return 0 }

// peakMiB is 0 where there is no getrusage.
func peakMiB() int64 { return 0 }
