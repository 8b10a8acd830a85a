package skjuub

import "github.com/tabula-games/tabula/game"

// Zobrist keys, drawn once from a fixed seed so that keys (and the position
// JSON's history, which stores them) are the same in every run.
var (
	zPiece [2][4][numSquares]uint64
	zPool  [2][poolSize + 1]uint64
	zMover uint64
)

func init() {
	r := game.NewRNG(0x5c1a7b5eed)
	for p := range zPiece {
		for d := range zPiece[p] {
			for sq := range zPiece[p][d] {
				zPiece[p][d][sq] = r.Uint64()
			}
		}
	}
	for p := range zPool {
		for n := range zPool[p] {
			zPool[p][n] = r.Uint64()
		}
	}
	zMover = r.Uint64()
}

// mix is a SplitMix64 finaliser: the key of a move-valued field (the
// backtracking restrictions, the pending bonus) without a table the size of
// the move space. Zero maps to zero so "no move" costs nothing.
func mix(x uint64) uint64 {
	if x == 0 {
		return 0
	}
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// Salts that keep the move-valued fields apart.
var saltRestrict = [2]uint64{1 << 20, 2 << 20}

const saltPending = 3 << 20

func restrictKey(p int, m game.Move) uint64 {
	if m == 0 {
		return 0
	}
	return mix(uint64(m) | saltRestrict[p])
}

func pendingKey(m game.Move) uint64 {
	if m == 0 {
		return 0
	}
	return mix(uint64(m) | saltPending)
}
