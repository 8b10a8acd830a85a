package compute

import (
	"context"
	"errors"
	"math"
	"runtime"
	"sync"
	"time"
)

// Class is a task's priority class.
type Class int

// The classes, most urgent first.
const (
	// Live is a decision someone is waiting for in a game being played: a
	// server bot's move.
	Live Class = iota
	// Background is work that may wait for the live games: analysis,
	// reviews.
	Background
	numClasses
)

func (c Class) String() string {
	switch c {
	case Live:
		return "live"
	case Background:
		return "background"
	}
	return "class?"
}

// Task is one piece of work as the pool schedules it.
type Task struct {
	// User is whose share the task is charged to: for a bot's move the
	// user who created the game, for an analysis the user who asked. 0 is
	// the node's own work, a user like any other.
	User int64
	// Class is the task's priority class.
	Class Class
	// Cores is how many goroutines the task's search runs at once (less
	// than 1 counts as 1; more than the pool has, as the whole pool).
	Cores int
	// Label names the task in logs ("game 3kq… seat 1", "analysis").
	Label string
}

// Config sets a pool's capacity and bounds. The zero value is usable.
type Config struct {
	// Cores is the pool's capacity in cores. Default: all but one of the
	// cores Go runs on (GOMAXPROCS − 1), at least 1.
	Cores int
	// BackgroundCores is the most cores Background tasks hold at once.
	// Default: half of Cores, at least 1.
	BackgroundCores int
	// MaxWaiting is the most tasks waiting in the whole pool (default
	// 4096); MaxWaitingPerUser the most one user may have waiting (default
	// 64). Beyond them Run fails with ErrBusy.
	MaxWaiting, MaxWaitingPerUser int
	// HalfLife is how fast past usage is forgiven (default one minute).
	HalfLife time.Duration
	// Memory is the budget in bytes of what the searches run on the pool
	// may hold, trees and what they keep between moves (Memory; default
	// DefaultMemory).
	Memory int64
	// Now is the clock (tests fake it). Default time.Now.
	Now func() time.Time
}

// lowerBy is how many nice levels below the node's other threads the
// threads of searches run (LowerPriority): about a tenth of their CPU
// share when both want a core, so that a thread serving a person gets it
// first.
const lowerBy = 10

// ErrBusy is returned by Run when the task cannot even wait: its user, or
// the whole pool, already has as many tasks waiting as allowed.
var ErrBusy = errors.New("compute: too many tasks waiting")

// Pool schedules tasks on a fixed number of cores. It is safe for
// concurrent use.
type Pool struct {
	cfg Config
	mem *Memory

	mu          sync.Mutex
	busy        int // cores held by running tasks
	busyClass   [numClasses]int
	waiting     [numClasses]int // tasks
	waitCores   [numClasses]int // cores they ask for
	users       map[int64]*user
	seq         uint64
	liveWaitAvg time.Duration // moving average of how long Live tasks waited
}

// user is one user's place in the pool.
type user struct {
	id      int64
	queues  [numClasses][]*waiter // in arrival order
	waiting int
	busy    int       // cores held now
	usage   float64   // core-seconds used, decayed to stamp
	stamp   time.Time // when usage was last brought up to date
}

// waiter is a task waiting for its cores.
type waiter struct {
	class   Class
	cores   int
	seq     uint64
	since   time.Time
	ready   chan struct{} // closed when the cores are granted
	granted bool
}

