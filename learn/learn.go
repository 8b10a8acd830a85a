// Package learn holds the interactive lessons and the puzzles of the web
// application: data files (positions in each game's own position JSON or
// move lists, texts in every interface language), the types that read
// them, and Check, which replays every lesson step with the rules engine
// and proves what each step claims. The web page fetches the same files
// (served under learn/ beside the application) and asks the server's rules
// endpoint about each move the learner tries.
package learn

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
)

// Data is the data directory: lessons/<game>.json and puzzles/<game>.json.
//
//go:embed data
var data embed.FS

// Files is the data tree as served to the browser: lessons/<game>.json and
// puzzles/<game>.json at its root.
func Files() fs.FS {
	sub, err := fs.Sub(data, "data")
	if err != nil {
		panic("learn: " + err.Error()) // the embedded tree always has data/
	}
	return sub
}

// Languages are the interface languages every text must have.
var Languages = []string{"en", "ko", "mn"}

// Text is one text in every interface language: {"en": …, "ko": …, "mn": …}.
type Text map[string]string

// Course is one game's lesson path.
type Course struct {
	Game    string   `json:"game"`
	Title   Text     `json:"title"`   // "Learn Sgolte in 5 minutes"
	Lessons []Lesson `json:"lessons"` // in order
}

// Lesson is a few steps about one idea.
type Lesson struct {
	ID    string `json:"id"`
	Title Text   `json:"title"`
	Steps []Step `json:"steps"`
}

// Step is one position on the real board with one idea and one task.
type Step struct {
	// Where the step starts: the previous step's end (Continue), a position
	// JSON, or a new game (Options, Seed) after Moves.
	Continue bool              `json:"continue,omitempty"`
	Position json.RawMessage   `json:"position,omitempty"`
	Options  map[string]string `json:"options,omitempty"`
	Seed     uint64            `json:"seed,omitempty"`
	Moves    []string          `json:"moves,omitempty"`
	// Seat is the learner's seat (0 unless said).
	Seat int `json:"seat,omitempty"`

	Text Text `json:"text"` // the idea and the task
	// Goal names what the task asks for (see Goals); Accept lists the moves
	// that do it: for a goal that is a property of the move (captures,
	// wins, …) every legal move that has it, checked against all legal
	// moves; for goal "move" the moves the text names. Only: the text says
	// there is exactly one.
	Goal   string   `json:"goal"`
	Accept []string `json:"accept,omitempty"`
	Only   bool     `json:"only,omitempty"`
	// Wrong is said when the learner plays a legal move that misses the goal.
	Wrong Text `json:"wrong,omitempty"`
	// Tries are illegal moves worth trying: the board offers them, and
	// trying one shows the engine's reason (which must contain Engine) with
	// the lesson's own words for it.
	Tries []Try `json:"tries,omitempty"`
	// Done is said after the task is done; Reply are the opponent's moves
	// played after it (the next step may continue from there).
	Done  Text     `json:"done"`
	Reply []string `json:"reply,omitempty"`
	// Scores, when given, are the game's scores (game.Scorer) after the
	// accepted move and the reply: the numbers Done speaks of.
	Scores []int `json:"scores,omitempty"`
	// Game, for the last step of a path: a real game against this bot
	// level, played with hints; no position or task.
	Game string `json:"game,omitempty"`
}

// Try is an illegal move a lesson invites, with its explanation.
type Try struct {
	Move   string `json:"move"`
	Engine string `json:"engine"` // part of the rules engine's reason
	Why    Text   `json:"why"`
}

// Puzzles is one game's puzzle set.
type Puzzles struct {
	Game    string   `json:"game"`
	Puzzles []Puzzle `json:"puzzles"`
}

// Puzzle is a position in which exactly one move wins by force within
// Plies plies (the winner's moves and the defender's replies); Line is a
// winning line, its first move the solution. Source says where the position
// came from (which bots' game, which ply).
//
// A Skyjo puzzle is a decision instead (see Decide): Plies is 1, Line is
// the best choice, Accept every move that is the same choice from the
// player's view, and Expect its measured expected margin.
type Puzzle struct {
	ID       string          `json:"id"`
	Position json.RawMessage `json:"position"`
	Plies    int             `json:"plies"`
	Line     []string        `json:"line"`
	Source   string          `json:"source"`
	// Kind is the puzzle's theme, one of the Kind constants (PuzzleKind).
	Kind string `json:"kind,omitempty"`
	// Difficulty is a starting estimate from 1 (easy) to 5 (Difficulty,
	// DecisionDifficulty).
	Difficulty int `json:"difficulty,omitempty"`
	// Accept lists every move that solves a decision puzzle (Line[0] among
	// them); empty for a forced win, whose only solution is Line[0].
	Accept []string `json:"accept,omitempty"`
	// Expect is a decision puzzle's measured expectation.
	Expect *Expectation `json:"expect,omitempty"`
}

// Solves reports whether mv (in the engine's notation) solves pz.
func (pz *Puzzle) Solves(mv string) bool {
	if len(pz.Accept) > 0 {
		for _, a := range pz.Accept {
			if a == mv {
				return true
			}
		}
		return false
	}
	return len(pz.Line) > 0 && pz.Line[0] == mv
}

// decodeStrict reads one JSON value with no unknown fields.
func decodeStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one JSON value")
	}
	return nil
}

// LoadCourse reads lessons/<game>.json.
func LoadCourse(fsys fs.FS, game string) (*Course, error) {
	b, err := fs.ReadFile(fsys, "lessons/"+game+".json")
	if err != nil {
		return nil, err
	}
	var c Course
	if err := decodeStrict(b, &c); err != nil {
		return nil, fmt.Errorf("lessons/%s.json: %w", game, err)
	}
	return &c, nil
}

// LoadPuzzles reads puzzles/<game>.json.
func LoadPuzzles(fsys fs.FS, game string) (*Puzzles, error) {
	b, err := fs.ReadFile(fsys, "puzzles/"+game+".json")
	if err != nil {
		return nil, err
	}
	var p Puzzles
	if err := decodeStrict(b, &p); err != nil {
		return nil, fmt.Errorf("puzzles/%s.json: %w", game, err)
	}
	return &p, nil
}
