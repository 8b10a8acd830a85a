package solve

// table is the transposition table: what the search has learnt about a
// position, under its canonical key. Keys are exact (the 64 bits describe
// the position completely), so a hit is never another position's.
//
// Buckets hold two entries: the one that cost more work to learn stays, the
// other is always replaced, so deep results survive a flood of shallow ones
// and recent shallow ones are still found.
type table struct {
	e    []entry
	mask uint64 // bucket index mask
}

// entry bounds a position's score: lo ≤ score ≤ hi. move is the best move
// found, in the canonical image's frame (noMove when none); work is log2 of
// the nodes spent learning it.
type entry struct {
	key    uint64
	lo, hi int8
	move   uint8
	work   uint8
	used   bool
}

const noMove = 0xFF

// entryBytes is the size of an entry in memory.
const entryBytes = 16

// newTable returns a table of about bytes of memory (at least 1024 entries),
// a power of two buckets.
func newTable(bytes int) *table {
	n := uint64(1024)
	for n*2*entryBytes <= uint64(bytes) {
		n *= 2
	}
	return &table{e: make([]entry, n), mask: n/2 - 1}
}

func (t *table) bucket(key uint64) int {
	// Fibonacci hashing spreads the structured keys over the buckets.
	return int((key*0x9e3779b97f4a7c15)>>32&t.mask) * 2
}

// get returns the entry for key, or nil.
func (t *table) get(key uint64) *entry {
	i := t.bucket(key)
	if e := &t.e[i]; e.used && e.key == key {
		return e
	}
	if e := &t.e[i+1]; e.used && e.key == key {
		return e
	}
	return nil
}

// put records bounds for key, tightening what the table already knows of it.
func (t *table) put(key uint64, lo, hi int, move uint8, work uint8) {
	i := t.bucket(key)
	var e *entry
	switch {
	case t.e[i].used && t.e[i].key == key:
		e = &t.e[i]
	case t.e[i+1].used && t.e[i+1].key == key:
		e = &t.e[i+1]
	}
	if e != nil {
		lo = max(lo, int(e.lo))
		hi = min(hi, int(e.hi))
		if move == noMove {
			move = e.move
		}
		work = max(work, e.work)
	} else if !t.e[i].used || t.e[i].work <= work {
		// The deep slot's entry moves to the other slot rather than going.
		t.e[i+1] = t.e[i]
		e = &t.e[i]
	} else {
		e = &t.e[i+1]
	}
	*e = entry{key: key, lo: int8(lo), hi: int8(hi), move: move, work: work, used: true}
}

// clear forgets everything.
func (t *table) clear() { clear(t.e) }
