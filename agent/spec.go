package agent

import (
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// New builds an agent from its command-line spelling: "random", "greedy",
// "mcts:time=1s", "hard", "exec:./mybot --fast". seed makes the agent's
// random choices reproducible.
func New(spec string, g game.Game, seed uint64) (Agent, error) {
	name, params, _ := strings.Cut(spec, ":")
	switch name {
	case "random":
		if params != "" {
			return nil, fmt.Errorf("agent %q: random takes no parameters", spec)
		}
		return NewRandom(seed), nil
	}
	return nil, fmt.Errorf("unknown agent %q (agents: %s)", spec, strings.Join(Kinds(), ", "))
}

// Kinds lists the agent spellings New accepts, for help texts.
func Kinds() []string {
	return []string{"human", "random"}
}
