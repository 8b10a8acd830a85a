package learn_test

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/learn"
)

// The puzzle generator, run by hand (niced; it takes minutes):
//
//	nice -n 19 go test ./learn -run TestGeneratePuzzles -generate sploof -want 60 -timeout 2h
//
// It plays games between two easy bots and keeps every position in which
// exactly one move forces a win within the fewest plies (up to -maxplies),
// with the winning line the proof found, and writes
// learn/data/puzzles/GAME.json. TestPuzzles then proves every puzzle again.
var (
	generate = flag.String("generate", "", "generate the puzzles of this game (sploof, sgolte)")
	want     = flag.Int("want", 60, "how many puzzles to generate")
	maxPlies = flag.Int("maxplies", 5, "the longest forced win a puzzle may need, in plies")
	bots     = flag.String("bots", "easy", "the bot that plays both sides of the source games")
	perGame  = flag.Int("pergame", 2, "at most this many puzzles from one source game")
)

func TestGeneratePuzzles(t *testing.T) {
	if *generate == "" {
		t.Skip("run with -generate GAME to make puzzles")
	}
	g, err := game.Lookup(*generate)
	if err != nil {
		t.Fatal(err)
	}
	out := learn.Puzzles{Game: g.Name()}
	seen := map[uint64]bool{}
	for seed := uint64(1); len(out.Puzzles) < *want && seed < 100000; seed++ {
		opts := game.Defaults(g)
		s, err := g.New(opts, seed)
		if err != nil {
			t.Fatal(err)
		}
		seats := []agent.Agent{}
		for i := 0; i < s.NumPlayers(); i++ {
			a, err := agent.New(*bots, g, seed*7+uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			seats = append(seats, a)
		}
		found := 0
		for ply := 0; !s.Outcome().Over(); ply++ {
			if found < *perGame && len(out.Puzzles) < *want && candidate(s) && !seen[s.Hash()] {
				seen[s.Hash()] = true
				if pz, ok := findPuzzle(s); ok {
					pz.ID = fmt.Sprintf("%s-%03d", g.Name(), len(out.Puzzles)+1)
					pz.Source = fmt.Sprintf("%s vs %s, seed %d, before ply %d", *bots, *bots, seed, ply+1)
					out.Puzzles = append(out.Puzzles, pz)
					found++
					t.Logf("%s: %d plies, %s (%s)", pz.ID, pz.Plies, strings.Join(pz.Line, " "), pz.Source)
				}
			}
			m, err := agent.Ask(context.Background(), seats[s.ToMove()], s)
			if err != nil {
				t.Fatal(err)
			}
			s.Play(m)
		}
	}
	data, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("data/puzzles/"+g.Name()+".json", append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// candidate is a cheap filter: Sgolte puzzles are endgames (a forced win
// needs the board nearly full), Sploof positions anywhere.
func candidate(s game.State) bool {
	if s.Game().Name() != "sgolte" {
		return true
	}
	var p struct {
		Size         int
		Black, White []string
	}
	b, _ := s.MarshalPosition()
	json.Unmarshal(b, &p)
	cells := 3*p.Size*(p.Size-1) + 1
	return cells-len(p.Black)-len(p.White) <= *maxPlies
}

// findPuzzle returns the puzzle of s if exactly one move of at least three
// forces a win within the fewest plies that any move needs (2…maxPlies).
func findPuzzle(s game.State) (learn.Puzzle, bool) {
	if len(s.Legal(nil)) < 3 {
		return learn.Puzzle{}, false // a forced or nearly forced move is no puzzle
	}
	for plies := 1; plies <= *maxPlies; plies++ {
		w := learn.Winners(s, plies)
		if len(w) == 0 {
			continue
		}
		if len(w) > 1 || plies == 1 {
			return learn.Puzzle{}, false // several ways, or a win in one: no puzzle
		}
		pos, _ := s.MarshalPosition()
		return learn.Puzzle{Position: pos, Plies: plies, Line: learn.Line(s, w[0], plies)}, true
	}
	return learn.Puzzle{}, false
}
