package skjuub

import (
	"math"

	"github.com/tabula-games/tabula/game"
)

// Evaluate is a one-ply heuristic for seat in [-1, 1]. A player loses when
// she starts a turn without an active piece that can slide or tumble, so the
// heuristic weighs mobile pieces (active with at least one slide or tumble)
// and their number of slides and tumbles, own against the opponent's.
// Captures show up as the opponent's lost mobility; placements as one's own
// gained. Finished games score ±1 (0 for a draw); anything else stays
// strictly inside (-0.95, 0.95).
func (s *State) Evaluate(seat int) float64 {
	if v, over := s.finalValue(seat); over {
		return v
	}
	// The count of mobility, written out here rather than called: the
	// search evaluates every new node, and the call cost it 4–8%.
	m := s.masks()
	var mobile, moves [2]int
	for p := 0; p < 2; p++ {
		for d := 0; d < 4; d++ {
			for bb := m.act[d] & s.b.own[p]; bb != 0; bb &= bb - 1 {
				n := pieceMoves(m, lowBit(bb), d)
				if n > 0 {
					mobile[p]++
				}
				moves[p] += n
			}
		}
	}
	me, opp := seat, 1-seat
	x := 0.6*float64(mobile[me]-mobile[opp]) + 0.04*float64(moves[me]-moves[opp])
	return squash(x, mobile, me)
}

// Exchanges: the searching seat counts its own mobile pieces below the
// heuristic's 0.6 and the other side's above it. A capture costs the
// capturer its piece too, so to Evaluate an exchange is even; to the
// search it gains. Against greedy the draws are the games with fewer
// exchanges — the bot not ahead by ply 30–40, greedy keeping its pieces
// (docs/ai.md, "What decides Skjuub's draws") — and with these weights the
// search sought them: 2.75% draws at 20,000 iterations against 4.5%, but
// at every move it leaned weaker in self-play. Sought only at the moves
// where the searcher is ahead (Ahead; agent.SeekAhead), as a player
// ahead trades down, or where it is not behind (agent.SeekNotBehind),
// they drew less at 20,000 iterations and were no weaker there; at the
// hard level's budget neither drew under 3%, and in self-play there the
// second lost and the first leaned weaker. Options all, no level's.
const (
	exchangeOwn    = 0.5
	exchangeTheirs = 0.8
)

// EvaluateExchange implements game.ExchangeEvaluator: Evaluate as the
// searching seat searcher weighs the sides (exchangeOwn, exchangeTheirs),
// for seat; still zero-sum, so the other seat's value is its negative.
func (s *State) EvaluateExchange(seat, searcher int) float64 {
	return s.searcherValue(seat, searcher, func(mobile, moves [2]int, _ [2][2]int, me, opp int) float64 {
		return exchangeOwn*float64(mobile[me]) - exchangeTheirs*float64(mobile[opp]) + 0.04*float64(moves[me]-moves[opp])
	})
}

// searcherValue is a searching seat's own heuristic of the position for
// seat: sum's value for the searcher (me) squashed as Evaluate's is, and
// its negative for the other seat; a finished game is worth its result.
func (s *State) searcherValue(seat, searcher int, sum func(mobile, moves [2]int, axis [2][2]int, me, opp int) float64) float64 {
	if v, over := s.finalValue(seat); over {
		return v
	}
	mobile, moves, axis := s.axisMobility()
	v := squash(sum(mobile, moves, axis, searcher, 1-searcher), mobile, searcher)
	if seat != searcher {
		return -v
	}
	return v
}

// Ahead implements game.Leader: seat has more mobile pieces
// than the other side (agent.SeekAhead seeks exchanges or contact then).
func (s *State) Ahead(seat int) bool {
	mobile, _ := s.mobility()
	return mobile[seat] > mobile[1-seat]
}

// finalValue is a finished game's value for seat (±1, 0 for a draw).
func (s *State) finalValue(seat int) (float64, bool) {
	switch s.out.Status {
	case game.Won:
		if s.out.IsWinner(seat) {
			return 1, true
		}
		return -1, true
	case game.Drawn:
		return 0, true
	}
	return 0, false
}

// mobility counts each side's mobile pieces (active with at least one
// slide or tumble) and their slides and tumbles.
func (s *State) mobility() (mobile, moves [2]int) {
	mobile, moves, _ = s.axisMobility()
	return mobile, moves
}

// pieceMoves counts the slides and tumbles of an active piece on c facing d.
func pieceMoves(m *masks, c, d int) int {
	n := popcount(slideReach(c, m.pl[d]))
	if f := int(step[c][d]); f != noSquare && m.forwardOK(f, d) {
		n++
	}
	if g := int(step[c][opposite(d)]); g != noSquare && m.pl[opposite(d)]&(1<<uint(g)) != 0 {
		n++
	}
	return n
}

// squash maps the sum x for seat me into (-0.95, 0.95).
func squash(x float64, mobile [2]int, me int) float64 {
	// A player with no mobile piece is one turn from losing.
	if mobile[1-me] == 0 {
		x += 2
	}
	if mobile[me] == 0 {
		x -= 2
	}
	return 0.95 * math.Tanh(x/3)
}

// searchPlayoutPlies cuts search playouts short. Random Skjuub play says
// little about the result between sensible players (it ends mostly by the
// turn limit or by a random blunder), so a few random plies and the
// evaluator say more. Against greedy at 200 ms per move: full playouts 7
// wins, 12 draws, 1 loss in 20 games; then, 40 games each (seed 77),
// 12 plies 33-5-2 (wins-draws-losses), 4 plies 35-5-0, 3 plies 39-1-0,
// 2 plies 36-4-0, 1 ply 38-2-0 (docs/ai.md).
const searchPlayoutPlies = 3

// PlayoutPlies implements game.SearchHints.
func (s *State) PlayoutPlies() int { return searchPlayoutPlies }

// stallTurns is how many turns without progress (no piece placed, picked up,
// captured or sacrificed) the search counts as a draw. The 300-turn house
// rule draws games in which the bot leads but both sides shuffle; the bot
// began its winning captures only once that draw came within its search's
// view, so the search is shown a nearer one (docs/ai.md).
const stallTurns = 40

// Progress implements game.Progress: the pools and each side's active pieces
// (a piece placed or picked up changes a pool; a capture or a sacrifice makes
// a piece inactive).
func (s *State) Progress() (sig uint64, turns int) {
	m := s.masks()
	act := m.act[0] | m.act[1] | m.act[2] | m.act[3]
	sig = uint64(uint8(s.pool[0])) | uint64(uint8(s.pool[1]))<<8 |
		uint64(popcount(act&s.b.own[0]))<<16 | uint64(popcount(act&s.b.own[1]))<<24
	return sig, int(s.turns[0]) + int(s.turns[1])
}

// StallTurns implements game.Progress.
func (s *State) StallTurns() int { return stallTurns }

// searchContempt: a draw counts as 0.25 less than an even share for the
// searching seat. Skjuub's draws between a strong and a weaker player are
// leads the stronger one did not convert (docs/ai.md); with the stall
// horizon and repetitions scored as draws, contempt makes the search prefer
// a line that tries something to one that only keeps the lead.
const searchContempt = 0.25

// SearchContempt implements game.DrawContempt.
func (s *State) SearchContempt() float64 { return searchContempt }
