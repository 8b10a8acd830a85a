package compute

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// held is a task that has been submitted: started is closed when it runs,
// and it runs until release is closed.
type held struct {
	started chan struct{}
	release chan struct{}
	done    chan error
}

// submit runs a task in the background that holds its cores until
// released.
func submit(p *Pool, ctx context.Context, t Task) *held {
	h := &held{started: make(chan struct{}), release: make(chan struct{}), done: make(chan error, 1)}
	go func() {
		h.done <- p.Run(ctx, t, func(context.Context) error {
			close(h.started)
			<-h.release
			return nil
		})
	}()
	return h
}

func (h *held) running() bool {
	select {
	case <-h.started:
		return true
	default:
		return false
	}
}

func (h *held) wait(t *testing.T) {
	t.Helper()
	select {
	case <-h.started:
	case <-time.After(10 * time.Second):
		t.Fatal("the task never started")
	}
}

func (h *held) finish(t *testing.T) {
	t.Helper()
	close(h.release)
	if err := <-h.done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}

// finishAsGranted releases each of hs as the pool starts it, in the pool's
// order rather than the list's: after one of a user's tasks has run, a
// waiting task of a user with less usage goes first, and a task held for
// more than a millisecond of core time (a loaded machine) counts as usage —
// a test that waited for the list's next task could wait forever behind
// another's that held the core.
func finishAsGranted(t *testing.T, hs ...*held) {
	t.Helper()
	for len(hs) > 0 {
		deadline := time.Now().Add(10 * time.Second)
		i := -1
		for i < 0 {
			for j, h := range hs {
				if h.running() {
					i = j
					break
				}
			}
			if i < 0 {
				if time.Now().After(deadline) {
					t.Fatalf("none of %d tasks started", len(hs))
				}
				time.Sleep(time.Millisecond)
			}
		}
		hs[i].finish(t)
		hs = append(hs[:i], hs[i+1:]...)
	}
}

// settle waits until the pool has n tasks waiting in all, so that the
// order in which goroutines submitted is the order the test means.
func settle(t *testing.T, p *Pool, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		l := p.Load()
		if l.LiveWaiting+l.BackgroundWaiting == n {
			return
		}
	}
	t.Fatalf("the pool never had %d tasks waiting: %+v", n, p.Load())
}

// order starts the tasks one at a time (each waits for the pool before the
// next is submitted) and returns the labels in the order they ran, after
// the blocker is released.
func runOrder(t *testing.T, p *Pool, blocker *held, tasks []Task) []string {
	t.Helper()
	var mu sync.Mutex
	var order []string
	var wg sync.WaitGroup
	for i, task := range tasks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := p.Run(context.Background(), task, func(context.Context) error {
				mu.Lock()
				order = append(order, task.Label)
				mu.Unlock()
				return nil
			})
			if err != nil {
				t.Errorf("Run %s: %v", task.Label, err)
			}
		}()
		settle(t, p, i+1)
	}
	blocker.finish(t)
	wg.Wait()
	return order
}

