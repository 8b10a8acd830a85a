package learn

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// Goals are the tasks a step may set. Each is a property of a move in a
// position, judged from the rules engine's own answers (legality, the
// outcome, the position JSON after the move), so a step that claims "the
// only move that captures" is checked against every legal move.
var Goals = map[string]func(before, after game.State, mv string) bool{
	// move: exactly the listed moves ("slide c3 to c6").
	"move": nil,
	// any: every legal move.
	"any": func(before, after game.State, mv string) bool { return true },
	// wins: the mover has won when the move is made.
	"wins": func(before, after game.State, mv string) bool {
		o := after.Outcome()
		return o.Status == game.Won && o.IsWinner(before.ToMove())
	},
	// bonus: the same player moves again (a Skjuub sacrifice).
	"bonus": func(before, after game.State, mv string) bool {
		return !after.Outcome().Over() && after.ToMove() == before.ToMove()
	},
	// captures: an active skjuub of the opponent becomes inactive.
	"captures": func(before, after game.State, mv string) bool {
		opp := 2 - before.ToMove() // the opponent's player number (1 or 2)
		return activeSkjuubs(before, opp) > activeSkjuubs(after, opp)
	},
	// splits: a Sgolte merging placement that flips enemy stones.
	"splits": func(before, after game.State, mv string) bool { return strings.Contains(mv, "(") },
	// removes: a Sploof move that removes a red ball.
	"removes": func(before, after game.State, mv string) bool { return strings.HasPrefix(mv, "*") },
	// column: a Skyjo move after which the mover has a column fewer.
	"column": func(before, after game.State, mv string) bool {
		p := before.ToMove()
		return removedCells(after, p) > removedCells(before, p)
	},
	// ends: the Skyjo mover turns up its last card and ends the round.
	"ends": func(before, after game.State, mv string) bool {
		return positionField(before, "ender") == "-1" && positionField(after, "ender") == fmt.Sprint(before.ToMove())
	},
}

// CheckCourse replays every step of c with the rules engine and returns
// everything that does not hold: each text in every language, each step's
// position valid with the learner to move, each accepted move legal and
// reaching the goal (and, for Only, no other legal move reaching it), each
// invited try illegal for the reason its explanation gives, each reply
// legal.
func CheckCourse(c *Course) []error {
	var errs []error
	fail := func(where string, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s %s: %s", c.Game, where, fmt.Sprintf(format, args...)))
	}
	g, err := game.Lookup(c.Game)
	if err != nil {
		return []error{err}
	}
	checkText(c.Title, "title", func(f string, a ...any) { fail("course", f, a...) })
	if len(c.Lessons) == 0 {
		fail("course", "no lessons")
	}
	ids := map[string]bool{}
	var prev game.State // the end of the previous step, for Continue
	for li, l := range c.Lessons {
		if l.ID == "" || ids[l.ID] {
			fail(fmt.Sprintf("lesson %d", li+1), "missing or repeated id %q", l.ID)
		}
		ids[l.ID] = true
		checkText(l.Title, "title", func(f string, a ...any) { fail(l.ID, f, a...) })
		if len(l.Steps) == 0 {
			fail(l.ID, "no steps")
		}
		for si, st := range l.Steps {
			where := fmt.Sprintf("%s step %d", l.ID, si+1)
			f := func(format string, a ...any) { fail(where, format, a...) }
			prev = checkStep(g, &st, prev, f)
		}
	}
	return errs
}

