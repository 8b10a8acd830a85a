package solve

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// TestLeafProverWithin: bounded by a ply, the leaf search says the winner
// forces a win by it exactly when the exact search (tabula solve's, an
// independent length-aware search) says the game lasts no longer with best
// play: on 60 positions of random games from ply 18 to 28, the bound at the
// exact length's ply is met and one ply earlier is not — by either side.
func TestLeafProverWithin(t *testing.T) {
	exact := New(1 << 22)
	n := 0
	for _, ply := range []int{18, 22, 25, 28} {
		for _, st := range positionsAt(ply, 15) {
			sol, err := exact.Solve(context.Background(), st, 0)
			if err != nil || !sol.Proven {
				t.Fatalf("the exact search: %v, %+v", err, sol)
			}
			end := ply + sol.Plies
			for _, within := range []int{end, end - 1} {
				lp := &leafProver{ctx: context.Background(), memo: newLeafMemo(1 << 20), within: within, winner: sol.Winner}
				got, err := lp.wins(st, 0)
				if err != nil {
					t.Fatal(err)
				}
				// For the winner "wins" is a win by the bound, for the
				// loser holding out past it.
				byBound := got == (st.ToMove() == sol.Winner)
				if byBound != (within == end) {
					t.Fatalf("ply %d, seat %d wins in %d plies (by ply %d): the bounded search says a win by ply %d is forced: %v",
						ply, sol.Winner, sol.Plies, end, within, byBound)
				}
			}
			n++
		}
	}
	t.Logf("%d positions", n)
}

// TestStrategyCheckWithin: a strategy checked with a bound passes at the
// last ply a game can have and is refused below the length of the game
// under best play, which no strategy beats; the progress of one bound is
// not taken for another's, nor for the unbounded check's.
func TestStrategyCheckWithin(t *testing.T) {
	// A strategy whose game under best play goes on past its leaves, so
	// that a bound one ply short of that length is refused by the leaf
	// search, not by the walk.
	var strat *Strategy
	var sol game.Solution
	for seed := uint64(31); strat == nil; seed++ {
		root, s, _ := strategyCase(t, seed, 14, 4)
		var err error
		sol, err = New(1<<22).Solve(context.Background(), root, 0)
		if err != nil || !sol.Proven {
			t.Fatalf("the exact search: %v, %+v", err, sol)
		}
		if s.RootPly+sol.Plies-1 > s.LeafPly {
			strat = s
		}
	}
	end := strat.RootPly + sol.Plies
	path := filepath.Join(t.TempDir(), "progress.gz")
	if _, err := CheckStrategy(context.Background(), strat, CheckOptions{Workers: 2, Within: maxPly, ProgressPath: path}); err != nil {
		t.Fatalf("by ply %d: %v", maxPly, err)
	}
	if _, err := CheckStrategy(context.Background(), strat, CheckOptions{Workers: 2, Within: end - 1}); err == nil || !strings.Contains(err.Error(), "by ply") {
		t.Fatalf("by ply %d, one before the game's length under best play ends (%d): %v", end-1, end, err)
	}
	for _, within := range []int{0, maxPly - 1} {
		if _, err := CheckStrategy(context.Background(), strat, CheckOptions{Within: within, ProgressPath: path}); err == nil || !strings.Contains(err.Error(), "wins by ply") {
			t.Fatalf("the progress of a check by ply %d read for one by ply %d: %v", maxPly, within, err)
		}
	}
	for _, within := range []int{-1, strat.LeafPly, maxPly + 1} {
		if _, err := CheckStrategy(context.Background(), strat, CheckOptions{Within: within}); err == nil {
			t.Fatalf("a bound of ply %d taken", within)
		}
	}
	t.Logf("the root at ply %d: seat %d wins in %d plies with best play", strat.RootPly, sol.Winner, sol.Plies)
}

// TestCommittedLength: the committed progress of the check by ply 40
// (solving/sploof-check-within40.progress.gz) is of the committed strategy
// and holds every leaf, and the leaf docs/solving.md names is won by ply 40
// and not by 39 — so the proof's games last exactly 40 plies against
// White's best defence.
func TestCommittedLength(t *testing.T) {
	strat := committedStrategy(t)
	data, err := os.ReadFile(filepath.Join("..", "..", "..", "solving", "sploof-check-within40.progress.gz"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "within40.progress.gz") // the check writes its file back
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := CheckStrategy(context.Background(), strat, CheckOptions{Within: 40, ProgressPath: path})
	if err != nil || rep.Leaves != 83003 || rep.LeavesProved != rep.Leaves || rep.Nodes != 0 {
		t.Fatalf("the committed check by ply 40: %v; %d of %d leaves proved, %d positions searched", err, rep.LeavesProved, rep.Leaves, rep.Nodes)
	}
	st, err := sploof.FromBits(bitsOfKey(0x20000acac002394f))
	if err != nil {
		t.Fatal(err)
	}
	for within, want := range map[int]bool{39: false, 40: true} {
		lp := &leafProver{ctx: context.Background(), memo: newLeafMemo(64 << 20), within: within, winner: strat.Winner}
		win, err := lp.wins(st, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := win == (st.ToMove() == strat.Winner); got != want {
			t.Fatalf("leaf 20000acac002394f won by ply %d: %v, want %v", within, got, want)
		}
		t.Logf("by ply %d: %v (%d positions)", within, want, lp.nodes)
	}
}
