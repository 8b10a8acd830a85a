package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// TestMain doubles as an engine: with TABULA_TEST_ENGINE set the test binary
// speaks the bot protocol instead of running tests, so that tabula bot
// check meets real programs, right and deliberately wrong ones.
func TestMain(m *testing.M) {
	if mode := os.Getenv("TABULA_TEST_ENGINE"); mode != "" {
		testEngine(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// testEngine plays the first legal move, except where its mode makes it
// wrong in one of the ways an engine written from docs/bots.md might be.
func testEngine(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	for in.Scan() {
		var req struct {
			Type  string         `json:"type"`
			View  map[string]any `json:"view"`
			Legal []string       `json:"legal"`
		}
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			os.Exit(3)
		}
		if req.Type == "hello" {
			switch mode {
			case "badhello":
				fmt.Println(`{"type":"hello","protocol":3,"name":"from the future"}`)
			case "v1": // indexes the legal moves the hello does not have, and ends
				_ = req.Legal[0]
			default:
				fmt.Printf(`{"type":"hello","protocol":2,"name":"test engine (%s)"}`+"\n", mode)
			}
			continue
		}
		move := req.Legal[0]
		phase, _ := req.View["phase"].(string)
		switch mode {
		case "sgolte-noflips": // places without flipping when a merge must flip
			for _, m := range req.Legal {
				if strings.Contains(m, ",") {
					move, _, _ = strings.Cut(m, "(")
				}
			}
		case "sploof-nostar": // writes a removal as the point alone
			for _, m := range req.Legal {
				if strings.HasPrefix(m, "*") {
					move = m[1:]
				}
			}
		case "skjuub-wholeturn": // answers a bonus action with the rest of the turn
			if phase == "bonus" {
				move += " pass"
			}
		case "skyjo-twostep": // forgets that a turn is two decisions
			if phase == "drawn" || phase == "took" {
				move = "draw"
			}
		case "slow":
			time.Sleep(time.Second)
		case "chatty": // adds a field the protocol does not have
			fmt.Printf(`{"move":%q,"eval":0.5}`+"\n", move)
			continue
		}
		out, _ := json.Marshal(map[string]string{"move": move})
		fmt.Println(string(out))
	}
}

func engineSpec(t *testing.T, mode, limits string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("exec:%sTABULA_TEST_ENGINE=%s %q", limits, mode, exe)
}

// A right engine passes every check, whether it says hello or not.
func TestBotCheckPassesARightEngine(t *testing.T) {
	for _, mode := range []string{"first", "v1"} {
		code, out, errs := tabula(t, "", "bot", "check", "--engine", engineSpec(t, mode, ""))
		if code != 0 || strings.Contains(out, "FAIL") || !strings.Contains(out, "passed: ") {
			t.Fatalf("%s: exit %d, stderr %q:\n%s", mode, code, errs, out)
		}
		if mode == "first" && !strings.Contains(out, `"test engine (first)", protocol 2, plays every game`) {
			t.Errorf("the report does not say who the engine is:\n%s", out)
		}
	}
}

// An engine wrong in one game's awkward case fails that case, and the
// check says which game and what (issue 26, item 3).
func TestBotCheckCatchesWrongEngines(t *testing.T) {
	cases := []struct {
		mode, game string
		fails      []string // check names that must fail
		why        string
	}{
		{"sgolte-noflips", "sgolte", []string{"a merge that flips a chain of two or more stones"}, "illegal"},
		{"sploof-nostar", "sploof", []string{"an empty stock: only removals are legal", "a removal under a stack"}, "illegal"},
		{"skjuub-wholeturn", "skjuub", []string{"a bonus action after a sacrifice", "a bonus chain"}, "pass"},
		{"skyjo-twostep", "skyjo", []string{"a drawn card: keep it (swap) or discard it and flip", "a taken discard"}, `"draw"`},
		{"chatty", "sgolte", []string{"the pie rule"}, "unreadable reply"},
	}
	for _, c := range cases {
		t.Run(c.mode, func(t *testing.T) {
			code, out, errs := tabula(t, "", "bot", "check", "--engine", engineSpec(t, c.mode, ""), "--game", c.game)
			if code != 1 || !strings.Contains(errs, "check failed: "+c.game) {
				t.Fatalf("exit %d, stderr %q, want 1 naming %s:\n%s", code, errs, c.game, out)
			}
			for _, name := range c.fails {
				line := ""
				for _, l := range strings.Split(out, "\n") {
					if strings.Contains(l, "FAIL  "+name) {
						line = l
					}
				}
				if line == "" || !strings.Contains(line, c.why) {
					t.Errorf("no FAIL line for %q saying %q:\n%s", name, c.why, out)
				}
			}
			if !strings.Contains(out, "        request: {\"type\":\"move\"") {
				t.Errorf("a failure does not show the request:\n%s", out)
			}
		})
	}
}

// A wrong hello and a late engine are caught too.
func TestBotCheckCatchesProtocolErrors(t *testing.T) {
	code, out, errs := tabula(t, "", "bot", "check", "--engine", engineSpec(t, "badhello", ""))
	if code != 1 || !strings.Contains(out, "FAIL  start-up: handshake: the engine speaks protocol 3") {
		t.Errorf("bad hello: exit %d, stderr %q:\n%s", code, errs, out)
	}
	code, out, errs = tabula(t, "", "bot", "check", "--game", "sploof", "--engine", engineSpec(t, "slow", "time=200ms:grace=100ms:"))
	if code != 1 || !strings.Contains(out, "FAIL  the start: placements and removals of reds: no reply within 300ms") {
		t.Errorf("slow engine: exit %d, stderr %q:\n%s", code, errs, out)
	}
}

// docs/bots.md shows the exact JSON of a whole game: replayed here, every
// request is what Tabula sends in that position, every reply is legal, and
// the game ends as the page says.
func TestBotsPageTranscriptIsExact(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "bots.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, block, ok := strings.Cut(string(data), "<!-- transcript: sploof first=white seed=6 -->\n```\n")
	block, _, ok2 := strings.Cut(block, "```")
	if !ok || !ok2 {
		t.Fatal("docs/bots.md has no transcript block")
	}
	g, _ := game.Lookup("sploof")
	o, err := game.ParseOptions(g, []string{"first=white"})
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.New(o, 6)
	if err != nil {
		t.Fatal(err)
	}
	hello, _ := json.Marshal(agent.Hello{Type: "hello", Protocol: agent.ProtocolVersion})
	requests := 0
	for i, line := range strings.Split(strings.TrimSpace(block), "\n") {
		switch {
		case strings.HasPrefix(line, "→ "):
			msg := strings.TrimPrefix(line, "→ ")
			want := string(hello)
			if i > 0 {
				obs, err := game.Observe(s, s.ToMove())
				if err != nil {
					t.Fatal(err)
				}
				req, err := agent.NewRequest(obs, agent.DefaultExecBudget)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := json.Marshal(req)
				want = string(b)
				requests++
			}
			if msg != want {
				t.Fatalf("line %d:\n page   %s\n tabula %s", i+1, msg, want)
			}
		case strings.HasPrefix(line, "← "):
			var r struct {
				Type string `json:"type"`
				Move string `json:"move"`
			}
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "← ")), &r); err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			if r.Type == "hello" {
				continue
			}
			m, err := s.ParseMove(r.Move)
			if err != nil {
				t.Fatalf("line %d: %v", i+1, err)
			}
			s.Play(m)
		case strings.HasPrefix(line, "  black plays "):
			m, err := s.ParseMove(strings.TrimPrefix(line, "  black plays "))
			if err != nil || s.SeatName(s.ToMove()) != "black" {
				t.Fatalf("line %d: %v (to move: %s)", i+1, err, s.SeatName(s.ToMove()))
			}
			s.Play(m)
		default:
			t.Fatalf("line %d: unexpected %q", i+1, line)
		}
	}
	if out := s.Outcome(); requests == 0 || !out.Over() || !out.IsWinner(0) || s.SeatName(0) != "white" {
		t.Errorf("after %d requests: outcome %+v, want White (seat 0) to have won", requests, out)
	}
}

// Bad input to tabula bot is one line on stderr naming what was wrong.
func TestBotBadInputGivesOneLine(t *testing.T) {
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"bot"}, "want a subcommand"},
		{[]string{"bot", "connect"}, "tabula bot --server URL"},
		{[]string{"bot", "check"}, "--engine"},
		{[]string{"bot", "check", "--engine", "wizard"}, "wizard"},
		{[]string{"bot", "check", "--engine", "exec:"}, "needs a command"},
		{[]string{"bot", "check", "--engine", "exec:time=fast:./bot"}, "time=\"fast\""},
		{[]string{"bot", "check", "--engine", "random", "--game", "chess"}, "unknown game \"chess\""},
		{[]string{"bot", "check", "--engine", "random", "extra"}, "unexpected argument \"extra\""},
		{[]string{"bot", "check", "--engine", "exec:/no/such/engine"}, "the engine did not start"},
	}
	for _, c := range cases {
		code, _, errs := tabula(t, "", c.args...)
		lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
		if code == 0 || len(lines) != 1 || !strings.Contains(errs, c.says) || strings.Contains(errs, "goroutine") {
			t.Errorf("%q: exit %d, stderr %q; want non-zero and one line mentioning %q", c.args, code, errs, c.says)
		}
	}
}
