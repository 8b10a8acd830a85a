package account

import (
	"sync"
	"time"
)

// Cache is a bounded map whose entries expire, safe for concurrent use.
// The site keeps in it what it shows beside users in game summaries —
// names (Accounts.Name), ratings — which the store holds and a page of the
// lobby would otherwise read again for every seat. It never holds more than max entries: when full, expired
// entries go first, then arbitrary ones (map order), an eighth at a time.
//
// An entry is only as fresh as its expiry: a change made on another node
// of a cluster shows here when the entry expires (the node that made the
// change forgets its own entry at once).
type Cache[K comparable, V any] struct {
	max int
	mu  sync.Mutex
	m   map[K]ttlEntry[V]
}

type ttlEntry[V any] struct {
	v       V
	expires time.Time
}

// NewCache returns an empty cache of at most max entries.
func NewCache[K comparable, V any](max int) *Cache[K, V] {
	return &Cache[K, V]{max: max, m: map[K]ttlEntry[V]{}}
}

// Get returns k's value unless it is missing or expired at now.
func (c *Cache[K, V]) Get(k K, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !now.Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put stores v under k until expires.
func (c *Cache[K, V]) Put(k K, v V, expires, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		for k, e := range c.m {
			if !now.Before(e.expires) {
				delete(c.m, k)
			}
		}
		for k := range c.m {
			if len(c.m) < c.max-c.max/8 {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[k] = ttlEntry[V]{v: v, expires: expires}
}

// Forget drops k's entry.
func (c *Cache[K, V]) Forget(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

// Len is how many entries the cache holds, expired ones included.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
