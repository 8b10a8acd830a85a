package analysis

import (
	"bytes"
	"context"
	"os"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/all"
)

func lookup(t *testing.T, name string) game.Game {
	t.Helper()
	g, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// solvedPosition is a Sploof position from a real game that the solver
// proves quickly (black to move wins in 9 plies).
func solvedPosition(t *testing.T) game.State {
	t.Helper()
	data, err := os.ReadFile("../cmd/tabula/testdata/solve/game01-ply18.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := lookup(t, "sploof").ParsePosition(data)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestAnalyseReports: every game of perfect information, a few plies in;
// reports come while searching, the last is marked done, at most three
// lines ordered by visits, shares and win probabilities in range, and every
// line replays legally by the rules engine.
func TestAnalyseReports(t *testing.T) {
	for _, name := range []string{"sgolte", "sploof", "skjuub"} {
		t.Run(name, func(t *testing.T) {
			s, err := lookup(t, name).New(nil, 3)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(5)
			for i := 0; i < 4; i++ {
				ms := s.Legal(nil)
				s.Play(ms[rng.IntN(len(ms))])
			}
			var got []Report
			last, err := Analyse(context.Background(), s, Options{Iters: 3000, Interval: time.Millisecond, Search: Search{SolverNodes: -1, Seed: 1}}, func(r Report) { got = append(got, r) })
			if err != nil {
				t.Fatal(err)
			}
			if len(got) < 1 || !got[len(got)-1].Done || !last.Done {
				t.Fatalf("%d reports, last %+v", len(got), last)
			}
			for _, r := range got[:len(got)-1] {
				if r.Done {
					t.Fatal("a report before the last says done")
				}
			}
			if last.Iterations < 3000 || len(last.Lines) == 0 || len(last.Lines) > 3 {
				t.Fatalf("%d iterations, %d lines", last.Iterations, len(last.Lines))
			}
			if last.ToMove != s.ToMove() || last.Seat != s.SeatName(s.ToMove()) || last.Win != last.Lines[0].Win {
				t.Fatalf("report %+v for seat %d", last, s.ToMove())
			}
			share := 0.0
			for i, l := range last.Lines {
				if i > 0 && l.Visits > last.Lines[i-1].Visits {
					t.Fatalf("lines out of order: %+v", last.Lines)
				}
				if l.Win < 0 || l.Win > 1 || l.Share <= 0 || l.PV[0] != l.Move {
					t.Fatalf("line %+v", l)
				}
				share += l.Share
				c := s.Clone()
				for _, m := range l.PV {
					if err := game.Play(c, m); err != nil {
						t.Fatalf("line %v: %v", l.PV, err)
					}
				}
			}
			if share > 1.0001 {
				t.Fatalf("shares add up to %v", share)
			}
		})
	}
}

// TestAnalyseFindsTheWin: in Sploof positions where one move wins at once,
// the search (without the solver) puts it first and calls the position won.
func TestAnalyseFindsTheWin(t *testing.T) {
	g := lookup(t, "sploof")
	found := 0
	for seed := uint64(1); found < 5 && seed < 200; seed++ {
		s, _ := g.New(nil, seed)
		rng := game.NewRNG(seed)
		for !s.Outcome().Over() {
			win := winningMove(s)
			if win != "" {
				r, err := Analyse(context.Background(), s, Options{Iters: 2000, Search: Search{SolverNodes: -1, Seed: seed}}, nil)
				if err != nil {
					t.Fatal(err)
				}
				c := s.Clone()
				if err := game.Play(c, r.Lines[0].Move); err != nil || !c.Outcome().IsWinner(s.ToMove()) {
					t.Fatalf("seed %d: best line %v does not win at once (%s does)", seed, r.Lines[0].PV, win)
				}
				if r.Win < 0.9 {
					t.Fatalf("seed %d: a won position is %v", seed, r.Win)
				}
				found++
				break
			}
			ms := s.Legal(nil)
			s.Play(ms[rng.IntN(len(ms))])
		}
	}
	if found < 5 {
		t.Fatalf("only %d positions with a win in one", found)
	}
}

// winningMove is a move of s that wins at once, or "".
func winningMove(s game.State) string {
	for _, m := range s.Legal(nil) {
		c := s.Clone()
		c.Play(m)
		if c.Outcome().IsWinner(s.ToMove()) {
			return s.FormatMove(m)
		}
	}
	return ""
}

// TestAnalyseExactSploof: a position the solver proves gets the exact
// verdict, its line replays to a win of the announced seat in the announced
// plies, the side to move's win probability is exact, and the lines carry
// the proofs of the moves.
func TestAnalyseExactSploof(t *testing.T) {
	s := solvedPosition(t)
	r, err := Analyse(context.Background(), s, Options{Iters: 20000, Interval: 20 * time.Millisecond, Search: Search{Seed: 1, SolverTable: 4 << 20}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.Exact == nil {
		t.Fatalf("no proof: %+v", r)
	}
	v := r.Exact
	if v.Text != "Black wins in 9 plies" || v.WinnerName != "black" || len(v.Line) != v.Plies {
		t.Fatalf("verdict %+v", v)
	}
	c := s.Clone()
	for _, m := range v.Line {
		if err := game.Play(c, m); err != nil {
			t.Fatal(err)
		}
	}
	if !c.Outcome().IsWinner(v.Winner) {
		t.Fatalf("the line ends %+v", c.Outcome())
	}
	if r.Win != 1 {
		t.Fatalf("win %v for the proven winner to move", r.Win)
	}
	proven := 0
	for _, l := range r.Lines {
		if l.Exact == nil {
			continue
		}
		proven++
		if l.Exact.Line[0] != l.Move || (l.Win == 1) != (l.Exact.Winner == s.ToMove()) {
			t.Fatalf("line %+v", l)
		}
	}
	if proven == 0 {
		t.Fatal("no line carries its proof")
	}
}

// TestAnalyseRefuses: hidden information and finished games are refused
// with the reason.
func TestAnalyseRefuses(t *testing.T) {
	sk, _ := lookup(t, "skyjo").New(nil, 1)
	if _, err := Analyse(context.Background(), sk, Options{Iters: 10}, nil); err == nil || !bytes.Contains([]byte(err.Error()), []byte("hides information")) {
		t.Fatalf("skyjo: %v", err)
	}
	s, _ := lookup(t, "sploof").New(nil, 1)
	rng := game.NewRNG(1)
	game.RandomPlayout(s, &rng, nil)
	if _, err := Analyse(context.Background(), s, Options{Iters: 10}, nil); err == nil {
		t.Fatal("a finished game was analysed")
	}
	s2, _ := lookup(t, "sploof").New(nil, 1)
	if _, err := Analyse(context.Background(), s2, Options{}, nil); err == nil {
		t.Fatal("an analysis without any budget was started")
	}
}

// TestAnalyseStops: a cancelled context ends the search promptly with a
// final report, and a Yield that refuses ends it before it searches.
func TestAnalyseStops(t *testing.T) {
	s, _ := lookup(t, "sgolte").New(nil, 1)
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	r, err := Analyse(ctx, s, Options{Interval: 5 * time.Millisecond, Search: Search{SolverNodes: -1}}, func(r Report) {
		if n++; n == 3 {
			cancel()
		}
	})
	if err != nil || !r.Done || n != 4 {
		t.Fatalf("err %v, done %v after %d reports (want the last, done, right after the cancel)", err, r.Done, n)
	}
	r, err = Analyse(context.Background(), s, Options{Iters: 1000}, nil)
	if err != nil || r.Iterations < 1000 {
		t.Fatal(err, r.Iterations)
	}
	r, err = Analyse(context.Background(), s, Options{Iters: 1000, Search: Search{Gate: func(context.Context) (func(), error) { return nil, context.Canceled }}}, nil)
	if err != nil || !r.Done || r.Iterations != 0 {
		t.Fatalf("a refused slice still searched: %+v, %v", r, err)
	}
}
