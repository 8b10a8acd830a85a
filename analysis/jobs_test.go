package analysis_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabula-games/tabula/analysis"
)

// waitFor polls cond until it holds, failing after 10 s.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("%s: not within 10s", what)
}

// untilStopped is work that runs until its job is stopped.
func untilStopped(ctx context.Context, _ *analysis.Job) error {
	<-ctx.Done()
	return ctx.Err()
}

// ended waits for j to be over and returns why.
func ended(t testing.TB, j *analysis.Job) string {
	t.Helper()
	waitFor(t, "the job's end", func() bool { return j.State().Done })
	return j.State().End
}

func newJobs(t testing.TB, cfg analysis.JobsConfig) *analysis.Jobs {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	cfg.Queued = func(n int) analysis.Event { return analysis.Event{Name: "queued", Data: n} }
	cfg.Failed = func(err error) analysis.Event { return analysis.Event{Name: "error", Data: err.Error()} }
	return analysis.NewJobs(ctx, cfg)
}

// TestJobsOnePerUser: a user holds one job; a new one stops the old.
func TestJobsOnePerUser(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 2})
	a, err := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	b, err := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	if end := ended(t, a); end != analysis.EndStopped {
		t.Fatalf("the first job ended %q", end)
	}
	if b.State().Done {
		t.Fatal("the new job is over too")
	}
	if _, err := js.Of(1, a.ID()); err != nil {
		t.Fatalf("a finished job is still readable: %v", err)
	}
	if _, err := js.Of(2, b.ID()); !errors.Is(err, analysis.ErrNoJob) {
		t.Fatalf("another user's job: %v, want ErrNoJob", err)
	}
}

// TestJobsReplaceASlowStop: a user's new job is not refused when their
// previous one, stopped, is slow to end (on a loaded machine its search
// threads wait for a core): the analysis board stepping through a game
// said "the engine is busy" for the user's own search (analysis.test.mjs
// under load). The old job keeps its place until it ends, so with one
// place the new job waits for it.
func TestJobsReplaceASlowStop(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 1, StopWait: 20 * time.Millisecond})
	release := make(chan struct{})
	slow := func(ctx context.Context, _ *analysis.Job) error {
		<-ctx.Done()
		<-release // a stop that takes its time to be seen
		return ctx.Err()
	}
	a, err := js.Start(1, analysis.KindAnalysis, time.Minute, slow)
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	b, err := js.Start(1, analysis.KindAnalysis, time.Minute, func(ctx context.Context, j *analysis.Job) error {
		close(ran)
		return untilStopped(ctx, j)
	})
	if err != nil {
		t.Fatalf("a new job while the user's stopped one is still ending: %v", err)
	}
	if st := b.State(); st.Event.Name != "queued" || st.Event.Data != 1 {
		t.Fatalf("the new job's first event: %+v, want queued 1 (the stopped job still holds the one place)", st.Event)
	}
	select {
	case <-ran:
		t.Fatal("the new job ran while the stopped one still held the node's one place")
	case <-time.After(50 * time.Millisecond):
	}
	// Another user waits behind the new job, not beside it.
	if _, err := js.Start(2, analysis.KindAnalysis, time.Minute, untilStopped); err != nil {
		t.Fatalf("another user queues: %v", err)
	}
	close(release)
	if end := ended(t, a); end != analysis.EndStopped {
		t.Fatalf("the first job ended %q", end)
	}
	select {
	case <-ran:
	case <-time.After(10 * time.Second):
		t.Fatal("the new job did not run once the stopped one had ended")
	}
}

// TestJobsStartsOfAUserOneAtATime: two starts of one user at once, while
// the user's previous job is slow to end, both succeed, the later replacing
// the earlier — the board stepped on while its last start still waited, and
// the second start found the first's new job in its way (refused, "the
// engine is busy", analysis.test.mjs under load).
func TestJobsStartsOfAUserOneAtATime(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 1, StopWait: 20 * time.Millisecond})
	release := make(chan struct{})
	defer close(release)
	slow := func(ctx context.Context, _ *analysis.Job) error {
		<-ctx.Done()
		<-release
		return ctx.Err()
	}
	if _, err := js.Start(1, analysis.KindAnalysis, time.Minute, slow); err != nil {
		t.Fatal(err)
	}
	jobs := make(chan *analysis.Job, 2)
	errs := make(chan error, 2)
	for range 2 {
		go func() {
			j, err := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
			jobs <- j
			errs <- err
		}()
	}
	var started []*analysis.Job
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatalf("a start beside another of the same user: %v", err)
		}
		started = append(started, <-jobs)
	}
	waitFor(t, "one of the two stopped", func() bool { return started[0].State().End != "" || started[1].State().End != "" })
	if started[0].State().End != "" && started[1].State().End != "" {
		t.Fatal("both new jobs stopped")
	}
}

