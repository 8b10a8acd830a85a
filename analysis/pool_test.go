package analysis

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestPoolAdmits: one analysis per user, a node-wide cap, refusals at once
// and a release that frees the place (twice is harmless).
func TestPoolAdmits(t *testing.T) {
	p := NewPool(2, 1, 2)
	r1, err := p.Admit(1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Admit(1); !errors.Is(err, ErrUserBusy) {
		t.Fatalf("a second analysis of user 1: %v", err)
	}
	r2, err := p.Admit(2)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Admit(3); !errors.Is(err, ErrNodeBusy) {
		t.Fatalf("a third analysis on a node of two: %v", err)
	}
	r1()
	r1()
	if _, err := p.Admit(1); err != nil {
		t.Fatalf("after release: %v", err)
	}
	if _, err := p.Admit(4); !errors.Is(err, ErrNodeBusy) {
		t.Fatalf("a double release freed two places: %v", err)
	}
	r2()
}

// TestPoolGivesWayToUrgentWork: while urgent work (bots thinking) holds
// every core no slice starts; one starts as soon as a core is free.
func TestPoolGivesWayToUrgentWork(t *testing.T) {
	p := NewPool(2, 1, 4)
	u1, u2 := p.Urgent(), p.Urgent()
	got := make(chan func(), 1)
	go func() {
		done, err := p.Slice(context.Background())
		if err != nil {
			t.Error(err)
		}
		got <- done
	}()
	select {
	case <-got:
		t.Fatal("a slice started while bots held both cores")
	case <-time.After(50 * time.Millisecond):
	}
	u1()
	var done func()
	select {
	case done = <-got:
	case <-time.After(5 * time.Second):
		t.Fatal("no slice after a core came free")
	}
	// The free core is taken by that slice: another waits, and gives up
	// with its context.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if _, err := p.Slice(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("a second slice on a busy node: %v", err)
	}
	done()
	u2()
	d1, err := p.Slice(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d2, err := p.Slice(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	d1()
	d2()
}
