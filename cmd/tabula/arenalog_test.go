package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/arena"
	"github.com/tabula-games/tabula/game"
)

// TestArenaLogResumes: a match interrupted after some games (its log cut
// there, with a last line half written) and started again with the same log
// plays only the missing games and ends with the results of the match
// played in one go.
func TestArenaLogResumes(t *testing.T) {
	args := []string{"skyjo", "-o", "players=3", "--agents", "greedy,random", "--games", "7", "--seed", "5"}
	match := func(extra ...string) arenaReport {
		t.Helper()
		return arenaJSON(t, append(append([]string(nil), args...), extra...)...)
	}
	whole := match()

	log := filepath.Join(t.TempDir(), "match.log")
	logged := match("--log", log)
	if !reflect.DeepEqual(logged.Results, whole.Results) {
		t.Fatalf("with a log the match differs:\n%+v\n%+v", logged.Results, whole.Results)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
	if len(lines) != 1+7 {
		t.Fatalf("log has %d lines, want a header and 7 games:\n%s", len(lines), data)
	}
	// Keep the header and three games; the fourth was being written.
	cut := strings.Join(lines[:4], "") + lines[4][:len(lines[4])/2]
	if err := os.WriteFile(log, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	resumed := match("--log", log)
	if !reflect.DeepEqual(resumed.Results, whole.Results) || !reflect.DeepEqual(resumed.Agents, whole.Agents) {
		t.Errorf("the resumed match differs from the whole one:\n%+v\n%+v", resumed, whole)
	}
	data, _ = os.ReadFile(log)
	if n := strings.Count(string(data), "\n"); n != 1+7 {
		t.Errorf("after resuming the log has %d lines, want 8:\n%s", n, data)
	}

	// A log of another match is refused and left alone.
	before, _ := os.ReadFile(log)
	code, _, errs := tabula(t, "", "arena", "skyjo", "--agents", "greedy,random", "--games", "2", "--seed", "6", "--log", log)
	if code == 0 || !strings.Contains(errs, "another match") {
		t.Errorf("another match's log: exit %d, %q", code, errs)
	}
	if after, _ := os.ReadFile(log); string(after) != string(before) {
		t.Error("a refused log was changed")
	}
}

// TestArenaLogSurvivesReplacement: when the log file is replaced during a
// match (here by an older copy, as `git stash` of a committed log does), the
// games written so far are not lost to the unlinked file: the next game
// puts the whole match back at the path and goes on from there.
func TestArenaLogSurvivesReplacement(t *testing.T) {
	path := filepath.Join(t.TempDir(), "match.log")
	h := arenaLogHeader{Game: "sploof", Options: "x", Agents: []string{"greedy", "random"}, Seed: 1}
	l, played, err := openArenaLog(path, h)
	if err != nil || len(played) != 0 {
		t.Fatalf("open: %v, %d played", err, len(played))
	}
	var warned strings.Builder
	l.warn = &warned
	won := func(i int) arena.GameResult {
		return arena.GameResult{Index: i, Seats: []int{i % 2, 1 - i%2}, Outcome: game.WinOutcome(0), Plies: 10 + i, ForfeitSeat: -1}
	}
	l.add(won(0))
	older, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l.add(won(1))
	// Replace the file with its older self: a new file renamed over the path.
	if err := os.WriteFile(path+".old", older, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(path+".old", path); err != nil {
		t.Fatal(err)
	}
	l.add(won(2))
	os.Remove(path) // and once more, removed outright
	l.add(won(3))
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(warned.String(), "was replaced or removed"); n != 2 {
		t.Errorf("%d warnings, want 2: %q", n, warned.String())
	}
	_, played, err = openArenaLog(path, h)
	if err != nil {
		t.Fatal(err)
	}
	want := []arena.GameResult{won(0), won(1), won(2), won(3)}
	if !reflect.DeepEqual(played, want) {
		t.Errorf("log holds %+v, want %+v", played, want)
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("a temporary file was left behind: %v", err)
	}
}

// TestArenaLogLeavesAnotherFileAlone: a file put at the log's path during a
// match that is not an earlier state of the log is not overwritten; the
// match goes on in PATH.recovered, whole.
func TestArenaLogLeavesAnotherFileAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "match.log")
	h := arenaLogHeader{Game: "sploof", Options: "x", Agents: []string{"greedy", "random"}, Seed: 1}
	l, _, err := openArenaLog(path, h)
	if err != nil {
		t.Fatal(err)
	}
	var warned strings.Builder
	l.warn = &warned
	won := func(i int) arena.GameResult {
		return arena.GameResult{Index: i, Seats: []int{0, 1}, Outcome: game.WinOutcome(1), Plies: 7, ForfeitSeat: -1}
	}
	l.add(won(0))
	other := []byte("someone else's notes\n")
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, other, 0o644); err != nil {
		t.Fatal(err)
	}
	l.add(won(1))
	l.add(won(2))
	if err := l.close(); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(other) {
		t.Errorf("the other file was changed: %q", got)
	}
	if !strings.Contains(warned.String(), path+".recovered") {
		t.Errorf("warning %q does not name the recovered log", warned.String())
	}
	_, played, err := openArenaLog(path+".recovered", h)
	if err != nil {
		t.Fatal(err)
	}
	if want := []arena.GameResult{won(0), won(1), won(2)}; !reflect.DeepEqual(played, want) {
		t.Errorf("recovered log holds %+v, want %+v", played, want)
	}
}

