package agent

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// heldBytes is what w holds between moves, from its slices' capacities:
// the memory it keeps, whatever the code's own estimate says.
func heldBytes(w *searcher) int64 {
	b := int64(cap(w.nodes))*nodeBytes + int64(cap(w.edges))*edgeBytes + int64(cap(w.priors))*priorBytes
	if k := w.kept; k != nil {
		b += int64(cap(k.touched))*2 + int64(cap(k.rest))*moveBytes + int64(cap(k.rfirst))*4
	}
	return b
}

// checkKeptTree fails unless every edge w keeps leads to a node it keeps
// and every node it keeps is reached from the root through nodes kept with
// their edges: a subtree cut to its bytes is still a tree to search on.
func checkKeptTree(t *testing.T, w *searcher, ply int) {
	t.Helper()
	if len(w.nodes) == 0 {
		return
	}
	seen := make([]bool, len(w.nodes))
	seen[0] = true
	queue := []int32{0}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		nd := w.nodes[n]
		if nd.first < 0 {
			continue
		}
		stored := w.kept.stored(&nd, n)
		if int(nd.first+stored) > len(w.edges) {
			t.Fatalf("ply %d: node %d's edges run past the pool", ply, n)
		}
		if got := len(w.kept.untried(&nd, n)) + int(stored); got != int(nd.nedges) {
			t.Fatalf("ply %d: node %d keeps %d of its %d edges", ply, n, got, nd.nedges)
		}
		for _, e := range w.edges[nd.first : nd.first+stored] {
			if e.to >= int32(len(w.nodes)) {
				t.Fatalf("ply %d: an edge of node %d leads to node %d of %d", ply, n, e.to, len(w.nodes))
			}
			if e.to >= 0 && !seen[e.to] {
				seen[e.to] = true
				queue = append(queue, e.to)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("ply %d: node %d is kept but not reached from the root", ply, i)
		}
	}
}

// TestKeptSubtreeWithinItsBytes: between moves each worker holds at most
// KeepBytes, where the subtree of the move played is larger; the subtree
// kept is still a tree (every edge leads to a node kept, every node is
// reached), the next search reuses it and its leaves that were cut are
// expanded again. The same game unbounded shows the bound had work to do.
func TestKeptSubtreeWithinItsBytes(t *testing.T) {
	limit := int64(24 << 10)
	if testing.Short() {
		limit = 4 << 10 // with half the iterations below
	}
	for _, tc := range []struct {
		game string
		cfg  MCTSConfig
	}{
		{"skjuub", MCTSConfig{Iters: 3000, Workers: 2}},
		{"sploof", MCTSConfig{Iters: 3000}},
		{"sploof", MCTSConfig{Iters: 2000, Bias: 1, PlayoutPlies: 4}},
	} {
		if testing.Short() {
			tc.cfg.Iters /= 2
		}
		g, err := game.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		play := func(keep int64, check bool) (most int64, reused int) {
			cfg := tc.cfg
			cfg.KeepBytes = keep
			s, _ := g.New(nil, 3)
			bots := [2]*MCTS{NewMCTS(cfg, 5), NewMCTS(cfg, 6)}
			for ply := 0; ply < 30 && !s.Outcome().Over(); ply++ {
				a := bots[s.ToMove()]
				mv, err := Ask(context.Background(), a, s)
				if err != nil {
					t.Fatal(err)
				}
				reused += a.LastStats.Reused
				for _, w := range a.workers {
					b := heldBytes(w)
					most = max(most, b)
					if check {
						if b > limit {
							t.Fatalf("%s ply %d: a worker holds %d bytes between moves, limit %d", tc.game, ply, b, limit)
						}
						checkKeptTree(t, w, ply)
					}
				}
				s.Play(mv)
			}
			return most, reused
		}
		most, reused := play(limit, true)
		whole, _ := play(-1, false)
		if whole <= limit {
			t.Fatalf("%s: unbounded, a worker held at most %d bytes: the bound of %d had nothing to cut", tc.game, whole, limit)
		}
		if reused == 0 {
			t.Fatalf("%s: bounded, no search reused what was kept", tc.game)
		}
		t.Logf("%s: held at most %d bytes (unbounded %d), %d visits reused", tc.game, most, whole, reused)
	}
}
