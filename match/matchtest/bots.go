package matchtest

import (
	"context"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// FirstLegal is a match.Config.NewAgent whose bots play their first legal
// move at once, whatever the level: bot turns that tests can predict.
func FirstLegal(string, game.Game, uint64) (agent.Agent, error) { return firstLegal{}, nil }

type firstLegal struct{}

func (firstLegal) Name() string { return "first-legal" }

func (firstLegal) Choose(_ context.Context, obs game.Observation) (game.Move, error) {
	return obs.World().Legal(nil)[0], nil
}
