package sgolte

// groupCounts counts the groups of stones by size: counts[z] is the number
// of groups of z stones.
func (g *geometry) groupCounts(stones bitset, counts *[maxCells + 1]uint8) {
	for rest := stones; !rest.isEmpty(); {
		grp, _ := g.component(rest.first(), stones)
		rest = rest.andNot(grp)
		counts[grp.count()]++
	}
}

// compareGroups compares the group sizes of a and b sorted in descending
// order, element by element, a missing group counting as 0: 1 if a's list
// is larger, -1 if b's, 0 if they are equal. Walking the sizes from the
// largest down, the first size whose group counts differ is where the two
// sorted lists first differ, and the side with more groups of that size has
// the larger element there.
func compareGroups(g *geometry, a, b bitset) int {
	var ca, cb [maxCells + 1]uint8
	g.groupCounts(a, &ca)
	g.groupCounts(b, &cb)
	for z := maxCells; z > 0; z-- {
		if ca[z] != cb[z] {
			if ca[z] > cb[z] {
				return 1
			}
			return -1
		}
	}
	return 0
}

// groupSizes returns the sizes of the groups of stones, largest first.
func (g *geometry) groupSizes(stones bitset) []int {
	var counts [maxCells + 1]uint8
	g.groupCounts(stones, &counts)
	var out []int
	for z := maxCells; z > 0; z-- {
		for i := 0; i < int(counts[z]); i++ {
			out = append(out, z)
		}
	}
	return out
}

// Scores returns, for each seat, the size of the largest group of the
// colour it plays: the first number the winner is decided on.
func (s *State) Scores() []int {
	out := make([]int, 2)
	for seat := 0; seat < 2; seat++ {
		if sz := s.geo.groupSizes(s.stones[s.colourOf(seat)]); len(sz) > 0 {
			out[seat] = sz[0]
		}
	}
	return out
}
