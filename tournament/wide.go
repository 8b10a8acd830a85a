package tournament

import "math/bits"

// wide is a signed 192-bit integer: the weights of a Swiss round's matching
// are several criteria packed lexicographically, one field of bits each, and
// 63 bits — or 127 — do not hold them all for a 200-player event.
type wide struct {
	hi      int64
	mid, lo uint64
}

func wideOf(v int64) wide {
	if v < 0 {
		return wide{-1, ^uint64(0), uint64(v)}
	}
	return wide{0, 0, uint64(v)}
}

func (a wide) add(b wide) wide {
	lo, c := bits.Add64(a.lo, b.lo, 0)
	mid, c := bits.Add64(a.mid, b.mid, c)
	return wide{a.hi + b.hi + int64(c), mid, lo}
}

func (a wide) sub(b wide) wide {
	lo, br := bits.Sub64(a.lo, b.lo, 0)
	mid, br := bits.Sub64(a.mid, b.mid, br)
	return wide{a.hi - b.hi - int64(br), mid, lo}
}

func (a wide) less(b wide) bool {
	if a.hi != b.hi {
		return a.hi < b.hi
	}
	if a.mid != b.mid {
		return a.mid < b.mid
	}
	return a.lo < b.lo
}

// half is a>>1, rounding toward minus infinity.
func (a wide) half() wide {
	return wide{a.hi >> 1, a.mid>>1 | uint64(a.hi)<<63, a.lo>>1 | a.mid<<63}
}

// shl is a<<k for 0 <= k < 64; the caller keeps the result in range.
func (a wide) shl(k uint) wide {
	if k == 0 {
		return a
	}
	return wide{a.hi<<k | int64(a.mid>>(64-k)), a.mid<<k | a.lo>>(64-k), a.lo << k}
}

func (a wide) isZero() bool { return a.hi == 0 && a.mid == 0 && a.lo == 0 }
func (a wide) neg() bool    { return a.hi < 0 }
