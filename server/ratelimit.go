package server

import (
	"context"
	"sync"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Two kinds of limits. The limits that protect an account or the site —
// the sign-in back-off of each account (package account), the budget of sign-ups and sign-ins
// of each address, a user's creations in flight (quotas.go) — are kept in
// the store (store.Limits), so that every node sharing it counts the same:
// with them per node, three nodes gave an attacker fifteen free guesses at
// a password instead of five. The limits that protect one node's own
// resources — the HTTP requests per client and per address it serves, each
// WebSocket connection's messages — are counted in memory by that node:
// a client that spreads its requests over three nodes costs each of them
// no more than the limit.

// limiter is a set of token buckets in memory, one per client key. Buckets
// that have refilled completely carry no information and are dropped, so
// memory stays bounded by the number of recently active clients.
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
	b.tokens = refill(b.tokens, b.last, now, l.rate, l.burst)
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
		if refill(b.tokens, b.last, now, l.rate, l.burst) >= l.burst {
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
	c.b.tokens = refill(c.b.tokens, c.b.last, now, c.rate, c.burst)
	c.b.last = now
	if c.b.tokens < 1 {
		return false
	}
	c.b.tokens--
	return true
}

// refill is a bucket of tokens left at last, refilled at rate per second
// up to burst by now. A clock that went back (another node's, a little
// behind) refills nothing.
func refill(tokens float64, last, now time.Time, rate, burst float64) float64 {
	return min(burst, tokens+max(0, now.Sub(last).Seconds())*rate)
}

// takeToken is one step of a token bucket kept as a store.Limit: N is the
// tokens left at At, and the zero Limit is a full bucket. It takes one
// token if there is one; the entry expires when the bucket would be full
// again, and a full bucket is no entry at all.
func takeToken(l store.Limit, rate, burst float64, now time.Time) (store.Limit, bool) {
	tokens := burst
	if !l.At.IsZero() {
		tokens = refill(l.N, l.At, now, rate, burst)
	}
	ok := tokens >= 1
	if ok {
		tokens--
	}
	full := time.Duration((burst - tokens) / rate * float64(time.Second))
	return store.Limit{N: tokens, At: now, Expires: now.Add(full)}, ok
}

// sharedBucket is a token bucket per key kept in the store, so that every
// node takes from the same one. A bucket with rate 0 allows everything.
type sharedBucket struct {
	prefix      string // the limit's name is prefix + key
	rate, burst float64
}

// allow takes one token from key's bucket and reports whether there was
// one.
func (b sharedBucket) allow(ctx context.Context, lim store.Limits, key string, now time.Time) (bool, error) {
	if b.rate <= 0 {
		return true, nil
	}
	var ok bool
	_, err := lim.UpdateLimit(ctx, b.prefix+key, now, func(l store.Limit) store.Limit {
		l, ok = takeToken(l, b.rate, b.burst, now)
		return l
	})
	return ok, err
}
