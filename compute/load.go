package compute

import "time"

// Load is what a pool holds at one moment.
type Load struct {
	Cores int // the pool's capacity
	Busy  int // cores held by running tasks
	// LiveWaiting and BackgroundWaiting are the tasks waiting in each
	// class.
	LiveWaiting, BackgroundWaiting int
	// Users is the number of users with a task running or waiting.
	Users int
	// LiveWait is how long Live tasks waited for their cores lately (a
	// moving average over about the last 16).
	LiveWait time.Duration
}

// Load reports what the pool holds now.
func (p *Pool) Load() Load {
	p.mu.Lock()
	defer p.mu.Unlock()
	l := Load{Cores: p.cfg.Cores, Busy: p.busy, LiveWaiting: p.waiting[Live], BackgroundWaiting: p.waiting[Background], LiveWait: p.liveWaitAvg}
	for _, u := range p.users {
		if u.busy > 0 || u.waiting > 0 {
			l.Users++
		}
	}
	return l
}

// Saturated reports whether a Live task submitted now would wait for at
// least a whole round of running tasks: the Live tasks already waiting ask
// for all of the pool's cores. A saturated node plays its bots' moves
// late; it should not take more bot games.
func (p *Pool) Saturated() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.waitCores[Live] >= p.cfg.Cores
}
