package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/record"
)

// tabula runs the command in-process and returns its exit code and output.
func tabula(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

var allGames = []string{"sgolte", "skjuub", "skyjo", "sploof"}

func TestEveryGameIsRegistered(t *testing.T) {
	if got := strings.Join(game.Names(), ","); got != strings.Join(allGames, ",") {
		t.Fatalf("registered games %q, want %q", got, allGames)
	}
}

func TestMovesTextAndJSONAgree(t *testing.T) {
	for _, g := range allGames {
		code, out, errs := tabula(t, "", "moves", g)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", g, code, errs)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if !sort.StringsAreSorted(lines) || len(lines) == 0 {
			t.Errorf("%s: moves not sorted or empty: %q", g, lines)
		}
		code, out, errs = tabula(t, "", "moves", g, "--json")
		if code != 0 {
			t.Fatalf("%s --json: exit %d: %s", g, code, errs)
		}
		var d struct {
			ToMove   any             `json:"toMove"`
			Moves    []string        `json:"moves"`
			Status   string          `json:"status"`
			Winner   any             `json:"winner"`
			Position json.RawMessage `json:"position"`
		}
		if err := json.Unmarshal([]byte(out), &d); err != nil {
			t.Fatalf("%s: %v: %s", g, err, out)
		}
		if strings.Join(d.Moves, "\n") != strings.Join(lines, "\n") || d.Status != "ongoing" || d.Winner != nil || d.ToMove == nil {
			t.Errorf("%s: json %s disagrees with text %q", g, out, lines)
		}
		// The position JSON reads back to the same moves.
		code, out2, errs := tabula(t, string(d.Position), "moves", g, "--position", "-")
		if code != 0 || strings.TrimSpace(out2) != strings.Join(lines, "\n") {
			t.Errorf("%s: --position round trip: exit %d %s: %q", g, code, errs, out2)
		}
	}
}

func TestPerftDepthOneCountsTheMoves(t *testing.T) {
	for _, g := range allGames {
		_, out, _ := tabula(t, "", "moves", g)
		n := len(strings.Split(strings.TrimSpace(out), "\n"))
		code, p, errs := tabula(t, "", "perft", g, "--depth", "1")
		if code != 0 || strings.TrimSpace(p) != strconv.Itoa(n) {
			t.Errorf("%s: perft 1 = %q (%s), want %d", g, p, errs, n)
		}
	}
}

func TestMovesAfterAGame(t *testing.T) {
	// Sgolte vector 1 of the spec, reached by moves: Black d4, d6; White e3…e7 (pie off).
	code, out, errs := tabula(t, "", "moves", "sgolte", "-o", "pie=off", "--moves", "d4 e3 d6 e4 a1 e5 a5 e6 i1 e7")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d5 []string
	for _, m := range strings.Fields(out) {
		if strings.HasPrefix(m, "d5") {
			d5 = append(d5, m)
		}
	}
	if strings.Join(d5, " ") != "d5(e5) d5(e6)" {
		t.Errorf("d5 moves %q, want the spec's d5(e5) d5(e6)", d5)
	}
}

func TestSkyjoMovesWithSpacesReplay(t *testing.T) {
	code, out, errs := tabula(t, "", "moves", "skyjo", "--seed", "7", "--moves", "flip a1 flip b2 flip a1 flip c3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "draw") || !strings.Contains(out, "take") {
		t.Errorf("after the initial flips want draw and take, got %q", out)
	}
}

