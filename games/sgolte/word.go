package sgolte

import "math/bits"

//go:generate go run ./internal/wordgen

// The default board has 61 cells, and a set of them fits one machine word.
// Its playouts, the hot path of the engine, run on word, a one-word set with
// bitset's methods: every set operation is one instruction rather than two,
// sets travel in one register rather than two, and the pop and shift need
// no branch on which word they are in. Measured, that is about a quarter
// more playouts per second than the same code on bitset (docs/ai.md).
//
// The playout code is written once, over bitset and State, in the files
// that internal/wordgen lists (flood.go, arcs.go, chains.go, statecore.go,
// groupbook.go, chainmemo.go, playout.go). The generator copies them into
// *_word.go with the types renamed (bitset → word, State → stateW, …);
// TestWordEngineGenerated fails when a copy is out of date. Playout and
// SearchPlayout (playouts.go) run a board of at most wordCells cells on
// the copy.

// wordCells is the most cells a board may have for its playouts to run on
// word.
const wordCells = 64

// word is a set of cells of a board of at most 64 cells: bitset in one word.
type word struct{ w uint64 }

func singleW(i int) word { return word{1 << uint(i&63)} }

func (b word) and(c word) word    { return word{b.w & c.w} }
func (b word) or(c word) word     { return word{b.w | c.w} }
func (b word) andNot(c word) word { return word{b.w &^ c.w} }
func (b word) xor(c word) word    { return word{b.w ^ c.w} }
func (b word) isEmpty() bool      { return b.w == 0 }
func (b word) count() int         { return bits.OnesCount64(b.w) }

// subsetOf reports whether every cell of b is in c.
func (b word) subsetOf(c word) bool { return b.w&^c.w == 0 }

func (b word) has(i int) bool { return b.w>>uint(i&63)&1 != 0 }

// first returns the lowest cell of a non-empty set.
func (b word) first() int { return bits.TrailingZeros64(b.w) }

// pop removes and returns the lowest cell of a non-empty set.
func (b *word) pop() int {
	i := bits.TrailingZeros64(b.w)
	b.w &= b.w - 1
	return i
}

// nth returns the n-th lowest cell (0-based) of a set with more than n cells.
func (b word) nth(n int) int { return nthBit(b.w, n) }

// less orders sets as numbers, as bitset.less does.
func (b word) less(c word) bool { return b.w < c.w }

// shr shifts a set down by 1…63 cells.
func (b word) shr(by uint) word { return word{b.w >> (by & 63)} }

// shl shifts a word up by by cells.
func (b word) shl(by uint) word { return word{b.w << (by & 63)} }

// window returns the set's cells from base on, shifted down to bit 0.
func (b word) window(base uint8) uint64 { return b.w >> (base & 63) }
