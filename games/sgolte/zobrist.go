package sgolte

import "github.com/tabula-games/tabula/game"

// Zobrist keys. They come from a fixed seed so that hashes are the same in
// every run (transposition tables and test expectations may rely on it).
var (
	zStone   [2][maxCells]uint64
	zWhite   uint64 // white to move
	zPie     [3]uint64
	zSwapped uint64
	zPasses  [3]uint64
	zRules   [8][2][3]uint64 // size, minflip, continue: states under other rules are other states
)

func init() {
	r := game.NewRNG(0x5601_7e5a_1a7e_b0a2)
	for c := range zStone {
		for i := range zStone[c] {
			zStone[c][i] = r.Uint64()
		}
	}
	zWhite = r.Uint64()
	for i := range zPie {
		zPie[i] = r.Uint64()
	}
	zSwapped = r.Uint64()
	for i := range zPasses {
		zPasses[i] = r.Uint64()
	}
	for i := range zRules {
		for j := range zRules[i] {
			for k := range zRules[i][j] {
				zRules[i][j][k] = r.Uint64()
			}
		}
	}
}

// rehash computes the hash from scratch; Play keeps it up to date.
func (s *State) rehash() {
	h := zRules[s.size][s.minflip][s.cont] ^ zPie[s.pie] ^ zPasses[s.passes]
	for c := 0; c < 2; c++ {
		for b := s.stones[c]; !b.isEmpty(); {
			h ^= zStone[c][b.pop()]
		}
	}
	if s.toMove == white {
		h ^= zWhite
	}
	if s.swapped {
		h ^= zSwapped
	}
	s.hash = h
}
