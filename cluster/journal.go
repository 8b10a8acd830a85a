package cluster

import (
	"context"
	"fmt"

	"github.com/tabula-games/tabula/match"
)

// Journal is the journal the node's owners write through: the store's, with
// every write fenced by the ownership epoch this node holds for the game.
// A game it does not hold (never had, or lost) is refused with
// match.ErrDeposed before the database is asked.
func (n *Node) Journal() match.Journal { return journal{n} }

type journal struct{ n *Node }

func (j journal) epoch(id string) (int64, error) {
	if e, ok := j.n.fences.get(id); ok {
		return e, nil
	}
	return 0, fmt.Errorf("game %s is not owned by node %s: %w", id, j.n.id, match.ErrDeposed)
}

// CreateGame implements match.Journal: the new game is this node's, at
// epoch 1.
func (j journal) CreateGame(ctx context.Context, m *match.Meta) error {
	if err := j.n.cfg.Store.CreateOwnedGame(ctx, m, j.n.id); err != nil {
		return err
	}
	j.n.fences.set(m.ID, 1)
	return nil
}

// UpdateGame implements match.Journal.
func (j journal) UpdateGame(ctx context.Context, m *match.Meta) error {
	e, err := j.epoch(m.ID)
	if err != nil {
		return err
	}
	return j.n.cfg.Store.UpdateGameFenced(ctx, e, m)
}

// AppendMove implements match.Journal.
func (j journal) AppendMove(ctx context.Context, id string, mv match.Move, turn match.Turn, end *match.End) error {
	e, err := j.epoch(id)
	if err != nil {
		return err
	}
	return j.n.cfg.Store.AppendMoveFenced(ctx, e, id, mv, turn, end)
}

// EndGame implements match.Journal.
func (j journal) EndGame(ctx context.Context, id string, end match.End) error {
	e, err := j.epoch(id)
	if err != nil {
		return err
	}
	return j.n.cfg.Store.EndGameFenced(ctx, e, id, end)
}

// TakeBack implements match.Journal.
func (j journal) TakeBack(ctx context.Context, id string, had, keep int, turn match.Turn) error {
	e, err := j.epoch(id)
	if err != nil {
		return err
	}
	return j.n.cfg.Store.TakeBackFenced(ctx, e, id, had, keep, turn)
}

// Moves implements match.Journal.
func (j journal) Moves(ctx context.Context, id string) ([]match.Move, error) {
	return j.n.cfg.Store.Moves(ctx, id)
}

// Holds implements match.Holder: the database still names this node the
// game's owner at the epoch this node holds it by.
func (j journal) Holds(ctx context.Context, id string) error {
	e, err := j.epoch(id)
	if err != nil {
		return err
	}
	o, err := j.n.cfg.Store.Owner(ctx, id)
	if err != nil {
		return err
	}
	if o.Node != j.n.id || o.Epoch != e {
		return fmt.Errorf("game %s is owned by node %q at epoch %d, not by %s at %d: %w", id, o.Node, o.Epoch, j.n.id, e, match.ErrDeposed)
	}
	return nil
}
