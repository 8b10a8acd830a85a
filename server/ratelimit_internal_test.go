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

// TestBeginSignIn: the back-off kept in the store — five free tries, then
// waits doubling from 1 s, refused tries not counted, forgotten after an
// hour without a wait pending.
func TestBeginSignIn(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	var l store.Limit
	var wait time.Duration
	var tries int
	for i := range 5 {
		l, wait, tries = beginSignIn(l, now)
		if wait != 0 || tries != i+1 {
			t.Fatalf("try %d: wait %v, tries %d", i+1, wait, tries)
		}
	}
	if want := now.Add(time.Second); !l.Until.Equal(want) {
		t.Fatalf("after the fifth try the wait ends at %v, want %v", l.Until, want)
	}
	l2, wait, tries := beginSignIn(l, now.Add(500*time.Millisecond))
	if wait != 500*time.Millisecond || tries != 5 || l2 != l {
		t.Fatalf("during the wait: wait %v, tries %d, limit %+v (want it unchanged)", wait, tries, l2)
	}
	l, wait, tries = beginSignIn(l, now.Add(time.Second))
	if wait != 0 || tries != 6 || !l.Until.Equal(now.Add(3*time.Second)) {
		t.Fatalf("after the wait: wait %v, tries %d, until %v; want a 2 s wait from now", wait, tries, l.Until)
	}
	if !l.Expires.Equal(now.Add(time.Second + loginForget)) {
		t.Fatalf("expires %v, want an hour after the last try", l.Expires)
	}
	l, _, tries = beginSignIn(l, now.Add(time.Second+loginForget+time.Millisecond))
	if tries != 1 {
		t.Fatalf("an hour later: tries %d, want the count forgotten", tries)
	}
}