// TestArenaLogReplays: each game's line holds its seed and moves, and
// `tabula moves` replays them to the result the line records — Skyjo's
// chance events included — so a drawn game of a long match can be looked at.
func TestArenaLogReplays(t *testing.T) {
	for _, m := range []struct {
		game string
		opts []string
		seed string
	}{
		{"skyjo", []string{"-o", "players=3"}, "5"},
		{"skjuub", nil, "3"},
		{"sgolte", nil, "8"},
	} {
		log := filepath.Join(t.TempDir(), m.game+".log")
		args := append(append([]string{m.game}, m.opts...), "--agents", "greedy,random", "--games", "3", "--seed", m.seed, "--log", log)
		arenaJSON(t, args...)
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")[1:]
		if len(lines) != 3 {
			t.Fatalf("%s: %d games in the log, want 3", m.game, len(lines))
		}
		for _, line := range lines {
			var lg arenaLogGame
			if err := json.Unmarshal([]byte(line), &lg); err != nil {
				t.Fatal(err)
			}
			if lg.GameSeed == nil || len(lg.Moves) != lg.Plies || lg.Plies == 0 {
				t.Fatalf("%s game %d: seed %v, %d moves for %d plies", m.game, lg.Index, lg.GameSeed, len(lg.Moves), lg.Plies)
			}
			margs := append(append([]string{"moves", m.game}, m.opts...), "--seed", fmt.Sprint(*lg.GameSeed),
				"--moves", strings.Join(lg.Moves, " "), "--json")
			code, out, errs := tabula(t, "", margs...)
			if code != 0 {
				t.Fatalf("%s game %d: replay exit %d: %s", m.game, lg.Index, code, errs)
			}
			var got struct {
				Status string `json:"status"`
			}
			if err := json.Unmarshal([]byte(out), &got); err != nil || got.Status != lg.Result {
				t.Errorf("%s game %d: replayed to %q (%v), the log says %s", m.game, lg.Index, got.Status, err, lg.Result)
			}
			// Who won, by seat number as the log counts them.
			g, _ := game.Lookup(m.game)
			o, err := game.ParseOptions(g, m.opts[min(1, len(m.opts)):])
			if err != nil {
				t.Fatal(err)
			}
			s, err := g.New(o, *lg.GameSeed)
			if err != nil {
				t.Fatal(err)
			}
			for _, text := range lg.Moves {
				mv, err := s.ParseMove(text)
				if err != nil {
					t.Fatalf("%s game %d: %v", m.game, lg.Index, err)
				}
				s.Play(mv)
			}
			var winners []int
			for seat := 0; seat < s.NumPlayers(); seat++ {
				if s.Outcome().Status == game.Won && s.Outcome().IsWinner(seat) {
					winners = append(winners, seat)
				}
			}
			if !reflect.DeepEqual(winners, lg.Winners) {
				t.Errorf("%s game %d: replayed, seats %v won; the log says %v", m.game, lg.Index, winners, lg.Winners)
			}
		}
	}
}
