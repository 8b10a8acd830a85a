package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestMain doubles as the outside bot: run with TABULA_TEST_BOT set, the
// test binary speaks the bot protocol instead of running tests, so the exec
// agent is tested against a real separate process without building one.
func TestMain(m *testing.M) {
	if mode := os.Getenv("TABULA_TEST_BOT"); mode != "" {
		testBot(mode)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func testBot(mode string) {
	in := bufio.NewScanner(os.Stdin)
	for in.Scan() {
		var req Request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "bad request:", err)
			os.Exit(3)
		}
		switch mode {
		case "first":
			out, _ := json.Marshal(Reply{Move: req.Legal[0]})
			fmt.Println(string(out))
		case "garbage":
			fmt.Println("I think I'll take the big pile, thanks")
		case "illegal":
			fmt.Println(`{"move":"99"}`)
		case "silent":
			time.Sleep(time.Hour)
		case "crash":
			fmt.Fprintln(os.Stderr, "bot: something broke")
			os.Exit(1)
		}
	}
}

func botCommand(t *testing.T, mode string) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("TABULA_TEST_BOT=%s %q", mode, exe)
}

func TestExecPlaysAFullGame(t *testing.T) {
	a := NewExec(botCommand(t, "first"), time.Second)
	defer a.Close()
	s := &nim{Pile: 9}
	for s.ToMove() >= 0 {
		m, err := a.Choose(context.Background(), seen(s))
		if err != nil {
			t.Fatal(err)
		}
		if m != 1 { // "1" sorts first among the legal moves
			t.Fatalf("bot chose %d, want 1", m)
		}
		s.Play(m)
	}
}

func TestExecForfeits(t *testing.T) {
	cases := map[string]string{
		"garbage": "unreadable reply",
		"illegal": "illegal move",
		"silent":  "no reply within",
		"crash":   "something broke",
	}
	for mode, why := range cases {
		t.Run(mode, func(t *testing.T) {
			// Generous for the bots that answer (a race-instrumented binary
			// on a loaded machine starts slowly), short for the silent one.
			budget := 5 * time.Second
			if mode == "silent" {
				budget = 300 * time.Millisecond
			}
			a := NewExec(botCommand(t, mode), budget)
			a.Grace = 200 * time.Millisecond
			defer a.Close()
			start := time.Now()
			_, err := a.Choose(context.Background(), seen(&nim{Pile: 9}))
			if !errors.Is(err, ErrForfeit) {
				t.Fatalf("err = %v, want a forfeit", err)
			}
			if !strings.Contains(err.Error(), why) {
				t.Errorf("err = %q, want it to say %q", err, why)
			}
			if time.Since(start) > 20*time.Second {
				t.Errorf("forfeit took %v", time.Since(start))
			}
			// The seat stays forfeited.
			if _, err2 := a.Choose(context.Background(), seen(&nim{Pile: 9})); !errors.Is(err2, ErrForfeit) {
				t.Errorf("second call: %v, want the same forfeit", err2)
			}
		})
	}
}

func TestExecRequestShape(t *testing.T) {
	req, err := NewRequest(seen(&nim{Pile: 2, Turn: 1}), 1500*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(req)
	var got map[string]any
	json.Unmarshal(data, &got)
	for _, k := range []string{"type", "game", "seat", "view", "legal", "timeMs"} {
		if _, ok := got[k]; !ok {
			t.Errorf("request lacks %q: %s", k, data)
		}
	}
	if got["type"] != "move" || got["game"] != "nim" || got["seat"] != 1.0 || got["timeMs"] != 1500.0 {
		t.Errorf("request %s", data)
	}
	if l := got["legal"].([]any); len(l) != 2 || l[0] != "1" || l[1] != "2" {
		t.Errorf("legal = %v", l)
	}
}