// Bad input: a non-zero exit and exactly one line on stderr naming the
// problem, never a panic.
func TestBadInputGivesOneLine(t *testing.T) {
	cases := []struct {
		stdin string
		args  []string
		says  string
	}{
		{"", []string{"moves", "chess"}, "unknown game"},
		{"", []string{"moves"}, "missing GAME"},
		{"", []string{"moves", "sgolte", "-o", "size=9"}, "size"},
		{"", []string{"moves", "sgolte", "-o", "colour=red"}, "unknown option"},
		{"", []string{"moves", "sgolte", "-o", "size"}, "key=value"},
		{"", []string{"moves", "sgolte", "--moves", "zz99"}, "zz99"},
		{"", []string{"moves", "sgolte", "--moves", "e5 e5"}, "e5"},
		{"{not json", []string{"moves", "sgolte", "--position", "-"}, "sgolte"},
		{"", []string{"moves", "sgolte", "--position", "/no/such/file"}, "no such file"},
		{"", []string{"moves", "sgolte", "--nosuchflag"}, "nosuchflag"},
		{"", []string{"perft", "sploof", "--depth", "-3"}, "depth"},
		{"", []string{"frobnicate"}, "unknown command"},
		{"", []string{"arena", "sploof", "--agents", "greedy"}, "two agents"},
		{"", []string{"arena", "sploof", "--agents", "greedy,wizard"}, "wizard"},
		{"", []string{"arena", "sploof", "--agents", "greedy,random", "--games", "0"}, "--games: want a positive"},
		{"", []string{"arena", "sploof", "--agents", "greedy,random", "--parallel", "-1"}, "--parallel"},
		{"", []string{"play", "sploof", "--p2", "wizard"}, "wizard"},
		{"", []string{"bench", "chess"}, "unknown game"},
		{"", []string{"bench", "sploof", "--time", "-1s"}, "--time"},
		{"", []string{"bench", "sploof", "--time", "0s"}, "--time"},
	}
	for _, c := range cases {
		code, _, errs := tabula(t, c.stdin, c.args...)
		lines := strings.Split(strings.TrimRight(errs, "\n"), "\n")
		if code == 0 || len(lines) != 1 || !strings.Contains(errs, c.says) || strings.Contains(errs, "goroutine") {
			t.Errorf("%q: exit %d, stderr %q; want non-zero and one line mentioning %q", c.args, code, errs, c.says)
		}
	}
}

// -o beside --position may repeat the position's options, and nothing else.
func TestOptionsBesidePosition(t *testing.T) {
	for _, tc := range []struct {
		game, same, other string
	}{
		{"sgolte", "size=5", "size=6"},
		{"sploof", "supply=finite", "supply=unlimited"},
		{"skjuub", "maxturns=300", "maxturns=200"},
		{"skyjo", "players=2", "players=3"},
	} {
		_, js, _ := tabula(t, "", "moves", tc.game, "--json")
		var d struct {
			Position json.RawMessage `json:"position"`
		}
		json.Unmarshal([]byte(js), &d)
		_, want, _ := tabula(t, "", "moves", tc.game)
		code, out, errs := tabula(t, string(d.Position), "moves", tc.game, "--position", "-", "-o", tc.same)
		if code != 0 || out != want {
			t.Errorf("%s -o %s with its own position: exit %d %q, output differs: %v", tc.game, tc.same, code, errs, out != want)
		}
		k, v, _ := strings.Cut(tc.other, "=")
		_, v0, _ := strings.Cut(tc.same, "=")
		code, _, errs = tabula(t, string(d.Position), "perft", tc.game, "--position", "-", "-o", tc.other)
		wantErr := "tabula perft: -o " + tc.other + ": the position is played with " + k + "=" + v0 +
			" (a position carries its own options; -o may only repeat them)\n"
		if code != 1 || errs != wantErr {
			t.Errorf("%s -o %s=%s beside a position: exit %d, %q; want %q", tc.game, k, v, code, errs, wantErr)
		}
	}
}