// New returns a pool.
func New(cfg Config) *Pool {
	if cfg.Cores <= 0 {
		cfg.Cores = max(runtime.GOMAXPROCS(0)-1, 1)
	}
	if cfg.BackgroundCores <= 0 || cfg.BackgroundCores > cfg.Cores {
		cfg.BackgroundCores = max(cfg.Cores/2, 1)
	}
	if cfg.MaxWaiting <= 0 {
		cfg.MaxWaiting = 4096
	}
	if cfg.MaxWaitingPerUser <= 0 {
		cfg.MaxWaitingPerUser = 64
	}
	if cfg.HalfLife <= 0 {
		cfg.HalfLife = time.Minute
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	return &Pool{cfg: cfg, mem: NewMemory(cfg.Memory), users: map[int64]*user{}}
}

// Cores is the pool's capacity.
func (p *Pool) Cores() int { return p.cfg.Cores }

// Memory is the pool's memory budget (Config.Memory), from which the
// searches it runs reserve what they hold.
func (p *Pool) Memory() *Memory { return p.mem }

// Run waits until the pool grants t its cores, then runs fn with ctx and
// returns what fn returns. If ctx ends first, fn does not run and Run
// returns ctx.Err(); if t cannot wait, ErrBusy. fn should return promptly
// once ctx is done.
func (p *Pool) Run(ctx context.Context, t Task, fn func(ctx context.Context) error) error {
	release, err := p.Acquire(ctx, t)
	if err != nil {
		return err
	}
	defer release()
	return fn(ctx)
}

// Acquire waits until the pool grants t its cores and returns the function
// that gives them back (the first call does; later ones do nothing), or
// ctx.Err() if ctx ends first, or ErrBusy if t cannot wait. It is Run for
// work that is not one call: a search in slices acquires the pool for each
// slice, so that live work can go between them.
func (p *Pool) Acquire(ctx context.Context, t Task) (release func(), err error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	w, u, err := p.enqueue(t)
	if err != nil {
		return nil, err
	}
	select {
	case <-w.ready:
	case <-ctx.Done():
		p.mu.Lock()
		granted := w.granted
		if !granted {
			p.drop(u, w)
		}
		p.mu.Unlock()
		if granted {
			p.finish(u, w, p.cfg.Now())
		}
		return nil, ctx.Err()
	}
	start := p.cfg.Now()
	var once sync.Once
	return func() { once.Do(func() { p.finish(u, w, start) }) }, nil
}

// Grant is how many cores the pool gives t when it runs: t.Cores, at
// least 1, at most the pool's capacity (a Background task at most
// Config.BackgroundCores). These are all the pool counts, so t's work must
// keep to them: a search asking for more cores than the pool has runs with
// fewer goroutines, not with the cores that serve people.
func (p *Pool) Grant(t Task) int {
	_, cores := p.fit(t)
	return cores
}

// fit is t's class (an unknown one is Background) and the cores it is
// granted.
func (p *Pool) fit(t Task) (Class, int) {
	class := t.Class
	if class < 0 || class >= numClasses {
		class = Background
	}
	cores := min(max(t.Cores, 1), p.cfg.Cores)
	if class == Background {
		cores = min(cores, p.cfg.BackgroundCores)
	}
	return class, cores
}

// enqueue queues t and grants whatever fits now.
func (p *Pool) enqueue(t Task) (*waiter, *user, error) {
	class, cores := p.fit(t)
	p.mu.Lock()
	defer p.mu.Unlock()
	u := p.users[t.User]
	if u == nil {
		u = &user{id: t.User, stamp: p.cfg.Now()}
		p.users[t.User] = u
	}
	if u.waiting >= p.cfg.MaxWaitingPerUser || p.waiting[Live]+p.waiting[Background] >= p.cfg.MaxWaiting {
		p.forget(u)
		return nil, nil, ErrBusy
	}
	p.seq++
	w := &waiter{class: class, cores: cores, seq: p.seq, since: p.cfg.Now(), ready: make(chan struct{})}
	u.queues[class] = append(u.queues[class], w)
	u.waiting++
	p.waiting[class]++
	p.waitCores[class] += cores
	p.dispatch()
	return w, u, nil
}

// drop removes a task that stopped waiting; the caller holds mu.
func (p *Pool) drop(u *user, w *waiter) {
	q := u.queues[w.class]
	for i, x := range q {
		if x == w {
			u.queues[w.class] = append(q[:i:i], q[i+1:]...)
			u.waiting--
			p.waiting[w.class]--
			p.waitCores[w.class] -= w.cores
			break
		}
	}
	// The task at the head may have been what held the others back.
	p.dispatch()
	p.forget(u)
}

// finish gives a task's cores back and charges its user for them.
func (p *Pool) finish(u *user, w *waiter, start time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	now := p.cfg.Now()
	p.busy -= w.cores
	p.busyClass[w.class] -= w.cores
	u.busy -= w.cores
	u.usage = p.decayed(u, now) + float64(w.cores)*max(now.Sub(start), 0).Seconds()
	u.stamp = now
	p.dispatch()
	p.forget(u)
}

// forget drops an idle user whose past usage no longer counts, so that the
// pool's memory follows the users it is serving, not every user it has
// seen; the caller holds mu.
func (p *Pool) forget(u *user) {
	if u.waiting == 0 && u.busy == 0 && p.decayed(u, p.cfg.Now()) < 0.001 {
		delete(p.users, u.id)
	}
}

// decayed is u's usage at now.
func (p *Pool) decayed(u *user, now time.Time) float64 {
	dt := now.Sub(u.stamp)
	if dt <= 0 {
		return u.usage
	}
	return u.usage * math.Exp2(-float64(dt)/float64(p.cfg.HalfLife))
}

// dispatch grants cores to waiting tasks while the next one fits; the
// caller holds mu.
func (p *Pool) dispatch() {
	now := p.cfg.Now()
	for {
		class := Live
		if p.waiting[Live] == 0 {
			if p.waiting[Background] == 0 {
				return
			}
			class = Background
		}
		u := p.next(class, now)
		w := u.queues[class][0]
		if p.busy+w.cores > p.cfg.Cores || (class == Background && p.busyClass[Background]+w.cores > p.cfg.BackgroundCores) {
			return
		}
		u.queues[class] = u.queues[class][1:]
		u.waiting--
		p.waiting[class]--
		p.waitCores[class] -= w.cores
		p.busy += w.cores
		p.busyClass[class] += w.cores
		u.busy += w.cores
		w.granted = true
		if class == Live {
			// A moving average over about the last 16 decisions.
			p.liveWaitAvg += (now.Sub(w.since) - p.liveWaitAvg) / 16
		}
		close(w.ready)
	}
}

// next is the user whose task of class goes next: the fewest cores held
// now, then the least usage lately (usages within a millisecond of core
// time count as equal), then the oldest task. The caller holds mu and knows
// that some user has a task of class waiting.
func (p *Pool) next(class Class, now time.Time) *user {
	var best *user
	var bestUsage float64
	for _, u := range p.users {
		if len(u.queues[class]) == 0 {
			continue
		}
		usage := p.decayed(u, now)
		if best == nil || before(u, usage, best, bestUsage, class) {
			best, bestUsage = u, usage
		}
	}
	return best
}

// before says whether u (with usage uu) goes before b (with usage bu).
func before(u *user, uu float64, b *user, bu float64, class Class) bool {
	if u.busy != b.busy {
		return u.busy < b.busy
	}
	if d := uu - bu; math.Abs(d) > 0.001 {
		return d < 0
	}
	return u.queues[class][0].seq < b.queues[class][0].seq
}
