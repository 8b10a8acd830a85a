package server

import (
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// TestTakeToken: the token bucket kept in the store — a new bucket is full,
// it refills at its rate, and a node whose clock is behind the last
// update's refills nothing rather than taking tokens back or adding them.
func TestTakeToken(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	const rate, burst = 0.5, 3 // one token every 2 s
	var l store.Limit
	var ok bool
	for i := range 3 {
		if l, ok = takeToken(l, rate, burst, now); !ok {
			t.Fatalf("token %d of a full bucket of 3 refused", i+1)
		}
	}
	if l2, ok := takeToken(l, rate, burst, now); ok || l2.N != 0 {
		t.Fatalf("a fourth token at once: %v, %+v", ok, l2)
	}
	if want := now.Add(6 * time.Second); !l.Expires.Equal(want) {
		t.Fatalf("an empty bucket expires at %v, want %v (when full again)", l.Expires, want)
	}
	behind := now.Add(-5 * time.Second)
	if l2, ok := takeToken(l, rate, burst, behind); ok || l2.N != 0 {
		t.Fatalf("a clock 5 s behind: %v, %+v; want no refill", ok, l2)
	}
	if _, ok := takeToken(l, rate, burst, now.Add(2*time.Second)); !ok {
		t.Fatal("2 s later: no token")
	}
}
