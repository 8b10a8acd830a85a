package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTournamentSimulateEveryFormat(t *testing.T) {
	cases := [][]string{
		{"--format", "swiss", "--game", "sploof", "--players", "9", "--rounds", "3"},
		{"--format", "roundrobin", "--game", "skyjo", "--players", "4", "--agents", "random", "--double"},
		{"--format", "arena", "--game", "sgolte", "--players", "6", "--minutes", "5", "--agents", "random"},
		{"--format", "tables", "--game", "skyjo", "--players", "10", "--rounds", "2", "--agents", "random,greedy"},
	}
	for _, c := range cases {
		code, out, errs := tabula(t, "", append([]string{"tournament", "simulate"}, c...)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", c, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !strings.HasPrefix(lines[0], c[1]+" · ") || !strings.Contains(lines[1], "rank") || !strings.HasPrefix(lines[len(lines)-1], "pairing: ") {
			t.Fatalf("%v: output\n%s", c, out)
		}
		players := 0
		for _, l := range lines[2 : len(lines)-1] {
			if f := strings.Fields(l); len(f) > 2 && strings.HasPrefix(f[1], "P") {
				players++
			}
		}
		want := map[string]int{"swiss": 9, "roundrobin": 4, "arena": 6, "tables": 10}[c[1]]
		if players != want {
			t.Fatalf("%v: %d standings lines, want %d\n%s", c, players, want, out)
		}
	}
}

func TestTournamentSimulateWritesTRF(t *testing.T) {
	path := filepath.Join(t.TempDir(), "swiss.trf")
	code, out, errs := tabula(t, "", "tournament", "simulate", "--format", "swiss", "--game", "skjuub", "--players", "5", "--rounds", "2", "--agents", "random", "--trf", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	trf := string(data)
	if !strings.Contains(trf, "XXR 2\n") || strings.Count(trf, "\n001 ") != 5 || !strings.HasPrefix(trf, "012 ") || !strings.Contains(out, "rank") {
		t.Fatalf("TRF:\n%s\nstdout:\n%s", trf, out)
	}
	if !strings.Contains(trf, "0000 - U") { // five players: a bye each round
		t.Fatalf("no bye in the TRF:\n%s", trf)
	}
	// --trf - writes the report on stdout and the standings on stderr
	code, out, errs = tabula(t, "", "tournament", "simulate", "--format", "swiss", "--game", "sploof", "--players", "4", "--rounds", "1", "--agents", "random", "--trf", "-")
	if code != 0 || !strings.HasPrefix(out, "012 ") || !strings.Contains(errs, "rank") {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
}

func TestTournamentSimulateBadInput(t *testing.T) {
	bad := [][]string{
		{},
		{"run"},
		{"simulate", "--format", "knockout", "--game", "sploof", "--players", "4"},
		{"simulate", "--format", "swiss", "--game", "chess", "--players", "4"},
		{"simulate", "--format", "swiss", "--game", "sploof", "--players", "1"},
		{"simulate", "--format", "swiss", "--game", "sploof", "--players", "4", "--rounds", "-1"},
		{"simulate", "--format", "swiss", "--game", "sploof", "--players", "4", "--agents", "nobot"},
		{"simulate", "--format", "roundrobin", "--game", "sploof", "--players", "17"},
		{"simulate", "--format", "roundrobin", "--game", "sploof", "--players", "4", "--rounds", "4"},
		{"simulate", "--format", "arena", "--game", "sploof", "--players", "4", "--rounds", "3"},
		{"simulate", "--format", "arena", "--game", "sploof", "--players", "4", "--minutes", "-5"},
		{"simulate", "--format", "arena", "--game", "sploof", "--players", "4", "--berserk", "2"},
		{"simulate", "--format", "tables", "--game", "sploof", "--players", "6"},
		{"simulate", "--format", "tables", "--game", "skyjo", "--players", "2"},
		{"simulate", "--format", "tables", "--game", "skyjo", "--players", "5", "--max-table", "3"},
		{"simulate", "--format", "arena", "--game", "sploof", "--players", "4", "--trf", "x.trf"},
		{"simulate", "--format", "swiss", "--game", "sploof", "--players", "4", "-o", "nosuch=1"},
		{"simulate", "--format", "swiss", "--game", "sploof", "--players", "4", "extra"},
	}
	for _, args := range bad {
		code, out, errs := tabula(t, "", append([]string{"tournament"}, args...)...)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if code == 0 || len(lines) != 1 || lines[0] == "" || strings.Contains(errs, "panic") || out != "" {
			t.Errorf("%v: exit %d, stderr %q, stdout %q: want one line of error", args, code, errs, out)
		}
	}
	if code, _, errs := tabula(t, "", "tournament", "simulate", "--help"); code != 0 || !strings.Contains(errs, "--format") {
		t.Fatalf("--help: exit %d: %s", code, errs)
	}
}
