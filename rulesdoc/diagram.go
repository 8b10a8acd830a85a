package rulesdoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/all" // a diagram may show any game
)

// A diagram is a fenced block of a rules page whose info string is
// "diagram". Each line is "key: value":
//
//	caption: the sentence under the diagram (the only line translated)
//	game:     sgolte, sploof, skjuub or skyjo
//	id:       a name unique among the game's diagrams, the same in every language
//	options:  key=value … for a game started from the beginning
//	seed:     the seed of a game started from the beginning (Skyjo's shuffles)
//	position: the game's position JSON to start from ("game" may be left out)
//	moves:    moves played from there, as for `tabula moves --moves`; the
//	          board shows the last turn of them as the last move
//	marks:    names to mark on the board (cells, points, squares, cards),
//	          each optionally "=kind": ring (default), cross, dot, name
//	arrows:   from>to pairs drawn as arrows
//	last:     off, not to mark the last move of the move list
//	info:     on, to show the board's side panel (stocks, pools, scores)
//	invalid:  the position is deliberately not valid; the text the rules
//	          engine's refusal must contain
//
// and facts that the caption states, which the package's tests check with
// the rules engine (see Fact).
type Diagram struct {
	Page     string // the page it is on, e.g. "ko/sploof.md"
	Line     int    // the line of its opening fence
	Caption  string
	Game     string
	ID       string
	Options  []string
	Seed     uint64
	Position json.RawMessage
	Moves    string
	Marks    []string
	Arrows   []string
	Info     bool
	HideLast bool
	Invalid  string
	Facts    []Fact
	// Source is the block's text without the caption line: it must be the
	// same in every language.
	Source string
}

// Fact is one line of a diagram that states something about its position:
//
//	to-move: a seat name ("black", "1") or "nobody" once the game is over
//	winner:  a seat name, "draw", or "nobody" while the game goes on
//	legal: the exact list of legal moves ("none" for an empty list)
//	legal PREFIX: the exact list of legal moves that start with PREFIX
//	includes: moves that are legal
//	excludes: moves that are not legal
//	at: name=content … what is on a cell, point or square (see contents)
//	active / inactive: Skjuub squares whose piece can / cannot act
//	scores: the game's scores, one number per seat
//	view FIELD: the value of a top-level field of the view ("phase")
type Fact struct {
	Key, Arg, Value string
	Line            int
}

var factKeys = []string{"to-move", "winner", "legal", "includes", "excludes", "at", "active", "inactive", "scores", "view"}

var (
	idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)
	// fenceRE finds a fence: its backticks and its info string.
	fenceRE = regexp.MustCompile("^\\s*(```+)\\s*(\\S*)")
)

// ParseDiagrams reads the diagram blocks of one page.
func ParseDiagrams(page, src string) ([]Diagram, error) {
	var out []Diagram
	lines := strings.Split(strings.ReplaceAll(src, "\r\n", "\n"), "\n")
	for i := 0; i < len(lines); i++ {
		m := fenceRE.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		start := i
		j := i + 1
		for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), m[1]) {
			j++
		}
		if m[2] == "diagram" {
			d, err := parseDiagram(page, start+1, lines[start+1:min(j, len(lines))])
			if err != nil {
				return nil, err
			}
			out = append(out, d)
		}
		i = j
	}
	return out, nil
}

func parseDiagram(page string, line int, body []string) (Diagram, error) {
	d := Diagram{Page: page, Line: line}
	fail := func(k int, format string, a ...any) (Diagram, error) {
		return Diagram{}, fmt.Errorf("%s:%d: diagram: %s", page, line+1+k, fmt.Sprintf(format, a...))
	}
	var src strings.Builder
	for k, raw := range body {
		l := strings.TrimSpace(raw)
		if l == "" {
			continue
		}
		key, val, ok := strings.Cut(l, ":")
		if !ok {
			return fail(k, "%q is not key: value", l)
		}
		key, val = strings.TrimSpace(key), strings.TrimSpace(val)
		if key != "caption" {
			src.WriteString(key + ": " + val + "\n")
		}
		name, arg, _ := strings.Cut(key, " ")
		if slices.Contains(factKeys, name) {
			if arg != "" && name != "legal" && name != "view" {
				return fail(k, "%q takes no argument", name)
			}
			d.Facts = append(d.Facts, Fact{Key: name, Arg: arg, Value: val, Line: line + 1 + k})
			continue
		}
		switch key {
		case "caption":
			d.Caption = val
		case "game":
			d.Game = val
		case "id":
			if !idRE.MatchString(val) {
				return fail(k, "id %q: want lower-case letters, digits and hyphens", val)
			}
			d.ID = val
		case "options":
			d.Options = strings.Fields(val)
		case "seed":
			n, err := strconv.ParseUint(val, 10, 64)
			if err != nil {
				return fail(k, "seed %q: %v", val, err)
			}
			d.Seed = n
		case "position":
			if !json.Valid([]byte(val)) {
				return fail(k, "position is not JSON: %s", val)
			}
			d.Position = json.RawMessage(val)
		case "moves":
			d.Moves = val
		case "marks":
			d.Marks = strings.Fields(val)
		case "arrows":
			d.Arrows = strings.Fields(val)
		case "info":
			d.Info = val == "on"
		case "last":
			d.HideLast = val == "off"
		case "invalid":
			d.Invalid = val
		default:
			return fail(k, "unknown key %q", key)
		}
	}
	switch {
	case d.Caption == "":
		return fail(0, "no caption")
	case d.Game == "":
		return fail(0, "no game")
	case d.ID == "":
		return fail(0, "no id")
	}
	d.Source = src.String()
	return d, nil
}

