package agent

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
)

// searchOnce runs one worker's search of iters iterations of s with the
// given tree bound and returns its tree's node count and the root's edges.
func searchOnce(t *testing.T, g game.Game, s game.State, iters, maxNodes int, blocks bool, block int) (int, []edge) {
	t.Helper()
	a := newSearch(g, MCTSConfig{Iters: iters, Workers: 1, NoReuse: true, MaxNodes: maxNodes, EdgeBlocks: blocks}, 7, "mcts")
	w := a.(*MCTS).workers[0]
	w.block = block
	w.begin(s)
	w.run(context.Background(), s, time.Time{}, iters)
	r := w.nodes[w.root]
	return len(w.nodes), append([]edge(nil), w.edges[r.first:r.first+int32(r.nedges)]...)
}

// randomPosition plays plies random moves of g's start (fewer if the game
// ends first).
func randomPosition(t *testing.T, g game.Game, plies int, seed uint64) game.State {
	t.Helper()
	s, err := g.New(nil, seed)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(seed)
	var buf []game.Move
	for k := 0; k < plies && !s.Outcome().Over(); k++ {
		buf = s.Legal(buf[:0])
		s.Play(buf[rng.IntN(len(buf))])
	}
	return s
}

// A node that gets its moves a block at a time (EdgeBlocks) is searched
// exactly as one that had them all in the same order: the same tree, the
// same visits at the root.
func TestWidenedSearchIsTheSame(t *testing.T) {
	for _, tc := range []struct {
		game         string
		plies, iters int
	}{{"sploof", 0, 20000}, {"sploof", 10, 20000}, {"skjuub", 0, 20000}, {"skjuub", 30, 20000}, {"sgolte", 0, 3000}} {
		g, err := game.Lookup(tc.game)
		if err != nil {
			t.Fatal(err)
		}
		s := randomPosition(t, g, tc.plies, 3)
		var nAll, nBlock int
		var eAll, eBlock []edge
		nAll, eAll = searchOnce(t, g, s, tc.iters, 0, true, 1<<16)
		nBlock, eBlock = searchOnce(t, g, s, tc.iters, 0, true, 2)
		if nAll != nBlock || len(eAll) != len(eBlock) {
			t.Fatalf("%s after %d plies: %d nodes and %d root edges with all moves at once, %d and %d a block at a time", tc.game, tc.plies, nAll, len(eAll), nBlock, len(eBlock))
		}
		for k := range eAll {
			if eAll[k].move != eBlock[k].move || eAll[k].visits != eBlock[k].visits {
				t.Fatalf("%s after %d plies: root edge %d is %+v with all moves at once, %+v a block at a time", tc.game, tc.plies, k, eAll[k], eBlock[k])
			}
		}
	}
}

// With every move of a node as an edge from the start (the default), a
// Skjuub search runs out of edges (four a node) long before its budget and
// expands no more nodes: from the start, whose positions have up to a
// hundred moves, its tree (bounded to 32,768 nodes) held 19,911 after
// 30,000 iterations, the children of the nodes expanded before. A block at
// a time it grows about a node an iteration (28,606).
func TestWidenKeepsTheTreeGrowing(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	s := randomPosition(t, g, 0, 1)
	const maxNodes, iters = 1 << 15, 30000
	all, _ := searchOnce(t, g, s, iters, maxNodes, false, 0)
	nodes, _ := searchOnce(t, g, s, iters, maxNodes, true, 0)
	if nodes < iters*9/10 {
		t.Fatalf("the tree has %d nodes after %d iterations (bound %d): it stopped expanding", nodes, iters, maxNodes)
	}
	if all > iters*3/4 {
		t.Fatalf("with all moves at once the tree has %d nodes after %d iterations: the edges did not run out, so this test shows nothing", all, iters)
	}
}

// Once the edge pool has refused a widening (the memory budget refused its
// growth), the search stops trying until its next search — each try lists
// the position's moves again — and searches on the edges it has.
func TestWidenStopsWhenTheEdgesRunOut(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	s := randomPosition(t, g, 0, 1)
	a := newSearch(g, MCTSConfig{Iters: 3000, Workers: 1, NoReuse: true, EdgeBlocks: true}, 7, "mcts")
	w := a.(*MCTS).workers[0]
	w.begin(s)
	w.run(context.Background(), s, time.Time{}, 3000)
	// A node all of whose edges were tried, below the root.
	p := int32(-1)
	for i := range w.nodes {
		nd := &w.nodes[i]
		if int32(i) != w.root && nd.partial && w.edges[nd.first+int32(nd.nedges)-1].to >= 0 && w.edges[nd.first+int32(nd.nedges)-1].visits > 0 {
			p = int32(i)
			break
		}
	}
	if p < 0 {
		t.Fatal("no partial node with all its edges tried: the test shows nothing")
	}
	// Its position: find it again from the root by its hash.
	pos := findByHash(w, s, w.root, w.nodes[p].hash, 8)
	if pos == nil {
		t.Fatal("the node's position was not found below the root")
	}
	w.edges = w.edges[:len(w.edges):len(w.edges)] // no room left
	w.full = true                                 // and none to be had
	if e := w.widen(p, pos); e >= 0 || !w.edgesOut {
		t.Fatalf("widen with no room returned %d, edgesOut %v", e, w.edgesOut)
	}
	if e := w.selectEdge(&w.nodes[p], !w.edgesOut); e < 0 {
		t.Fatal("after the pool ran out, selection still asks to widen")
	}
	w.begin(s)
	if w.edgesOut {
		t.Fatal("a new search begins with edgesOut still set")
	}
}

// findByHash returns the position of the node with hash h within depth
// plies below node n (whose position is s), or nil.
func findByHash(w *searcher, s game.State, n int32, h uint64, depth int) game.State {
	if w.nodes[n].hash == h {
		return s
	}
	nd := w.nodes[n]
	if depth == 0 || nd.first < 0 {
		return nil
	}
	for _, e := range w.edges[nd.first : nd.first+int32(nd.nedges)] {
		if e.to < 0 {
			continue
		}
		c := s.Clone()
		c.Play(e.move)
		if r := findByHash(w, c, e.to, h, depth-1); r != nil {
			return r
		}
	}
	return nil
}
