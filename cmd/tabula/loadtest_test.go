package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoadtestFlood (issue 16, finding 2): `tabula loadtest --flood` runs
// pairs of people first alone, then beside a registered user and a guest
// who start as many games with hard bots as the quotas allow and keep
// asking for more. What it asserts is the behaviour, not the latencies
// (those are measured, docs/security.md): the flooders fill their quotas
// and are then refused, only ever with 429 quota or — a guest's game of
// bots only — 403 forbidden, never anything else (no 5xx); the people's
// games keep moving throughout.
func TestLoadtestFlood(t *testing.T) {
	dir := t.TempDir()
	out, err := startServe(t, "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--db", filepath.Join(dir, "flood.db"),
		"--rate", "0", "--signup-rate", "0", "--ws-rate", "0", "--log-level", "error")
	if err != nil {
		t.Fatal(err)
	}
	site, metrics := lineAfter(out, "listening on "), lineAfter(out, "metrics on ")
	code, stdout, stderr := tabula(t, "", "loadtest", "--addr", site, "--metrics", metrics, "--flood",
		"--games", "2", "--duration", "4s", "--game", "sgolte", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, stderr, stdout)
	}
	var r struct {
		Errors int64
		Flood  *struct {
			Idle, Flooded struct{ Moves int }
			Filled        bool `json:"quotas_filled"`
			Other         int  `json:"other_answers"`
			Flooders      []struct {
				User    string
				Created int            `json:"games_created"`
				Refused map[string]int `json:"refused"`
				Other   map[string]int `json:"other_answers"`
			}
		}
	}
	if err := json.Unmarshal([]byte(stdout), &r); err != nil || r.Flood == nil {
		t.Fatalf("report %q: %v", stdout, err)
	}
	f := r.Flood
	if r.Errors != 0 || f.Other != 0 {
		t.Fatalf("errors %d, flooders' other answers %d: %s", r.Errors, f.Other, stdout)
	}
	if f.Idle.Moves == 0 || f.Flooded.Moves == 0 {
		t.Fatalf("the people's games stopped moving: %d moves alone, %d beside the flood", f.Idle.Moves, f.Flooded.Moves)
	}
	if !f.Filled || len(f.Flooders) != 2 {
		t.Fatalf("the flooders did not fill their quotas: %s", stdout)
	}
	for _, fl := range f.Flooders {
		guest := strings.HasPrefix(fl.User, "guest")
		// Three games with bots each: the registered user's first a
		// game of bots only, the guest's all against itself.
		if fl.Created < 3 || fl.Refused["429 quota"] == 0 || len(fl.Other) != 0 {
			t.Errorf("%s: %d games, refused %v, other answers %v", fl.User, fl.Created, fl.Refused, fl.Other)
		}
		for k := range fl.Refused {
			if k != "429 quota" && (k != "403 forbidden" || !guest) {
				t.Errorf("%s refused with %q", fl.User, k)
			}
		}
		if guest && fl.Refused["403 forbidden"] == 0 {
			t.Errorf("the guest's games of bots only were not refused with 403: %v", fl.Refused)
		}
	}
}
