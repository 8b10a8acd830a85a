package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/record"
)

// TestPlayRecordReplays: `tabula play --record` writes the site's record
// (package record), which holds the moves given with --moves too (the old
// file began after them, so it did not replay), and replays to the
// position it says the game ended in.
func TestPlayRecordReplays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	code, _, errs := tabula(t, "", "play", "sgolte", "-o", "pie=off", "--moves", "e5", "--p1", "random", "--p2", "random", "--seed", "3", "--record", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rec, err := record.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if rec.Format != record.Format || rec.Seed != "3" || rec.Options["pie"] != "off" || len(rec.Moves) < 2 || rec.Moves[0].Move != "e5" {
		t.Fatalf("record %+v", rec)
	}
	if rec.Result == nil || rec.Status != "finished" || len(rec.Players) != 2 || rec.Players[1].Kind != "bot" {
		t.Errorf("result %+v status %q players %+v", rec.Result, rec.Status, rec.Players)
	}
	start, err := rec.StartState()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rec.Replay(start.State); err != nil {
		t.Fatalf("the record does not replay: %v", err)
	}
	g, _ := game.Lookup("sgolte")
	final, err := g.ParsePosition(rec.Final)
	if err != nil || final.Hash() != start.State.Hash() {
		t.Fatalf("the replay ends elsewhere than the record's final position (%v)", err)
	}
}

// TestReplayReadsRecords: --replay starts a command from a record, the
// text line as well as the JSON, then plays --moves after it.
func TestReplayReadsRecords(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.txt")
	code, _, errs := tabula(t, "e5\nquit\n", "play", "sgolte", "-o", "pie=off", "--p2", "random", "--record", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(path)
	line := strings.TrimSpace(string(data))
	if strings.Count(string(data), "\n") != 1 || !strings.HasPrefix(line, "tabula-record/1 | game=sgolte | options=") || strings.Contains(line, "result=") {
		t.Fatalf("text record %q", data)
	}
	rec, err := record.ParseText(line)
	if err != nil || len(rec.Moves) != 2 {
		t.Fatalf("%+v %v", rec, err)
	}
	moves := rec.Moves[0].Move + " " + rec.Moves[1].Move
	_, want, _ := tabula(t, "", "moves", "sgolte", "-o", "pie=off", "--moves", moves+" a1")
	code, got, errs := tabula(t, "", "moves", "sgolte", "--replay", path, "--moves", "a1")
	if code != 0 || got != want || got == "" {
		t.Fatalf("--replay: exit %d %s\n%q\nwant\n%q", code, errs, got, want)
	}
	// From stdin, and refused beside -o or for another game.
	if code, got, errs = tabula(t, line, "moves", "sgolte", "--replay", "-", "--moves", "a1"); code != 0 || got != want {
		t.Errorf("--replay -: exit %d %s", code, errs)
	}
	if code, _, errs = tabula(t, "", "moves", "sgolte", "--replay", path, "-o", "pie=off"); code == 0 || !strings.Contains(errs, "do not go with it") {
		t.Errorf("--replay with -o: exit %d %s", code, errs)
	}
	if code, _, errs = tabula(t, "", "moves", "sploof", "--replay", path); code == 0 || !strings.Contains(errs, "a game of sgolte") {
		t.Errorf("--replay of another game: exit %d %s", code, errs)
	}
}
