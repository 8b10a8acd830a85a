// Package rating implements Glicko-2 (Glickman, "Example of the Glicko-2
// system", 2012) for two-player games, and its pairwise extension for games
// with more seats: every pair of players of one game is a game decided by
// their finishing order, and all of them form one rating period.
package rating

import "math"

// The system's constants, as the paper recommends them.
const (
	DefaultRating     = 1500
	DefaultDeviation  = 350
	DefaultVolatility = 0.06
	// Tau constrains how fast volatility changes; the paper suggests
	// 0.3–1.2 and uses 0.5 in its example.
	Tau = 0.5
	// scale converts between the Glicko scale and Glicko-2's internal one.
	scale = 173.7178
	// epsilon is the convergence tolerance of the volatility iteration.
	epsilon = 0.000001
)

// Rating is one player's Glicko-2 rating.
type Rating struct {
	R   float64 // rating
	RD  float64 // rating deviation
	Vol float64 // volatility
}

// Default is a new player's rating.
func Default() Rating { return Rating{DefaultRating, DefaultDeviation, DefaultVolatility} }

// Result is one game of a rating period: the opponent's rating before the
// period and the player's score (1 win, 0.5 draw, 0 loss).
type Result struct {
	Opponent Rating
	Score    float64
}

func g(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

func expected(mu, muj, phij float64) float64 { return 1 / (1 + math.Exp(-g(phij)*(mu-muj))) }

// Update returns p's rating after a rating period with the given results
// (steps 1–8 of the paper). A period without games only widens the
// deviation.
func Update(p Rating, results []Result, tau float64) Rating {
	mu := (p.R - DefaultRating) / scale
	phi := p.RD / scale
	sigma := p.Vol
	if len(results) == 0 {
		return Rating{p.R, math.Min(scale*math.Sqrt(phi*phi+sigma*sigma), DefaultDeviation), sigma}
	}
	var vInv, sum float64
	for _, r := range results {
		muj := (r.Opponent.R - DefaultRating) / scale
		phij := r.Opponent.RD / scale
		gj := g(phij)
		e := expected(mu, muj, phij)
		vInv += gj * gj * e * (1 - e)
		sum += gj * (r.Score - e)
	}
	v := 1 / vInv
	delta := v * sum
	sigma = newVolatility(delta, phi, v, sigma, tau)
	phiStar := math.Sqrt(phi*phi + sigma*sigma)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{R: scale*muNew + DefaultRating, RD: math.Min(scale*phiNew, DefaultDeviation), Vol: sigma}
}

// newVolatility is step 5: the Illinois algorithm on f.
func newVolatility(delta, phi, v, sigma, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for i := 0; math.Abs(B-A) > epsilon && i < 100; i++ {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}

// UpdateGame rates one game of len(players) seats as one rating period for
// each player: every pair is a game won by the better-placed player, drawn
// on equal places. places[i] is seat i's finishing place (0 best; equal
// places are ties). All updates use the ratings from before the game.
func UpdateGame(players []Rating, places []int, tau float64) []Rating {
	out := make([]Rating, len(players))
	for i := range players {
		var res []Result
		for j := range players {
			if i == j {
				continue
			}
			s := 0.5
			switch {
			case places[i] < places[j]:
				s = 1
			case places[i] > places[j]:
				s = 0
			}
			res = append(res, Result{Opponent: players[j], Score: s})
		}
		out[i] = Update(players[i], res, tau)
	}
	return out
}
