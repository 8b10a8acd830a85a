package analysis

import (
	"context"
	"errors"
	"sync"
	"time"
)

// Pool admits analyses and reviews on a node and shares them fairly
// between users:
//
//   - a user holds at most one job, running or waiting (ErrUserBusy); one
//     they have stopped that is still ending counts no more as theirs
//     (Disown), though it keeps its place until it ends;
//   - at most perNode jobs run at once (each holds a search tree and a
//     solver table: the bound is memory); the cores their slices of
//     search take are the node's compute pool's to give (Search.Gate);
//   - a job beyond them waits in a first-come queue and is told its place
//     as it moves up; a full queue refuses at once (ErrNodeBusy), so a
//     flood of requests costs nothing but the refusals;
//   - time-slicing: while a job waits, a running job that can yield (an
//     analysis, whose last report stands) and has run for a quantum is
//     asked to yield, and its place goes to the first waiter; asked again,
//     it waits at the back. A job that cannot yield (a review, whose work
//     would be lost) takes at most half the places, so that a waiting
//     analysis waits about a quantum, not a review's length.
//
// So a handful of users holding streams open can no longer keep everyone
// else out: each waits its turn, and each turn is at least a quantum.
type Pool struct {
	perNode, maxLong, maxQueue int
	quantum                    time.Duration

	mu      sync.Mutex
	users   map[int64]*Ticket
	running []*Ticket // in the order they started
	waiting []*Ticket // first come first
	timer   *time.Timer
}

// Errors of Enter.
var (
	ErrUserBusy = errors.New("you already have an analysis running; stop it first")
	ErrNodeBusy = errors.New("the server is analysing as much as it can and its queue is full; try again in a minute")
)

// NewPool returns a pool running at most perNode jobs, with at most
// maxQueue waiting, whose yielding jobs run at least quantum while others
// wait (values below 1 mean 1; a quantum of 0 means a minute).
func NewPool(perNode, maxQueue int, quantum time.Duration) *Pool {
	if quantum <= 0 {
		quantum = time.Minute
	}
	perNode = max(perNode, 1)
	return &Pool{perNode: perNode, maxLong: max(perNode/2, 1), maxQueue: max(maxQueue, 1), quantum: quantum, users: map[int64]*Ticket{}}
}

// Ticket is one job's place in a Pool: waiting, then running, then
// released.
type Ticket struct {
	p        *Pool
	user     int64
	yield    func() // nil: the job cannot yield
	notify   chan struct{}
	place    int // 1 is the first waiter; 0 once running
	running  bool
	released bool
	started  time.Time
	yielding bool
}

// Enter gives user a place for a job: running at once if a place is free,
// otherwise waiting (Ticket.Wait). yield, if not nil, is how the pool asks
// the running job to give its place back early (it must then end and
// Release soon); a job without one runs to its end. The caller Releases
// the ticket when the job ends, whether it ran or not.
func (p *Pool) Enter(user int64, yield func()) (*Ticket, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.users[user] != nil {
		return nil, ErrUserBusy
	}
	if len(p.waiting) >= p.maxQueue {
		return nil, ErrNodeBusy
	}
	t := &Ticket{p: p, user: user, yield: yield, notify: make(chan struct{}, 1)}
	p.users[user] = t
	p.waiting = append(p.waiting, t)
	p.schedule()
	return t, nil
}

// Disown lets t's user Enter again while t's job, stopped, winds down:
// the user holds at most one job that still works for them, and t keeps
// its place, running or waiting, until its Release.
func (p *Pool) Disown(t *Ticket) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.users[t.user] == t {
		delete(p.users, t.user)
	}
}

// Place is the ticket's place in the queue (1 first), 0 once it runs.
func (t *Ticket) Place() int {
	t.p.mu.Lock()
	defer t.p.mu.Unlock()
	return t.place
}

// Wait returns once the ticket's job may run, calling place with its place
// in the queue whenever that changes; it returns ctx's error if ctx ends
// first (the ticket then still needs its Release).
func (t *Ticket) Wait(ctx context.Context, place func(n int)) error {
	shown := -1
	for {
		t.p.mu.Lock()
		running, n, released := t.running, t.place, t.released
		t.p.mu.Unlock()
		switch {
		case running:
			return nil
		case released:
			return context.Canceled
		case n != shown && place != nil:
			place(n)
			shown = n
		}
		select {
		case <-t.notify:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Release gives the ticket's place back, waiting or running; a second call
// does nothing.
func (t *Ticket) Release() {
	p := t.p
	p.mu.Lock()
	defer p.mu.Unlock()
	if t.released {
		return
	}
	t.released = true
	if p.users[t.user] == t {
		delete(p.users, t.user)
	}
	p.running = remove(p.running, t)
	p.waiting = remove(p.waiting, t)
	t.signal()
	p.schedule()
}

func remove(ts []*Ticket, t *Ticket) []*Ticket {
	for i, x := range ts {
		if x == t {
			return append(ts[:i], ts[i+1:]...)
		}
	}
	return ts
}

func (t *Ticket) signal() {
	select {
	case t.notify <- struct{}{}:
	default:
	}
}

// schedule starts the waiters that have a place, renumbers the others and,
// while some still wait, asks the running jobs that have had their quantum
// to yield, or sets a timer for when the first will have had it. p.mu is
// held.
func (p *Pool) schedule() {
	now := time.Now()
	long := 0
	for _, r := range p.running {
		if r.yield == nil {
			long++
		}
	}
	kept := p.waiting[:0]
	for _, w := range p.waiting {
		if len(p.running) < p.perNode && (w.yield != nil || long < p.maxLong) {
			w.running, w.place, w.started = true, 0, now
			if w.yield == nil {
				long++
			}
			p.running = append(p.running, w)
			w.signal()
			continue
		}
		kept = append(kept, w)
	}
	clear(p.waiting[len(kept):])
	p.waiting = kept
	for i, w := range p.waiting {
		if w.place != i+1 {
			w.place = i + 1
			w.signal()
		}
	}
	// A place is owed to each waiter that a freed place would start (a
	// review waiting for the reviews' share is not helped by an analysis
	// yielding); the jobs already yielding pay part of it.
	owed := 0
	for _, w := range p.waiting {
		if w.yield != nil || long < p.maxLong {
			owed++
		}
	}
	for _, r := range p.running {
		if r.yielding {
			owed--
		}
	}
	var next time.Time
	for _, r := range p.running { // oldest first
		if owed <= 0 {
			break
		}
		if r.yield == nil || r.yielding {
			continue
		}
		if due := r.started.Add(p.quantum); due.After(now) {
			if next.IsZero() {
				next = due
			}
			continue
		}
		r.yielding = true
		owed--
		go r.yield() // outside p.mu: it may Release
	}
	if p.timer != nil {
		p.timer.Stop()
		p.timer = nil
	}
	if owed > 0 && !next.IsZero() {
		p.timer = time.AfterFunc(next.Sub(now), func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.schedule()
		})
	}
}
