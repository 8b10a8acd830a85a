package match

import "time"

// ClockKind is the kind of a game's time control.
type ClockKind string

// The time controls.
const (
	ClockNone           ClockKind = "none"
	ClockRealtime       ClockKind = "realtime"       // a chess clock per seat
	ClockCorrespondence ClockKind = "correspondence" // days per decision
)

// Clock is a game's time control.
type Clock struct {
	Kind        ClockKind `json:"kind"`
	InitialMs   int64     `json:"initialMs,omitempty"`   // realtime: each seat's starting time
	IncrementMs int64     `json:"incrementMs,omitempty"` // realtime: added after each of the seat's moves
	Days        int       `json:"days,omitempty"`        // correspondence: time per decision
	// Berserk has bit s set when seat s halved its own clock at the start
	// (CmdBerserk, berserk.go): that seat starts with InitialMs/2 and gets
	// no increment. A new game has none.
	Berserk uint64 `json:"berserk,omitempty"`
}

// Limits of the time controls.
const (
	maxInitialMs   = 24 * 3600 * 1000
	maxIncrementMs = 600 * 1000
	maxDays        = 14
)

// normalized checks a requested time control; the zero value is no clock.
func (c Clock) normalized() (Clock, error) {
	switch c.Kind {
	case "", ClockNone:
		return Clock{Kind: ClockNone}, nil
	case ClockRealtime:
		if c.InitialMs < 1000 || c.InitialMs > maxInitialMs || c.IncrementMs < 0 || c.IncrementMs > maxIncrementMs || c.Days != 0 {
			return c, errorf(CodeBadOption, "realtime clock: initialMs 1000…%d, incrementMs 0…%d", maxInitialMs, maxIncrementMs)
		}
		c.Berserk = 0 // a game starts unberserked: only CmdBerserk sets it
	case ClockCorrespondence:
		if c.Days < 1 || c.Days > maxDays || c.InitialMs != 0 || c.IncrementMs != 0 {
			return c, errorf(CodeBadOption, "correspondence clock: days 1…%d", maxDays)
		}
	default:
		return c, errorf(CodeBadOption, "clock kind %q: want none, realtime or correspondence", c.Kind)
	}
	return c, nil
}

// TimeSource tells the time and runs functions later: the real clock in the
// server, a fake one in tests.
type TimeSource interface {
	Now() time.Time
	// AfterFunc calls f on its own goroutine once d has passed, unless
	// stopped first.
	AfterFunc(d time.Duration, f func()) Stopper
}

// Stopper stops a function scheduled by AfterFunc.
type Stopper interface {
	Stop() bool
}

// RealTime is the system clock; now, if not nil, replaces time.Now.
type RealTime struct{ NowFunc func() time.Time }

// Now implements TimeSource.
func (t RealTime) Now() time.Time {
	if t.NowFunc != nil {
		return t.NowFunc()
	}
	return time.Now()
}

// AfterFunc implements TimeSource.
func (RealTime) AfterFunc(d time.Duration, f func()) Stopper { return time.AfterFunc(d, f) }

// ClockState is one seat's remaining realtime clock.
type ClockState struct {
	Seat        int
	RemainingMs int64
}

// clocks runs a game's time control: the realtime time left per seat,
// counted from turnStart for the seat to move, and the deadline of the
// seat to move.
type clocks struct {
	control   Clock
	remaining []int64
	turnStart time.Time
}

// newClocks sets the seats' clocks as the stored moves left them.
func newClocks(control Clock, seats int, moves []Move) clocks {
	c := clocks{control: control, remaining: make([]int64, seats)}
	for i := range c.remaining {
		c.remaining[i] = control.InitialMs
		if control.Berserked(i) {
			c.remaining[i] -= control.berserkCut()
		}
	}
	if control.Kind == ClockRealtime {
		for _, mv := range moves {
			if mv.Seat >= 0 && mv.Seat < seats {
				c.remaining[mv.Seat] = mv.ClockMs
			}
		}
	}
	return c
}

// deadline is when seat must have moved if its turn starts at from (zero:
// never).
func (c *clocks) deadline(seat int, from time.Time) time.Time {
	switch c.control.Kind {
	case ClockRealtime:
		if seat >= 0 {
			return from.Add(time.Duration(c.remaining[seat]) * time.Millisecond)
		}
	case ClockCorrespondence:
		return from.Add(time.Duration(c.control.Days) * 24 * time.Hour)
	}
	return time.Time{}
}

// charge is seat's realtime clock after a move at now, increment included
// (none for a seat that berserked), and whether the seat still had time; 0
// and true without a realtime clock.
func (c *clocks) charge(seat int, now time.Time) (int64, bool) {
	if c.control.Kind != ClockRealtime {
		return 0, true
	}
	left := c.remaining[seat] - now.Sub(c.turnStart).Milliseconds()
	if left <= 0 {
		return 0, false
	}
	if c.control.Berserked(seat) {
		return left, true // a berserk gives up the increment as well (berserk.go)
	}
	return left + c.control.IncrementMs, true
}

// state is every seat's time left at now, toMove's clock running; nil
// without a realtime clock.
func (c *clocks) state(toMove int, now time.Time) []ClockState {
	if c.control.Kind != ClockRealtime {
		return nil
	}
	out := make([]ClockState, len(c.remaining))
	for i, ms := range c.remaining {
		if i == toMove {
			ms -= now.Sub(c.turnStart).Milliseconds()
		}
		out[i] = ClockState{i, max(ms, 0)}
	}
	return out
}