func TestCapacityNeverExceeded(t *testing.T) {
	p := New(Config{Cores: 3, BackgroundCores: 2})
	var inUse, peak, peakBg, bg atomic.Int64
	var wg sync.WaitGroup
	for i := range 200 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(uint64(i), 1))
			task := Task{User: int64(rng.IntN(5)), Class: Class(rng.IntN(2)), Cores: rng.IntN(4)}
			want := int64(min(max(task.Cores, 1), 3))
			if task.Class == Background {
				want = min(want, 2)
			}
			err := p.Run(context.Background(), task, func(context.Context) error {
				n := inUse.Add(want)
				if task.Class == Background {
					peakBg.Store(max(peakBg.Load(), bg.Add(want)))
					defer bg.Add(-want)
				}
				for {
					old := peak.Load()
					if n <= old || peak.CompareAndSwap(old, n) {
						break
					}
				}
				time.Sleep(time.Duration(rng.IntN(200)) * time.Microsecond)
				inUse.Add(-want)
				return nil
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if peak.Load() > 3 {
		t.Errorf("%d cores in use at once; the pool has 3", peak.Load())
	}
	if peakBg.Load() > 2 {
		t.Errorf("background tasks held %d cores at once; they may hold 2", peakBg.Load())
	}
	if l := p.Load(); l.Busy != 0 || l.LiveWaiting != 0 || l.BackgroundWaiting != 0 || l.Users != 0 {
		t.Errorf("after every task: %+v", l)
	}
}

// A user who floods the pool gets it only while nobody else asks: the
// newcomer's task runs before the flood's next one.
func TestFairShareAcrossUsers(t *testing.T) {
	// The pool's clock is the test's: when the blocker ends, no user holds a
	// core, so what puts the other user first is the flood's usage, which on
	// the real clock was the few hundred microseconds the test took to queue
	// the tasks — under the pool's millisecond of equal usage, and then the
	// oldest task went first (2 runs in 300 under -race).
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	p := New(Config{Cores: 1, Now: clock})
	blocker := submit(p, context.Background(), Task{User: 1, Label: "flood-0"})
	blocker.wait(t)
	mu.Lock()
	now = now.Add(time.Second) // the flood's first task held the core a second
	mu.Unlock()
	tasks := []Task{{User: 1, Label: "flood-1"}, {User: 1, Label: "flood-2"}, {User: 1, Label: "flood-3"}, {User: 2, Label: "other"}}
	got := runOrder(t, p, blocker, tasks)
	if got[0] != "other" {
		t.Errorf("order %v: the other user's task should go first", got)
	}
	if got[1] != "flood-1" || got[2] != "flood-2" || got[3] != "flood-3" {
		t.Errorf("order %v: one user's tasks should run in the order they came", got)
	}
}

// With no core held by either, the user who used less lately goes first,
// and usage is forgiven with time.
func TestFairShareByUsage(t *testing.T) {
	var mu sync.Mutex
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	advance := func(d time.Duration) { mu.Lock(); now = now.Add(d); mu.Unlock() }
	p := New(Config{Cores: 1, HalfLife: time.Minute, Now: clock})
	use := func(uid int64, d time.Duration) {
		p.Run(context.Background(), Task{User: uid}, func(context.Context) error { advance(d); return nil })
	}
	use(1, 30*time.Second) // user 1 used 30 core-seconds
	use(2, time.Second)    // user 2 one

	blocker := submit(p, context.Background(), Task{User: 3})
	blocker.wait(t)
	if got := runOrder(t, p, blocker, []Task{{User: 1, Label: "heavy"}, {User: 2, Label: "light"}}); got[0] != "light" {
		t.Errorf("order %v: the user who used less should go first", got)
	}

	// An hour later both are forgiven: the older task goes first.
	advance(time.Hour)
	blocker = submit(p, context.Background(), Task{User: 3})
	blocker.wait(t)
	if got := runOrder(t, p, blocker, []Task{{User: 1, Label: "heavy"}, {User: 2, Label: "light"}}); got[0] != "heavy" {
		t.Errorf("order %v: with usage forgiven, the older task should go first", got)
	}
}

// Live tasks go before background ones, whoever submitted first.
func TestLiveBeforeBackground(t *testing.T) {
	p := New(Config{Cores: 1})
	blocker := submit(p, context.Background(), Task{User: 1, Class: Live})
	blocker.wait(t)
	got := runOrder(t, p, blocker, []Task{{User: 2, Class: Background, Label: "analysis"}, {User: 3, Class: Live, Label: "bot"}})
	if got[0] != "bot" || got[1] != "analysis" {
		t.Errorf("order %v: the live task should go first", got)
	}
}

// Background tasks hold at most BackgroundCores, leaving the rest to live
// games.
func TestBackgroundCap(t *testing.T) {
	p := New(Config{Cores: 2, BackgroundCores: 1})
	a := submit(p, context.Background(), Task{User: 1, Class: Background})
	a.wait(t)
	b := submit(p, context.Background(), Task{User: 2, Class: Background})
	settle(t, p, 1)
	live := submit(p, context.Background(), Task{User: 3, Class: Live})
	live.wait(t)
	if b.running() {
		t.Fatal("a second background task runs: background holds 2 cores, the cap is 1")
	}
	a.finish(t)
	b.wait(t)
	b.finish(t)
	live.finish(t)
}

// A task bigger than the pool runs alone; a big task at the head is not
// overtaken by small ones behind it.
func TestClampAndNoBackfill(t *testing.T) {
	p := New(Config{Cores: 2})
	small := submit(p, context.Background(), Task{User: 1, Cores: 1})
	small.wait(t)
	big := submit(p, context.Background(), Task{User: 2, Cores: 8})
	settle(t, p, 1)
	behind := submit(p, context.Background(), Task{User: 2, Cores: 1})
	settle(t, p, 2)
	// Both wait, and the pool, which decides who runs under its lock when
	// a task arrives or ends, holds only the small task's core: nothing
	// got past the big one, and nothing will before the small one ends.
	if l := p.Load(); l.Busy != 1 || big.running() || behind.running() {
		t.Fatalf("a task ran past a bigger one waiting at the head: %+v", l)
	}
	small.finish(t)
	big.wait(t)
	if l := p.Load(); l.Busy != 2 {
		t.Errorf("the 8-core task holds %d cores of a 2-core pool; want all 2", l.Busy)
	}
	if behind.running() {
		t.Error("a task runs beside one that holds the whole pool")
	}
	big.finish(t)
	behind.wait(t)
	behind.finish(t)
}

func TestCancelWhileWaiting(t *testing.T) {
	p := New(Config{Cores: 1})
	blocker := submit(p, context.Background(), Task{User: 1})
	blocker.wait(t)
	ctx, cancel := context.WithCancel(context.Background())
	ran := false
	errc := make(chan error, 1)
	go func() {
		errc <- p.Run(ctx, Task{User: 2}, func(context.Context) error { ran = true; return nil })
	}()
	settle(t, p, 1)
	cancel()
	if err := <-errc; !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("Run after cancel: %v, ran %v; want context.Canceled without running", err, ran)
	}
	if l := p.Load(); l.LiveWaiting != 0 {
		t.Errorf("a cancelled task still waits: %+v", l)
	}
	blocker.finish(t)
	// Nothing leaked: the whole pool is free for the next task.
	if err := p.Run(context.Background(), Task{User: 3}, func(context.Context) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if l := p.Load(); l.Busy != 0 || l.Users != 0 {
		t.Errorf("after everything: %+v", l)
	}
	// A context already done never runs.
	if err := p.Run(ctx, Task{User: 3}, func(context.Context) error { t.Error("ran"); return nil }); !errors.Is(err, context.Canceled) {
		t.Errorf("Run with a done context: %v", err)
	}
}

// Many tasks cancelled at random moments, some just as they are granted:
// the pool ends empty and every core comes back.
func TestCancelRace(t *testing.T) {
	p := New(Config{Cores: 2})
	var wg sync.WaitGroup
	for i := range 300 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i%7)*50*time.Microsecond)
			defer cancel()
			p.Run(ctx, Task{User: int64(i % 4), Cores: 1 + i%2}, func(ctx context.Context) error {
				time.Sleep(20 * time.Microsecond)
				return nil
			})
		}()
	}
	wg.Wait()
	if l := p.Load(); l.Busy != 0 || l.LiveWaiting != 0 || l.Users != 0 {
		t.Errorf("after every task: %+v", l)
	}
}

