package learn_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/learn"
)

// The puzzle generator, run by hand (niced; it takes minutes to hours):
//
//	nice -n 19 go test ./learn -run TestGeneratePuzzles -generate skjuub -want 200 -timeout 3h
//
// It plays games between two bots (easy; greedy for Skyjo) and keeps, for
// the two-player games of perfect information, every position in which
// exactly one move forces a win within the fewest plies (up to -maxplies),
// with the winning line the proof found; for Skyjo, every decision with a
// card in hand whose best choice Decide proves over -deals deals sampled
// from the player's view (learn/decide.go). It extends
// learn/data/puzzles/GAME.json: the puzzles already there stay (their
// missing kind and difficulty are filled in), new ones get the next ids and
// come from seeds after the last one used, and the file is written after
// every puzzle found, so that an interrupted run loses at most one.
// TestPuzzles then proves every puzzle again.
var (
	generate = flag.String("generate", "", "generate the puzzles of this game (sploof, sgolte, skjuub, skyjo)")
	want     = flag.Int("want", 60, "how many puzzles the file should hold")
	maxPlies = flag.Int("maxplies", 5, "the longest forced win a puzzle may need, in plies")
	bots     = flag.String("bots", "", "the bot that plays both sides of the source games (default easy; greedy for skyjo)")
	perGame  = flag.Int("pergame", 2, "at most this many puzzles from one source game")
	deals    = flag.Int("deals", learn.MinDeals, "deals a Skyjo decision is measured over")
	outFile  = flag.String("out", "", "write here instead of data/puzzles/GAME.json (a second run beside the first, on other seeds)")
	seedFrom = flag.Uint64("seed", 0, "the first source game's seed (default: after the last one the file used)")
	mergeIn  = flag.String("merge", "", "append the puzzles of this file (another run's -out) to data/puzzles/GAME.json, with the next ids")
)

var seedInSource = regexp.MustCompile(`seed (\d+),`)

