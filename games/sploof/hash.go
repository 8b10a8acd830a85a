package sploof

import (
	"math/bits"

	"github.com/tabula-games/tabula/game"
)

// Zobrist keys, drawn once from a fixed seed so that hashes are the same in
// every run.
var (
	zPoint  [3][numPoints]uint64 // white, black, red
	zStock  [2][256]uint64
	zSupply [2][maxSupply + 1]uint64
	zTurn   uint64
	zRules  [2]uint64 // supply=unlimited, bothlines=draw: they change the future
)

// Sizes of the key tables for stocks and supplies: ParsePosition holds a
// position to them (stockLimit; a supply only shrinks, from at most 16).
const (
	maxStock  = 255
	maxSupply = 16
)

func init() {
	rng := game.NewRNG(0x5b100f)
	for k := range zPoint {
		for p := range zPoint[k] {
			zPoint[k][p] = rng.Uint64()
		}
	}
	for c := 0; c < 2; c++ {
		for n := range zStock[c] {
			zStock[c][n] = rng.Uint64()
		}
		for n := range zSupply[c] {
			zSupply[c][n] = rng.Uint64()
		}
	}
	zTurn = rng.Uint64()
	for i := range zRules {
		zRules[i] = rng.Uint64()
	}
}

// computeHash is the hash of s from scratch; Play keeps it up to date
// incrementally.
func (s *State) computeHash() uint64 {
	var h uint64
	for k, m := range [3]uint32{s.col[White], s.col[Black], s.red} {
		for ; m != 0; m &= m - 1 {
			h ^= zPoint[k][bits.TrailingZeros32(m)]
		}
	}
	for c := 0; c < 2; c++ {
		h ^= zStock[c][s.stock[c]] ^ zSupply[c][s.supply[c]]
	}
	if s.turn == Black {
		h ^= zTurn
	}
	if s.rules.unlimited {
		h ^= zRules[0]
	}
	if s.rules.bothDraw {
		h ^= zRules[1]
	}
	return h
}
