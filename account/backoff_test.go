package account

import (
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

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
	if !l.Expires.Equal(now.Add(time.Second + forgetAfter)) {
		t.Fatalf("expires %v, want an hour after the last try", l.Expires)
	}
	l, _, tries = beginSignIn(l, now.Add(time.Second+forgetAfter+time.Millisecond))
	if tries != 1 {
		t.Fatalf("an hour later: tries %d, want the count forgotten", tries)
	}
}
