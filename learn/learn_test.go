package learn_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/all"
	"github.com/tabula-games/tabula/learn"
)

var games = []string{"sgolte", "sploof", "skjuub", "skyjo"}

// TestCourses replays every step of every game's lesson path with the rules
// engine (learn.CheckCourse) and checks that each path ends with a first
// game against a bot.
func TestCourses(t *testing.T) {
	for _, g := range games {
		t.Run(g, func(t *testing.T) {
			c, err := learn.LoadCourse(learn.Files(), g)
			if err != nil {
				t.Fatal(err)
			}
			if c.Game != g {
				t.Fatalf("lessons/%s.json is for %q", g, c.Game)
			}
			for _, err := range learn.CheckCourse(c) {
				t.Error(err)
			}
			last := c.Lessons[len(c.Lessons)-1]
			if last.Steps[len(last.Steps)-1].Game == "" {
				t.Error("the path does not end with a first game")
			}
			tasks := 0
			for _, l := range c.Lessons {
				for _, s := range l.Steps {
					if s.Game == "" {
						tasks++
					}
				}
			}
			t.Logf("%s: %d lessons, %d tasks and a first game", g, len(c.Lessons), tasks)
		})
	}
}

// TestCheckCourseFindsFaults: the checker rejects each kind of broken step,
// so a passing TestCourses means something.
func TestCheckCourseFindsFaults(t *testing.T) {
	base := func() *learn.Course {
		c, err := learn.LoadCourse(learn.Files(), "skjuub")
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	step := func(c *learn.Course, lesson string, i int) *learn.Step {
		for li := range c.Lessons {
			if c.Lessons[li].ID == lesson {
				return &c.Lessons[li].Steps[i]
			}
		}
		t.Fatalf("no lesson %s", lesson)
		return nil
	}
	cases := []struct {
		name   string
		break_ func(c *learn.Course)
		want   string
	}{
		{"illegal accepted move", func(c *learn.Course) { step(c, "moves", 0).Accept = []string{"c1-c3"} }, "accepted move c1-c3"},
		{"move written otherwise", func(c *learn.Course) { step(c, "moves", 0).Accept = []string{"A1-A4"} }, "written a1-a4"},
		{"goal missed", func(c *learn.Course) { step(c, "sacrifice", 0).Accept = []string{"c1-c2"} }, "does not reach the goal captures"},
		{"another move reaches the goal", func(c *learn.Course) {
			s := step(c, "sacrifice", 0)
			s.Position = json.RawMessage(strings.Replace(string(s.Position), `"c1": "1E"`, `"e1": "1N"`, 1))
		}, "e1-e4 also reaches the goal captures"},
		{"only, but two", func(c *learn.Course) { step(c, "sacrifice", 2).Only = true; step(c, "sacrifice", 2).Goal = "bonus" }, ""},
		{"legal try", func(c *learn.Course) { step(c, "moves", 0).Tries[0].Move = "a1-a3" }, "try a1-a3 is legal"},
		{"try for another reason", func(c *learn.Course) { step(c, "moves", 0).Tries[0].Engine = "is occupied" }, "not \"is occupied\""},
		{"missing Korean", func(c *learn.Course) { delete(step(c, "moves", 1).Text, "ko") }, "text has no ko text"},
		{"learner not to move", func(c *learn.Course) { step(c, "moves", 0).Seat = 1 }, "is not to move"},
		{"continue after a choice", func(c *learn.Course) { step(c, "moves", 0).Accept = []string{"a1-a4", "a1-a5"} }, "does not end in one known position"},
		{"illegal reply", func(c *learn.Course) { step(c, "moves", 0).Reply = []string{"c1-c3"} }, "reply c1-c3"},
		{"unknown goal", func(c *learn.Course) { step(c, "moves", 0).Goal = "checkmates" }, "unknown goal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := base()
			if errs := learn.CheckCourse(c); len(errs) != 0 {
				t.Fatalf("the course is broken before the test breaks it: %v", errs)
			}
			tc.break_(c)
			errs := learn.CheckCourse(c)
			if len(errs) == 0 {
				t.Fatal("no fault found")
			}
			found := tc.want == ""
			for _, e := range errs {
				found = found || strings.Contains(e.Error(), tc.want)
			}
			if !found {
				t.Fatalf("faults %v, none says %q", errs, tc.want)
			}
		})
	}
}

