package server

import (
	"sync"
	"time"
)

// limiter is a set of token buckets, one per client key. Buckets that have
// refilled completely carry no information and are dropped, so memory stays
// bounded by the number of recently active clients.
type limiter struct {
	rate, burst float64 // tokens per second; bucket size
	mu          sync.Mutex
	buckets     map[string]*bucket
	lastSweep   time.Time
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newLimiter(rate, burst float64) *limiter {
	return &limiter{rate: rate, burst: burst, buckets: map[string]*bucket{}}
}

// allow takes one token from key's bucket and reports whether there was
// one. A limiter with rate 0 allows everything.
func (l *limiter) allow(key string, now time.Time) bool {
	if l == nil || l.rate <= 0 {
		return true
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if now.Sub(l.lastSweep) > time.Minute {
		l.sweep(now)
	}
	b := l.buckets[key]
	if b == nil {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

func (l *limiter) sweep(now time.Time) {
	l.lastSweep = now
	for k, b := range l.buckets {
		if b.tokens+now.Sub(b.last).Seconds()*l.rate >= l.burst {
			delete(l.buckets, k)
		}
	}
}

// connLimiter is one WebSocket connection's message budget.
type connLimiter struct {
	rate, burst float64
	b           bucket
}

func newConnLimiter(rate float64, now time.Time) *connLimiter {
	if rate <= 0 {
		return nil
	}
	return &connLimiter{rate: rate, burst: 4 * rate, b: bucket{tokens: 4 * rate, last: now}}
}

func (c *connLimiter) allow(now time.Time) bool {
	if c == nil {
		return true
	}
	c.b.tokens = min(c.burst, c.b.tokens+now.Sub(c.b.last).Seconds()*c.rate)
	c.b.last = now
	if c.b.tokens < 1 {
		return false
	}
	c.b.tokens--
	return true
}

// Sign-in back-off per account: loginFreeTries sign-ins in a row may fail;
// after that each try waits, loginFirstWait after the first failure over
// and twice as long after each one more, up to loginMaxWait. Failures
// loginForget old with no wait pending are forgotten.
const (
	loginFreeTries = 5
	loginFirstWait = time.Second
	loginMaxWait   = 15 * time.Minute
	loginForget    = time.Hour
)

// accountGuard slows password guessing at one account however many
// addresses the guesses come from. It keys by account, never by address,
// and only the password sign-in of that account waits: its sessions and
// API tokens keep working, and no other account is touched. Only existing
// accounts get an entry (names are public anyway), so its size is bounded
// by the number of accounts under attack, and idle entries are swept.
type accountGuard struct {
	mu        sync.Mutex
	tries     map[int64]*accountTries
	lastSweep time.Time
}

type accountTries struct {
	n           int       // sign-ins since the last success, this one included
	last, until time.Time // the latest try; no try before until
}

func newAccountGuard() *accountGuard { return &accountGuard{tries: map[int64]*accountTries{}} }

// begin counts a sign-in at account id, before the password is checked, so
// that concurrent guesses are counted too. While the account is backing off
// it returns the time left, and the try is refused and not counted; else
// it returns how many tries in a row this one makes.
func (g *accountGuard) begin(id int64, now time.Time) (time.Duration, int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if now.Sub(g.lastSweep) > loginForget {
		g.sweep(now)
	}
	t := g.tries[id]
	if t != nil && now.Before(t.until) {
		return t.until.Sub(now), t.n
	}
	if t == nil || now.Sub(t.last) > loginForget {
		t = &accountTries{}
		g.tries[id] = t
	}
	t.n++
	t.last = now
	if over := t.n - loginFreeTries; over >= 0 {
		wait := loginMaxWait
		if over < 20 {
			wait = min(loginMaxWait, loginFirstWait<<over)
		}
		t.until = now.Add(wait)
	}
	return 0, t.n
}

// succeeded forgets the account's failures.
func (g *accountGuard) succeeded(id int64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.tries, id)
}

func (g *accountGuard) sweep(now time.Time) {
	g.lastSweep = now
	for id, t := range g.tries {
		if now.Sub(t.last) > loginForget && !now.Before(t.until) {
			delete(g.tries, id)
		}
	}
}