// Error texts say each thing once: the game, the kind of error, the move.
func TestErrorTextsSayThingsOnce(t *testing.T) {
	pos := func(g string, edit func(map[string]any)) string {
		_, js, _ := tabula(t, "", "moves", g, "--json")
		var d struct {
			Position map[string]any `json:"position"`
		}
		json.Unmarshal([]byte(js), &d)
		edit(d.Position)
		b, _ := json.Marshal(d.Position)
		return string(b)
	}
	for _, tc := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{pos("sploof", func(p map[string]any) { p["options"].(map[string]any)["first"] = "purple" }), []string{"moves", "sploof", "--position", "-"},
			`tabula moves: sploof: invalid position: invalid option: first="purple": want one of white|black|random`},
		{pos("skjuub", func(p map[string]any) { p["options"].(map[string]any)["maxturns"] = "0" }), []string{"moves", "skjuub", "--position", "-"},
			`tabula moves: skjuub: invalid position: invalid option: maxturns=0: want 1…1000`},
		{pos("skyjo", func(p map[string]any) { p["options"].(map[string]any)["players"] = "9" }), []string{"moves", "skyjo", "--position", "-"},
			`tabula moves: skyjo: invalid position: invalid option: players=9: want 2…8`},
		{pos("sploof", func(p map[string]any) { p["stock"].(map[string]any)["white"] = -2 }), []string{"moves", "sploof", "--position", "-"},
			`tabula moves: sploof: invalid position: stock of white is -2, want 0…16 (16 balls of each colour)`},
		{"", []string{"moves", "sgolte", "--moves", "zz99"},
			`tabula moves: sgolte: move "zz99": unreadable: want a cell such as d5, d4(e3,e4), pass or swap`},
		{"", []string{"moves", "sgolte", "--moves", "e5 e5"},
			`tabula moves: after 1 move: sgolte: move "e5": illegal move: e5 is occupied`},
		{"", []string{"moves", "skjuub", "-o", "maxturns=0"},
			`tabula moves: skjuub: invalid option: maxturns=0: want 1…1000`},
		// Issue 23, finding 8: the second "flip a1" was reported as the
		// word "flip" unreadable, after "2 moves"; and the last of two
		// settings of one option won silently.
		{"", []string{"moves", "skyjo", "--seed", "7", "--moves", "flip a1 flip a1"},
			`tabula moves: after 1 move: skyjo: move "flip a1" in phase initial_flips: illegal move: a1 is already face up; flip a face-down card`},
		{"", []string{"moves", "skyjo", "--seed", "7", "--moves", "flip a1 flip b1 draw"},
			`tabula moves: after 2 moves: skyjo: move "draw" in phase initial_flips: illegal move: each player first flips two face-down cards (flip <pos>)`},
		{"", []string{"moves", "sploof", "-o", "first=white", "-o", "first=black"},
			`tabula moves: sploof: invalid option: first given twice, first=white then first=black; give it once`},
	} {
		code, _, errs := tabula(t, tc.stdin, tc.args...)
		if code != 1 || errs != tc.want+"\n" {
			t.Errorf("%q: exit %d\n got  %q\n want %q", tc.args, code, errs, tc.want)
		}
	}
}

func TestShowDrawsEveryGame(t *testing.T) {
	for _, g := range allGames {
		code, out, errs := tabula(t, "", "show", g)
		if code != 0 || !strings.Contains(out, "to move") {
			t.Errorf("%s: show exit %d %s: %q", g, code, errs, out)
		}
	}
}

func TestPlayHumanAgainstRandom(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "game.json")
	// An illegal move and a garbage line are explained and re-prompted;
	// undo takes back the human's move and the bot's reply; quit ends.
	input := "moves\nzz99\na1\nundo\ne5\nhelp\nquit\n"
	code, out, errs := tabula(t, input, "play", "sgolte", "-o", "pie=off", "--p2", "random", "--record", rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"a1  a2", "zz99", "plays", "took back a1", "type a move"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	r, err := record.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Moves) != 2 || r.Moves[0].Move != "e5" || r.Moves[1].Seat != 1 || r.Result != nil || r.Status != "" {
		t.Errorf("record moves %+v result %+v, want e5 and the bot's reply, not over", r.Moves, r.Result)
	}
}

func TestPlayBotsToTheEnd(t *testing.T) {
	for _, g := range allGames {
		args := []string{"play", g, "--p1", "random", "--p2", "greedy", "--seed", "3"}
		if g == "skyjo" {
			args = append(args, "-o", "players=3", "--p3", "random")
		}
		code, out, errs := tabula(t, "", args...)
		if code != 0 || !strings.Contains(out, "Game over") {
			t.Errorf("%s: exit %d %s; tail %q", g, code, errs, tail(out))
		}
	}
}

