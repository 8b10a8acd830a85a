package analysis_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/analysis"
)

// emitting is work that emits "report" n times, a few milliseconds apart,
// then runs until stopped.
func emitting(n int) func(ctx context.Context, j *analysis.Job) error {
	return func(ctx context.Context, j *analysis.Job) error {
		for i := 1; i <= n; i++ {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(5 * time.Millisecond):
			}
			j.Emit("report", i)
		}
		<-ctx.Done()
		return ctx.Err()
	}
}

// TestPollReadsAJobFromAnotherNode: a node that does not run a job reads
// it by polling the one that does: each poll answers the first event after
// the number it gives, or the job's end; a poll with nothing new answers
// at its wait; another user's job, or a job that is not there, is ErrNoJob;
// ids begin with the node's prefix.
func TestPollReadsAJobFromAnotherNode(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 2, IDPrefix: "node1-ab12."})
	j, err := js.Start(7, analysis.KindAnalysis, time.Minute, emitting(3))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(j.ID(), "node1-ab12.") {
		t.Fatalf("job id %q lacks the node's prefix", j.ID())
	}
	ctx := context.Background()
	// Only the latest event is kept: a poll may skip some, never go back.
	var got []any
	after := 0
	for len(got) == 0 || got[len(got)-1] != 3 {
		st, err := js.Poll(ctx, "node2", 7, j.ID(), after, 5*time.Second, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if st.Seq <= after {
			t.Fatalf("a poll after %d answered %d before its wait", after, st.Seq)
		}
		got = append(got, st.Event.Data)
		after = st.Seq
	}
	// Nothing new: the poll answers at its wait with the same number.
	st, err := js.Poll(ctx, "node2", 7, j.ID(), after, 20*time.Millisecond, time.Minute)
	if err != nil || st.Seq != after || st.Done {
		t.Fatalf("a poll with nothing new: %+v, %v", st, err)
	}
	if _, err := js.Poll(ctx, "node2", 8, j.ID(), 0, time.Millisecond, time.Minute); !errors.Is(err, analysis.ErrNoJob) {
		t.Fatalf("another user's poll: %v, want ErrNoJob", err)
	}
	if _, err := js.Poll(ctx, "node2", 7, "node1-ab12.nothere", 0, time.Millisecond, time.Minute); !errors.Is(err, analysis.ErrNoJob) {
		t.Fatalf("a poll of no job: %v, want ErrNoJob", err)
	}
	// The end reaches the poller.
	j.Stop(analysis.EndStopped)
	st, err = js.Poll(ctx, "node2", 7, j.ID(), after, 5*time.Second, time.Minute)
	if err != nil || !st.Done || st.End != analysis.EndStopped {
		t.Fatalf("the poll after a stop: %+v, %v", st, err)
	}
}

// TestRemoteReaderKeepsTheAnalysis: another node that keeps polling counts
// as a reader — the analysis outlives the unwatched grace —; when it stops
// polling for its lease, or leaves, the analysis (its last reader gone) is
// stopped; a review goes on.
func TestRemoteReaderKeepsTheAnalysis(t *testing.T) {
	// The grace is counted from each Start to the job's first reader (the
	// Poll or Watch right after it): at 50 ms a clean-clone run under the
	// race detector, its two cores busy, took longer than that to the
	// first Poll, and the job was stopped before anyone could read it.
	js := newJobs(t, analysis.JobsConfig{PerNode: 4, UnwatchedGrace: 500 * time.Millisecond})
	ctx := context.Background()

	kept, err := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	for range 8 { // 800 ms of polls, past the grace, each within its lease
		if _, err := js.Poll(ctx, "node2", 1, kept.ID(), 0, 100*time.Millisecond, 500*time.Millisecond); err != nil {
			t.Fatal(err)
		}
	}
	if kept.State().Done {
		t.Fatalf("a polled analysis ended %q", kept.State().End)
	}
	// Its reader stops asking: the lease lapses and the analysis stops.
	if end := ended(t, kept); end != analysis.EndStopped {
		t.Fatalf("the analysis whose reader stopped asking ended %q", end)
	}

	left, err := js.Start(2, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	leave := left.Watch() // a reader here too
	if _, err := js.Poll(ctx, "node2", 2, left.ID(), 0, time.Millisecond, time.Hour); err != nil {
		t.Fatal(err)
	}
	js.Leave("node2", 2, left.ID())
	time.Sleep(20 * time.Millisecond)
	if left.State().Done {
		t.Fatal("the analysis stopped while a reader on its own node still read it")
	}
	leave()
	if end := ended(t, left); end != analysis.EndStopped {
		t.Fatalf("the analysis whose readers all left ended %q", end)
	}

	review, err := js.Start(3, analysis.KindReview, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := js.Poll(ctx, "node2", 3, review.ID(), 0, time.Millisecond, time.Hour); err != nil {
		t.Fatal(err)
	}
	js.Leave("node2", 3, review.ID())
	time.Sleep(20 * time.Millisecond)
	if review.State().Done {
		t.Fatal("a review stopped when its reader left")
	}
	review.Stop(analysis.EndStopped)
}

// TestStopUserBefore: a user who starts a job on another node at t loses
// the job they started here before t, not one started here after it.
func TestStopUserBefore(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 4})
	old, err := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	leave := old.Watch()
	defer leave()
	elsewhere := time.Now()
	newer, err := js.Start(2, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	leave2 := newer.Watch()
	defer leave2()
	js.StopUserBefore(1, elsewhere)
	js.StopUserBefore(2, elsewhere)
	js.StopUserBefore(3, elsewhere) // no job: nothing happens
	if end := ended(t, old); end != analysis.EndStopped {
		t.Fatalf("the older job ended %q", end)
	}
	time.Sleep(20 * time.Millisecond)
	if newer.State().Done {
		t.Fatal("a job started after the other node's was stopped")
	}
	newer.Stop(analysis.EndStopped)
}
