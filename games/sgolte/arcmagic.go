package sgolte

import "math/bits"

// The one-word engine's arc test (arcs on word) reads a cell's neighbours
// with one multiplication, the way chess engines index their sliding-piece
// tables ("magic bitboards"): the set masked to c's neighbours, times a
// number found for c, leaves in its top six bits an index that tells apart
// every two patterns of neighbours with different arc counts (patterns with
// the same count may share an index), and a table of c's gives the count.
// It replaces three shifts and masks of a window (arcs.go, which the bitset
// engine keeps): the arc test is most of what a chain search does, and this
// made uniform playouts 3-4% faster.

// arcMagic is a cell's mask of neighbours and its multiplier.
type arcMagic struct {
	mask, magic uint64
}

// arcsW is arcs on word.
func (g *geometry) arcsW(c int, set word) int {
	m := &g.arcM[c&63]
	return int(g.arcT[c&63][(set.w&m.mask)*m.magic>>58])
}

// arcMagics5 are multipliers that work for the cells of size 5, found by
// buildArcMagics (whose search takes a couple of milliseconds, at every
// start of every process, where checking these takes microseconds).
var arcMagics5 = [...]uint64{
	0x480006090200862, 0x2844030200780678, 0x4542404800800808, 0x8c72869100425244,
	0x3512000231801028, 0x8089898083020218, 0x4049023012500232, 0x2064800103100081,
	0xf012401510000008, 0x715008aaea59038e, 0x491cc801004001, 0x8bc204ca000007f4,
	0x54408330000c4e8, 0x48c8840186001225, 0x2484c0c00d808303, 0x18c22020040c8d10,
	0x1411430222f0115, 0xa0842cb23181e0c, 0x400804612044059c, 0xac27180884509511,
	0x84012100306100, 0x43c09106007a94, 0x1208e30210100508, 0x12246080226810,
	0x4018891040d0013, 0x44023440c2000600, 0x20245ad49111410, 0x10325f0124018211,
	0x3012490424010500, 0x208608811028140, 0x20003818a110704, 0xa454308a0b00008,
	0x105628440080000, 0xb0280b08a1200d88, 0x954218031480, 0xd02862084808e90f,
	0xac07440804210250, 0x4480007a08404010, 0x544324810920a062, 0x80148c04a2048005,
	0x41408e54e4c04801, 0x2000c44250064028, 0x2080c24408cb2000, 0x92020824061a6224,
	0x1a408a08240c2209, 0xa010280008216802, 0x4a8c301842714900, 0xb3a026424802482,
	0x1072611321b408c0, 0x458a904008104420, 0x4148024902aa07f0, 0x30280c09018840,
	0xaa0870102cccc420, 0x220628810082210, 0x4080710a0000b428, 0x1c020010d0003058,
	0x409181914f066a20, 0x4460048010e0283, 0x24a822490fe74c12, 0x18884670008a8116,
	0x1206010610341d,
}

// buildArcMagics gives each cell a multiplier and fills its table, from
// arcs on every pattern of its neighbours: the known one when it works,
// else one found among sparse numbers from a fixed sequence (so every
// process builds the same tables).
func (g *geometry) buildArcMagics() {
	x := uint64(0x9e3779b97f4a7c15)
	next := func() uint64 { // xorshift64*
		x ^= x >> 12
		x ^= x << 25
		x ^= x >> 27
		return x * 0x2545f4914f6cdd1d
	}
	for c := 0; c < g.cells; c++ {
		mask := g.nbr[c].lo
		var nb [6]int
		n := 0
		for m := mask; m != 0; m &= m - 1 {
			nb[n] = bits.TrailingZeros64(m)
			n++
		}
		var pattern [64]uint64
		var runs [64]uint8
		for k := 0; k < 1<<n; k++ {
			var set bitset
			for j := 0; j < n; j++ {
				if k>>j&1 == 1 {
					pattern[k] |= 1 << uint(nb[j])
					set = set.or(single(nb[j]))
				}
			}
			runs[k] = uint8(g.arcs(c, set))
		}
		magic := uint64(0)
		if g.size == 5 && c < len(arcMagics5) {
			magic = arcMagics5[c]
		}
		for {
			if table, ok := arcTable(pattern[:1<<n], runs[:1<<n], magic); ok {
				g.arcM[c] = arcMagic{mask: mask, magic: magic}
				g.arcT[c] = table
				break
			}
			magic = next() & next()
		}
	}
}

// arcTable returns the table that magic makes of the patterns' arc counts,
// or false if it sends two patterns with different counts to one index.
func arcTable(pattern []uint64, runs []uint8, magic uint64) (table [64]uint8, ok bool) {
	var used uint64
	for k := range pattern {
		i := pattern[k] * magic >> 58
		if used>>i&1 == 1 && table[i] != runs[k] {
			return table, false
		}
		used |= 1 << i
		table[i] = runs[k]
	}
	return table, true
}
