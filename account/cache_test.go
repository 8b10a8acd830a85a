package account

import (
	"testing"
	"time"
)

// TestCache: entries expire, a forgotten entry is gone, and however many
// users pass by the cache holds at most its bound (issue 23, finding 10: the
// names cache kept every user, guests included, for the process's life).
func TestCache(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	c := NewCache[int64, string](100)
	c.Put(1, "ann", now.Add(time.Minute), now)
	if v, ok := c.Get(1, now.Add(59*time.Second)); !ok || v != "ann" {
		t.Fatalf("before its expiry: %q, %v", v, ok)
	}
	if v, ok := c.Get(1, now.Add(time.Minute)); ok {
		t.Fatalf("at its expiry: %q, still there", v)
	}
	c.Put(2, "bob", now.Add(time.Hour), now)
	c.Forget(2)
	if _, ok := c.Get(2, now); ok {
		t.Fatal("a forgotten entry is still there")
	}
	for i := range int64(1000) {
		c.Put(100+i, "guest", now.Add(time.Hour), now)
		if c.Len() > 100 {
			t.Fatalf("after %d entries the cache holds %d, more than its bound 100", i+1, c.Len())
		}
	}
	// The newest entry always goes in; expired entries go before fresh ones.
	if v, ok := c.Get(1099, now); !ok || v != "guest" {
		t.Fatalf("the newest entry: %q, %v", v, ok)
	}
	d := NewCache[int64, string](10)
	for i := range int64(9) {
		d.Put(i, "old", now.Add(time.Second), now)
	}
	d.Put(9, "fresh", now.Add(time.Hour), now)
	later := now.Add(2 * time.Second)
	d.Put(10, "new", later.Add(time.Hour), later)
	if d.Len() != 2 {
		t.Fatalf("after the sweep the cache holds %d, want the 2 unexpired", d.Len())
	}
	if v, ok := d.Get(9, later); !ok || v != "fresh" {
		t.Fatalf("an unexpired entry was dropped while expired ones were there: %q, %v", v, ok)
	}
}
