package matchtest

import (
	"context"

	"github.com/tabula-games/tabula/match"
)

// Created lists the open and live games user uid created, as a store's
// query would for match.Quotas.Games.
func (j *Journal) Created(ctx context.Context, uid int64) ([]match.Meta, error) {
	if err := ctx.Err(); err != nil {
		return nil, err // as a database driver does
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	var out []match.Meta
	for _, g := range j.games {
		if g.meta.CreatorID == uid && (g.meta.Status == match.Open || g.meta.Status == match.Live) {
			out = append(out, g.meta.Clone())
		}
	}
	return out, nil
}

// Put stores a game as it is, moves included (a game written before the
// node started, for Load).
func (j *Journal) Put(m match.Meta, moves []match.Move) {
	j.mu.Lock()
	defer j.mu.Unlock()
	m.Ply = len(moves)
	j.games[m.ID] = &journalGame{meta: m.Clone(), moves: append([]match.Move(nil), moves...)}
}
