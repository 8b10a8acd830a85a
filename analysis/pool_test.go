package analysis

import (
	"errors"
	"testing"
)

// TestPoolAdmits: one analysis per user, a node-wide cap, refusals at once
// and a release that frees the place (twice is harmless).
func TestPoolAdmits(t *testing.T) {
	p := NewPool(1, 2)
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
