package arena

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skyjo"
	"github.com/tabula-games/tabula/games/sploof"
)

// In a game of more than two seats the table adds up: a win shared by k
// seats (a tie for first, or the others after a forfeit) is a draw worth
// 1/k, never a whole win, so the W column adds up to at most the number of
// games and every game hands out one point (issue 26, item 7: a 4-player
// Skyjo arena showed 107 wins over 100 games). The expected figures are
// counted by hand below.
func TestMultiSeatTallyAddsUp(t *testing.T) {
	r := &Result{Scores: make([]Score, 2)}
	games := []GameResult{
		{Seats: []int{0, 1, 1, 1}, Outcome: game.WinOutcome(0), ForfeitSeat: -1},
		{Seats: []int{1, 0, 1, 1}, Outcome: game.WinOutcome(0, 1), ForfeitSeat: -1},
		{Seats: []int{1, 1, 0, 1}, Outcome: game.WinOutcome(0, 1, 3), ForfeitSeat: 2},
		{Seats: []int{1, 1, 1, 0}, Outcome: game.Outcome{Status: game.Drawn}, ForfeitSeat: -1},
	}
	for _, g := range games {
		r.add(g)
	}
	// Agent 0: a win (1), a tie of two (1/2), a forfeit (0), a draw of four (1/4).
	// Agent 1: 3 losses; a tie (1/2) and 2 losses; a three-way tie (3 × 1/3); a draw (3 × 1/4).
	want := []Score{
		{Games: 4, Wins: 1, Draws: 2, Losses: 1, Points: 1.75},
		{Games: 12, Wins: 0, Draws: 7, Losses: 5, Points: 2.25},
	}
	wins, points := 0, 0.0
	for i, sc := range r.Scores {
		if sc.Games != want[i].Games || sc.Wins != want[i].Wins || sc.Draws != want[i].Draws ||
			sc.Losses != want[i].Losses || !near(sc.Points, want[i].Points, 1e-9) {
			t.Errorf("agent %d: %+v, want %+v", i, sc, want[i])
		}
		if sc.Wins+sc.Draws+sc.Losses != sc.Games {
			t.Errorf("agent %d: W+D+L = %d, games %d", i, sc.Wins+sc.Draws+sc.Losses, sc.Games)
		}
		wins += sc.Wins
		points += sc.Points
	}
	if wins > len(games) || !near(points, float64(len(games)), 1e-9) {
		t.Errorf("%d wins and %v points over %d games", wins, points, len(games))
	}
}

// dud is an outside engine that never starts.
type dud struct{ starts *int }

func (d dud) Name() string { return "dud" }
func (d dud) Start(context.Context) error {
	*d.starts++
	return fmt.Errorf("dud: %w: the program ended before its hello", agent.ErrForfeit)
}
func (d dud) Choose(context.Context, game.Observation) (game.Move, error) {
	return 0, fmt.Errorf("dud: %w: the program ended without replying", agent.ErrForfeit)
}

// An engine that fails to start loses before the first move (nothing is
// played, it is never asked for one), and in a four-seat game the three
// others share the win: three draws worth a third each, not three wins.
func TestStartupLossInAMultiSeatGame(t *testing.T) {
	o, err := game.ParseOptions(skyjo.Game{}, []string{"players=4"})
	if err != nil {
		t.Fatal(err)
	}
	starts := 0
	res, err := Run(context.Background(), Config{
		Game: skyjo.Game{}, Options: o, Agents: []string{"dud", "random"}, Games: 4, Seed: 3,
		NewAgent: func(spec string, g game.Game, seed uint64) (agent.Agent, error) {
			if spec == "dud" {
				return dud{&starts}, nil
			}
			return agent.New(spec, g, seed)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if starts != 4 || res.Forfeits != 4 || res.Plies != 0 {
		t.Errorf("%d starts, %d forfeits, %d plies: want 4 start-up losses and nothing played", starts, res.Forfeits, res.Plies)
	}
	for _, g := range res.Games {
		if !strings.Contains(g.Forfeit, "before its hello") || g.Seats[g.ForfeitSeat] != 0 {
			t.Errorf("game %d: forfeit by seat %d: %q", g.Index, g.ForfeitSeat, g.Forfeit)
		}
	}
	d, r := res.Scores[0], res.Scores[1]
	if d.Losses != 4 || d.Points != 0 || r.Wins != 0 || r.Draws != 12 || !near(r.Points, 4, 1e-9) {
		t.Errorf("dud %+v, random %+v: want 4 losses, and 12 draws worth 4 points", d, r)
	}
}

// An outside engine that ignores the hello (protocol version 1) is found
// out in its first game and started without one in the others: it waits
// out its start-up limit once per match, not once per game. The engine is
// a shell pipeline that logs every line it reads and answers move requests
// only, with the first legal move.
func TestSilentVersion1EngineIsGreetedOnce(t *testing.T) {
	if _, err := exec.LookPath("sed"); err != nil {
		t.Fatal("sed is needed for this test's engine")
	}
	log := filepath.Join(t.TempDir(), "engine.log")
	engine := fmt.Sprintf(`exec:startup=300ms:tee -a %q | sed -u -n '/"type":"move"/s/.*"legal":\["\([^"]*\)".*/{"move":"\1"}/p'`, log)
	g := sploof.Game{}
	res, err := Run(context.Background(), Config{Game: g, Agents: []string{engine, "random"}, Games: 4, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if res.Forfeits != 0 || len(res.Games) != 4 {
		t.Fatalf("%d games, %d forfeits: %+v", len(res.Games), res.Forfeits, res.Games)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(data), `"type":"hello"`); n != 1 {
		t.Errorf("the engine was sent %d hellos in 4 games, want 1", n)
	}
}
