package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/record"
)

// hintAgent is the bot whose suggestion `hint` shows.
const hintAgent = "hard"

func runPlay(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	seats := make([]string, game.MaxPlayers)
	var recordPath *string
	st, g, s, err := gameCommand("play", args, stdin, func(fs *flag.FlagSet) {
		for i := range seats {
			def := "random"
			if i == 0 {
				def = "human"
			}
			fs.StringVar(&seats[i], fmt.Sprintf("p%d", i+1), def, fmt.Sprintf("agent for seat %d (human, random, greedy, mcts, easy|medium|hard, exec:CMD)", i+1))
		}
		recordPath = fs.String("record", "", "write the game record to this file at the end (JSON; the one-line text record for a name ending .txt)")
	})
	if err != nil {
		return err
	}
	p := &player{g: g, in: bufio.NewScanner(stdin), out: stdout, seed: st.seed}
	defer p.close()
	for seat := 0; seat < s.NumPlayers(); seat++ {
		spec := seats[seat]
		if spec == "human" {
			p.agents = append(p.agents, nil)
			continue
		}
		a, err := agent.New(spec, g, st.seed*1000+uint64(seat)+1)
		if err != nil {
			return fmt.Errorf("--p%d: %w", seat+1, err)
		}
		p.agents = append(p.agents, a)
	}
	if err := p.loop(s); err != nil {
		return err
	}
	if *recordPath != "" {
		return writeRecord(*recordPath, g, p, s, seats[:s.NumPlayers()], *st)
	}
	return nil
}

// player runs one terminal game.
type player struct {
	g      game.Game
	agents []agent.Agent // nil = human
	in     *bufio.Scanner
	out    io.Writer
	seed   uint64
	moves  []string     // the game so far, canonical notation
	states []game.State // the state before each move, for undo
	hinter agent.Agent
}

func (p *player) close() {
	for _, a := range p.agents {
		if a != nil {
			agent.Close(a)
		}
	}
	if p.hinter != nil {
		agent.Close(p.hinter)
	}
}

func (p *player) loop(s game.State) error {
	ctx := context.Background()
	lastShown := -1
	for !s.Outcome().Over() {
		seat := s.ToMove()
		a := p.agents[seat]
		if a == nil {
			if lastShown != len(p.moves) {
				fmt.Fprint(p.out, "\n"+turnView(s))
				lastShown = len(p.moves)
			}
			done, err := p.human(ctx, s, seat)
			if err != nil || done {
				return err
			}
			continue
		}
		m, err := agent.Ask(ctx, a, s)
		if err != nil {
			if errors.Is(err, agent.ErrForfeit) {
				fmt.Fprintf(p.out, "%s (%s) forfeits: %v\n", s.SeatName(seat), a.Name(), err)
				return nil
			}
			return fmt.Errorf("%s (%s): %w", s.SeatName(seat), a.Name(), err)
		}
		txt := s.FormatMove(m)
		fmt.Fprintf(p.out, "%s (%s) plays %s\n", s.SeatName(seat), a.Name(), txt)
		p.push(s, txt)
		s.Play(m)
	}
	fmt.Fprint(p.out, "\n"+drawing(s))
	return nil
}

// turnView is the position before a human's move. It says whose turn it is
// once: the game's drawing where it has a line saying so, else the status
// line; the prompt itself is a bare "> ".
func turnView(s game.State) string {
	b := board(s)
	for _, line := range strings.Split(b, "\n") {
		if strings.HasSuffix(strings.TrimSuffix(strings.TrimSpace(line), "."), "to move") {
			return b
		}
	}
	return b + statusLine(s) + "\n"
}

func (p *player) push(s game.State, txt string) {
	p.states = append(p.states, s.Clone())
	p.moves = append(p.moves, txt)
}