// Played is one move of a diagram's move list with the seat that made it.
type Played struct {
	Move string `json:"move"`
	Seat int    `json:"seat"`
}

// Resolved is what the web page needs to draw a diagram.
type Resolved struct {
	View  json.RawMessage `json:"view"`            // what the game's board draws
	Moves []Played        `json:"moves,omitempty"` // the moves played, for the last-move marks
}

// State plays the diagram: the position (or a new game with the options and
// seed) and then the moves. A diagram marked invalid returns the engine's
// refusal as its error.
func (d *Diagram) State() (game.State, []Played, error) {
	g, err := game.Lookup(d.Game)
	if err != nil {
		return nil, nil, err
	}
	var s game.State
	if d.Position != nil {
		if len(d.Options) > 0 || d.Seed != 0 {
			return nil, nil, fmt.Errorf("options and seed belong in the position")
		}
		pos, err := withGame(d.Position, d.Game)
		if err != nil {
			return nil, nil, err
		}
		if s, err = g.ParsePosition(pos); err != nil {
			return nil, nil, err
		}
	} else {
		opts, err := game.ParseOptions(g, d.Options)
		if err != nil {
			return nil, nil, err
		}
		if s, err = g.New(opts, d.Seed); err != nil {
			return nil, nil, err
		}
	}
	var played []Played
	toks := strings.Fields(d.Moves)
	for i := 0; i < len(toks); i++ {
		seat := s.ToMove()
		text := toks[i]
		m, err := s.ParseMove(text)
		// Skyjo's moves hold a space ("flip b2"): join a token that is no
		// move by itself with the next one, as `tabula moves` does.
		if err != nil && i+1 < len(toks) {
			if m2, err2 := s.ParseMove(text + " " + toks[i+1]); err2 == nil {
				m, err, text = m2, nil, text+" "+toks[i+1]
				i++
			}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("move %q: %w", text, err)
		}
		played = append(played, Played{Move: s.FormatMove(m), Seat: seat}) // a Move means something only before it is played
		s.Play(m)
	}
	return s, played, nil
}

// withGame adds "game" to a position that leaves it out.
func withGame(pos json.RawMessage, name string) ([]byte, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(pos, &obj); err != nil {
		return nil, fmt.Errorf("position: %w", err)
	}
	if _, ok := obj["game"]; !ok {
		obj["game"] = json.RawMessage(strconv.Quote(name))
	}
	return json.Marshal(obj)
}

// Resolve plays the diagram and returns what the page draws. A diagram
// marked invalid is drawn from its position as written (the engine refuses
// it, which is the point).
func (d *Diagram) Resolve() (Resolved, error) {
	s, played, err := d.State()
	if d.Invalid != "" {
		if err == nil {
			return Resolved{}, fmt.Errorf("%s:%d: diagram %s is marked invalid but the rules engine accepts it", d.Page, d.Line, d.ID)
		}
		pos, err := withGame(d.Position, d.Game)
		return Resolved{View: pos}, err
	}
	if err != nil {
		return Resolved{}, fmt.Errorf("%s:%d: diagram %s: %w", d.Page, d.Line, d.ID, err)
	}
	view, err := View(s)
	if err != nil {
		return Resolved{}, err
	}
	if d.HideLast {
		played = nil
	}
	return Resolved{View: view, Moves: played}, nil
}

// View is what a spectator's board draws for s, as the server sends it: the
// public view of a game with hidden cards, else the position JSON.
func View(s game.State) (json.RawMessage, error) {
	if h, ok := s.(game.HiddenInfo); ok {
		return h.View(game.Spectator)
	}
	return s.MarshalPosition()
}

// Pages lists the rules pages of fsys (which holds the directory "rules"):
// rules/<game>.md and rules/<lang>/<game>.md.
func Pages(fsys fs.FS) ([]string, error) {
	var out []string
	err := fs.WalkDir(fsys, "rules", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && path.Ext(p) == ".md" {
			out = append(out, p)
		}
		return err
	})
	return out, err
}

// DiagramsFile is where, in the tree that holds the directory "rules", the
// diagrams resolved by Build are kept (docs/rules/diagrams.json).
const DiagramsFile = "rules/diagrams.json"

// Build resolves the diagrams of every page of fsys into one JSON object
// keyed "game/id", which the web page reads to draw them (DiagramsFile). Diagrams with the
// same key are the same in every language (the tests check it), so each is
// resolved once.
func Build(fsys fs.FS) ([]byte, error) {
	pages, err := Pages(fsys)
	if err != nil {
		return nil, err
	}
	all := map[string]Resolved{}
	for _, p := range pages {
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		ds, err := ParseDiagrams(p, string(src))
		if err != nil {
			return nil, err
		}
		for i := range ds {
			key := ds[i].Game + "/" + ds[i].ID
			if _, done := all[key]; done {
				continue
			}
			r, err := ds[i].Resolve()
			if err != nil {
				return nil, err
			}
			all[key] = r
		}
	}
	// One diagram a line, in the order of their keys, so that a change
	// to a diagram shows as a change to its line of the generated file.
	var b bytes.Buffer
	b.WriteString("{")
	for i, key := range slices.Sorted(maps.Keys(all)) {
		if i > 0 {
			b.WriteString(",")
		}
		var line bytes.Buffer
		enc := json.NewEncoder(&line)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(all[key]); err != nil {
			return nil, err
		}
		fmt.Fprintf(&b, "\n%s: %s", strconv.Quote(key), bytes.TrimSuffix(line.Bytes(), []byte("\n")))
	}
	b.WriteString("\n}\n")
	return b.Bytes(), nil
}
