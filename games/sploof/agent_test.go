package sploof_test

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// TestGreedyBeatsRandom: the one-ply greedy player built on Evaluate wins at
// least 90% of its games against uniform random play, with both colours and
// both first players.
func TestGreedyBeatsRandom(t *testing.T) {
	games := 400
	if testing.Short() {
		games = 100
	}
	wins := 0
	ctx := context.Background()
	for i := 0; i < games; i++ {
		first := []string{"white", "black"}[i%2]
		greedySeat := (i / 2) % 2
		st, err := sploof.Game{}.New(game.Options{"first": first}, uint64(i))
		if err != nil {
			t.Fatal(err)
		}
		players := [2]agent.Agent{}
		players[greedySeat] = agent.NewGreedy(uint64(1000 + i))
		players[1-greedySeat] = agent.NewRandom(uint64(2000 + i))
		for !st.Outcome().Over() {
			m, err := agent.Ask(ctx, players[st.ToMove()], st)
			if err != nil {
				t.Fatal(err)
			}
			st.Play(m)
		}
		if st.Outcome().IsWinner(greedySeat) && st.Outcome().Status == game.Won {
			wins++
		}
	}
	rate := float64(wins) / float64(games)
	t.Logf("greedy won %d of %d games against random (%.1f%%)", wins, games, 100*rate)
	if rate < 0.90 {
		t.Errorf("greedy won %.1f%% of its games against random, want at least 90%%", 100*rate)
	}
}
