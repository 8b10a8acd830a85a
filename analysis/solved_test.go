package analysis

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// TestReportSaysSolved: at Sploof's start the analysis says that Black wins
// (the proof from the start), White to move losing whatever the search
// estimates; after White's move, with Black to move, it gives the proof's
// move; in a game of other rules it says nothing.
func TestReportSaysSolved(t *testing.T) {
	s, err := lookup(t, "sploof").New(game.Options{"first": "white"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	opt := Options{Iters: 2000, Lines: 30, Search: Search{SolverNodes: -1, Seed: 1}}
	r, err := Analyse(context.Background(), s, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Solved == nil || r.Solved.Winner != sploof.Black || r.Solved.WinnerName != "black" || r.Solved.Move != "" || r.Solved.Source == "" || r.Win != 0 {
		t.Fatalf("the start: solved %+v, win %v", r.Solved, r.Win)
	}
	s.Play(s.Legal(nil)[0])
	if r, err = Analyse(context.Background(), s, opt, nil); err != nil {
		t.Fatal(err)
	}
	if r.Solved == nil || r.Solved.Winner != sploof.Black || r.Solved.Move == "" || r.Win != 1 {
		t.Fatalf("after White's move: solved %+v, win %v", r.Solved, r.Win)
	}
	if _, err := s.ParseMove(r.Solved.Move); err != nil {
		t.Fatalf("the proof's move %q: %v", r.Solved.Move, err)
	}
	shown := false
	for _, l := range r.Lines {
		if l.Move == r.Solved.Move {
			shown = true
			if l.Win != 1 {
				t.Fatalf("the proof's move %s shown winning %v", l.Move, l.Win)
			}
		}
	}
	if !shown {
		t.Fatalf("the proof's move %s is not among the %d lines", r.Solved.Move, len(r.Lines))
	}
	// With the solver on, a position of the book is not given to it.
	if r, err = Analyse(context.Background(), s, Options{Iters: 200, Search: Search{Seed: 1, SolverTable: 4 << 20}}, nil); err != nil || r.Solved == nil || r.SolverNodes != 0 {
		t.Fatalf("the solver on a position of the book: %d nodes, solved %+v (%v)", r.SolverNodes, r.Solved, err)
	}
	other, err := lookup(t, "sploof").New(game.Options{"first": "white", "supply": "unlimited"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r, err = Analyse(context.Background(), other, opt, nil); err != nil || r.Solved != nil {
		t.Fatalf("supply=unlimited: solved %+v (%v)", r.Solved, err)
	}
}
