package sgolte

import (
	"math/bits"

	"github.com/tabula-games/tabula/games/internal/bitsel"
)

// bitset is a set of cells. Two words cover the 127 cells of the largest
// board; the 61 cells of the default board fit one, and its playouts run on
// word, the one-word set (word.go).
type bitset struct{ lo, hi uint64 }

// noCell is a bit index that no board uses (size 7 has cells 0…126): the
// neighbour that falls off the board.
const noCell = 127

// maxCells is the cell count of the largest board.
const maxCells = 127

func single(i int) bitset {
	if i < 64 {
		return bitset{lo: 1 << uint(i)}
	}
	return bitset{hi: 1 << uint(i-64)}
}

func (b bitset) and(c bitset) bitset { return bitset{b.lo & c.lo, b.hi & c.hi} }

func (b bitset) or(c bitset) bitset { return bitset{b.lo | c.lo, b.hi | c.hi} }

func (b bitset) andNot(c bitset) bitset { return bitset{b.lo &^ c.lo, b.hi &^ c.hi} }

func (b bitset) xor(c bitset) bitset { return bitset{b.lo ^ c.lo, b.hi ^ c.hi} }

func (b bitset) isEmpty() bool { return b.lo|b.hi == 0 }

func (b bitset) count() int { return bits.OnesCount64(b.lo) + bits.OnesCount64(b.hi) }

// subsetOf reports whether every cell of b is in c.
func (b bitset) subsetOf(c bitset) bool { return b.lo&^c.lo|b.hi&^c.hi == 0 }

func (b bitset) has(i int) bool {
	if i < 64 {
		return b.lo>>uint(i)&1 != 0
	}
	return b.hi>>uint(i-64)&1 != 0
}

// first returns the lowest cell of a non-empty set.
func (b bitset) first() int {
	if b.lo != 0 {
		return bits.TrailingZeros64(b.lo)
	}
	return 64 + bits.TrailingZeros64(b.hi)
}

// pop removes and returns the lowest cell of a non-empty set.
func (b *bitset) pop() int {
	if b.lo != 0 {
		i := bits.TrailingZeros64(b.lo)
		b.lo &= b.lo - 1
		return i
	}
	i := bits.TrailingZeros64(b.hi)
	b.hi &= b.hi - 1
	return 64 + i
}

// nth returns the n-th lowest cell (0-based) of a set with more than n cells.
func (b bitset) nth(n int) int {
	if c := bits.OnesCount64(b.lo); n >= c {
		return 64 + nthBit(b.hi, n-c)
	}
	return nthBit(b.lo, n)
}

// nthBit returns the position of the n-th lowest set bit of a word with
// more than n bits set. It halves the word by counting, without branches
// (a playout picks a random empty cell at every ply, so they would be
// mispredicted half the time), down to a byte, then reads a table.
func nthBit(w uint64, n int) int {
	at := 0
	low := bits.OnesCount32(uint32(w))
	up := int(uint(low-n-1) >> 63) // 1 if the bit is in the upper half
	n, at = n-low&-up, at+32&-up
	w >>= uint(32 & -up)
	low = bits.OnesCount16(uint16(w))
	up = int(uint(low-n-1) >> 63)
	n, at = n-low&-up, at+16&-up
	w >>= uint(16 & -up)
	low = bits.OnesCount8(uint8(w))
	up = int(uint(low-n-1) >> 63)
	n, at = n-low&-up, at+8&-up
	w >>= uint(8 & -up)
	return at + bitsel.InByte(uint8(w), n)
}

// less orders sets as 128-bit numbers (high word first). It is the order of
// a placement's flip sets, which move numbers index.
func (b bitset) less(c bitset) bool {
	if b.hi != c.hi {
		return b.hi < c.hi
	}
	return b.lo < c.lo
}

// shr shifts a set down by 1…63 cells.
func (b bitset) shr(by uint) bitset {
	return bitset{b.lo>>by | b.hi<<(64-by), b.hi >> by}
}

// shl shifts a set up by 1…63 cells.
func (b bitset) shl(by uint) bitset {
	return bitset{b.lo << by, b.hi<<by | b.lo>>(64-by)}
}

// window returns the set's cells from base on, shifted down to bit 0: a
// word that holds a cell's neighbours for arcs.
func (b bitset) window(base uint8) uint64 {
	if base < 64 {
		return b.lo>>(base&63) | b.hi<<1<<((63-base)&63)
	}
	return b.hi >> ((base - 64) & 63)
}
