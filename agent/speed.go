package agent

import (
	"context"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/game"
)

// SearchSpeed measures the search iterations per second of g's search agent
// (the one the levels use) on one worker from g's default start position,
// with no tree reused. `tabula bench` reports it.
func SearchSpeed(g game.Game, d time.Duration) (float64, error) {
	if d <= 0 {
		// A search with no positive time and no iteration budget would never stop.
		return 0, fmt.Errorf("agent: search speed: want a positive duration, got %v", d)
	}
	s, err := g.New(nil, 1)
	if err != nil {
		return 0, err
	}
	a := newSearch(g, MCTSConfig{Time: d, Workers: 1, NoReuse: true}, 1, "mcts")
	obs, err := game.Observe(s, s.ToMove())
	if err != nil {
		return 0, err
	}
	if _, err := a.Choose(context.Background(), obs); err != nil {
		return 0, err
	}
	st := a.(interface{ Stats() SearchStats }).Stats()
	return float64(st.Iterations) / st.Elapsed.Seconds(), nil
}

// Stats reports what the last Choose did.
func (m *MCTS) Stats() SearchStats { return m.LastStats }
