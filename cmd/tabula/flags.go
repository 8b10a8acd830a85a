package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/record"
)

// listFlag collects a repeatable flag such as -o key=value.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// parseArgs parses flags that may come before, between or after positional
// arguments ("tabula moves --json sgolte" and "tabula moves sgolte --json"
// both work) and returns the positional ones.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, helpError{flagList(fs)}
			}
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// helpError is --help: flag.ErrHelp with the command's flags, each with
// its description, for the usage text.
type helpError struct{ flags string }

func (helpError) Error() string       { return flag.ErrHelp.Error() }
func (helpError) Unwrap() error       { return flag.ErrHelp }
func (h helpError) flagsText() string { return h.flags }

// flagList lists every flag of fs, one a line: its name, the kind of value
// it takes, its description and its default.
func flagList(fs *flag.FlagSet) string {
	var b strings.Builder
	fs.VisitAll(func(f *flag.Flag) {
		kind, usage := flag.UnquoteUsage(f)
		name := "-" + f.Name
		if len(f.Name) > 1 {
			name = "--" + f.Name
		}
		if kind != "" {
			name += " " + strings.ToUpper(kind)
		}
		def := ""
		switch f.DefValue {
		case "", "false", "0", "0s", "[]":
		default:
			def = fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(&b, "  %-26s %s%s\n", name, usage, def)
	})
	return b.String()
}

// setup is the shared way to say which position a command works on.
type setup struct {
	opts     listFlag
	moves    string
	position string
	replay   string
	seed     uint64
	// start is the position before --moves, and played the moves in the
	// game's canonical notation (for commands that go over a game, such
	// as review).
	start  game.State
	played []string
}

func (st *setup) register(fs *flag.FlagSet) {
	fs.Var(&st.opts, "o", "game option key=value (repeatable; with --position it must match the position's own)")
	fs.StringVar(&st.moves, "moves", "", "moves to play first, space separated")
	fs.StringVar(&st.position, "position", "", "start from this position JSON file (- for stdin)")
	fs.StringVar(&st.replay, "replay", "", "start from this game record's moves (the site's JSON or text record, or tabula play --record's; - for stdin)")
	fs.Uint64Var(&st.seed, "seed", 1, "seed for the game's chance events")
}

// state builds the position: the game's start (or the given position), then
// the moves.
func (st *setup) state(name string, stdin io.Reader) (game.Game, game.State, error) {
	g, err := game.Lookup(name)
	if err != nil {
		return nil, nil, err
	}
	opts, err := game.ParseOptions(g, st.opts)
	if err != nil {
		return nil, nil, err
	}
	if st.replay != "" {
		return st.fromRecord(g, stdin)
	}
	var s game.State
	if st.position != "" {
		data, err := readInput(st.position, stdin)
		if err != nil {
			return nil, nil, fmt.Errorf("read position: %w", err)
		}
		s, err = g.ParsePosition(data)
		if err != nil {
			return nil, nil, err
		}
		if err := agree(g, s, st.opts); err != nil {
			return nil, nil, err
		}
	} else {
		s, err = g.New(opts, st.seed)
		if err != nil {
			return nil, nil, err
		}
	}
	st.start = s.Clone()
	if st.played, err = playMoves(s, st.moves); err != nil {
		return nil, nil, err
	}
	return g, s, nil
}

// fromRecord builds the position from a game record: its start, its moves
// (each checked against the rules), then --moves. The record carries its
// own options and start, so -o and --position do not go with it.
func (st *setup) fromRecord(g game.Game, stdin io.Reader) (game.Game, game.State, error) {
	if st.position != "" || len(st.opts) > 0 {
		return nil, nil, fmt.Errorf("--replay: a record carries its own start and options; -o and --position do not go with it")
	}
	data, err := readInput(st.replay, stdin)
	if err != nil {
		return nil, nil, fmt.Errorf("read record: %w", err)
	}
	rec, err := record.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("--replay %s: %w", st.replay, err)
	}
	if rec.Game != g.Name() {
		return nil, nil, fmt.Errorf("--replay %s: the record is a game of %s, not %s", st.replay, rec.Game, g.Name())
	}
	start, err := rec.StartState()
	if err != nil {
		return nil, nil, fmt.Errorf("--replay %s: %w", st.replay, err)
	}
	s := start.State
	st.start = s.Clone()
	played, err := rec.Replay(s)
	if err != nil {
		return nil, nil, fmt.Errorf("--replay %s: %w", st.replay, err)
	}
	for _, m := range played {
		st.played = append(st.played, m.Move)
	}
	more, err := playMoves(s, st.moves)
	st.played = append(st.played, more...)
	if err != nil {
		return nil, nil, fmt.Errorf("--moves after the record: %w", err)
	}
	return g, s, nil
}

