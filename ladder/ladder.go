// Package ladder is the bot ladder's matchmaker (issue 26 point 5): given
// the entrants of one game's ladder — bot accounts that opted in, and the
// built-in levels as fixed anchors — and the pairings made recently, it
// chooses the next games. It is pure: no store, no HTTP, no clock of its
// own (the caller passes how long each entrant has waited), so that every
// rule is a table-driven or property test. The server (server/ladder.go)
// reads the entrants from the store, asks Pair every few seconds on the
// one node that holds the ladder's lease, and creates the games.
//
// The rules, in order:
//   - An entrant plays at most its MaxGames games at once (a bot chooses
//     its own when it joins), and games with an anchor are at most
//     Limits.MaxAnchorGames at once: anchors are played by the server's own
//     bots, on the node that runs the matchmaker, whose cores are bounded.
//   - Two anchors never play each other: their ratings are fixed, so such a
//     game measures nothing and would only spend the server's cores.
//   - The same two entrants play at most Limits.PerPair games within
//     Limits.Window (counting the games just chosen), so a ladder of few
//     bots still spreads its games.
//   - The ratings of a pair differ by at most the allowed gap: Limits.Gap,
//     plus Limits.Widen for every second the longer-waiting of the two has
//     waited, plus the larger of their deviations (a provisional rating is
//     uncertain anyway), never more than Limits.MaxGap. The longest waiting
//     bot is paired first, with the closest rating it may play (anchors
//     come after the bots: an anchor does not wait, it is there for them).
//   - Each call gives an entrant at most one new game, and within a pair
//     the first seat goes to the one that has had it less often in the
//     window (then the one that had it less often overall in the window).
package ladder

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Entrant is one entrant of a game's ladder.
type Entrant struct {
	// Key names the entrant uniquely within the ladder (the server uses
	// "u:ID" for a bot account and "level:NAME" for an anchor).
	Key string
	// Rating and Deviation are its Glicko-2 rating in the game (an
	// anchor's is fixed).
	Rating, Deviation float64
	// Playing is its ladder games in progress; MaxGames the most it may
	// play at once (an anchor's is bounded by Limits.MaxAnchorGames
	// only, so 0 means no bound of its own for an anchor).
	Playing, MaxGames int
	// Anchor marks a built-in level.
	Anchor bool
	// Waited is how long it has waited for a game: since it joined, or
	// since its last ladder game ended, whichever is later.
	Waited time.Duration
}

// Played is one ladder game of the recent past (or in progress): First
// had the first seat, Second the other.
type Played struct {
	First, Second string
	At            time.Time
}

// Pairing is one game to create: First takes the first seat.
type Pairing struct {
	First, Second string
}

// Limits bound the pairings.
type Limits struct {
	// Window and PerPair: the same two entrants play at most PerPair
	// games whose At is within Window before now.
	Window  time.Duration
	PerPair int
	// Gap is the rating difference allowed at once; Widen what each
	// second of waiting adds; MaxGap the most it ever reaches.
	Gap, Widen, MaxGap float64
	// MaxAnchorGames bounds the games with an anchor in progress at once
	// (those in Entrant.Playing of the anchors, and the new ones).
	MaxAnchorGames int
}

// DefaultLimits are the server's.
var DefaultLimits = Limits{
	Window:         30 * time.Minute,
	PerPair:        3,
	Gap:            150,
	Widen:          10,
	MaxGap:         800,
	MaxAnchorGames: 2,
}

// AllowedGap is the rating difference two entrants may have when the
// longer-waiting of them has waited waited and the larger deviation is dev.
func (l Limits) AllowedGap(waited time.Duration, dev float64) float64 {
	g := l.Gap + l.Widen*waited.Seconds() + dev
	return math.Min(g, l.MaxGap)
}

// pairKey is a pair's key, its keys in order.
func pairKey(a, b string) [2]string {
	if a > b {
		a, b = b, a
	}
	return [2]string{a, b}
}

// Pair chooses the next games among entrants, given the games recent
// (those within l.Window before now count) and the limits. The result is
// deterministic for the same input.
func Pair(entrants []Entrant, recent []Played, now time.Time, l Limits) []Pairing {
	since := now.Add(-l.Window)
	pairGames := map[[2]string]int{}
	firstIn := map[[2]string]map[string]int{} // per pair: first seats of each
	firsts := map[string]int{}
	for _, p := range recent {
		if p.At.Before(since) {
			continue
		}
		k := pairKey(p.First, p.Second)
		pairGames[k]++
		if firstIn[k] == nil {
			firstIn[k] = map[string]int{}
		}
		firstIn[k][p.First]++
		firsts[p.First]++
	}
	anchorGames := 0
	for _, e := range entrants {
		if e.Anchor {
			anchorGames += e.Playing
		}
	}
	free := func(e *Entrant) bool {
		if e.Anchor {
			return e.MaxGames <= 0 || e.Playing < e.MaxGames
		}
		return e.MaxGames > 0 && e.Playing < e.MaxGames
	}
	// The bots first (an anchor never waits: it is there for them), the
	// longest waiting first; then by key, for a deterministic order.
	order := make([]int, 0, len(entrants))
	for i := range entrants {
		order = append(order, i)
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if entrants[a].Anchor != entrants[b].Anchor {
			if entrants[a].Anchor {
				return 1
			}
			return -1
		}
		if c := cmp.Compare(entrants[b].Waited, entrants[a].Waited); c != 0 {
			return c
		}
		return cmp.Compare(entrants[a].Key, entrants[b].Key)
	})
	used := make([]bool, len(entrants))
	var out []Pairing
	for _, i := range order {
		a := &entrants[i]
		if used[i] || !free(a) {
			continue
		}
		best := -1
		var bestDiff float64
		for _, j := range order {
			b := &entrants[j]
			if j == i || used[j] || !free(b) || b.Key == a.Key || (a.Anchor && b.Anchor) {
				continue
			}
			if (a.Anchor || b.Anchor) && anchorGames >= l.MaxAnchorGames {
				continue
			}
			if pairGames[pairKey(a.Key, b.Key)] >= l.PerPair {
				continue
			}
			diff := math.Abs(a.Rating - b.Rating)
			if diff > l.AllowedGap(max(a.Waited, b.Waited), math.Max(a.Deviation, b.Deviation)) {
				continue
			}
			if best < 0 || diff < bestDiff || (diff == bestDiff && pairGames[pairKey(a.Key, b.Key)] < pairGames[pairKey(a.Key, entrants[best].Key)]) {
				best, bestDiff = j, diff
			}
		}
		if best < 0 {
			continue
		}
		b := &entrants[best]
		used[i], used[best] = true, true
		k := pairKey(a.Key, b.Key)
		pairGames[k]++
		if a.Anchor || b.Anchor {
			anchorGames++
		}
		first, second := a.Key, b.Key
		fa, fb := firstIn[k][a.Key], firstIn[k][b.Key]
		if fb < fa || (fb == fa && (firsts[b.Key] < firsts[a.Key] || (firsts[b.Key] == firsts[a.Key] && b.Key < a.Key))) {
			first, second = b.Key, a.Key
		}
		if firstIn[k] == nil {
			firstIn[k] = map[string]int{}
		}
		firstIn[k][first]++
		firsts[first]++
		out = append(out, Pairing{First: first, Second: second})
	}
	return out
}
