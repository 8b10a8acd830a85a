package server

import (
	"math"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func gl(r, rd, vol float64) store.Glicko {
	return store.Glicko{Rating: r, Deviation: rd, Volatility: vol}
}

// TestPuzzleRatingPaperExample: the puzzle ratings are Glickman's Glicko-2
// ("Example of the Glicko-2 system", 2012). His worked example, as a player
// of 1500/200/0.06 who in one period solves a puzzle rated 1400/30 and
// misses puzzles rated 1550/100 and 1700/300, ends at the published
// 1464.06 / 151.52 / 0.05999; and a puzzle of 1500/200/0.06 attempted by
// three players of those ratings, the first missing it and the others
// solving it, ends at the same numbers (the puzzle wins when a player misses).
func TestPuzzleRatingPaperExample(t *testing.T) {
	opp := []store.Glicko{gl(1400, 30, 0.06), gl(1550, 100, 0.06), gl(1700, 300, 0.06)}
	check := func(who string, got store.Glicko) {
		t.Helper()
		if !near(got.Rating, 1464.06, 0.01) || !near(got.Deviation, 151.52, 0.01) || !near(got.Volatility, 0.05999, 0.00001) {
			t.Fatalf("%s: got %+v, want 1464.06 / 151.52 / 0.05999", who, got)
		}
	}
	check("player", glickoPeriod(gl(1500, 200, 0.06), opp, []float64{1, 0, 0}))
	// The puzzle's side of the same games: its score is 1 minus the player's.
	check("puzzle", glickoPeriod(gl(1500, 200, 0.06), opp, []float64{1 - 0, 1 - 1, 1 - 1}))
}

// TestPuzzleAttemptRating: one attempt is one period for each side, rated
// from the ratings before it. Between equal new ratings the solver gains
// exactly what the puzzle loses; a solve of a puzzle rated far above the
// player gains more than a solve of one far below, and a miss loses.
func TestPuzzleAttemptRating(t *testing.T) {
	start := puzzlePlayerStart
	p, z := ratePuzzleAttempt(start, start, true)
	if !(p.Rating > 1500) || !near(p.Rating-1500, 1500-z.Rating, 1e-9) || !near(p.Deviation, z.Deviation, 1e-9) {
		t.Fatalf("equal ratings, solved: player %+v puzzle %+v", p, z)
	}
	// The same numbers as the Glicko-2 update of one game each way.
	if want := glickoPeriod(start, []store.Glicko{start}, []float64{1}); p != want {
		t.Fatalf("player %+v, want %+v", p, want)
	}
	hard, _ := ratePuzzleAttempt(start, gl(2000, 80, 0.06), true)
	easy, _ := ratePuzzleAttempt(start, gl(1000, 80, 0.06), true)
	miss, zm := ratePuzzleAttempt(start, gl(1500, 80, 0.06), false)
	if !(hard.Rating-1500 > easy.Rating-1500) || !(easy.Rating > 1500) || !(miss.Rating < 1500) || !(zm.Rating > 1500) {
		t.Fatalf("hard %+v easy %+v miss %+v (puzzle %+v)", hard, easy, miss, zm)
	}
}

// TestDailyPuzzle: the daily puzzle depends only on the UTC day — the same
// at any hour of it and in any time zone — and changes from day to day.
func TestDailyPuzzle(t *testing.T) {
	c, err := loadPuzzleCatalog()
	if err != nil {
		t.Fatal(err)
	}
	if len(c.all) < 100 {
		t.Fatalf("%d puzzles in the catalog", len(c.all))
	}
	day := time.Date(2026, 12, 2, 0, 0, 1, 0, time.UTC)
	d1, a := dailyPuzzle(c, day)
	_, b := dailyPuzzle(c, day.Add(23*time.Hour+59*time.Minute))
	_, other := dailyPuzzle(c, day.In(time.FixedZone("UTC+9", 9*3600)))
	if d1 != "2026-12-02" || a != b || a != other {
		t.Fatalf("one UTC day gave %s: %s, %s, %s", d1, a.pz.ID, b.pz.ID, other.pz.ID)
	}
	seen := map[string]bool{}
	for i := range 30 {
		_, e := dailyPuzzle(c, day.AddDate(0, 0, i))
		seen[e.pz.ID] = true
	}
	if len(seen) < 20 {
		t.Fatalf("30 days gave only %d different puzzles", len(seen))
	}
}

// TestStreakRises: each streak pick is rated at least as high as the last
// and never one the streak showed; the streak ends when none is left.
func TestStreakRises(t *testing.T) {
	c, err := loadPuzzleCatalog()
	if err != nil {
		t.Fatal(err)
	}
	list := c.byGame["sploof"]
	stats := map[string]store.PuzzleStat{list[5].pz.ID: {Rating: store.Glicko{Rating: 900}}}
	var seen []string
	last := math.Inf(-1)
	for {
		id := streakNext(list, stats, seen)
		if id == "" {
			break
		}
		e := c.byID[id]
		r := e.start.Rating
		if s, ok := stats[id]; ok {
			r = s.Rating.Rating
		}
		if r < last {
			t.Fatalf("pick %d: %s rated %v after %v", len(seen)+1, id, r, last)
		}
		for _, s := range seen {
			if s == id {
				t.Fatalf("%s picked twice", id)
			}
		}
		if len(seen) == 0 && r > 1450 {
			// The three easiest: 900 (the one rated down) and two of 1450.
			t.Fatalf("first pick %s (%v): want one of the three easiest", id, r)
		}
		seen, last = append(seen, id), r
	}
	if len(seen) < 10 {
		t.Fatalf("the streak ran out after %d puzzles", len(seen))
	}
}
