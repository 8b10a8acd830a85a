package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/tabula-games/tabula/arena"
	"github.com/tabula-games/tabula/game"
)

// An arena log (`tabula arena --log FILE`) keeps a long match safe from
// interruption: a header line names the match, then each finished game is
// appended as one JSON line and synced. Started again with the same log,
// the match skips the games already in it; every game is seeded by its
// index, so the resumed match is the very match that was interrupted.

// arenaLogHeader is a log's first line: what makes two runs one match.
type arenaLogHeader struct {
	Game    string   `json:"game"`
	Options string   `json:"options"`
	Agents  []string `json:"agents"`
	Seed    uint64   `json:"seed"`
}

// arenaLogGame is one game's line.
type arenaLogGame struct {
	Index       int    `json:"index"`
	Seats       []int  `json:"seats"` // agent index per seat
	Result      string `json:"result"`
	Winners     []int  `json:"winners,omitempty"`
	Plies       int    `json:"plies"`
	ForfeitSeat int    `json:"forfeitSeat"`
	Forfeit     string `json:"forfeit,omitempty"`
	// GameSeed and Moves replay the game: `tabula show GAME -o … --seed
	// GAMESEED --moves "…"` (absent from logs written before they were kept).
	GameSeed *uint64  `json:"gameSeed,omitempty"`
	Moves    []string `json:"moves,omitempty"`
}

// arenaLog is an open log, positioned for appending.
type arenaLog struct {
	f    *os.File
	path string
	err  error     // the first write error, reported at the end of the match
	warn io.Writer // where to say that the log was put back (nil: nowhere)
}

// openArenaLog opens (or creates) the log at path for the match h and
// returns the games it already holds. A last line cut short by a crash is
// dropped; a log of another match is an error, and nothing is written.
func openArenaLog(path string, h arenaLogHeader) (*arenaLog, []arena.GameResult, error) {
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, nil, err
	}
	var played []arena.GameResult
	keep := len(data) // bytes of the file that stay
	if len(data) > 0 {
		first, rest, _ := bytes.Cut(data, []byte("\n"))
		var got arenaLogHeader
		if err := json.Unmarshal(first, &got); err != nil {
			return nil, nil, fmt.Errorf("log %s: the first line is not an arena log header: %v", path, err)
		}
		if got.Game != h.Game || got.Options != h.Options || got.Seed != h.Seed || !slices.Equal(got.Agents, h.Agents) {
			return nil, nil, fmt.Errorf("log %s is for another match (%s %s, agents %q, seed %d)", path, got.Game, got.Options, got.Agents, got.Seed)
		}
		offset := len(first) + 1
		sc := bufio.NewScanner(bytes.NewReader(rest))
		sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
		for sc.Scan() {
			line := sc.Bytes()
			end := offset + len(line) + 1
			var lg arenaLogGame
			if err := json.Unmarshal(line, &lg); err != nil {
				if end >= len(data) { // the last line, cut short by a crash
					keep = offset
					break
				}
				return nil, nil, fmt.Errorf("log %s: game line %q: %v", path, line, err)
			}
			gr, err := lg.result()
			if err != nil {
				return nil, nil, fmt.Errorf("log %s: %v", path, err)
			}
			played = append(played, gr)
			offset = end
		}
		if err := sc.Err(); err != nil {
			return nil, nil, fmt.Errorf("log %s: %v", path, err)
		}
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, nil, err
	}
	l := &arenaLog{f: f, path: path}
	if err := f.Truncate(int64(keep)); err != nil {
		f.Close()
		return nil, nil, err
	}
	if _, err := f.Seek(0, io.SeekEnd); err != nil {
		f.Close()
		return nil, nil, err
	}
	if keep == 0 {
		l.writeLine(h)
	} else if data[keep-1] != '\n' {
		l.writeLine(nil) // finish a header written without its newline
	}
	return l, played, l.err
}

