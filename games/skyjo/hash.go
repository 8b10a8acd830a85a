package skyjo

import "github.com/tabula-games/tabula/game"

// Zobrist keys. The hash is computed on demand rather than kept up to date
// ply by ply: random playouts never ask for it, and keeping it incremental
// would cost them every draw, discard and swap.
var (
	zGrid [MaxPlayers][gridCards][32]uint64 // [seat][pos][card+2, +16 when face up]; [..][..][31] = removed
	zDeck [deckSize][16]uint64
	zDisc [deckSize][16]uint64
)

func init() {
	r := game.NewRNG(0x5ca1ab1e5c0ffee)
	for p := range zGrid {
		for i := range zGrid[p] {
			for v := range zGrid[p][i] {
				zGrid[p][i][v] = r.Uint64()
			}
		}
	}
	for i := range zDeck {
		for v := range zDeck[i] {
			zDeck[i][v] = r.Uint64()
			zDisc[i][v] = r.Uint64()
		}
	}
}

// mix is SplitMix64's finaliser, used to key the scalar fields.
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}

// Hash implements game.State. It covers everything that decides the future:
// options, counters, grids, deck order, discard pile, held card, totals and
// the generator of future shuffles.
func (s *State) Hash() uint64 {
	c := s.cfg
	h := mix(uint64(c.players) | uint64(c.maxTurns)<<8 | uint64(c.target)<<24 |
		b2u(c.finisher)<<56 | b2u(c.columns)<<57 | b2u(c.always)<<58)
	h ^= mix(1<<60 | uint64(uint32(s.round)) | uint64(uint32(s.turn))<<32)
	h ^= mix(2<<60 | uint64(s.phase) | uint64(uint8(s.toMove))<<8 | uint64(uint8(s.starter))<<16 |
		uint64(uint8(s.ender))<<24 | uint64(s.reshuffles)<<32 | uint64(uint8(s.held))<<40)
	h ^= mix(3<<60 ^ rngState(s.rng))
	for p := 0; p < int(c.players); p++ {
		h ^= mix(uint64(4+p)<<60 ^ uint64(uint32(s.totals[p])))
		for i := 0; i < gridCards; i++ {
			bit := uint16(1) << i
			switch {
			case s.gone[p]&bit != 0:
				h ^= zGrid[p][i][31]
			case s.up[p]&bit != 0:
				h ^= zGrid[p][i][s.cards[p][i]+2+16]
			default:
				h ^= zGrid[p][i][s.cards[p][i]+2]
			}
		}
	}
	for i, v := range s.deck[:s.deckN] {
		h ^= zDeck[i][v+2]
	}
	for i, v := range s.disc[:s.discN] {
		h ^= zDisc[i][v+2]
	}
	return h
}

func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// rngState reads a game.RNG's state, which the game package does not
// export: the generator is SplitMix64 (see game/rng.go), whose output
// function is a bijection, so the next output gives back the next state.
// TestRNGStateRoundTrip guards the assumption.
func rngState(r game.RNG) uint64 {
	next := unmix(r.Uint64())
	return next - 0x9e3779b97f4a7c15
}

// unmix inverts mix.
func unmix(z uint64) uint64 {
	z = unxorshift(z, 31)
	z *= inv94
	z = unxorshift(z, 27)
	z *= invBf
	return unxorshift(z, 30)
}

func unxorshift(z uint64, k uint) uint64 {
	x := z
	for s := k; s < 64; s += k {
		x = z ^ x>>k
	}
	return x
}

var (
	inv94 = modInverse(0x94d049bb133111eb)
	invBf = modInverse(0xbf58476d1ce4e5b9)
)

// modInverse is the inverse of an odd a modulo 2^64 (Newton's iteration).
func modInverse(a uint64) uint64 {
	x := a
	for i := 0; i < 6; i++ {
		x *= 2 - a*x
	}
	return x
}
