package compute

import "sync"

// Memory is a node's budget of bytes for what its bots' searches hold: the
// trees they grow while they think (with the exact solver's table) and what
// they keep between moves (the subtree a search may reuse). Accounts are free
// and quotas are per user, so without a bound per node a crowd of bot games
// could take all of a node's memory; with it, a search reserves its bytes
// before it grows and gives them back when it is done, and what the bots
// keep between moves never holds more than KeptShare of the budget, so that
// searching always has room.
//
// The budget counts reservations, not the heap: the Go heap of a node is
// about the budget's use plus the garbage the collector has not yet taken
// back (at most as much again with GOGC=100) plus what serves people.
//
// A nil *Memory is a budget without a limit. Memory is safe for concurrent
// use.
type Memory struct {
	limit int64

	mu   sync.Mutex
	used int64 // every reservation, kept ones included
	kept int64 // reservations of what is held between moves
	peak int64
	// refused counts the reservations that did not fit: each is a search
	// that grew a smaller tree, or kept nothing, because the node was full.
	refused int64
}

// DefaultMemory is a node's bot memory budget when none is given: 512 MiB,
// enough for a two-core node's searches at full size (a hard search grows
// at most about 63 MB a worker) and for what a few dozen bot games keep
// between moves, small beside a server's memory.
const DefaultMemory = 512 << 20

// KeptShare is the part of the budget that what bots keep between moves
// may hold; the rest is left to searches under way.
const KeptShare = 0.5

// pressedShare is the use of the budget, and keptPressedShare that of the
// kept share, from which the node refuses new bot games (Pressed).
const (
	pressedShare     = 0.75
	keptPressedShare = 0.9
)

// NewMemory returns a budget of limit bytes (0 or less: DefaultMemory).
func NewMemory(limit int64) *Memory {
	if limit <= 0 {
		limit = DefaultMemory
	}
	return &Memory{limit: limit}
}

// Reserve takes n bytes from the budget if they fit and reports whether
// they did; kept marks what is held between moves, which fits only within
// KeptShare of the budget. Nothing is taken when they do not fit.
func (m *Memory) Reserve(n int64, kept bool) bool {
	if m == nil || n <= 0 {
		return true
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.used+n > m.limit || kept && float64(m.kept+n) > KeptShare*float64(m.limit) {
		m.refused++
		return false
	}
	m.used += n
	if kept {
		m.kept += n
	}
	m.peak = max(m.peak, m.used)
	return true
}

// Release gives back n bytes reserved with the same kept.
func (m *Memory) Release(n int64, kept bool) {
	if m == nil || n <= 0 {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	// More released than reserved would be a bug of the caller's; the
	// budget stays at zero rather than lend what it never had.
	m.used = max(m.used-n, 0)
	if kept {
		m.kept = max(m.kept-n, 0)
	}
}

// Pressed reports whether the budget is nearly spent — three quarters of
// it reserved, or what bots keep between moves nearly at its share: the
// node then refuses new bot games (the games under way carry on, their
// bots searching smaller trees if they must).
func (m *Memory) Pressed() bool {
	if m == nil {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return float64(m.used) >= pressedShare*float64(m.limit) || float64(m.kept) >= keptPressedShare*KeptShare*float64(m.limit)
}

// MemoryStats is what a budget holds at one moment.
type MemoryStats struct {
	Limit, Used, Kept, Peak int64
	// Refused counts the reservations that did not fit, since the start.
	Refused int64
}

// Stats reports what the budget holds now.
func (m *Memory) Stats() MemoryStats {
	if m == nil {
		return MemoryStats{}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return MemoryStats{Limit: m.limit, Used: m.used, Kept: m.kept, Peak: m.peak, Refused: m.refused}
}
