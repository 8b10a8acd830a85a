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
