// Package botpool runs the decisions of a node's bot seats on the node's
// compute pool: it is the match.BotPool of a compute.Pool. It joins the two
// so that neither imports the other: match says what a bot pool is
// (match.BotPool, match.BotMemory) and compute schedules work it knows
// nothing of.
package botpool

import (
	"context"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// New is the BotPool of the compute pool p: each decision is a Live task
// charged to the game's creator, who asked for the bots, for the cores its
// search uses. The pool schedules it fairly among users and before
// background work such as analysis. It reports the pool's saturation
// (Saturated) and offers the pool's memory budget to the games' bots
// (BotMemory).
func New(p *compute.Pool) match.BotPool { return pool{p} }

type pool struct{ p *compute.Pool }

// A compute pool's memory budget is what match asks of a bot memory.
var _ match.BotMemory = (*compute.Memory)(nil)

// Saturated reports that the pool is at its budget of cores
// (compute.Pool.Saturated) or its bots' memory is pressed
// (compute.Memory.Pressed): a node in a cluster then takes over no more
// bot games and has new ones made on a node with room, rather than
// refusing them.
func (b pool) Saturated() bool { return b.p.Saturated() || b.p.Memory().Pressed() }

// BotMemory is the pool's memory budget (compute.Pool.Memory).
func (b pool) BotMemory() match.BotMemory { return b.p.Memory() }

// Think runs choose as a Live task of the game's creator.
func (b pool) Think(ctx context.Context, t match.BotTask, choose func(context.Context) (game.Move, error)) (game.Move, error) {
	var mv game.Move
	task := compute.Task{User: t.Creator, Class: compute.Live, Cores: t.Cores, Label: "game " + t.Game}
	// A search asking for more cores than the pool has (a hard bot's two
	// on a two-core node, whose pool has one) searches on the cores it is
	// granted: running its second goroutine anyway would take the core
	// the pool leaves to serve people. It runs on threads of a lower
	// priority than those serving people (its own goroutine's, for what
	// it does before searching, such as an exact solver, and its
	// workers'), so that the kernel too puts people's moves first.
	cores := b.p.Grant(task)
	err := b.p.Run(ctx, task, func(ctx context.Context) error {
		var err error
		done := make(chan struct{})
		go func() {
			defer close(done)
			compute.LowerPriority() // this thread ends with the goroutine
			mv, err = choose(agent.WithWorkerStart(agent.WithCores(ctx, cores), compute.LowerPriority))
		}()
		<-done
		return err
	})
	return mv, err
}
