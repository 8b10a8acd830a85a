package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestArenaLogResumes: a match interrupted after some games (its log cut
// there, with a last line half written) and started again with the same log
// plays only the missing games and ends with the results of the match
// played in one go.
func TestArenaLogResumes(t *testing.T) {
	args := []string{"arena", "skyjo", "-o", "players=3", "--agents", "greedy,random", "--games", "7", "--seed", "5", "--json"}
	arenaJSON := func(extra ...string) arenaReport {
		t.Helper()
		code, out, errs := tabula(t, "", append(append([]string(nil), args...), extra...)...)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
		var rep arenaReport
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		return rep
	}
	whole := arenaJSON()

	log := filepath.Join(t.TempDir(), "match.log")
	logged := arenaJSON("--log", log)
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
	resumed := arenaJSON("--log", log)
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
