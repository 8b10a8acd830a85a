package tournament

import (
	"fmt"
	"sort"
)

// TieBreak names one way of ordering players tied on points.
type TieBreak string

// The tie-breaks; docs/tournaments.md explains each to players.
const (
	// Buchholz sums the final scores of the opponents; each round the
	// player did not play over the board (a bye, an absence) counts as an
	// opponent with the player's own final score.
	Buchholz TieBreak = "buchholz"
	// BuchholzCut1 is Buchholz without its lowest term.
	BuchholzCut1 TieBreak = "buchholz-cut1"
	// SonnebornBerger sums the final scores of the opponents beaten and
	// half those of the opponents drawn.
	SonnebornBerger TieBreak = "sonneborn-berger"
	// Wins counts the games won over the board.
	Wins TieBreak = "wins"
	// DirectEncounter is the points scored in the games among the players
	// still tied when it is reached, if they have all met each other (0 for
	// all of them otherwise).
	DirectEncounter TieBreak = "direct-encounter"
)

// SwissTieBreaks are a Swiss tournament's tie-breaks, in order.
var SwissTieBreaks = []TieBreak{Buchholz, BuchholzCut1, SonnebornBerger, Wins, DirectEncounter}

// RoundRobinTieBreaks are a round robin's, in order: Buchholz tells
// nobody apart when everyone meets everyone.
var RoundRobinTieBreaks = []TieBreak{DirectEncounter, SonnebornBerger, Wins}

// Standing is one line of a Swiss or round-robin table.
type Standing struct {
	Player int
	// Rank is the place from 1; players equal on points and every
	// tie-break share it.
	Rank   int
	Points float64
	// TieBreaks holds the value of each tie-break asked for, in order.
	TieBreaks                 []float64
	Wins, Draws, Losses, Byes int
	Played, Absent            int
	pointsHalf                int
}

// Standings ranks n players after the rounds (results still pending count
// nothing) by points, then by the tie-breaks in order.
func Standings(n int, rounds []Round, tbs []TieBreak) ([]Standing, error) {
	if n < 0 {
		return nil, fmt.Errorf("%w: %d players", ErrInput, n)
	}
	if err := checkRounds(n, rounds, false); err != nil {
		return nil, err
	}
	for _, tb := range tbs {
		switch tb {
		case Buchholz, BuchholzCut1, SonnebornBerger, Wins, DirectEncounter:
		default:
			return nil, fmt.Errorf("%w: unknown tie-break %q", ErrInput, tb)
		}
	}
	h := histories(n, rounds)
	out := make([]Standing, n)
	for p := range out {
		rc := &h[p]
		s := &out[p]
		s.Player = p
		s.pointsHalf = rc.score
		s.Points = float64(rc.score) / 2
		s.Byes = rc.byes
		s.Wins = rc.wins
		for r, o := range rc.opp {
			switch {
			case o >= 0 && rc.pts[r] == 1:
				s.Draws++
			case o >= 0 && rc.pts[r] == 0 && isDecided(rounds[r], p):
				s.Losses++
			case o < 0 && rc.pts[r] == 0 && !byeIn(rounds[r], p):
				s.Absent++ // a forfeit lost is a round not come to
			}
			if o >= 0 {
				s.Played++
			}
		}
	}
	// Every tie-break but direct encounter is the player's own number.
	for i, tb := range tbs {
		if tb == DirectEncounter {
			continue
		}
		for p := range out {
			out[p].TieBreaks = growTo(out[p].TieBreaks, len(tbs))
			out[p].TieBreaks[i] = tieBreak(tb, h, p)
		}
	}
	for p := range out {
		out[p].TieBreaks = growTo(out[p].TieBreaks, len(tbs))
	}
	// Direct encounter needs the groups still tied when it is reached.
	for i, tb := range tbs {
		if tb != DirectEncounter {
			continue
		}
		groups := map[string][]int{}
		for p := range out {
			k := fmt.Sprint(out[p].pointsHalf, out[p].TieBreaks[:i])
			groups[k] = append(groups[k], p)
		}
		for _, g := range groups {
			if len(g) < 2 || !allMet(h, g) {
				continue
			}
			in := map[int]bool{}
			for _, p := range g {
				in[p] = true
			}
			for _, p := range g {
				pts := 0
				for r, o := range h[p].opp {
					if o >= 0 && in[o] {
						pts += h[p].pts[r]
					}
				}
				out[p].TieBreaks[i] = float64(pts) / 2
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return better(&out[a], &out[b]) })
	for i := range out {
		if i > 0 && !better(&out[i-1], &out[i]) {
			out[i].Rank = out[i-1].Rank
		} else {
			out[i].Rank = i + 1
		}
	}
	return out, nil
}

func growTo(s []float64, n int) []float64 {
	for len(s) < n {
		s = append(s, 0)
	}
	return s
}

func better(a, b *Standing) bool {
	if a.pointsHalf != b.pointsHalf {
		return a.pointsHalf > b.pointsHalf
	}
	for i := range a.TieBreaks {
		if a.TieBreaks[i] != b.TieBreaks[i] {
			return a.TieBreaks[i] > b.TieBreaks[i]
		}
	}
	return false
}

func isDecided(rd Round, p int) bool {
	for _, pr := range rd.Pairings {
		if pr.White == p || pr.Black == p {
			return pr.Result != Pending
		}
	}
	return false
}

func byeIn(rd Round, p int) bool {
	for _, b := range rd.Byes {
		if b == p {
			return true
		}
	}
	return false
}

func allMet(h []record, g []int) bool {
	for i, a := range g {
		for _, b := range g[i+1:] {
			if !h[a].met[b] {
				return false
			}
		}
	}
	return true
}

// tieBreak computes one of the player's own tie-breaks, in points.
func tieBreak(tb TieBreak, h []record, p int) float64 {
	rc := &h[p]
	switch tb {
	case Wins:
		return float64(rc.wins)
	case SonnebornBerger:
		q := 0 // in quarter points: half points × half points
		for r, o := range rc.opp {
			if o >= 0 {
				q += h[o].score * rc.pts[r]
			}
		}
		return float64(q) / 4
	}
	var terms []int
	for _, o := range rc.opp {
		if o >= 0 {
			terms = append(terms, h[o].score)
		} else {
			terms = append(terms, rc.score)
		}
	}
	sum, low := 0, -1
	for i, t := range terms {
		sum += t
		if i == 0 || t < low {
			low = t
		}
	}
	if tb == BuchholzCut1 && len(terms) > 0 {
		sum -= low
	}
	return float64(sum) / 2
}
