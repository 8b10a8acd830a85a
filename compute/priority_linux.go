package compute

import (
	"runtime"
	"syscall"
)

// LowerPriority locks the calling goroutine to its OS thread and lowers
// that thread's scheduling priority by lowerBy nice levels (at most to 19),
// so that the kernel runs the node's threads that serve people before it.
// The goroutine must end without unlocking: the thread then ends with it
// (an unprivileged process cannot raise a thread's priority again), and
// threads the runtime starts meanwhile come from its template thread, not
// from this one. Call it only first thing in a goroutine that ends with
// its work, such as a search worker (agent.WithWorkerStart).
func LowerPriority() {
	runtime.LockOSThread()
	tid := syscall.Gettid()
	// The system call answers 20 − nice (1…40).
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		return
	}
	nice := 20 - raw
	if nice >= 19 {
		return
	}
	syscall.Setpriority(syscall.PRIO_PROCESS, tid, min(nice+lowerBy, 19))
}
