package compute

import (
	"sync"
	"testing"
)

// TestMemoryBounds: reservations fit within the limit, what is kept within
// its share, a refusal takes nothing, releases give back, and the budget
// says it is pressed from three quarters of it (or nine tenths of the kept
// share). Concurrent reservations never pass the limit together.
func TestMemoryBounds(t *testing.T) {
	m := NewMemory(1000)
	if !m.Reserve(400, true) || m.Reserve(101, true) {
		t.Fatal("kept reservations: want 400 to fit and 101 more not (half of 1000)")
	}
	if m.Pressed() {
		t.Fatal("pressed at 400 of 1000 with 400 of 500 kept")
	}
	if !m.Reserve(50, true) || !m.Pressed() {
		t.Fatal("450 of the 500 kept: want it to fit, and the budget pressed")
	}
	m.Release(450, true)
	if !m.Reserve(700, false) || m.Pressed() || !m.Reserve(50, false) || !m.Pressed() {
		t.Fatal("searches: 700 then 750 of 1000, want pressed from 750")
	}
	if m.Reserve(251, false) {
		t.Fatal("1001 of 1000 reserved")
	}
	m.Release(750, false)
	st := m.Stats()
	if st.Used != 0 || st.Kept != 0 || st.Peak != 750 || st.Refused != 2 {
		t.Fatalf("stats %+v; want nothing used, peak 750, 2 refusals", st)
	}
	var nilMem *Memory
	if !nilMem.Reserve(1<<40, true) || nilMem.Pressed() {
		t.Fatal("a nil budget refused")
	}

	m = NewMemory(1 << 20)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 1000; j++ {
				if m.Reserve(100<<10, j%2 == 0) {
					m.Release(100<<10, j%2 == 0)
				}
			}
		}()
	}
	wg.Wait()
	if st := m.Stats(); st.Peak > 1<<20 || st.Used != 0 {
		t.Fatalf("concurrent reservations: %+v", st)
	}
}
