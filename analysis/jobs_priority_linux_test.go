package analysis

import (
	"context"
	"syscall"
	"testing"
)

// TestJobsThinkAtLowPriority (issue 16, finding 2): an analysis or review
// job runs on a thread of lower priority than the node's others, as bot
// moves do, so that the kernel serves people's requests first.
func TestJobsThinkAtLowPriority(t *testing.T) {
	raw, err := syscall.Getpriority(syscall.PRIO_PROCESS, 0)
	if err != nil {
		t.Fatal(err)
	}
	base := 20 - raw
	if base >= 19 {
		t.Skip("the process already runs at the lowest priority")
	}
	js := NewJobs(context.Background(), JobsConfig{})
	nices := make(chan int, 1)
	j, err := js.Start(1, KindAnalysis, 0, func(ctx context.Context, j *Job) error {
		raw, _ := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
		nices <- 20 - raw
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	<-j.Finished()
	if got := <-nices; got <= base {
		t.Fatalf("the job ran at nice %d, the process's %d", got, base)
	}
}
