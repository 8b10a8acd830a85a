package agent

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
)

// TestImplicitMinimaxBackups: after a search with implicit minimax backups,
// every node the search expanded holds the best of its visited children's
// values for the side to move there (the largest for seat 0, the smallest
// for seat 1), and every leaf its position's own value: the game's
// heuristic, or its result once over — checked against the positions
// replayed from the root, not read from the search's own bookkeeping. A
// node reached by two move orders (the table shares it) is updated along
// the descent that passed it, so the other parent may hold its older value:
// such parents are not checked.
func TestImplicitMinimaxBackups(t *testing.T) {
	for _, tc := range []struct {
		game  string
		plies int
	}{{"skjuub", 0}, {"skjuub", 24}, {"sploof", 14}, {"sgolte", 20}} {
		g, err := game.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		root := randomPosition(t, g, tc.plies, 5)
		a := newSearch(g, MCTSConfig{Iters: 3000, Workers: 1, NoReuse: true, EdgeBlocks: true, Minimax: 0.3}, 7, "mcts")
		w := a.(*MCTS).workers[0]
		w.begin(root)
		w.run(context.Background(), root, time.Time{}, 3000)

		parents := map[int32]int{}
		for _, nd := range w.nodes {
			if nd.first >= 0 {
				for _, e := range w.edges[nd.first : nd.first+int32(nd.nedges)] {
					if e.to >= 0 && e.visits > 0 {
						parents[e.to]++
					}
				}
			}
		}
		seen := map[int32]bool{}
		var leaves, inner int
		var walk func(i int32, s game.State)
		walk = func(i int32, s game.State) {
			if seen[i] {
				return // a transposition: checked where first met
			}
			seen[i] = true
			nd := w.nodes[i]
			var want float64
			found, shared := false, false
			if nd.first >= 0 {
				max0 := s.ToMove() == 0
				for _, e := range w.edges[nd.first : nd.first+int32(nd.nedges)] {
					if e.to < 0 || e.visits == 0 {
						continue
					}
					shared = shared || parents[e.to] > 1
					c := s.Clone()
					c.Play(e.move)
					walk(e.to, c)
					v := float64(w.nodes[e.to].mm)
					if !found || max0 && v > want || !max0 && v < want {
						want, found = v, true
					}
				}
			}
			if !found {
				if i == w.root {
					return
				}
				leaves++
				switch o := s.Outcome(); {
				case o.Status == game.Drawn && w.me == 0:
					want = 0.5 - w.contempt
				case o.Status == game.Drawn:
					want = 0.5 + w.contempt
				case o.Over():
					want = o.Reward(0, 2)
				default:
					want = (s.(game.Evaluator).Evaluate(0) + 1) / 2
				}
			} else if shared {
				return
			} else {
				inner++
			}
			if i != w.root && math.Abs(float64(nd.mm)-want) > 1e-6 {
				t.Fatalf("%s after %d plies: node %d (%d visits, expanded %v) holds %.6f, want %.6f", tc.game, tc.plies, i, nd.visits, nd.first >= 0, nd.mm, want)
			}
		}
		walk(w.root, root.Clone())
		t.Logf("%s after %d plies: %d inner nodes and %d leaves checked", tc.game, tc.plies, inner, leaves)
		if inner < 50 || leaves < 500 {
			t.Fatalf("%s: only %d inner nodes and %d leaves checked", tc.game, inner, leaves)
		}
	}
}

// TestMinimaxSpec: imb=α reaches the search's config, and
// values outside 0…1 are refused with the parameter named.
func TestMinimaxSpec(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	a, err := New("mcts:iters=10:imb=0.3", g, 1)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.(*MCTS).cfg.Minimax; got != 0.3 {
		t.Fatalf("imb=0.3 gives Minimax %v", got)
	}
	if _, err := New("mcts:imb=1.5", g, 1); err == nil {
		t.Fatal("imb=1.5 accepted")
	}
}
