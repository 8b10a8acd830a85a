package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// testLimits: a limit is stored, read back by the next update, forgotten
// once expired, and deleted by a result that has expired.
func testLimits(t *testing.T, s store.Store) {
	ctx := context.Background()
	var seen []store.Limit
	update := func(name string, now time.Time, next store.Limit) store.Limit {
		t.Helper()
		got, err := s.UpdateLimit(ctx, name, now, func(cur store.Limit) store.Limit {
			seen = append(seen, cur)
			return next
		})
		must(t, err)
		return got
	}
	last := func() store.Limit { return seen[len(seen)-1] }
	a := store.Limit{N: 4.5, At: t0, Until: t0.Add(3 * time.Second), Holder: "node-a", Expires: t0.Add(time.Hour)}
	if got := update("signin:1", t0, a); got != a {
		t.Fatalf("UpdateLimit returned %+v, want %+v", got, a)
	}
	if last() != (store.Limit{}) {
		t.Fatalf("a new limit read %+v, want the zero Limit", last())
	}
	b := store.Limit{N: 3.25, At: t0.Add(time.Second), Expires: t0.Add(2 * time.Hour)}
	update("signin:1", t0.Add(time.Second), b)
	if last() != a {
		t.Fatalf("read %+v, want what was stored: %+v", last(), a)
	}
	// Another name is another limit.
	update("addr:10.0.0.1", t0, store.Limit{N: 1, Expires: t0.Add(time.Minute)})
	if last() != (store.Limit{}) {
		t.Fatalf("another name read %+v", last())
	}
	// Expired: it reads as none, even before it is deleted.
	update("addr:10.0.0.1", t0.Add(time.Minute), store.Limit{N: 7, Expires: t0.Add(5 * time.Minute)})
	if last() != (store.Limit{}) {
		t.Fatalf("an expired limit read %+v, want the zero Limit", last())
	}
	// A result that has expired deletes the limit.
	update("signin:1", t0.Add(2*time.Second), store.Limit{})
	if last() != b {
		t.Fatalf("read %+v, want %+v", last(), b)
	}
	update("signin:1", t0.Add(3*time.Second), store.Limit{N: 1, Expires: t0.Add(4 * time.Second)})
	if last() != (store.Limit{}) {
		t.Fatalf("a deleted limit read %+v", last())
	}
	// signin:1 expires at t0+4s, addr:10.0.0.1 at t0+5min.
	n, err := s.DeleteExpiredLimits(ctx, t0.Add(time.Minute))
	must(t, err)
	if n != 1 {
		t.Fatalf("DeleteExpiredLimits deleted %d, want 1", n)
	}
	update("addr:10.0.0.1", t0.Add(time.Minute), store.Limit{N: 8, Expires: t0.Add(5 * time.Minute)})
	if last().N != 7 {
		t.Fatalf("the unexpired limit read %+v after the sweep", last())
	}
	n, err = s.DeleteExpiredLimits(ctx, t0.Add(time.Hour))
	must(t, err)
	if n != 1 {
		t.Fatalf("DeleteExpiredLimits deleted %d, want 1", n)
	}
}

// testLimitRace: concurrent updates of one limit, starting from none, queue
// one behind another, each seeing the one before — none is lost, none
// reads a value twice — also across deleting the limit and making it
// again. This is what makes 5 free guesses 5 on any number of nodes.
func testLimitRace(t *testing.T, s store.Store) {
	ctx := context.Background()
	const n, cycle = 60, 5
	var mu sync.Mutex
	saw := map[float64]int{}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := s.UpdateLimit(ctx, "race", t0, func(cur store.Limit) store.Limit {
				mu.Lock()
				saw[cur.N]++
				mu.Unlock()
				if cur.N == cycle-1 {
					return store.Limit{} // deleted: the next update starts from none
				}
				return store.Limit{N: cur.N + 1, At: t0, Expires: t0.Add(time.Hour)}
			})
			if err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	for v := range cycle {
		if saw[float64(v)] != n/cycle {
			t.Fatalf("updates saw %v (value: how many), want each of 0..%d %d times", saw, cycle-1, n/cycle)
		}
	}
}
