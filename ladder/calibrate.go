package ladder

import (
	"fmt"
	"slices"

	"github.com/tabula-games/tabula/rating"
)

// CalibrationGame is one finished game of a calibration match between
// several players (an arena round robin): who sat in each seat and which
// seats won. No winner is a draw; several winners share the win.
type CalibrationGame struct {
	Index   int
	Seats   []int // player index per seat
	Winners []int // seat numbers
}

// Standing is one player's rating after a calibration match.
type Standing struct {
	Player string
	Rating rating.Rating
	Fixed  bool // held at its anchor rating throughout
	Games  int
	Wins   int // games won alone
	Draws  int // games drawn or won with others
	Losses int
}

// RateMatch rates a calibration match as the site rates its games: each
// game, in the order of its index, is one Glicko-2 period for each of its
// players (rating.UpdateGame, finishing places from the winners), every
// player starting as a new one (1500 ± 350). The players named in anchors
// are held at the given rating ± AnchorDeviation and never move, as the
// levels on a ladder are, so that the scale is tied to them rather than
// floating around 1500. With no anchors the scale is the match's own.
func RateMatch(players []string, games []CalibrationGame, anchors map[string]float64) ([]Standing, error) {
	out := make([]Standing, len(players))
	for i, p := range players {
		out[i] = Standing{Player: p, Rating: rating.Default()}
		if r, ok := anchors[p]; ok {
			out[i].Rating = rating.Rating{R: r, RD: AnchorDeviation, Vol: rating.DefaultVolatility}
			out[i].Fixed = true
		}
	}
	for name := range anchors {
		if !slices.Contains(players, name) {
			return nil, fmt.Errorf("anchor %q: not a player of the match (%v)", name, players)
		}
	}
	sorted := slices.Clone(games)
	slices.SortStableFunc(sorted, func(a, b CalibrationGame) int { return a.Index - b.Index })
	for _, g := range sorted {
		n := len(g.Seats)
		in := make([]rating.Rating, n)
		won := make([]bool, n)
		for seat, p := range g.Seats {
			if p < 0 || p >= len(players) {
				return nil, fmt.Errorf("game %d: seat %d holds player %d of %d", g.Index, seat, p, len(players))
			}
			in[seat] = out[p].Rating
		}
		for _, w := range g.Winners {
			if w < 0 || w >= n {
				return nil, fmt.Errorf("game %d: winner seat %d of %d", g.Index, w, n)
			}
			won[w] = true
		}
		upd := rating.UpdateGame(in, rating.Places(n, won, nil), rating.Tau)
		for seat, p := range g.Seats {
			s := &out[p]
			s.Games++
			switch {
			case won[seat] && len(g.Winners) == 1:
				s.Wins++
			case won[seat] || len(g.Winners) == 0:
				s.Draws++
			default:
				s.Losses++
			}
			if !s.Fixed {
				s.Rating = upd[seat]
			}
		}
	}
	return out, nil
}
