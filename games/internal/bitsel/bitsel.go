// Package bitsel finds the i-th set bit of a byte by table. The games'
// playouts pick a random member of a bit set at every ply; a loop that clears
// i bits to find it runs a length the branch predictor cannot guess, and is
// mispredicted about once a pick.
package bitsel

// InByte returns the position (0–7) of the i-th lowest set bit of b, which
// must have more than i bits set.
func InByte(b uint8, i int) int { return int(table[b][i&7]) }

// table[b][i] is the position of the i-th lowest set bit of b.
var table = func() (t [256][8]uint8) {
	for b := range 256 {
		i := 0
		for pos := range 8 {
			if b>>pos&1 == 1 {
				t[b][i] = uint8(pos)
				i++
			}
		}
	}
	return t
}()