// human reads commands until the seat has moved. It returns done when the
// player quits or input ends.
func (p *player) human(ctx context.Context, s game.State, seat int) (done bool, err error) {
	for {
		fmt.Fprint(p.out, "> ")
		if !p.in.Scan() {
			fmt.Fprintln(p.out)
			return true, p.in.Err()
		}
		line := strings.TrimSpace(p.in.Text())
		switch line {
		case "":
			continue
		case "quit", "exit":
			return true, nil
		case "help", "?":
			fmt.Fprintln(p.out, "type a move, or: moves (list legal moves), hint, undo, show, quit")
			continue
		case "moves":
			fmt.Fprintln(p.out, strings.Join(game.LegalTexts(s), "  "))
			continue
		case "show":
			fmt.Fprint(p.out, drawing(s))
			continue
		case "hint":
			p.hint(ctx, s)
			continue
		case "undo":
			p.undo(s, seat)
			return false, nil
		}
		m, err := s.ParseMove(line)
		if err != nil {
			fmt.Fprintf(p.out, "%s (type 'moves' to list the legal moves)\n", oneLine(err.Error()))
			continue
		}
		p.push(s, s.FormatMove(m))
		s.Play(m)
		return false, nil
	}
}

// undo takes back moves until it is this human seat's turn at an earlier
// decision: the bots' replies and the seat's own last move.
func (p *player) undo(s game.State, seat int) {
	for i := len(p.states) - 1; i >= 0; i-- {
		if p.states[i].ToMove() == seat && p.agents[seat] == nil {
			s.CopyFrom(p.states[i])
			fmt.Fprintf(p.out, "took back %s\n", strings.Join(p.moves[i:], " "))
			p.states, p.moves = p.states[:i], p.moves[:i]
			return
		}
	}
	fmt.Fprintln(p.out, "nothing to undo")
}

func (p *player) hint(ctx context.Context, s game.State) {
	if p.hinter == nil {
		a, err := agent.New(hintAgent, p.g, p.seed^0x417)
		if err != nil {
			fmt.Fprintf(p.out, "no hint available: %v\n", oneLine(err.Error()))
			return
		}
		p.hinter = a
	}
	fmt.Fprintln(p.out, "thinking…")
	m, err := agent.Ask(ctx, p.hinter, s)
	if err != nil {
		fmt.Fprintf(p.out, "no hint: %v\n", oneLine(err.Error()))
		return
	}
	fmt.Fprintf(p.out, "hint: %s\n", s.FormatMove(m))
}

// writeRecord writes the game's record (package record): the site's JSON
// record, or its one-line text record for a path ending in .txt, so that
// POST /api/records imports it and `--replay` reads it back. The terminal
// is not a site with hidden cards to keep: the record shows the start, the
// end and, for a finished game, every chance outcome.
func writeRecord(path string, g game.Game, p *player, end game.State, seats []string, st setup) error {
	// The game began before --moves (and a --replay record's moves).
	start := st.start
	rec := record.Record{Format: record.Format, Game: g.Name()}
	for _, m := range append(append([]string(nil), st.played...), p.moves...) {
		rec.Moves = append(rec.Moves, record.Move{Ply: len(rec.Moves), Move: m})
	}
	// The seats of the moves, from a replay of the game's own moves.
	played, err := rec.Replay(start.Clone())
	if err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	rec.Moves = played
	fromStart := st.position != "" || st.replay != ""
	if !fromStart {
		opts, err := game.ParseOptions(g, st.opts)
		if err != nil {
			return err
		}
		rec.Options, rec.Seed = opts, strconv.FormatUint(st.seed, 10)
	}
	for seat, spec := range seats {
		pl := record.Player{Seat: seat, Name: start.SeatName(seat), Kind: "human"}
		if spec != "human" {
			pl.Kind, pl.Level = "bot", spec
		}
		rec.Players = append(rec.Players, pl)
	}
	if rec.Start, err = start.MarshalPosition(); err != nil {
		return err
	}
	if rec.Final, err = end.MarshalPosition(); err != nil {
		return err
	}
	if rec.Result = record.ResultOf(end); rec.Result != nil {
		rec.Status = "finished"
		if c, ok := end.(game.ChanceRecorder); ok {
			if rec.Chance, err = c.ChanceJSON(); err != nil {
				return err
			}
		}
	}
	var data []byte
	if strings.HasSuffix(path, ".txt") {
		data = []byte(rec.Text(fromStart) + "\n")
	} else if data, err = json.MarshalIndent(rec, "", "  "); err != nil {
		return err
	} else {
		data = append(data, '\n')
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}
