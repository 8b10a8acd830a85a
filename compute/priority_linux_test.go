package compute

import (
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// niceOf is the nice value of thread tid (0: the process's main thread).
func niceOf(t *testing.T, tid int) int {
	t.Helper()
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, tid)
	if err != nil {
		t.Fatal(err)
	}
	return 20 - raw
}

// TestLowerPriority: a goroutine that lowers its priority runs on a
// thread lowerBy nice levels below the others, and that thread ends with
// it, so the lowered priority never serves anything else. (On Linux
// getpriority(PRIO_PROCESS, 0) is the calling thread's.)
func TestLowerPriority(t *testing.T) {
	base := niceOf(t, 0)
	tids := make(chan int, 1)
	got := make(chan int, 1)
	go func() {
		LowerPriority()
		tid := syscall.Gettid()
		tids <- tid
		got <- niceOf(t, tid)
	}()
	tid := <-tids
	if n, want := <-got, min(base+lowerBy, 19); n != want {
		t.Fatalf("the thread's nice is %d; want %d (the process's is %d)", n, want, base)
	}
	if tid == os.Getpid() {
		// The main thread cannot end; the runtime parks it for good
		// instead, so it never runs anything else either.
		return
	}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat("/proc/self/task/" + strconv.Itoa(tid)); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("thread %d outlived its goroutine", tid)
		}
	}
	if n := niceOf(t, 0); n != base {
		t.Fatalf("the process's nice moved from %d to %d", base, n)
	}
}
