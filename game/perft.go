package game

// Perft counts the move sequences of length depth from s (one decision = one
// ply), the standard check of a move generator. s is not modified. It
// reuses one scratch state and one move buffer per level, so it allocates
// only O(depth) however large the tree.
func Perft(s State, depth int) uint64 {
	if depth <= 0 {
		return 1
	}
	scratch := make([]State, depth)
	bufs := make([][]Move, depth)
	for i := range scratch {
		scratch[i] = s.Clone()
	}
	return perft(s, depth, scratch, bufs)
}

func perft(s State, depth int, scratch []State, bufs [][]Move) uint64 {
	moves := s.Legal(bufs[depth-1][:0])
	bufs[depth-1] = moves
	if depth == 1 {
		return uint64(len(moves))
	}
	child := scratch[depth-1]
	var n uint64
	for _, m := range moves {
		child.CopyFrom(s)
		child.Play(m)
		n += perft(child, depth-1, scratch, bufs)
	}
	return n
}