func TestPanicGivesCoresBack(t *testing.T) {
	p := New(Config{Cores: 1})
	func() {
		defer func() { recover() }()
		p.Run(context.Background(), Task{User: 1}, func(context.Context) error { panic("search bug") })
	}()
	if l := p.Load(); l.Busy != 0 {
		t.Fatalf("a panicking task kept its cores: %+v", l)
	}
}

func TestBusy(t *testing.T) {
	p := New(Config{Cores: 1, MaxWaitingPerUser: 2, MaxWaiting: 3})
	blocker := submit(p, context.Background(), Task{User: 1})
	blocker.wait(t)
	a := submit(p, context.Background(), Task{User: 2})
	settle(t, p, 1)
	b := submit(p, context.Background(), Task{User: 2})
	settle(t, p, 2)
	if err := p.Run(context.Background(), Task{User: 2}, func(context.Context) error { return nil }); !errors.Is(err, ErrBusy) {
		t.Errorf("a third waiting task of one user: %v; want ErrBusy", err)
	}
	c := submit(p, context.Background(), Task{User: 3})
	settle(t, p, 3)
	if err := p.Run(context.Background(), Task{User: 4}, func(context.Context) error { return nil }); !errors.Is(err, ErrBusy) {
		t.Errorf("a fourth waiting task in the pool: %v; want ErrBusy", err)
	}
	blocker.finish(t)
	finishAsGranted(t, a, b, c)
}

func TestSaturatedAndLoad(t *testing.T) {
	p := New(Config{Cores: 2})
	if p.Saturated() {
		t.Fatal("an empty pool is saturated")
	}
	a := submit(p, context.Background(), Task{User: 1, Cores: 2})
	a.wait(t)
	if p.Saturated() {
		t.Error("a busy pool with nothing waiting is saturated")
	}
	b := submit(p, context.Background(), Task{User: 2, Cores: 1})
	bg := submit(p, context.Background(), Task{User: 3, Class: Background})
	settle(t, p, 2)
	if p.Saturated() {
		t.Error("one waiting core of two is saturated")
	}
	c := submit(p, context.Background(), Task{User: 2, Cores: 1})
	settle(t, p, 3)
	if !p.Saturated() {
		t.Error("live tasks wait for every core, yet the pool is not saturated")
	}
	l := p.Load()
	if l.Cores != 2 || l.Busy != 2 || l.LiveWaiting != 2 || l.BackgroundWaiting != 1 || l.Users != 3 {
		t.Errorf("Load = %+v", l)
	}
	a.finish(t)
	finishAsGranted(t, b, c, bg)
}

func TestDefaults(t *testing.T) {
	p := New(Config{})
	if p.Cores() < 1 || p.cfg.BackgroundCores < 1 || p.cfg.BackgroundCores > p.Cores() {
		t.Errorf("defaults: %+v", p.cfg)
	}
}

// Acquire holds the cores until released, once: a second release gives
// nothing back twice.
func TestAcquire(t *testing.T) {
	p := New(Config{Cores: 1})
	release, err := p.Acquire(context.Background(), Task{User: 1, Class: Background})
	if err != nil {
		t.Fatal(err)
	}
	if l := p.Load(); l.Busy != 1 {
		t.Fatalf("acquired: %+v", l)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Millisecond)
	defer cancel()
	if _, err := p.Acquire(ctx, Task{User: 2}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Acquire on a full pool: %v", err)
	}
	release()
	release()
	if l := p.Load(); l.Busy != 0 || l.Users != 0 {
		t.Fatalf("released twice: %+v", l)
	}
	r2, err := p.Acquire(context.Background(), Task{User: 2})
	if err != nil {
		t.Fatal(err)
	}
	r2()
}
