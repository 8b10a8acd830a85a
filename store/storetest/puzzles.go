package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Puzzles runs the tests of store.Puzzles on a store that open makes: a
// first attempt is rated once and a second one is not, the history reads
// back newest first, the streak advances only on the puzzle it waits for,
// and concurrent attempts lose no rating update.
func Puzzles(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("RatedOnce", func(t *testing.T) { puzzlesRatedOnce(t, open) })
	t.Run("Streak", func(t *testing.T) { puzzlesStreak(t, open) })
	t.Run("ConcurrentSamePuzzle", func(t *testing.T) { puzzlesConcurrent(t, open) })
	t.Run("ConcurrentSamePlayer", func(t *testing.T) { puzzlesSamePlayer(t, open) })
}

func puzzleStore(t *testing.T, open func(t *testing.T) store.Store) (store.Store, store.Puzzles) {
	st := open(t)
	t.Cleanup(func() { st.Close() })
	p, ok := st.(store.Puzzles)
	if !ok {
		t.Skip("the store keeps no puzzle ratings")
	}
	return st, p
}

var (
	playerStart = store.Glicko{Rating: 1500, Deviation: 350, Volatility: 0.06}
	puzzleStart = store.Glicko{Rating: 1450, Deviation: 300, Volatility: 0.06}
)

// plusOne is a rater whose result is easy to predict: the winner gains 10,
// the loser loses 10, and the deviations shrink by 1.
func plusOne(player, puzzle store.Glicko, solved bool) (store.Glicko, store.Glicko) {
	d := 10.0
	if !solved {
		d = -10
	}
	player.Rating += d
	puzzle.Rating -= d
	player.Deviation--
	puzzle.Deviation--
	return player, puzzle
}

func puzzlesRatedOnce(t *testing.T, open func(t *testing.T) store.Store) {
	st, p := puzzleStore(t, open)
	ctx := context.Background()
	a, b := newUser(t, st, "ada"), newUser(t, st, "bo")
	at := func(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }
	got, first, err := p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: a.ID, Game: "sgolte", Puzzle: "sgolte-001", Mode: "rated", Solved: true, At: at(1)}, playerStart, puzzleStart, plusOne)
	must(t, err)
	if !first || !got.Rated || got.PlayerBefore != 1500 || got.PlayerAfter != 1510 || got.PuzzleBefore != 1450 || got.PuzzleAfter != 1440 {
		t.Fatalf("first attempt = %+v, first %v", got, first)
	}
	// The same puzzle again, now missed: nothing changes, the first stays.
	again, first, err := p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: a.ID, Game: "sgolte", Puzzle: "sgolte-001", Mode: "rated", Solved: false, At: at(2)}, playerStart, puzzleStart, plusOne)
	must(t, err)
	if first || !again.Solved || again.PlayerAfter != 1510 {
		t.Fatalf("second attempt = %+v, first %v: want the stored first one", again, first)
	}
	pl, err := p.PuzzlePlayer(ctx, a.ID, "sgolte", playerStart)
	must(t, err)
	if pl.Rating.Rating != 1510 || pl.Rating.Deviation != 349 || pl.Plays != 1 {
		t.Fatalf("player after a replay = %+v, want rated once", pl)
	}
	// Another player misses the same puzzle: the puzzle goes on from 1440.
	got, _, err = p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: b.ID, Game: "sgolte", Puzzle: "sgolte-001", Mode: "daily", At: at(3)}, playerStart, puzzleStart, plusOne)
	must(t, err)
	if got.PuzzleBefore != 1440 || got.PuzzleAfter != 1450 || got.PlayerAfter != 1490 {
		t.Fatalf("second player's attempt = %+v", got)
	}
	stats, err := p.PuzzleStats(ctx, "sgolte")
	must(t, err)
	if s := stats["sgolte-001"]; s.Plays != 2 || s.Solved != 1 || s.Rating.Rating != 1450 || s.Rating.Deviation != 298 {
		t.Fatalf("puzzle stats = %+v", s)
	}
	if other, _ := p.PuzzleStats(ctx, "sploof"); len(other) != 0 {
		t.Fatalf("another game's stats = %+v", other)
	}
	// An unrated attempt (a guest's) is kept as given, and only once.
	un, first, err := p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: a.ID, Game: "sgolte", Puzzle: "sgolte-002", Mode: "rated", PuzzleBefore: 1600, PuzzleAfter: 1600, At: at(4)}, playerStart, puzzleStart, nil)
	must(t, err)
	if !first || un.Rated || un.PuzzleBefore != 1600 {
		t.Fatalf("unrated attempt = %+v", un)
	}
	if _, first, _ := p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: a.ID, Game: "sgolte", Puzzle: "sgolte-002", Solved: true, At: at(5)}, playerStart, puzzleStart, plusOne); first {
		t.Fatal("a puzzle tried unrated was rated on the next try")
	}
	_, _, err = p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: a.ID, Game: "sploof", Puzzle: "sploof-009", Mode: "streak", Solved: true, At: at(6)}, playerStart, puzzleStart, plusOne)
	must(t, err)
	hist, err := p.PuzzleAttempts(ctx, a.ID, "", time.Time{}, 10)
	must(t, err)
	var ids []string
	for _, h := range hist {
		ids = append(ids, h.Puzzle+"/"+h.Mode)
	}
	if fmt.Sprint(ids) != "[sploof-009/streak sgolte-002/rated sgolte-001/rated]" {
		t.Fatalf("history = %v", ids)
	}
	if !hist[2].At.Equal(at(1)) {
		t.Fatalf("first attempt's time = %v, want %v", hist[2].At, at(1))
	}
	hist, err = p.PuzzleAttempts(ctx, a.ID, "sgolte", at(4), 10)
	must(t, err)
	if len(hist) != 1 || hist[0].Puzzle != "sgolte-001" {
		t.Fatalf("sgolte history before minute 4 = %+v", hist)
	}
}

