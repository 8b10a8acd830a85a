package sgolte

// State is a Sgolte position. Copying the struct copies the position.
type State struct {
	rules
	geo     *geometry
	stones  [2]bitset // by colour
	toMove  uint8     // colour to move
	pie     uint8
	swapped bool  // the pie swap happened: seat 0 plays white
	passes  uint8 // consecutive passes just made (2 ends the game)
	placed  int   // placements made (stones on the board, for the invariant)
	hash    uint64
}

func (s *State) empty() bitset {
	return s.geo.all.andNot(s.stones[black]).andNot(s.stones[white])
}

// over: a full board or two passes in a row end the game.
func (s *State) over() bool {
	return s.passes >= 2 || s.empty().isEmpty()
}

// canSwap reports whether White may answer with the pie swap now.
func (s *State) canSwap() bool { return s.pie == piePending && s.toMove == white }

// place puts a stone of the side to move on p and flips the enemy stones in
// flips.
func (s *State) place(p int, flips bitset) {
	c := int(s.toMove)
	s.stones[c] = s.stones[c].or(single(p)).or(flips)
	s.stones[c^1] = s.stones[c^1].andNot(flips)
	h := s.hash ^ zStone[c][p] ^ zWhite
	for f := flips; !f.isEmpty(); {
		i := f.pop()
		h ^= zStone[0][i] ^ zStone[1][i]
	}
	s.hash = h
	s.placed++
	if s.passes != 0 {
		s.setPasses(0)
	}
	if s.pie == piePending && c == white {
		s.setPie(pieDone)
	}
	s.toMove ^= 1
}

func (s *State) setPasses(n uint8) {
	s.hash ^= zPasses[s.passes] ^ zPasses[n]
	s.passes = n
}

func (s *State) setPie(p uint8) {
	s.hash ^= zPie[s.pie] ^ zPie[p]
	s.pie = p
}

// pass records a pass of the side to move.
func (s *State) pass() {
	s.setPasses(s.passes + 1)
	s.toMove ^= 1
	s.hash ^= zWhite
}

// swap answers Black's first stone with the pie rule: the board stays; the
// seats exchange colours and White, now the first player, moves on.
func (s *State) swap() {
	s.swapped = !s.swapped
	s.hash ^= zSwapped
	s.setPie(pieDone)
}
