//go:build unix

package solve

import (
	"runtime"
	"syscall"
)

// cpuSeconds is the process's user and system time so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// peakMiB is the process's largest resident set so far.
func peakMiB() int64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "ios" {
		return int64(ru.Maxrss) >> 20 // bytes there
	}
	return int64(ru.Maxrss) >> 10 // KiB on Linux and the BSDs
}
