package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// Prefs implements store.UserPrefs.
func (db *DB) Prefs(ctx context.Context, userID int64) ([]byte, error) {
	var data string
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT data FROM user_prefs WHERE user_id = ?"), userID).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, db.wrap("prefs", err)
	}
	return []byte(data), nil
}

// SetPrefs implements store.UserPrefs: one row a user, replaced.
func (db *DB) SetPrefs(ctx context.Context, userID int64, data []byte, at time.Time) error {
	_, err := db.exec(ctx, "INSERT INTO user_prefs (user_id, data, updated) VALUES (?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET data = excluded.data, updated = excluded.updated",
		userID, string(data), ms(at))
	return db.wrap("set prefs", err)
}
