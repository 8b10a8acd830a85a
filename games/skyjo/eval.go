package skyjo

import (
	"math"
	"math/bits"
)

// The match model behind Evaluate, measured by greedy-policy self-play
// (3,000 games each, `go test -run TestPolicyRoundModel -v`): a player's
// score for one round, doubling included, has mean about 18 (2 players)
// to 19.5 (4 players) and standard deviation about 12.
const (
	roundMean = 18.5
	roundSD   = 12.0
	// hiddenCardGuess is what a face-down card is expected to be worth by
	// the end of a round in which it is still face down now: less than the
	// deck's mean of 5.07 because a player replaces the high ones.
	hiddenCardGuess = 3.0
)

// Evaluate implements game.Evaluator: seat's chance of winning the game,
// mapped to [-1, 1]. It reads only public information (totals and face-up
// cards), so search may call it on a sampled world without leaking
// anything.
//
// It models the rest of the match as independent normal round scores: the
// game lasts about R more rounds (until the highest total reaches the
// target), after which the lowest total wins; seat beats opponent j with
// probability Φ((t_j − t_seat) / (σ·√(2R))). The product over opponents,
// renormalised over all seats, approximates the chance of being lowest.
// This is what makes search aim at winning the match rather than at a low
// round score: a lead is worth less early than late, and ending a round
// while behind is judged by what it does to the totals.
func (s *State) Evaluate(seat int) float64 {
	n := int(s.cfg.players)
	if s.phase == phaseOver {
		if s.winners&(1<<uint(seat)) == 0 {
			return -1
		}
		return 2/float64(bits.OnesCount8(s.winners)) - 1
	}
	var proj [MaxPlayers]float64
	hi := 0.0
	for p := 0; p < n; p++ {
		proj[p] = float64(s.totals[p]) + s.roundGuess(p)
		hi = math.Max(hi, proj[p])
	}
	rounds := math.Max(1, (float64(s.cfg.target)-hi)/roundMean+0.5)
	if s.phase != phaseFlips || s.turn > 0 {
		rounds -= 0.5 // part of this round is already known
	}
	scale := roundSD * math.Sqrt(2*math.Max(rounds, 0.25))
	var chance [MaxPlayers]float64
	sum := 0.0
	for p := 0; p < n; p++ {
		c := 1.0
		for q := 0; q < n; q++ {
			if q != p {
				c *= phi((proj[q] - proj[p]) / scale)
			}
		}
		chance[p] = c
		sum += c
	}
	return 2*chance[seat]/sum - 1
}

// roundGuess is the expected score of p's cards in the current round: face-up
// values as they are, face-down ones at hiddenCardGuess.
func (s *State) roundGuess(p int) float64 {
	if s.phase == phaseFlips && s.up[p] == 0 {
		return 0 // nothing of this round is known: it is in the model's rounds
	}
	g := 0.0
	for m := s.up[p]; m != 0; m &= m - 1 {
		g += float64(s.cards[p][trailingZeros(m)])
	}
	return g + hiddenCardGuess*float64(bits.OnesCount16(s.down(p)))
}

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }
