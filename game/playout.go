package game

// RandomPlayout plays uniformly random legal moves on s (modified in place)
// until the game ends and returns the number of plies. buf is a move buffer
// reused across calls (pass it back in); with a roomy buffer nothing
// allocates. It is the path `tabula bench` measures and search playouts use.
func RandomPlayout(s State, rng *RNG, buf []Move) ([]Move, int) {
	plies := 0
	for {
		buf = s.Legal(buf[:0])
		if len(buf) == 0 {
			return buf, plies
		}
		s.Play(buf[rng.IntN(len(buf))])
		plies++
	}
}
