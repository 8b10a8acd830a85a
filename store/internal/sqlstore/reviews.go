package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Review implements store.Reviews.
func (db *DB) Review(ctx context.Context, gameID string) ([]byte, error) {
	var data string
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT data FROM reviews WHERE game_id = ?"), gameID).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, db.wrap("review", err)
	}
	return []byte(data), nil
}

// KeepReview implements store.Reviews: the first review of a game stays
// (two nodes that reviewed it at once made the same one).
func (db *DB) KeepReview(ctx context.Context, gameID string, data []byte, at time.Time) error {
	_, err := db.exec(ctx, "INSERT INTO reviews (game_id, data, created) VALUES (?, ?, ?) ON CONFLICT (game_id) DO NOTHING",
		gameID, string(data), ms(at))
	return db.wrap("keep review", err)
}
