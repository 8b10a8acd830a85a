package skjuub

// Stuck implements game.Stuck: seat can make no progress on its own when
// its pool is empty, it is not in the middle of a bonus (whose pick-up is
// progress), and none of its active pieces has a slide or tumble that would
// end beside a piece facing its new way — the only moves that sacrifice or
// capture. Such a side can only shuffle until the other side changes
// something. Every draw of the hard level with greedy on seed 2026 passed
// through such positions of the bot's, and none of the games that never
// did was drawn (docs/ai.md, "Stuck"). The no-backtracking rule is not
// applied: the one move it may forbid still counts as a way out.
func (s *State) Stuck(seat int) bool {
	if s.pool[seat] > 0 || s.inBonus() && int(s.mover) == seat {
		return false
	}
	m := s.masks()
	for d := 0; d < 4; d++ {
		facing := s.b.dirs[d]
		back := opposite(d)
		turned := adj(s.b.dirs[back]) // beside a piece facing the tumbled way
		for bb := m.act[d] & s.b.own[seat]; bb != 0; bb &= bb - 1 {
			c := lowBit(bb)
			if slideReach(c, m.pl[d])&adj(facing&^(1<<uint(c))) != 0 {
				return false
			}
			if f := int(step[c][d]); f != noSquare && m.forwardOK(f, d) && turned&(1<<uint(f)) != 0 {
				return false
			}
			if g := int(step[c][back]); g != noSquare && m.pl[back]&(1<<uint(g)) != 0 && turned&(1<<uint(g)) != 0 {
				return false
			}
		}
	}
	return true
}