func puzzlesStreak(t *testing.T, open func(t *testing.T) store.Store) {
	st, p := puzzleStore(t, open)
	ctx := context.Background()
	a := newUser(t, st, "cy")
	order := []string{"p1", "p2", "p3"}
	next := func(seen []string) string {
		if len(seen) < len(order) {
			return order[len(seen)]
		}
		return ""
	}
	_, err := p.AnswerPuzzleStreak(ctx, a.ID, "sploof", "p1", true, next, playerStart, t0)
	wantErr(t, err, store.ErrConflict, "an answer with no streak running")
	pl, err := p.StartPuzzleStreak(ctx, a.ID, "sploof", "p1", playerStart, t0)
	must(t, err)
	if pl.StreakPuzzle != "p1" || pl.Streak != 0 {
		t.Fatalf("started = %+v", pl)
	}
	pl, err = p.AnswerPuzzleStreak(ctx, a.ID, "sploof", "p1", true, next, playerStart, t0)
	must(t, err)
	if pl.Streak != 1 || pl.StreakBest != 1 || pl.StreakPuzzle != "p2" {
		t.Fatalf("after p1 = %+v", pl)
	}
	_, err = p.AnswerPuzzleStreak(ctx, a.ID, "sploof", "p1", true, next, playerStart, t0)
	wantErr(t, err, store.ErrConflict, "p1 answered twice")
	for _, id := range []string{"p2", "p3"} {
		pl, err = p.AnswerPuzzleStreak(ctx, a.ID, "sploof", id, true, next, playerStart, t0)
		must(t, err)
	}
	if pl.Streak != 3 || pl.StreakBest != 3 || pl.StreakPuzzle != "" {
		t.Fatalf("after every puzzle = %+v: want the streak ended at 3", pl)
	}
	// A new streak ended by a miss keeps the best.
	_, err = p.StartPuzzleStreak(ctx, a.ID, "sploof", "p1", playerStart, t0)
	must(t, err)
	pl, err = p.AnswerPuzzleStreak(ctx, a.ID, "sploof", "p1", false, next, playerStart, t0)
	must(t, err)
	if pl.Streak != 0 || pl.StreakBest != 3 || pl.StreakPuzzle != "" {
		t.Fatalf("after a miss = %+v", pl)
	}
	got, err := p.PuzzlePlayer(ctx, a.ID, "sploof", playerStart)
	must(t, err)
	if got.StreakBest != 3 || got.Rating != playerStart || got.Plays != 0 {
		t.Fatalf("read back = %+v", got)
	}
}

