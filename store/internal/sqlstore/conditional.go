package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"

	"github.com/tabula-games/tabula/match"
)

// Conditional implements match.Conditionals.
func (db *DB) Conditional(ctx context.Context, game string, seat int) (*match.Conditional, error) {
	c := match.Conditional{Game: game, Seat: seat}
	var lines string
	var created int64
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT ply, lines, created FROM conditional_moves WHERE game_id = ? AND seat = ?"), game, seat).
		Scan(&c.Ply, &lines, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, db.wrap("conditional", err)
	}
	if err := json.Unmarshal([]byte(lines), &c.Lines); err != nil {
		return nil, db.wrap("conditional", err)
	}
	c.Created = fromMs(created)
	return &c, nil
}

// SetConditional implements match.Conditionals: one row a game and seat,
// replaced.
func (db *DB) SetConditional(ctx context.Context, c match.Conditional) error {
	lines, err := json.Marshal(c.Lines)
	if err != nil {
		return db.wrap("set conditional", err)
	}
	_, err = db.exec(ctx, "INSERT INTO conditional_moves (game_id, seat, ply, lines, created) VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, seat) DO UPDATE SET ply = excluded.ply, lines = excluded.lines, created = excluded.created",
		c.Game, c.Seat, c.Ply, string(lines), ms(c.Created))
	return db.wrap("set conditional", err)
}

// DropConditional implements match.Conditionals.
func (db *DB) DropConditional(ctx context.Context, game string, seat int) error {
	_, err := db.exec(ctx, "DELETE FROM conditional_moves WHERE game_id = ? AND seat = ?", game, seat)
	return db.wrap("drop conditional", err)
}
