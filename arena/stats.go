// Package arena plays seat-rotated matches between agents and says, with
// honest error bars, which one is stronger. It is what `tabula arena` runs
// and what every claim about bot strength in this project is measured with.
package arena

import "math"

// z95 is the normal quantile for a two-sided 95% interval.
const z95 = 1.959963984540054

// Interval is a closed interval [Low, High].
type Interval struct {
	Low, High float64
}

// Wilson returns the Wilson score interval for a proportion of successes
// out of n trials at 95% confidence. Unlike the textbook normal interval it
// stays inside [0,1] and is sound at 0% and 100%, which strong bots reach.
// Draws may be counted as half successes.
func Wilson(successes float64, n int) Interval {
	if n == 0 {
		return Interval{0, 1}
	}
	nf := float64(n)
	p := successes / nf
	z2 := z95 * z95
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z95 * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf)) / den
	return Interval{math.Max(0, centre-half), math.Min(1, centre+half)}
}

// Elo converts an expected score against one opponent into an Elo rating
// difference: 400·log10(s/(1−s)). A score of 0 or 1 gives ∓/±Inf.
func Elo(score float64) float64 {
	switch {
	case score <= 0:
		return math.Inf(-1)
	case score >= 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(score/(1-score))
}

// Score is one agent's results in a match.
type Score struct {
	// Games counts seats held (an agent filling three seats of one game
	// plays three games); Wins are sole wins; Draws are drawn games and wins
	// shared with other seats (ties for first); Games = Wins+Draws+Losses.
	Games, Wins, Draws, Losses int
	// Points is the agent's share of the results (game.Outcome.Reward): 1
	// per win, 1/k per win shared by k seats, 1/n per drawn game of n
	// seats — in two-seat games, wins plus half the draws.
	Points float64
}

// Rate is the agent's score per game.
func (s Score) Rate() float64 {
	if s.Games == 0 {
		return 0
	}
	return s.Points / float64(s.Games)
}

// RateInterval is the 95% Wilson interval of Rate.
func (s Score) RateInterval() Interval { return Wilson(s.Points, s.Games) }

// EloDiff is the Elo difference against the opponent in a two-seat match,
// with the 95% interval obtained by converting the bounds of the score
// interval (Elo is monotonic in the score).
func (s Score) EloDiff() (float64, Interval) {
	iv := s.RateInterval()
	return Elo(s.Rate()), Interval{Elo(iv.Low), Elo(iv.High)}
}