func TestGeneratePuzzles(t *testing.T) {
	if *generate == "" {
		t.Skip("run with -generate GAME to make puzzles")
	}
	g, err := game.Lookup(*generate)
	if err != nil {
		t.Fatal(err)
	}
	bot := *bots
	if bot == "" {
		bot = "easy"
		if g.Facts().HiddenInfo {
			bot = "greedy"
		}
	}
	file := "data/puzzles/" + g.Name() + ".json"
	if *outFile != "" {
		file = *outFile
	}
	out := learn.Puzzles{Game: g.Name()}
	first := uint64(1)
	// The file on disk, not the embedded copy this binary was built with.
	if old, err := loadFile(file); err == nil {
		out = *old
		for i := range out.Puzzles {
			label(t, g, &out.Puzzles[i])
			if m := seedInSource.FindStringSubmatch(out.Puzzles[i].Source); m != nil {
				n, _ := strconv.ParseUint(m[1], 10, 64)
				first = max(first, n+1)
			}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	write := func() {
		data, err := json.MarshalIndent(out, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if *mergeIn != "" {
		more, err := loadFile(*mergeIn)
		if err != nil {
			t.Fatal(err)
		}
		have := map[string]bool{}
		for _, pz := range out.Puzzles {
			have[string(pz.Position)] = true
		}
		for _, pz := range more.Puzzles {
			if !have[string(pz.Position)] {
				have[string(pz.Position)] = true
				pz.ID = fmt.Sprintf("%s-%03d", g.Name(), len(out.Puzzles)+1)
				out.Puzzles = append(out.Puzzles, pz)
			}
		}
		write()
		return
	}
	if *seedFrom != 0 {
		first = *seedFrom
	}
	write()
	seen := map[uint64]bool{}
	for seed := first; len(out.Puzzles) < *want && seed < first+100000; seed++ {
		opts := game.Defaults(g)
		s, err := g.New(opts, seed)
		if err != nil {
			t.Fatal(err)
		}
		seats := []agent.Agent{}
		for i := 0; i < s.NumPlayers(); i++ {
			a, err := agent.New(bot, g, seed*7+uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			seats = append(seats, a)
		}
		found := 0
		for ply := 0; !s.Outcome().Over(); ply++ {
			if found < *perGame && len(out.Puzzles) < *want && candidate(s) && !seen[s.Hash()] {
				seen[s.Hash()] = true
				if pz, ok := findPuzzle(t, s, seed*1000+uint64(ply)); ok {
					pz.ID = fmt.Sprintf("%s-%03d", g.Name(), len(out.Puzzles)+1)
					pz.Source = fmt.Sprintf("%s vs %s, seed %d, before ply %d", bot, bot, seed, ply+1)
					out.Puzzles = append(out.Puzzles, pz)
					found++
					write()
					t.Logf("%s: %s, difficulty %d, %d plies, %s (%s)", pz.ID, pz.Kind, pz.Difficulty, pz.Plies, strings.Join(pz.Line, " "), pz.Source)
				}
			}
			m, err := agent.Ask(context.Background(), seats[s.ToMove()], s)
			if err != nil {
				t.Fatal(err)
			}
			s.Play(m)
		}
	}
}

// loadFile reads a puzzle file from disk.
func loadFile(name string) (*learn.Puzzles, error) {
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var p learn.Puzzles
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return &p, nil
}

// label fills in a puzzle's missing kind and difficulty.
func label(t *testing.T, g game.Game, pz *learn.Puzzle) {
	s, err := g.ParsePosition(pz.Position)
	if err != nil {
		t.Fatalf("%s: %v", pz.ID, err)
	}
	if pz.Kind == "" {
		pz.Kind = learn.PuzzleKind(s, pz.Line)
	}
	if pz.Difficulty == 0 {
		if pz.Expect != nil {
			pz.Difficulty = learn.DecisionDifficulty(pz.Expect.Margin)
		} else {
			pz.Difficulty = learn.Difficulty(s, pz.Line)
		}
	}
}

// candidate is a cheap filter: Sgolte puzzles are endgames (a forced win
// needs the board nearly full); Skyjo decisions are posed with a card in
// hand (after a draw or a take) in a two-player game; Sploof and Skjuub
// positions anywhere.
func candidate(s game.State) bool {
	switch s.Game().Name() {
	case "sgolte":
		var p struct {
			Size         int
			Black, White []string
		}
		b, _ := s.MarshalPosition()
		json.Unmarshal(b, &p)
		cells := 3*p.Size*(p.Size-1) + 1
		return cells-len(p.Black)-len(p.White) <= *maxPlies
	case "skyjo":
		var v struct {
			Held any `json:"held"`
		}
		b, _ := game.View(s, s.ToMove())
		json.Unmarshal(b, &v)
		return v.Held != nil && s.NumPlayers() == 2
	}
	return true
}

// findPuzzle returns the puzzle of s. For a game of perfect information:
// exactly one move of at least three forces a win within the fewest plies
// that any move needs (2…maxPlies; a Skjuub win in one ply counts when at
// least 10 moves are legal, since finding the one among many is the task).
// For Skyjo: a decision whose best choice of at least three is proved.
func findPuzzle(t *testing.T, s game.State, seed uint64) (learn.Puzzle, bool) {
	legal := len(s.Legal(nil))
	if legal < 3 {
		return learn.Puzzle{}, false // a forced or nearly forced move is no puzzle
	}
	if s.Game().Facts().HiddenInfo {
		classes, err := learn.Equivalent(s)
		if err != nil || len(classes) < 3 {
			return learn.Puzzle{}, false
		}
		// A quick look first: most decisions are not clear enough, and the
		// full measure costs ten times as much.
		quick, err := learn.Decide(s, *deals/10, seed)
		if err != nil || quick.Lead[quick.Closest()] < 2*quick.LeadErr[quick.Closest()] {
			return learn.Puzzle{}, false
		}
		pz, ok, err := learn.DecisionPuzzle(s, *deals, seed)
		if err != nil {
			t.Fatal(err)
		}
		return pz, ok
	}
	for plies := 1; plies <= *maxPlies; plies++ {
		w := learn.Winners(s, plies)
		if len(w) == 0 {
			continue
		}
		oneOK := s.Game().Name() == "skjuub" && legal >= 10
		if len(w) > 1 || (plies == 1 && !oneOK) {
			return learn.Puzzle{}, false // several ways, or a win in one: no puzzle
		}
		pos, _ := s.MarshalPosition()
		line := learn.Line(s, w[0], plies)
		return learn.Puzzle{Position: pos, Plies: plies, Line: line, Kind: learn.PuzzleKind(s, line), Difficulty: learn.Difficulty(s, line)}, true
	}
	return learn.Puzzle{}, false
}
