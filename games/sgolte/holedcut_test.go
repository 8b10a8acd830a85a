package sgolte

import (
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestHoledCutAgreesWithFlood: in groups that enclose holes, the region
// test of holedCut gives the flood's answer for every stone of what is left
// of the group, along random chains flipped from a cell next to it (the
// cases the chain search meets, and more: the chain need not keep the rest
// connected), on every board size.
func TestHoledCutAgreesWithFlood(t *testing.T) {
	rng := game.NewRNG(11)
	tested, groupsSeen := 0, 0
	for _, size := range []string{"5", "6", "7"} {
		start := newState(t, "size="+size)
		for game := 0; game < 150; game++ {
			s := start.Clone().(*State)
			for ply := 0; !s.over(); ply++ {
				if ply%4 == 0 {
					tested += checkHoledCuts(t, s, &rng, &groupsSeen)
				}
				ms := s.Legal(nil)
				s.Play(ms[rng.IntN(len(ms))])
			}
		}
	}
	if groupsSeen < 500 || tested < 50000 {
		t.Fatalf("only %d holed groups and %d cut tests: the test meets too few holes", groupsSeen, tested)
	}
}

// checkHoledCuts compares holedCut with isCut in every group of s with
// holes, from every cell next to it, along one random chain from each.
func checkHoledCuts(t *testing.T, s *State, rng *game.RNG, groupsSeen *int) int {
	t.Helper()
	g := s.geo
	tested := 0
	for c := 0; c < 2; c++ {
		for rest := s.stones[c]; !rest.isEmpty(); {
			grp, halo := g.component(rest.first(), s.stones[c])
			rest = rest.andNot(grp)
			e := enemyGroup{set: grp}
			g.classify(&e)
			if e.hole != 2 {
				continue
			}
			*groupsSeen++
			for ps := halo.andNot(grp); !ps.isEmpty(); {
				p := ps.pop()
				var cs chainSearch
				cs.g = g
				cs.prepare(&e, p)
				if cs.nholes < 0 {
					continue
				}
				rem, flipped, last := grp, bitset{}, p
				for {
					for ss := rem; !ss.isEmpty(); {
						x := ss.pop()
						if got, want := cs.holedCut(x, rem, flipped), g.isCut(x, rem); got != want {
							t.Fatalf("size %d, group %v, holes %v, placement %s, flipped %v: cut %s is %v, the flood says %v",
								g.size, cellNames(g, grp), cellNames(g, e.inner), g.names[p], cellNames(g, flipped), g.names[x], got, want)
						}
						tested++
					}
					next := g.nbr[last].and(rem)
					if next.isEmpty() {
						break
					}
					last = next.nth(rng.IntN(next.count()))
					flipped, rem = flipped.or(single(last)), rem.andNot(single(last))
				}
			}
		}
	}
	return tested
}

// cellNames lists the cells of set by name, for messages.
func cellNames(g *geometry, set bitset) []string {
	var out []string
	for set := set; !set.isEmpty(); {
		out = append(out, g.names[set.pop()])
	}
	return out
}