// readInput reads a file named by a flag, or stdin for "-".
func readInput(path string, stdin io.Reader) ([]byte, error) {
	if path == "-" {
		return io.ReadAll(io.LimitReader(stdin, 16<<20))
	}
	return os.ReadFile(path)
}

// agree checks that the options given with -o (already validated) are the
// ones the position carries: a position has its own options, and -o beside
// it may only repeat them.
func agree(g game.Game, s game.State, settings []string) error {
	if len(settings) == 0 {
		return nil
	}
	c, ok := s.(game.Configured)
	if !ok {
		return fmt.Errorf("-o with --position: %s positions do not say their options", g.Name())
	}
	have := c.Options()
	for _, kv := range settings {
		k, v, _ := strings.Cut(kv, "=")
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		if have[k] != v {
			return fmt.Errorf("-o %s=%s: the position is played with %s=%s (a position carries its own options; -o may only repeat them)", k, v, k, have[k])
		}
	}
	return nil
}

// playMoves applies a space-separated list of moves. Moves written with
// internal spaces (Skyjo's "flip b2") are joined back: a token that is
// unreadable alone is retried with the next token appended, and if the two
// read as a move, that move is the one played or refused (so "flip a1
// flip a1" says that the second "flip a1" is illegal, not that "flip" is
// unreadable). Errors count the moves played, not the words.
func playMoves(s game.State, list string) ([]string, error) {
	toks := strings.Fields(list)
	var played []string
	for i := 0; i < len(toks); i++ {
		if s.Outcome().Over() {
			return played, afterMoves(len(played), fmt.Errorf("move %q: %w", toks[i], game.ErrGameOver))
		}
		m, err := s.ParseMove(toks[i])
		if errors.Is(err, game.ErrSyntax) && i+1 < len(toks) {
			if m2, err2 := s.ParseMove(toks[i] + " " + toks[i+1]); !errors.Is(err2, game.ErrSyntax) {
				m, err = m2, err2
				i++
			}
		}
		if err != nil {
			return played, afterMoves(len(played), err)
		}
		played = append(played, s.FormatMove(m))
		s.Play(m)
	}
	return played, nil
}

// afterMoves says where in --moves a move failed; the game's own error
// already names the move.
func afterMoves(played int, err error) error {
	switch played {
	case 0:
		return err
	case 1:
		return fmt.Errorf("after 1 move: %w", err)
	}
	return fmt.Errorf("after %d moves: %w", played, err)
}

// gameCommand parses a command that works on one position of one game:
// GAME, the setup flags and the command's own flags (declared by extra on
// the flag set), and builds the position.
func gameCommand(cmd string, args []string, stdin io.Reader, extra func(*flag.FlagSet)) (*setup, game.Game, game.State, error) {
	fs := flag.NewFlagSet(cmd, flag.ContinueOnError)
	st := &setup{}
	st.register(fs)
	if extra != nil {
		extra(fs)
	}
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, nil, nil, err
	}
	name, err := oneGame(pos)
	if err != nil {
		return nil, nil, nil, err
	}
	g, s, err := st.state(name, stdin)
	if err != nil {
		return nil, nil, nil, err
	}
	return st, g, s, nil
}

// oneGame checks that exactly one positional argument, the game, was given.
func oneGame(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return "", fmt.Errorf("missing GAME (games: %s)", strings.Join(game.Names(), ", "))
	case 1:
		return pos[0], nil
	}
	return "", fmt.Errorf("unexpected arguments %q", pos[1:])
}
