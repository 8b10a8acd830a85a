package solve

import (
	"math/bits"
	"sync/atomic"

	"github.com/tabula-games/tabula/internal/hugepages"
)

// wlTable is the win/loss solver's transposition table, shared by its
// workers without locks. A win/loss result has no bounds and no depth: a
// position is won or lost for the side to move, whoever found it, so an
// entry is a fact and every hit ends the search below it.
//
// An entry is one 64-bit word, written and read atomically, so no reader
// ever sees half an entry. The key is exact yet takes no room of its own:
// h = key·C (C odd) is a bijection of 64-bit words, the bucket is h's top
// b bits and the entry keeps the other 64−b, so bucket and entry together
// are h, hence the key — a hit is never another position's. The freed low
// b ≥ 12 bits hold the result:
//
//	bit 0     the entry is used
//	bit 1     the side to move wins
//	bits 2–7  the winning move in the canonical image's frame (63: none)
//	bits 8–11 how much work the result cost: log2 of the nodes searched, halved
//
// A bucket is two words: the first keeps the result that cost more work,
// the second is always replaced, so results that took millions of nodes
// survive a flood of cheap ones and fresh cheap ones are still found.
type wlTable struct {
	e     []uint64
	shift uint // 64 − b
	low   uint64
}

const (
	wlUsed     = 1
	wlWin      = 2
	wlMoveShft = 2
	wlWorkShft = 8
	wlDataBits = 12
	wlMulC     = 0x9e3779b97f4a7c15
)

// WinLossEntryBytes is the memory of one table entry.
const WinLossEntryBytes = 8

// newWLTable returns a table of at most bytes (at least 4,096 buckets of two
// entries), a power of two buckets.
func newWLTable(bytes int64) *wlTable {
	b := uint(wlDataBits)
	for int64(2)<<(b+1)*WinLossEntryBytes <= bytes && b < 40 {
		b++
	}
	e := hugepages.Advise(make([]uint64, 2<<b))
	return &wlTable{e: e, shift: 64 - b, low: 1<<b - 1}
}

// entries is the table's capacity.
func (t *wlTable) entries() int { return len(t.e) }

// slot returns the bucket's first index and the tag an entry for key
// carries above its data bits.
func (t *wlTable) slot(key uint64) (int, uint64) {
	h := key * wlMulC
	return int(h>>t.shift) * 2, h << (64 - t.shift)
}

// get returns what the table knows of key: ok, whether the side to move
// wins, and its winning move (noMove when not recorded).
func (t *wlTable) get(key uint64) (win bool, move uint8, ok bool) {
	i, tag := t.slot(key)
	for j := i; j < i+2; j++ {
		e := atomic.LoadUint64(&t.e[j])
		if e&wlUsed != 0 && e&^t.low == tag {
			return e&wlWin != 0, uint8(e >> wlMoveShft & 63), true
		}
	}
	return false, noMove, false
}

// workOf turns a node count into the entry's 4-bit measure of work.
func workOf(nodes int64) uint64 {
	return uint64(min(15, bits.Len64(uint64(nodes))/2))
}

// put records key's result; nodes is what it cost.
func (t *wlTable) put(key uint64, win bool, move uint8, nodes int64) {
	i, tag := t.slot(key)
	w := workOf(nodes)
	e := tag | wlUsed | uint64(move&63)<<wlMoveShft | w<<wlWorkShft
	if win {
		e |= wlWin
	}
	deep := atomic.LoadUint64(&t.e[i])
	switch {
	case deep&wlUsed == 0 || deep&^t.low == tag:
		atomic.StoreUint64(&t.e[i], e)
	case deep>>wlWorkShft&15 <= w:
		// The deep slot's entry moves to the other slot rather than going.
		atomic.StoreUint64(&t.e[i+1], deep)
		atomic.StoreUint64(&t.e[i], e)
	default:
		atomic.StoreUint64(&t.e[i+1], e)
	}
}

// used counts the entries in use (a full scan: for reports).
func (t *wlTable) used() int {
	n := 0
	for i := range t.e {
		if atomic.LoadUint64(&t.e[i])&wlUsed != 0 {
			n++
		}
	}
	return n
}