// arenaJSON runs tabula arena with args and --json and returns its report.
func arenaJSON(t *testing.T, args ...string) arenaReport {
	t.Helper()
	code, out, errs := tabula(t, "", append(append([]string{"arena"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep arenaReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestArenaJSON(t *testing.T) {
	rep := arenaJSON(t, "sploof", "--agents", "greedy,random", "--games", "6")
	if rep.Games != 6 || len(rep.Agents) != 2 {
		t.Fatalf("report %+v", rep)
	}
	a, b := rep.Agents[0], rep.Agents[1]
	if a.Wins+a.Draws+a.Losses != 6 || a.Wins != b.Losses || a.Draws != b.Draws {
		t.Errorf("inconsistent tallies %+v %+v", a, b)
	}
	if len(rep.Results) != 6 || rep.Results[0].Index != 0 || len(rep.Results[0].Seats) != 2 {
		t.Errorf("per-game results %+v", rep.Results)
	}
	wins := 0
	for _, g := range rep.Results {
		for _, w := range g.Winners {
			if g.Seats[w] == "greedy" {
				wins++
			}
		}
	}
	if wins != a.Wins {
		t.Errorf("per-game results give greedy %d wins, the tally %d", wins, a.Wins)
	}
	if a.WinRateLow > a.WinRate || a.WinRate > a.WinRateHi {
		t.Errorf("win rate %v outside its interval [%v, %v]", a.WinRate, a.WinRateLow, a.WinRateHi)
	}
}

func TestArenaSelfPlayLabels(t *testing.T) {
	rep := arenaJSON(t, "sploof", "--agents", "random,random", "--games", "4")
	if len(rep.Agents) != 2 || rep.Agents[0].Agent != "random" || rep.Agents[1].Agent != "random#2" {
		t.Fatalf("agents %+v, want rows random and random#2", rep.Agents)
	}
	// Seats rotate, so each label sits first in half the games.
	first := map[string]int{}
	for _, g := range rep.Results {
		first[g.Seats[0]]++
	}
	if first["random"] != 2 || first["random#2"] != 2 {
		t.Errorf("first seats %v, want 2 each", first)
	}
	if a, b := rep.Agents[0], rep.Agents[1]; a.Wins != b.Losses || a.Losses != b.Wins {
		t.Errorf("tallies do not mirror: %+v %+v", a, b)
	}
}

func TestBenchJSON(t *testing.T) {
	code, out, errs := tabula(t, "", "bench", "sploof", "--time", "50ms", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var d struct {
		Results []benchResult `json:"results"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Results) != 1 {
		t.Fatalf("%v: %s", err, out)
	}
	r := d.Results[0]
	if r.Playouts == 0 || r.PlayoutsPerSecond <= 0 || r.PliesPerPlayout <= 0 || r.MCTSItersPerSecond <= 0 {
		t.Errorf("implausible bench result %+v", r)
	}
}

func tail(s string) string {
	if len(s) > 300 {
		return s[len(s)-300:]
	}
	return s
}

func TestSkyjoRecordListsChanceOnceOver(t *testing.T) {
	rec := filepath.Join(t.TempDir(), "skyjo.json")
	code, _, errs := tabula(t, "", "play", "skyjo", "--p1", "greedy", "--p2", "greedy", "-o", "target=30", "--seed", "4", "--record", rec)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, _ := os.ReadFile(rec)
	r, err := record.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	var chance struct {
		Seed   uint64 `json:"seed"`
		Events []struct {
			Kind  string `json:"kind"`
			Cards []int  `json:"cards"`
		} `json:"events"`
	}
	if err := json.Unmarshal(r.Chance, &chance); err != nil || len(chance.Events) == 0 {
		t.Fatalf("finished Skyjo record has no chance outcomes: %v %s", err, r.Chance)
	}
	if chance.Seed != 4 || chance.Events[0].Kind != "deal" || len(chance.Events[0].Cards) != 150 {
		t.Errorf("first chance event %+v, seed %d", chance.Events[0], chance.Seed)
	}
}
