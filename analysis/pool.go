package analysis

import (
	"errors"
	"sync"
)

// Pool admits analyses and reviews on a node: at most PerUser of one user
// and PerNode in all run at once, and one more is refused at once
// (ErrUserBusy, ErrNodeBusy), never queued, so a flood of requests costs
// nothing but the refusals. It bounds the jobs (each holds a search tree
// and a solver table); the cores their slices of search take are the
// node's compute pool's to give (Search.Gate).
type Pool struct {
	perUser, perNode int

	mu      sync.Mutex
	running int // admitted jobs
	users   map[int64]int
}

// Errors of Admit.
var (
	ErrUserBusy = errors.New("you already have an analysis running; stop it first")
	ErrNodeBusy = errors.New("the server is analysing as much as it can; try again in a minute")
)

// NewPool returns a pool with at most perUser analyses per user and perNode
// in all (values below 1 mean 1).
func NewPool(perUser, perNode int) *Pool {
	return &Pool{perUser: max(perUser, 1), perNode: max(perNode, 1), users: map[int64]int{}}
}

// Admit lets user start an analysis or a review, or refuses at once; the
// caller calls release when it ends (a second call does nothing).
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
