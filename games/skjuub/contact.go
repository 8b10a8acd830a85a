package skjuub

// Contact. A capture needs a piece of the capturer's facing the same way
// as the captured one, and a tumble only reverses a piece's facing, so a
// piece facing north or south can only ever capture (or be captured by) a
// piece on that axis, and one facing east or west one on the other: only
// a quarter turn — a bonus action, bought with a sacrifice — changes a
// piece's axis. Against greedy many of the hard level's draws were games
// whose two sides' mobile pieces stood mostly on different axes, the bot's
// lead untouchable and its pieces untouched, shuffling to the 300-turn
// limit (docs/ai.md, "Contact"). The searching seat's heuristic here adds
// contactBonus times the contact to Evaluate's sum: a search that seeks
// contact places and keeps its pieces where captures can happen. (Counting
// a lead for less where there is no contact as well drew as little
// against greedy but lost self-play.)
const contactBonus = 0.3

// EvaluateContact implements game.ContactEvaluator: Evaluate as a
// searching seat that seeks contact weighs it, for seat; still zero-sum,
// so the other seat's value is its negative.
func (s *State) EvaluateContact(seat, searcher int) float64 {
	return s.searcherValue(seat, searcher, func(mobile, moves [2]int, axis [2][2]int, me, opp int) float64 {
		return 0.6*float64(mobile[me]-mobile[opp]) + 0.04*float64(moves[me]-moves[opp]) + contactBonus*contact(mobile, axis)
	})
}

// contact is the share of the smaller side's mobile pieces that the other
// side could meet on their axis: for each axis the fewer of the two sides'
// mobile pieces on it, summed, over the smaller side's mobile pieces (0
// when a side has none).
func contact(mobile [2]int, axis [2][2]int) float64 {
	fewer := min(mobile[0], mobile[1])
	if fewer == 0 {
		return 0
	}
	return float64(min(axis[0][0], axis[1][0])+min(axis[0][1], axis[1][1])) / float64(fewer)
}

// axisMobility is mobility with each side's mobile pieces by axis as well:
// axis[p][0] faces north or south, axis[p][1] east or west.
func (s *State) axisMobility() (mobile, moves [2]int, axis [2][2]int) {
	m := s.masks()
	for p := 0; p < 2; p++ {
		for d := 0; d < 4; d++ {
			for bb := m.act[d] & s.b.own[p]; bb != 0; bb &= bb - 1 {
				n := pieceMoves(m, lowBit(bb), d)
				if n > 0 {
					mobile[p]++
					axis[p][d&1]++
				}
				moves[p] += n
			}
		}
	}
	return mobile, moves, axis
}
