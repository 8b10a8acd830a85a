package cluster

import (
	"slices"
	"testing"
	"time"
)

// TestForget: the users one node says changed reach every other node (each
// drops its cached names and ratings of them), none of which watches a
// game of theirs; the node that says it does not hear itself.
func TestForget(t *testing.T) {
	e := newQuietEnv(t)
	a, b, c := e.start(), e.start(), e.start()
	a.n.Forget([]int64{7, 9})
	for _, tn := range []*testNode{b, c} {
		deadline := time.Now().Add(10 * time.Second)
		for !slices.Equal(tn.forgotten(), []int64{7, 9}) {
			if time.Now().After(deadline) {
				t.Fatalf("%s heard %v, want [7 9]", tn.n.ID(), tn.forgotten())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	if err := a.n.nc.Flush(); err != nil {
		t.Fatal(err)
	}
	if got := a.forgotten(); len(got) != 0 {
		t.Fatalf("the node that said it heard itself: %v", got)
	}
	a.n.Forget(nil) // nothing to say: no message
	b.n.Forget([]int64{3})
	deadline := time.Now().Add(10 * time.Second)
	for !slices.Equal(a.forgotten(), []int64{3}) {
		if time.Now().After(deadline) {
			t.Fatalf("a heard %v, want [3]", a.forgotten())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
