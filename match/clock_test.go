package match

import (
	"reflect"
	"testing"
	"time"
)

func TestClockNormalized(t *testing.T) {
	for _, tc := range []struct {
		in   Clock
		want Clock
		code Code
	}{
		{Clock{}, Clock{Kind: ClockNone}, ""},
		{Clock{Kind: ClockRealtime, InitialMs: 60000, IncrementMs: 1000}, Clock{Kind: ClockRealtime, InitialMs: 60000, IncrementMs: 1000}, ""},
		{Clock{Kind: ClockRealtime, InitialMs: 999}, Clock{}, CodeBadOption},
		{Clock{Kind: ClockRealtime, InitialMs: 60000, IncrementMs: -1}, Clock{}, CodeBadOption},
		{Clock{Kind: ClockRealtime, InitialMs: 60000, Days: 1}, Clock{}, CodeBadOption},
		{Clock{Kind: ClockCorrespondence, Days: 3}, Clock{Kind: ClockCorrespondence, Days: 3}, ""},
		{Clock{Kind: ClockCorrespondence, Days: 15}, Clock{}, CodeBadOption},
		{Clock{Kind: "hourglass"}, Clock{}, CodeBadOption},
	} {
		got, err := tc.in.normalized()
		if codeOf(err) != tc.code || (err == nil && got != tc.want) {
			t.Errorf("%+v.normalized() = %+v, %v; want %+v, code %q", tc.in, got, err, tc.want, tc.code)
		}
	}
}

// TestClocks: the realtime clock of the seat to move runs from the start of
// its turn; a move charges it and adds the increment; the stored moves set
// the clocks of a game loaded again.
func TestClocks(t *testing.T) {
	t0 := time.Date(2026, 11, 2, 10, 0, 0, 0, time.UTC)
	rt := Clock{Kind: ClockRealtime, InitialMs: 10000, IncrementMs: 2000}
	c := newClocks(rt, 2, nil)
	c.turnStart = t0
	if got := c.deadline(0, t0); !got.Equal(t0.Add(10 * time.Second)) {
		t.Fatalf("deadline of a fresh clock %v", got)
	}
	for _, tc := range []struct {
		after  time.Duration
		left   int64
		inTime bool
	}{
		{3 * time.Second, 9000, true},
		{9999 * time.Millisecond, 2001, true},
		{10 * time.Second, 0, false},
		{11 * time.Second, 0, false},
	} {
		left, ok := c.charge(0, t0.Add(tc.after))
		if left != tc.left || ok != tc.inTime {
			t.Errorf("charge after %v = %d, %v; want %d, %v", tc.after, left, ok, tc.left, tc.inTime)
		}
	}
	if got := c.state(0, t0.Add(4*time.Second)); !reflect.DeepEqual(got, []ClockState{{0, 6000}, {1, 10000}}) {
		t.Errorf("state with seat 0 running 4s: %v", got)
	}
	if got := c.state(0, t0.Add(time.Minute)); got[0].RemainingMs != 0 {
		t.Errorf("a clock past its time shows %d ms, want 0", got[0].RemainingMs)
	}
	loaded := newClocks(rt, 2, []Move{{Seat: 0, ClockMs: 9000}, {Seat: 1, ClockMs: 7000}, {Seat: 0, ClockMs: 5000}})
	if !reflect.DeepEqual(loaded.remaining, []int64{5000, 7000}) {
		t.Errorf("clocks from stored moves %v", loaded.remaining)
	}

	corr := newClocks(Clock{Kind: ClockCorrespondence, Days: 2}, 2, nil)
	if got := corr.deadline(1, t0); !got.Equal(t0.Add(48 * time.Hour)) {
		t.Errorf("correspondence deadline %v", got)
	}
	if left, ok := corr.charge(1, t0.Add(1000*time.Hour)); left != 0 || !ok || corr.state(1, t0) != nil {
		t.Errorf("a correspondence clock is not charged per move: %d, %v", left, ok)
	}
	none := newClocks(Clock{Kind: ClockNone}, 2, nil)
	if !none.deadline(0, t0).IsZero() {
		t.Errorf("no clock, but a deadline")
	}
}