// add appends a finished game.
func (l *arenaLog) add(gr arena.GameResult) {
	lg := arenaLogGame{Index: gr.Index, Seats: gr.Seats, Result: gr.Outcome.Status.String(), Plies: gr.Plies,
		ForfeitSeat: gr.ForfeitSeat, Forfeit: gr.Forfeit, GameSeed: &gr.GameSeed, Moves: gr.Moves}
	for seat := range gr.Seats {
		if gr.Outcome.IsWinner(seat) {
			lg.Winners = append(lg.Winners, seat)
		}
	}
	l.writeLine(lg)
}

// writeLine writes v as one JSON line (nil: just the newline) and syncs.
func (l *arenaLog) writeLine(v any) {
	if l.err != nil {
		return
	}
	l.err = l.keepPath()
	var line []byte
	if v != nil && l.err == nil {
		line, l.err = json.Marshal(v)
	}
	if l.err == nil {
		_, l.err = l.f.Write(append(line, '\n'))
	}
	if l.err == nil {
		l.err = l.f.Sync()
	}
	if l.err != nil {
		l.err = fmt.Errorf("log %s: %w", l.path, l.err)
	}
}

// keepPath makes sure the file written is still the one at l.path. A match
// runs for hours, and the file can be replaced under it meanwhile — a `git
// stash` or `git checkout` of a committed log writes a new file rather than
// editing the old one — and every game appended to the unlinked file would
// vanish when the match ends. The file held has every game so far, so it is
// written back to the path and appending goes on there — unless the file now
// at the path is not an earlier state of this log (someone put another file
// there on purpose): that one is left alone and the match goes on in
// PATH.recovered.
func (l *arenaLog) keepPath() error {
	held, err := l.f.Stat()
	if err != nil {
		return err
	}
	if cur, err := os.Stat(l.path); err == nil && os.SameFile(held, cur) {
		return nil
	}
	data := make([]byte, held.Size())
	if _, err := l.f.ReadAt(data, 0); err != nil {
		return fmt.Errorf("read back the replaced log: %w", err)
	}
	if cur, err := os.ReadFile(l.path); err == nil && !bytes.HasPrefix(data, cur) {
		l.path += ".recovered"
	}
	tmp := l.path + ".tmp"
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.Write(data); err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, l.path)
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	l.f.Close()
	l.f = f // positioned at its end by the write
	if l.warn != nil {
		fmt.Fprintf(l.warn, "arena: the log was replaced or removed while the match ran; wrote the match's %d lines to %s and go on there\n",
			bytes.Count(data, []byte("\n")), l.path)
	}
	return nil
}

// close closes the file and reports the first error of the match.
func (l *arenaLog) close() error {
	if err := l.f.Close(); l.err == nil && err != nil {
		l.err = fmt.Errorf("log %s: %w", l.path, err)
	}
	return l.err
}

// result turns a log line back into a game result.
func (lg arenaLogGame) result() (arena.GameResult, error) {
	gr := arena.GameResult{Index: lg.Index, Seats: lg.Seats, Plies: lg.Plies, ForfeitSeat: lg.ForfeitSeat, Forfeit: lg.Forfeit,
		Moves: lg.Moves}
	if lg.GameSeed != nil {
		gr.GameSeed = *lg.GameSeed
	}
	switch lg.Result {
	case game.Drawn.String():
		gr.Outcome = game.Outcome{Status: game.Drawn}
	case game.Won.String():
		for _, w := range lg.Winners {
			if w < 0 || w >= len(lg.Seats) {
				return gr, fmt.Errorf("game %d: winner seat %d out of range", lg.Index, w)
			}
		}
		if len(lg.Winners) == 0 {
			return gr, fmt.Errorf("game %d: won, but by nobody", lg.Index)
		}
		gr.Outcome = game.WinOutcome(lg.Winners...)
	default:
		return gr, fmt.Errorf("game %d: result %q is neither won nor drawn", lg.Index, lg.Result)
	}
	return gr, nil
}