// minPuzzles is the fewest puzzles each game's set holds.
var minPuzzles = map[string]int{"sploof": 200, "sgolte": 200, "skjuub": 200, "skyjo": 50}

// TestPuzzles proves every puzzle (learn.CheckPuzzle). A forced win, by
// exhaustive search: exactly one move forces a win within the puzzle's
// plies against every defence, no move forces one sooner, and the line
// shown as the solution is legal and wins. A Skyjo decision, by sampling
// (learn.CheckDecision): over its deals sampled from the player's view,
// the answer's class of equivalent moves leads every other choice by more
// than three standard errors, with the margin the puzzle states. Every
// puzzle has a unique id, a source, and the kind and difficulty its
// solution gives. A Skyjo proof plays 2,000 deals times every choice to
// the end of the round (about 0.3 s of CPU; all 58 puzzles: 16 s), so with
// -short one Skyjo puzzle in ten is proved (the first, the eleventh, …) and
// the others only checked for their fields; without -short (.ci/run --long)
// all of them. The other games' proofs take seconds for all.
func TestPuzzles(t *testing.T) {
	for _, g := range []string{"sploof", "sgolte", "skjuub", "skyjo"} {
		t.Run(g, func(t *testing.T) {
			ps, err := learn.LoadPuzzles(learn.Files(), g)
			if err != nil {
				t.Fatal(err)
			}
			if ps.Game != g || len(ps.Puzzles) < minPuzzles[g] {
				t.Fatalf("puzzles/%s.json: game %q, %d puzzles, want at least %d", g, ps.Game, len(ps.Puzzles), minPuzzles[g])
			}
			gm, _ := game.Lookup(g)
			ids := map[string]bool{}
			proved := 0
			for i := range ps.Puzzles {
				pz := &ps.Puzzles[i]
				if pz.ID == "" || ids[pz.ID] || pz.Source == "" || pz.Kind == "" || pz.Difficulty < 1 || pz.Difficulty > 5 {
					t.Errorf("puzzle %d: missing or repeated id %q, or no source, kind or difficulty", i+1, pz.ID)
				}
				ids[pz.ID] = true
				if g == "skyjo" && testing.Short() && i%10 != 0 {
					continue
				}
				proved++
				if err := learn.CheckPuzzle(gm, pz); err != nil {
					t.Errorf("%s: %v", pz.ID, err)
				}
			}
			t.Logf("%d puzzles, %d proved", len(ps.Puzzles), proved)
		})
	}
}

// TestCheckPuzzleFindsFaults: the proof rejects a puzzle whose claimed move
// is not the winning one, whose win takes longer or is shorter than
// claimed, or whose line does not win.
func TestCheckPuzzleFindsFaults(t *testing.T) {
	for _, g := range []string{"sploof", "sgolte", "skjuub"} {
		ps, err := learn.LoadPuzzles(learn.Files(), g)
		if err != nil {
			t.Fatal(err)
		}
		gm, _ := game.Lookup(g)
		for _, pz := range ps.Puzzles[:5] {
			s, _ := gm.ParsePosition(pz.Position)
			other := ""
			for _, m := range s.Legal(nil) {
				if mv := s.FormatMove(m); mv != pz.Line[0] {
					other = mv
					break
				}
			}
			broken := map[string]learn.Puzzle{
				"another first move": {Position: pz.Position, Plies: pz.Plies, Line: []string{other}},
				"longer than said":   {Position: pz.Position, Plies: pz.Plies - 1, Line: pz.Line[:1]},
				"shorter than said":  {Position: pz.Position, Plies: pz.Plies + 1, Line: pz.Line},
				"a wrong kind":       {Position: pz.Position, Plies: pz.Plies, Line: pz.Line, Kind: "bogus"},
				"a wrong difficulty": {Position: pz.Position, Plies: pz.Plies, Line: pz.Line, Difficulty: pz.Difficulty%5 + 1},
			}
			if len(pz.Line) > 1 {
				broken["a line that stops"] = learn.Puzzle{Position: pz.Position, Plies: pz.Plies, Line: pz.Line[:1]}
			}
			for name, b := range broken {
				if err := learn.CheckPuzzle(gm, &b); err == nil {
					t.Errorf("%s, %s: accepted", pz.ID, name)
				}
			}
		}
	}
}
