package server

import (
	"context"
	"sync"
	"time"
)

// ttlCache is a bounded map whose entries expire. The server keeps in it
// what it shows beside users in game summaries — names, ratings — which
// the store holds and a page of the lobby would otherwise read again for
// every seat. It never holds more than max entries: when full, expired
// entries go first, then arbitrary ones (map order), an eighth at a time.
//
// An entry is only as fresh as its expiry: a change made on another node
// of a cluster shows here when the entry expires (the node that made the
// change forgets its own entry at once).
type ttlCache[K comparable, V any] struct {
	max int
	mu  sync.Mutex
	m   map[K]ttlEntry[V]
}

type ttlEntry[V any] struct {
	v       V
	expires time.Time
}

func newTTLCache[K comparable, V any](max int) *ttlCache[K, V] {
	return &ttlCache[K, V]{max: max, m: map[K]ttlEntry[V]{}}
}

// get returns k's value unless it is missing or expired at now.
func (c *ttlCache[K, V]) get(k K, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !now.Before(e.expires) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// put stores v under k until expires.
func (c *ttlCache[K, V]) put(k K, v V, expires, now time.Time) {
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

// forget drops k's entry.
func (c *ttlCache[K, V]) forget(k K) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.m, k)
}

// len is how many entries the cache holds, expired ones included.
func (c *ttlCache[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}

// How long a user's name is kept. A registered user's name never changes
// (there is no renaming), so it may be kept long; a guest's changes once,
// when the guest registers — on whichever node that happens — so it is
// kept briefly: the guest flag is the name's version.
const (
	maxCachedNames = 10000
	nameTTL        = time.Hour
	guestNameTTL   = 10 * time.Second
)

// userName returns a user's name, cached.
func (s *Server) userName(ctx context.Context, id int64) string {
	if id == 0 {
		return ""
	}
	now := s.now()
	if v, ok := s.names.get(id, now); ok {
		return v
	}
	u, err := s.store.User(ctx, id)
	if err != nil {
		return ""
	}
	ttl := nameTTL
	if u.Guest {
		ttl = guestNameTTL
	}
	s.names.put(id, u.Name, now.Add(ttl), now)
	return u.Name
}
