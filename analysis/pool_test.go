package analysis

import (
	"context"
	"errors"
	"testing"
	"time"
)

// waitFor fails t unless cond holds within ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not within 10 s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestPoolAdmits: one job per user (running or waiting), a node-wide cap
// beyond which jobs wait, a full queue that refuses at once, and a release
// that frees the place (twice is harmless).
func TestPoolAdmits(t *testing.T) {
	p := NewPool(2, 1, time.Hour)
	r1, err := p.Enter(1, nil)
	if err != nil || r1.Place() != 0 {
		t.Fatalf("the first job: place %d, %v", r1.Place(), err)
	}
	if _, err := p.Enter(1, nil); !errors.Is(err, ErrUserBusy) {
		t.Fatalf("a second job of user 1: %v", err)
	}
	r2, err := p.Enter(2, func() {})
	if err != nil || r2.Place() != 0 {
		t.Fatalf("the second job: %v", err)
	}
	w3, err := p.Enter(3, nil)
	if err != nil || w3.Place() != 1 {
		t.Fatalf("a third job on a node of two should wait first in line: place %d, %v", w3.Place(), err)
	}
	if _, err := p.Enter(3, nil); !errors.Is(err, ErrUserBusy) {
		t.Fatalf("a second job of a waiting user: %v", err)
	}
	if _, err := p.Enter(4, nil); !errors.Is(err, ErrNodeBusy) {
		t.Fatalf("a job beyond a full queue: %v", err)
	}
	r1.Release()
	r1.Release()
	if err := w3.Wait(context.Background(), nil); err != nil || w3.Place() != 0 {
		t.Fatalf("the waiter after a release: %v", err)
	}
	w4, err := p.Enter(4, nil)
	if err != nil || w4.Place() != 1 {
		t.Fatalf("a double release freed two places: place %d, %v", w4.Place(), err)
	}
	w4.Release()
	r2.Release()
	w3.Release()
}

// TestPoolQueueTellsPlaces: waiters learn their place as the ones ahead
// start or leave, and a waiter whose context ends leaves the line.
func TestPoolQueueTellsPlaces(t *testing.T) {
	p := NewPool(1, 10, time.Hour)
	run, _ := p.Enter(1, nil)
	a, _ := p.Enter(2, nil)
	b, _ := p.Enter(3, nil)
	c, _ := p.Enter(4, nil)
	if a.Place() != 1 || b.Place() != 2 || c.Place() != 3 {
		t.Fatalf("places %d %d %d", a.Place(), b.Place(), c.Place())
	}
	places := make(chan int, 10)
	done := make(chan error, 1)
	go func() { done <- c.Wait(context.Background(), func(n int) { places <- n }) }()
	if n := <-places; n != 3 {
		t.Fatalf("c's first place %d", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := b.Wait(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a waiter whose context ended: %v", err)
	}
	b.Release()
	if n := <-places; n != 2 {
		t.Fatalf("c's place after b left: %d", n)
	}
	run.Release()
	if n := <-places; n != 1 {
		t.Fatalf("c's place after a started: %d", n)
	}
	a.Release()
	if err := <-done; err != nil || c.Place() != 0 {
		t.Fatalf("c did not start: %v", err)
	}
	c.Release()
}

// TestPoolTimeSlices: four users holding every place cannot keep a fifth
// out — the oldest job that can yield is asked to once it has had its
// quantum and someone waits, never before, and never a job that cannot
// yield; the one who yielded waits at the back if they ask again.
func TestPoolTimeSlices(t *testing.T) {
	const quantum = 50 * time.Millisecond
	p := NewPool(4, 10, quantum)
	yielded := make(chan int64, 10)
	enter := func(user int64, canYield bool) *Ticket {
		var tk *Ticket
		var yield func()
		if canYield {
			yield = func() { yielded <- user } // the test releases it
		}
		tk, err := p.Enter(user, yield)
		if err != nil {
			t.Fatal(err)
		}
		return tk
	}
	review := enter(1, false)
	start := time.Now()
	held := []*Ticket{enter(2, true), enter(3, true), enter(4, true)}
	select {
	case u := <-yielded:
		t.Fatalf("user %d was asked to yield with nobody waiting", u)
	case <-time.After(2 * quantum):
	}
	guest := enter(5, true)
	if guest.Place() != 1 {
		t.Fatalf("the fifth user's place %d", guest.Place())
	}
	if u := <-yielded; u != 2 {
		t.Fatalf("user %d yielded; the oldest that can is user 2", u)
	}
	if waited := time.Since(start); waited < quantum {
		t.Fatalf("a job yielded after %v, before its quantum", waited)
	}
	held[0].Release()
	if err := guest.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	again := enter(2, true)
	if again.Place() != 1 {
		t.Fatalf("the user who yielded, asking again: place %d", again.Place())
	}
	if u := <-yielded; u != 3 {
		t.Fatalf("user %d yielded next; want user 3", u)
	}
	held[1].Release()
	if err := again.Wait(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	select {
	case u := <-yielded:
		t.Fatalf("user %d yielded with nobody waiting", u)
	case <-time.After(2 * quantum):
	}
	review.Release()
	guest.Release()
	again.Release()
	held[2].Release()
}

// TestPoolReviewsTakeHalf: jobs that cannot yield take at most half the
// places, so an analysis behind them still starts.
func TestPoolReviewsTakeHalf(t *testing.T) {
	p := NewPool(4, 10, time.Hour)
	r1, _ := p.Enter(1, nil)
	r2, _ := p.Enter(2, nil)
	r3, _ := p.Enter(3, nil)
	if r3.Place() != 1 {
		t.Fatalf("a third review on a node of four should wait: place %d", r3.Place())
	}
	a, _ := p.Enter(4, func() {})
	if a.Place() != 0 {
		t.Fatalf("an analysis behind a waiting review should start: place %d", a.Place())
	}
	r1.Release()
	waitFor(t, "the waiting review starts", func() bool { return r3.Place() == 0 })
	for _, tk := range []*Ticket{r2, r3, a} {
		tk.Release()
	}
}
