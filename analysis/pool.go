package analysis

import (
	"context"
	"errors"
	"sync"
)

// Pool is a node's compute budget for analyses and reviews, the bounded
// default until the node-wide pool of search workers of the hardening work
// (fair shares per user) takes its place behind the same two calls: Admit
// (may this user start one more?) and Slice (may a slice of search run
// now?).
//
//   - At most PerUser analyses per user and PerNode per node run at once;
//     one more is refused at once (ErrUserBusy, ErrNodeBusy), never queued,
//     so a flood of requests costs nothing but the refusals.
//   - Urgent work (a bot's move in a live game) goes first: a slice of
//     analysis starts only while urgent work and running slices together
//     leave a core free, and otherwise waits. Slices are short (Options'
//     Interval), so a bot that starts thinking shares a core with at most
//     the slice already running, for at most that long.
type Pool struct {
	cores, perUser, perNode int

	mu      sync.Mutex
	wake    chan struct{} // closed and replaced whenever a core may have come free
	urgent  int           // urgent work in flight
	slices  int           // analysis slices running
	running int           // admitted analyses
	users   map[int64]int
}

// Errors of Admit.
var (
	ErrUserBusy = errors.New("you already have an analysis running; stop it first")
	ErrNodeBusy = errors.New("the server is analysing as much as it can; try again in a minute")
)

// NewPool returns a pool for a node of cores cores (its GOMAXPROCS), with at
// most perUser analyses per user and perNode in all (values below 1 mean 1).
func NewPool(cores, perUser, perNode int) *Pool {
	return &Pool{cores: max(cores, 1), perUser: max(perUser, 1), perNode: max(perNode, 1), users: map[int64]int{}, wake: make(chan struct{})}
}

// Admit lets user start an analysis or a review, or refuses at once; the
// caller calls release when it ends.
func (p *Pool) Admit(user int64) (release func(), err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case p.users[user] >= p.perUser:
		return nil, ErrUserBusy
	case p.running >= p.perNode:
		return nil, ErrNodeBusy
	}
	p.users[user]++
	p.running++
	var once sync.Once
	return func() {
		once.Do(func() {
			p.mu.Lock()
			defer p.mu.Unlock()
			p.running--
			if p.users[user]--; p.users[user] <= 0 {
				delete(p.users, user)
			}
		})
	}, nil
}

// Slice waits until a slice of analysis may run (a core free of urgent work
// and of other slices) and returns the function that ends it, or ctx's
// error.
func (p *Pool) Slice(ctx context.Context) (done func(), err error) {
	for {
		p.mu.Lock()
		if p.urgent+p.slices < p.cores {
			p.slices++
			p.mu.Unlock()
			var once sync.Once
			return func() { once.Do(func() { p.change(func() { p.slices-- }) }) }, nil
		}
		wake := p.wake
		p.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Urgent marks urgent work in flight (a bot thinking) until done is called:
// no new slice of analysis starts while it holds the cores.
func (p *Pool) Urgent() (done func()) {
	p.change(func() { p.urgent++ })
	var once sync.Once
	return func() { once.Do(func() { p.change(func() { p.urgent-- }) }) }
}

// change applies f under the lock and wakes the waiting slices.
func (p *Pool) change(f func()) {
	p.mu.Lock()
	defer p.mu.Unlock()
	f()
	close(p.wake)
	p.wake = make(chan struct{})
}

// Gate is Slice in the shape Options.Gate takes.
func (p *Pool) Gate() func(ctx context.Context) (func(), error) { return p.Slice }