// checkStep checks one step and returns the state it ends in (nil when a
// next step cannot continue from it).
func checkStep(g game.Game, st *Step, prev game.State, fail func(string, ...any)) game.State {
	checkText(st.Text, "text", fail)
	if st.Game != "" {
		if st.Goal != "" || len(st.Accept) > 0 || st.Position != nil || st.Continue {
			fail("a game step has no position or task")
		}
		if !slices.Contains([]string{"random", "greedy", "easy"}, st.Game) {
			fail("a first game is against random, greedy or easy, not %q", st.Game)
		}
		return nil
	}
	checkText(st.Done, "done", fail)
	if st.Wrong != nil {
		checkText(st.Wrong, "wrong", fail)
	}
	s := startOf(g, st, prev, fail)
	if s == nil {
		return nil
	}
	if s.Outcome().Over() || s.ToMove() != st.Seat {
		fail("the learner (seat %d) is not to move (to move: %d, outcome %v)", st.Seat, s.ToMove(), s.Outcome())
		return nil
	}
	goal, known := Goals[st.Goal]
	if !known {
		fail("unknown goal %q", st.Goal)
		return nil
	}
	switch {
	case st.Goal == "any" && len(st.Accept) > 0:
		fail("goal any accepts every legal move: list none")
	case st.Goal != "any" && len(st.Accept) == 0:
		fail("no accepted move")
	case st.Goal == "move" && st.Only:
		fail("goal move lists its moves; only says nothing more")
	case st.Goal == "any" && st.Only:
		fail("goal any accepts every legal move; only says nothing more")
	}
	for _, mv := range st.Accept {
		m, err := s.ParseMove(mv)
		if err != nil {
			fail("accepted move %s: %v", mv, err)
			continue
		}
		if c := s.FormatMove(m); c != mv {
			fail("accepted move %s is written %s by the engine (the board sends that)", mv, c)
		}
		after := s.Clone()
		after.Play(m)
		if goal != nil && !goal(s, after, mv) {
			fail("accepted move %s does not reach the goal %s", mv, st.Goal)
		}
	}
	if goal != nil {
		// The accepted moves are exactly the legal moves that reach the
		// goal: the page accepts those and no other.
		for _, m := range s.Legal(nil) {
			mv := s.FormatMove(m)
			after := s.Clone()
			after.Play(m)
			if st.Goal != "any" && goal(s, after, mv) && !slices.Contains(st.Accept, mv) {
				fail("%s also reaches the goal %s but is not accepted (accepted: %v)", mv, st.Goal, st.Accept)
			}
		}
	}
	if st.Only && len(st.Accept) != 1 {
		fail("the lesson says one move reaches the goal, but %d do: %v", len(st.Accept), st.Accept)
	}
	for _, tr := range st.Tries {
		checkText(tr.Why, "why of "+tr.Move, fail)
		_, err := s.ParseMove(tr.Move)
		switch {
		case err == nil:
			fail("try %s is legal", tr.Move)
		case errors.Is(err, game.ErrSyntax):
			fail("try %s is not even readable: %v", tr.Move, err)
		case tr.Engine == "" || !strings.Contains(err.Error(), tr.Engine):
			fail("try %s: the engine says %q, not %q", tr.Move, err.Error(), tr.Engine)
		}
	}
	end := s.Clone()
	if len(st.Accept) > 0 {
		if err := game.Play(end, st.Accept[0]); err != nil {
			return nil
		}
	} else if len(st.Reply) > 0 {
		fail("a reply needs the learner's move to be known: accept one move")
		return nil
	}
	for _, r := range st.Reply {
		if err := game.Play(end, r); err != nil {
			fail("reply %s: %v", r, err)
			return nil
		}
	}
	if st.Scores != nil {
		sc, ok := end.(game.Scorer)
		if !ok || !slices.Equal(sc.Scores(), st.Scores) {
			got := []int(nil)
			if ok {
				got = sc.Scores()
			}
			fail("scores after the step are %v, not %v", got, st.Scores)
		}
	}
	if len(st.Accept) != 1 {
		return nil // the next step cannot know where this one ended
	}
	return end
}

// startOf builds the state a step starts from.
func startOf(g game.Game, st *Step, prev game.State, fail func(string, ...any)) game.State {
	var s game.State
	switch {
	case st.Continue:
		if st.Position != nil || st.Options != nil || st.Seed != 0 {
			fail("a continued step has no position, options or seed of its own")
		}
		if prev == nil {
			fail("continues, but the previous step does not end in one known position")
			return nil
		}
		s = prev.Clone()
	case st.Position != nil:
		if st.Options != nil || st.Seed != 0 {
			fail("a position carries its options and chance: no options or seed beside it")
		}
		p, err := g.ParsePosition(st.Position)
		if err != nil {
			fail("position: %v", err)
			return nil
		}
		s = p
	default:
		settings := []string{}
		for k, v := range st.Options {
			settings = append(settings, k+"="+v)
		}
		opts, err := game.ParseOptions(g, settings)
		if err != nil {
			fail("options: %v", err)
			return nil
		}
		if s, err = g.New(opts, st.Seed); err != nil {
			fail("new game: %v", err)
			return nil
		}
	}
	for _, mv := range st.Moves {
		if err := game.Play(s, mv); err != nil {
			fail("setup move %s: %v", mv, err)
			return nil
		}
	}
	return s
}

// checkText reports a text missing in a language, or with a language
// that is not an interface language.
func checkText(t Text, what string, fail func(string, ...any)) {
	for _, l := range Languages {
		if strings.TrimSpace(t[l]) == "" {
			fail("%s has no %s text", what, l)
		}
	}
	for l := range t {
		if !slices.Contains(Languages, l) {
			fail("%s has a text in %q, which is not an interface language", what, l)
		}
	}
}

// positionMap reads a state's position JSON.
func positionMap(s game.State) map[string]any {
	b, err := s.MarshalPosition()
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	return m
}

func positionField(s game.State, key string) string {
	return fmt.Sprint(positionMap(s)[key])
}

// activeSkjuubs counts player's (1 or 2) active skjuubs: those with no
// orthogonal neighbour leaning the same way (docs/rules/skjuub.md).
func activeSkjuubs(s game.State, player int) int {
	board, _ := positionMap(s)["board"].(map[string]any)
	n := 0
	for sq, v := range board {
		piece, _ := v.(string)
		if len(piece) != 2 || int(piece[0]-'0') != player {
			continue
		}
		active := true
		for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
			nb := string([]byte{sq[0] + byte(d[0]), sq[1] + byte(d[1])})
			if q, ok := board[nb].(string); ok && len(q) == 2 && q[1] == piece[1] {
				active = false
			}
		}
		if active {
			n++
		}
	}
	return n
}

// removedCells counts the removed cells ("x") of seat's Skyjo grid.
func removedCells(s game.State, seat int) int {
	players, _ := positionMap(s)["players"].([]any)
	if seat >= len(players) {
		return 0
	}
	p, _ := players[seat].(map[string]any)
	grid, _ := p["grid"].([]any)
	n := 0
	for _, row := range grid {
		cells, _ := row.([]any)
		for _, c := range cells {
			if c == "x" {
				n++
			}
		}
	}
	return n
}