// TestJobsQueueAndRefuse: beyond the places a job waits, told its place;
// beyond the queue one is refused with a time to retry.
func TestJobsQueueAndRefuse(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 1, Queue: 1, Quantum: time.Hour})
	running, err := js.Start(1, analysis.KindReview, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	waiting, err := js.Start(2, analysis.KindAnalysis, time.Minute, func(ctx context.Context, j *analysis.Job) error {
		close(ran)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := waiting.State(); st.Event.Name != "queued" || st.Event.Data != 1 {
		t.Fatalf("the waiting job's first event %+v, want its place 1", st.Event)
	}
	_, err = js.Start(3, analysis.KindAnalysis, time.Minute, untilStopped)
	var busy *analysis.BusyError
	if !errors.As(err, &busy) || !errors.Is(err, analysis.ErrNodeBusy) || busy.RetryAfter <= 0 {
		t.Fatalf("a third job: %v, want ErrNodeBusy with a Retry-After", err)
	}
	running.Stop(analysis.EndStopped)
	<-ran
	if end := ended(t, waiting); end != analysis.EndDone {
		t.Fatalf("the waiting job ended %q", end)
	}
}

// TestJobsYield: while a job waits, an analysis that has had its quantum
// gives its place up and ends "yielded".
func TestJobsYield(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 1, Queue: 4, Quantum: 10 * time.Millisecond})
	a, err := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	if err != nil {
		t.Fatal(err)
	}
	ran := make(chan struct{})
	b, err := js.Start(2, analysis.KindAnalysis, time.Minute, func(ctx context.Context, j *analysis.Job) error {
		close(ran)
		return untilStopped(ctx, j)
	})
	if err != nil {
		t.Fatal(err)
	}
	if end := ended(t, a); end != analysis.EndYielded {
		t.Fatalf("the running analysis ended %q, want yielded", end)
	}
	<-ran
	b.Stop(analysis.EndStopped)
}

// TestJobsReaders: an analysis whose last reader leaves is stopped, a
// review goes on; a job nobody opens within the grace is stopped.
func TestJobsReaders(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 4, UnwatchedGrace: time.Hour})
	an, _ := js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	rv, _ := js.Start(2, analysis.KindReview, time.Minute, untilStopped)
	leaveA, leaveA2, leaveR := an.Watch(), an.Watch(), rv.Watch()
	leaveA()
	leaveR()
	if an.State().End != "" || rv.State().End != "" {
		t.Fatal("a job stopped while read")
	}
	leaveA2()
	if end := ended(t, an); end != analysis.EndStopped {
		t.Fatalf("the analysis ended %q when its readers left", end)
	}
	if rv.State().End != "" {
		t.Fatal("the review stopped when its reader left")
	}
	rv.Stop(analysis.EndStopped)

	js = newJobs(t, analysis.JobsConfig{PerNode: 4, UnwatchedGrace: 5 * time.Millisecond})
	j, _ := js.Start(1, analysis.KindReview, time.Minute, untilStopped)
	if end := ended(t, j); end != analysis.EndStopped {
		t.Fatalf("a job nobody read ended %q", end)
	}
}

// TestJobsEnds: a failed job says why in its last event; a finished job is
// forgotten after KeepFinished; the node stopping ends its jobs
// "shutdown".
func TestJobsEnds(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{KeepFinished: 5 * time.Millisecond})
	j, _ := js.Start(1, analysis.KindAnalysis, time.Minute, func(context.Context, *analysis.Job) error { return fmt.Errorf("no") })
	if end := ended(t, j); end != analysis.EndDone || j.State().Event != (analysis.Event{Name: "error", Data: "no"}) {
		t.Fatalf("a failed job: %q, %+v", end, j.State().Event)
	}
	waitFor(t, "the finished job forgotten", func() bool { _, err := js.Of(1, j.ID()); return err != nil })

	ctx, cancel := context.WithCancel(context.Background())
	js = analysis.NewJobs(ctx, analysis.JobsConfig{})
	j, _ = js.Start(1, analysis.KindAnalysis, time.Minute, untilStopped)
	cancel()
	if end := ended(t, j); end != analysis.EndShutdown {
		t.Fatalf("a job of a stopping node ended %q", end)
	}
}

// TestJobsKeepReviews: the kept reviews are bounded, the oldest forgotten
// first.
func TestJobsKeepReviews(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{})
	for i := range analysis.MaxCachedReviews + 1 {
		js.KeepReview(fmt.Sprint(i), &analysis.Review{})
	}
	if js.Review("0") != nil || js.Review("1") == nil || js.Review(fmt.Sprint(analysis.MaxCachedReviews)) == nil {
		t.Fatal("the oldest review kept, or a newer one forgotten")
	}
}

// TestJobsStartAfterTheLastEnded: a job that has just ended is not in the
// way of the user's next — its place was given back before it stopped
// counting as theirs (a start in between was refused as the user's second).
func TestJobsStartAfterTheLastEnded(t *testing.T) {
	js := newJobs(t, analysis.JobsConfig{PerNode: 1})
	quick := func(context.Context, *analysis.Job) error { return nil }
	for i := range 2000 {
		if _, err := js.Start(1, analysis.KindAnalysis, time.Minute, quick); err != nil {
			t.Fatalf("start %d, the one before it ending: %v", i, err)
		}
	}
}
