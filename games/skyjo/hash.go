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

// rngState reads a generator's state, for the hash and the position JSON.
func rngState(r game.RNG) uint64 { return r.State() }
