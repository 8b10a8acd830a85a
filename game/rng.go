package game

import "math/bits"

// RNG is a small, fast, seedable pseudo-random generator (SplitMix64). It is
// a plain value: copying a state copies its generator, so clones replay the
// same chance events, and nothing allocates. It is not for cryptography.
type RNG struct{ s uint64 }

// NewRNG returns a generator seeded with seed.
func NewRNG(seed uint64) RNG { return RNG{s: seed} }

// Seed resets the generator.
func (r *RNG) Seed(seed uint64) { r.s = seed }

// State returns the generator's internal state: NewRNG(r.State()) continues
// exactly where r is. Positions of games with chance store it so that a
// position read back replays the same future.
func (r RNG) State() uint64 { return r.s }

// Uint64 returns 64 uniformly random bits.
func (r *RNG) Uint64() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// IntN returns a uniform integer in [0, n); n must be positive. It uses
// Lemire's multiply-and-reject method, so there is no modulo bias: a draw
// is taken again while its product's low word falls in the biased zone
// below 2^64 mod n. Comparing with n first skips the division nearly
// always; written as one loop (one call of Uint64) IntN inlines, which the
// playouts, calling it at every ply, gain from.
func (r *RNG) IntN(n int) int {
	for {
		hi, lo := bits.Mul64(r.Uint64(), uint64(n))
		if lo >= uint64(n) || lo >= -uint64(n)%uint64(n) {
			return int(hi)
		}
	}
}

// Float64 returns a uniform number in [0, 1).
func (r *RNG) Float64() float64 { return float64(r.Uint64()>>11) / (1 << 53) }

// Split returns a new generator whose stream is independent of r's
// continuation, for handing to a goroutine or a sub-search.
func (r *RNG) Split() RNG { return RNG{s: r.Uint64() ^ 0x6a09e667f3bcc909} }
