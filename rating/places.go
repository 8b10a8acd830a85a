package rating

import "sort"

// Places turns a game's result into finishing places (0 best, equal places
// tie) for UpdateGame. Winners share place 0. The other seats are ordered by
// their scores when the game has scores, in the direction the winners show
// (Skyjo: the winners hold the lowest totals, so lower is better); without
// scores, or when the winners' scores do not show a direction, the other
// seats share the next place. A draw is one shared place.
func Places(n int, winners []bool, scores []int) []int {
	places := make([]int, n)
	anyWinner := false
	for _, w := range winners {
		anyWinner = anyWinner || w
	}
	if !anyWinner {
		return places
	}
	lowerBetter, higherBetter := len(scores) == n, len(scores) == n
	for i := 0; i < n && len(scores) == n; i++ {
		for j := 0; j < n; j++ {
			if winners[i] && !winners[j] {
				if scores[i] > scores[j] {
					lowerBetter = false
				}
				if scores[i] < scores[j] {
					higherBetter = false
				}
			}
		}
	}
	var losers []int
	for i := 0; i < n; i++ {
		if !winners[i] {
			losers = append(losers, i)
		}
	}
	if !lowerBetter && !higherBetter || lowerBetter && higherBetter {
		for _, i := range losers {
			places[i] = 1
		}
		return places
	}
	better := func(a, b int) bool {
		if lowerBetter {
			return scores[a] < scores[b]
		}
		return scores[a] > scores[b]
	}
	sort.SliceStable(losers, func(a, b int) bool { return better(losers[a], losers[b]) })
	place := 1
	for k, i := range losers {
		if k > 0 && better(losers[k-1], i) {
			place = k + 1
		}
		places[i] = place
	}
	return places
}
