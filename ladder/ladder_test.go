package ladder

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tabula-games/tabula/rating"
)

var t0 = time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)

func bot(key string, r float64, playing, maxGames int, waited time.Duration) Entrant {
	return Entrant{Key: key, Rating: r, Deviation: 60, Playing: playing, MaxGames: maxGames, Waited: waited}
}

func anchor(level string, r float64) Entrant {
	return Entrant{Key: "level:" + level, Rating: r, Deviation: AnchorDeviation, Anchor: true}
}

func TestPair(t *testing.T) {
	lim := Limits{Window: 30 * time.Minute, PerPair: 2, Gap: 100, Widen: 10, MaxGap: 800, MaxAnchorGames: 1}
	recent := func(n int, first, second string) []Played {
		var out []Played
		for range n {
			out = append(out, Played{First: first, Second: second, At: t0.Add(-time.Minute)})
		}
		return out
	}
	for _, tc := range []struct {
		name     string
		entrants []Entrant
		recent   []Played
		want     []Pairing
	}{
		{name: "nobody", want: nil},
		{name: "one alone", entrants: []Entrant{bot("a", 1500, 0, 1, 0)}, want: nil},
		{name: "the closest rating", entrants: []Entrant{bot("a", 1500, 0, 1, time.Minute), bot("b", 1700, 0, 1, 0), bot("c", 1520, 0, 1, 0)},
			want: []Pairing{{"a", "c"}}},
		{name: "too far apart at once", entrants: []Entrant{bot("a", 1500, 0, 1, 0), bot("b", 1800, 0, 1, 0)}, want: nil},
		{name: "waiting widens the gap", entrants: []Entrant{bot("a", 1500, 0, 1, 20*time.Second), bot("b", 1800, 0, 1, 0)},
			want: []Pairing{{"a", "b"}}},
		{name: "never beyond the largest gap", entrants: []Entrant{bot("a", 1000, 0, 1, time.Hour), bot("b", 2000, 0, 1, 0)}, want: nil},
		{name: "a busy bot waits", entrants: []Entrant{bot("a", 1500, 1, 1, time.Minute), bot("b", 1500, 0, 1, 0)}, want: nil},
		{name: "a bot of two games plays a second", entrants: []Entrant{bot("a", 1500, 1, 2, time.Minute), bot("b", 1500, 0, 1, 0)},
			want: []Pairing{{"a", "b"}}},
		{name: "a bot that plays none", entrants: []Entrant{bot("a", 1500, 0, 0, time.Minute), bot("b", 1500, 0, 1, 0)}, want: nil},
		{name: "anchors never play each other", entrants: []Entrant{anchor("easy", 1500), anchor("hard", 1500)}, want: nil},
		{name: "a bot plays an anchor", entrants: []Entrant{anchor("medium", 1500), bot("a", 1480, 0, 1, 0)},
			want: []Pairing{{"a", "level:medium"}}},
		{name: "a bot chooses, not an anchor that waited longer", entrants: []Entrant{{Key: "level:easy", Rating: 1200, Deviation: 50, Anchor: true, Waited: time.Hour},
			anchor("medium", 1500), bot("z", 1500, 0, 1, 0)}, want: []Pairing{{"level:medium", "z"}}},
		{name: "anchor games are bounded", entrants: []Entrant{{Key: "level:medium", Rating: 1500, Anchor: true, Playing: 1}, bot("a", 1500, 0, 1, 0)},
			want: nil},
		{name: "one anchor game more, then bots", entrants: []Entrant{anchor("medium", 1500), bot("a", 1500, 0, 1, 2*time.Minute),
			bot("b", 1500, 0, 1, time.Minute), bot("c", 1500, 0, 1, 0)},
			want: []Pairing{{"a", "b"}, {"c", "level:medium"}}},
		{name: "a pair played too often", entrants: []Entrant{bot("a", 1500, 0, 1, 0), bot("b", 1500, 0, 1, 0)},
			recent: recent(2, "a", "b"), want: nil},
		{name: "the window forgets", entrants: []Entrant{bot("a", 1500, 0, 1, 0), bot("b", 1500, 0, 1, 0)},
			recent: []Played{{"a", "b", t0.Add(-time.Hour)}, {"a", "b", t0.Add(-time.Hour)}}, want: []Pairing{{"a", "b"}}},
		{name: "another opponent rather than a repeat", entrants: []Entrant{bot("a", 1500, 0, 1, time.Minute), bot("b", 1500, 0, 1, 0), bot("c", 1550, 0, 1, 0)},
			recent: recent(2, "a", "b"), want: []Pairing{{"c", "a"}}}, // c has had no first seat yet
		{name: "the seats alternate", entrants: []Entrant{bot("a", 1500, 0, 1, 0), bot("b", 1500, 0, 1, 0)},
			recent: recent(1, "a", "b"), want: []Pairing{{"b", "a"}}},
		{name: "the seats alternate the other way", entrants: []Entrant{bot("a", 1500, 0, 1, 0), bot("b", 1500, 0, 1, 0)},
			recent: recent(1, "b", "a"), want: []Pairing{{"a", "b"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Pair(tc.entrants, tc.recent, t0, lim)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Pair = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestPairProperties: for any ladder, no pair plays more than PerPair
// games in the window, no entrant more than its MaxGames at once, no
// anchor another anchor, anchor games stay within their bound, every
// pairing is within the allowed gap, and each entrant gets at most one new
// game per call. Pairing again and again (the games never ending) keeps
// them all.
func TestPairProperties(t *testing.T) {
	for seed := range uint64(3000) {
		r := rand.New(rand.NewPCG(seed, 26))
		intIn := func(lo, hi int) int { return lo + r.IntN(hi-lo+1) }
		floatIn := func(lo, hi float64) float64 { return lo + r.Float64()*(hi-lo) }
		lim := Limits{
			Window:         time.Duration(intIn(1, 60)) * time.Minute,
			PerPair:        intIn(1, 4),
			Gap:            floatIn(0, 300),
			Widen:          floatIn(0, 20),
			MaxGap:         floatIn(0, 1000),
			MaxAnchorGames: intIn(0, 4),
		}
		n := intIn(0, 12)
		es := make([]Entrant, n)
		for i := range es {
			es[i] = Entrant{
				Key:       fmt.Sprintf("e%d", i),
				Rating:    floatIn(800, 2200),
				Deviation: floatIn(30, 350),
				MaxGames:  intIn(0, 3),
				Anchor:    r.IntN(2) == 0,
				Waited:    time.Duration(intIn(0, 600)) * time.Second,
			}
			es[i].Playing = intIn(0, es[i].MaxGames)
			if es[i].Anchor {
				es[i].MaxGames, es[i].Playing = 0, 0
			}
		}
		byKey := map[string]*Entrant{}
		for i := range es {
			byKey[es[i].Key] = &es[i]
		}
		var recent []Played
		now := t0
		for step := range 6 {
			got := Pair(es, recent, now, lim)
			seen := map[string]bool{}
			for _, p := range got {
				a, b := byKey[p.First], byKey[p.Second]
				if a == nil || b == nil || a == b {
					t.Fatalf("seed %d step %d: pairing %v of unknown or the same entrants", seed, step, p)
				}
				if seen[a.Key] || seen[b.Key] {
					t.Fatalf("seed %d step %d: an entrant in two new games: %v", seed, step, got)
				}
				seen[a.Key], seen[b.Key] = true, true
				if a.Anchor && b.Anchor {
					t.Fatalf("seed %d step %d: anchors paired: %v", seed, step, p)
				}
				if d := math.Abs(a.Rating - b.Rating); d > lim.AllowedGap(max(a.Waited, b.Waited), math.Max(a.Deviation, b.Deviation))+1e-9 {
					t.Fatalf("seed %d step %d: %v differ by %.0f", seed, step, p, d)
				}
				a.Playing++
				b.Playing++
				recent = append(recent, Played{First: p.First, Second: p.Second, At: now})
			}
			anchorGames := 0
			for _, e := range es {
				if e.Anchor {
					anchorGames += e.Playing
				} else if e.Playing > e.MaxGames {
					t.Fatalf("seed %d step %d: %s plays %d, at most %d", seed, step, e.Key, e.Playing, e.MaxGames)
				}
			}
			if anchorGames > lim.MaxAnchorGames {
				t.Fatalf("seed %d step %d: %d anchor games, at most %d", seed, step, anchorGames, lim.MaxAnchorGames)
			}
			count := map[[2]string]int{}
			for _, p := range recent {
				if !p.At.Before(now.Add(-lim.Window)) {
					count[pairKey(p.First, p.Second)]++
				}
			}
			for k, c := range count {
				if c > lim.PerPair {
					t.Fatalf("seed %d step %d: %v played %d times in the window, at most %d", seed, step, k, c, lim.PerPair)
				}
			}
			// Some games end; time passes.
			for i := range es {
				if es[i].Playing > 0 && r.IntN(2) == 0 {
					es[i].Playing--
				}
			}
			now = now.Add(time.Duration(intIn(0, 600)) * time.Second)
		}
	}
}

// TestPairSeatsBalanced: two bots paired again and again take the first
// seat in turn.
func TestPairSeatsBalanced(t *testing.T) {
	lim := DefaultLimits
	lim.PerPair = 100
	var recent []Played
	es := []Entrant{bot("a", 1500, 0, 1, 0), bot("b", 1500, 0, 1, 0)}
	firsts := map[string]int{}
	for i := range 10 {
		got := Pair(es, recent, t0, lim)
		if len(got) != 1 {
			t.Fatalf("round %d: %v", i, got)
		}
		firsts[got[0].First]++
		recent = append(recent, Played{First: got[0].First, Second: got[0].Second, At: t0})
	}
	if firsts["a"] != 5 || firsts["b"] != 5 {
		t.Fatalf("first seats %v, want 5 each", firsts)
	}
}

// TestRateVsAnchor: a bot that beats an anchor rises, one that loses falls,
// and the anchor's fixed values are what the update used.
func TestRateVsAnchor(t *testing.T) {
	a := Anchor{Level: "medium", Rating: 1500, Deviation: AnchorDeviation}
	start := rating.Default()
	win, loss, draw := RateVsAnchor(start, a, 1), RateVsAnchor(start, a, 0), RateVsAnchor(start, a, 0.5)
	if !(win.R > 1500 && loss.R < 1500 && math.Abs(draw.R-1500) < 1e-6) {
		t.Fatalf("win %.1f, loss %.1f, draw %.1f", win.R, loss.R, draw.R)
	}
	// Against a stronger anchor a win counts for more.
	strong := RateVsAnchor(start, Anchor{Level: "hard", Rating: 1800, Deviation: AnchorDeviation}, 1)
	if strong.R <= win.R {
		t.Fatalf("a win over 1800 gives %.1f, over 1500 %.1f", strong.R, win.R)
	}
}

// TestMeasured: an anchor that wins most of its games against bots rated
// about 1500 measures above 1500, one that loses most below.
func TestMeasured(t *testing.T) {
	opp := rating.Rating{R: 1500, RD: 80, Vol: rating.DefaultVolatility}
	var good, bad []rating.Result
	for i := range 40 {
		s := 0.0
		if i%4 != 0 {
			s = 1
		}
		good = append(good, rating.Result{Opponent: opp, Score: s})
		bad = append(bad, rating.Result{Opponent: opp, Score: 1 - s})
	}
	if g, b := Measured(good), Measured(bad); !(g.R > 1600 && b.R < 1400 && g.RD < 100) {
		t.Fatalf("good %.0f±%.0f, bad %.0f±%.0f", g.R, g.RD, b.R, b.RD)
	}
	if m := Measured(nil); m != rating.Default() {
		t.Fatalf("no games: %v", m)
	}
}