// puzzlesConcurrent: many players attempt one puzzle at once. Every
// attempt must see the puzzle's rating as the previous one left it: the
// attempts' (before, after) pairs form one chain from the start to the
// stored rating, with no link used twice.
func puzzlesConcurrent(t *testing.T, open func(t *testing.T) store.Store) {
	st, p := puzzleStore(t, open)
	ctx := context.Background()
	const n = 12
	users := make([]store.User, n)
	for i := range users {
		users[i] = newUser(t, st, fmt.Sprintf("racer%d", i))
	}
	// A rater whose every step is distinct: player i's attempt raises the
	// puzzle's rating by 2^i, so every partial sum is a different number.
	var wg sync.WaitGroup
	got := make([]store.PuzzleAttempt, n)
	errs := make([]error, n)
	for i := range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], _, errs[i] = p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: users[i].ID, Game: "sploof", Puzzle: "sploof-001", Mode: "rated", Solved: i%2 == 0, At: t0},
				playerStart, puzzleStart, func(pl, pz store.Glicko, solved bool) (store.Glicko, store.Glicko) {
					pz.Rating += float64(int(1) << i)
					return pl, pz
				})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("attempt %d: %v", i, err)
		}
	}
	stats, err := p.PuzzleStats(ctx, "sploof")
	must(t, err)
	s := stats["sploof-001"]
	if s.Plays != n || s.Solved != n/2 {
		t.Fatalf("puzzle counts = %+v, want %d plays, %d solved", s, n, n/2)
	}
	byBefore := map[float64]store.PuzzleAttempt{}
	for _, a := range got {
		if _, dup := byBefore[a.PuzzleBefore]; dup {
			t.Fatalf("two attempts started from the puzzle's rating %v: an update was lost", a.PuzzleBefore)
		}
		byBefore[a.PuzzleBefore] = a
	}
	r := puzzleStart.Rating
	for range n {
		a, ok := byBefore[r]
		if !ok {
			t.Fatalf("no attempt started from %v: the chain is broken", r)
		}
		r = a.PuzzleAfter
	}
	if r != s.Rating.Rating {
		t.Fatalf("chain ends at %v, stored rating %v", r, s.Rating.Rating)
	}
}

// puzzlesSamePlayer: one player sends the same puzzle's answer many times
// at once; exactly one is rated.
func puzzlesSamePlayer(t *testing.T, open func(t *testing.T) store.Store) {
	st, p := puzzleStore(t, open)
	ctx := context.Background()
	u := newUser(t, st, "eager")
	const n = 10
	var wg sync.WaitGroup
	var mu sync.Mutex
	firsts := 0
	var errs []error
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, first, err := p.RecordPuzzleAttempt(ctx, store.PuzzleAttempt{UserID: u.ID, Game: "sgolte", Puzzle: "sgolte-003", Mode: "rated", Solved: true, At: t0}, playerStart, puzzleStart, plusOne)
			mu.Lock()
			defer mu.Unlock()
			if first {
				firsts++
			}
			if err != nil {
				errs = append(errs, err)
			}
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatal(err)
	}
	pl, err := p.PuzzlePlayer(ctx, u.ID, "sgolte", playerStart)
	must(t, err)
	if firsts != 1 || pl.Plays != 1 || pl.Rating.Rating != 1510 {
		t.Fatalf("%d first attempts, player %+v: want exactly one rated", firsts, pl)
	}
}
