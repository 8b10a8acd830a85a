package analysis

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// A Skjuub analysis keeps growing its tree where one given every move of a
// node at once stopped: from the start, with each worker's tree bounded to
// 32,768 nodes, 30,000 iterations grew about 19,900 nodes that way (the
// edge pool, four edges a node, ran out) and about 28,600 a block at a time.
func TestSkjuubAnalysisTreeKeepsGrowing(t *testing.T) {
	g, err := game.Lookup("skjuub")
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.New(nil, 1)
	if err != nil {
		t.Fatal(err)
	}
	e, err := newEngine(s, Options{Search: Search{Workers: 1, MaxNodes: 1 << 15, Seed: 7, SolverNodes: -1}})
	if err != nil {
		t.Fatal(err)
	}
	e.mcts.Run(context.Background(), 0, 30000)
	if n := e.mcts.Nodes(); n < 25000 {
		t.Errorf("%d nodes after 30,000 iterations in a tree of at most 32,768: the tree stopped growing", n)
	}
}
