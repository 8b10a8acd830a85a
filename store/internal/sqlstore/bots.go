package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/store"
)

var _ store.BotAccounts = (*DB)(nil)

// notPlayed is the condition that user ? has no game: no seat but an
// invitation, and no game created.
const notPlayed = `NOT EXISTS (SELECT 1 FROM seats WHERE user_id = ? AND kind <> 'invite')
	AND NOT EXISTS (SELECT 1 FROM games WHERE creator_id = ?)`

// MakeBot implements store.BotAccounts: one guarded update, so that of two
// conversions at once only one writes. (On PostgreSQL a game created in the
// very same instant, not yet committed, is not seen by the guard.)
func (db *DB) MakeBot(ctx context.Context, userID int64) error {
	res, err := db.exec(ctx, "UPDATE users SET bot = 1 WHERE id = ? AND guest = 0 AND bot = 0 AND "+notPlayed,
		userID, userID, userID)
	if err != nil {
		return db.wrap("make bot", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return db.wrap("make bot", err)
	}
	if n == 1 {
		return nil
	}
	if _, err := db.User(ctx, userID); err != nil {
		return err
	}
	return db.wrap("make bot", store.ErrConflict)
}

// IsBot implements store.BotAccounts.
func (db *DB) IsBot(ctx context.Context, userID int64) (bool, error) {
	var bot int
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT bot FROM users WHERE id = ?"), userID).Scan(&bot)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return bot != 0, db.wrap("is bot", err)
}

// HasGames implements store.BotAccounts.
func (db *DB) HasGames(ctx context.Context, userID int64) (bool, error) {
	var none int
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT CASE WHEN "+notPlayed+" THEN 1 ELSE 0 END"), userID, userID).Scan(&none)
	return none == 0, db.wrap("has games", err)
}

// CreateScopedToken implements store.BotAccounts. The count and the insert
// are one transaction; on PostgreSQL two creations at once may both see
// max-1 and end one over, which the cap (a bound on rows, not a secret)
// tolerates.
func (db *DB) CreateScopedToken(ctx context.Context, t *store.Token, max int) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT COUNT(*) FROM tokens WHERE user_id = ?"), t.UserID).Scan(&n); err != nil {
			return err
		}
		if n >= max {
			return store.ErrConflict
		}
		return tx.QueryRowContext(ctx, db.d.Rebind("INSERT INTO tokens (user_id, name, hash, created, scopes, last_used) VALUES (?, ?, ?, ?, ?, 0) RETURNING id"),
			t.UserID, t.Name, t.Hash, ms(t.Created), t.Scopes).Scan(&t.ID)
	})
	return db.wrap("create token", err)
}

const scopedTokenCols = "id, user_id, name, hash, created, scopes, last_used"

func scanScopedToken(row scanner) (store.Token, error) {
	var t store.Token
	var created, used int64
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, &created, &t.Scopes, &used)
	t.Created, t.LastUsed = fromMs(created), fromMs(used)
	return t, err
}

// ScopedToken implements store.BotAccounts.
func (db *DB) ScopedToken(ctx context.Context, hash []byte) (store.Token, error) {
	t, err := scanScopedToken(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+scopedTokenCols+" FROM tokens WHERE hash = ?"), hash))
	return t, db.wrap("token", err)
}

// ScopedTokens implements store.BotAccounts.
func (db *DB) ScopedTokens(ctx context.Context, userID int64) ([]store.Token, error) {
	ts, err := collect(ctx, db, db.r, scanScopedToken, "SELECT "+scopedTokenCols+" FROM tokens WHERE user_id = ? ORDER BY id", userID)
	return ts, db.wrap("tokens", err)
}

// TouchToken implements store.BotAccounts.
func (db *DB) TouchToken(ctx context.Context, id int64, at time.Time, every time.Duration) (bool, error) {
	res, err := db.exec(ctx, "UPDATE tokens SET last_used = ? WHERE id = ? AND last_used <= ?",
		ms(at), id, ms(at.Add(-every)))
	if err != nil {
		return false, db.wrap("touch token", err)
	}
	n, err := res.RowsAffected()
	return n == 1, db.wrap("touch token", err)
}

// BotLeaderboard implements store.BotAccounts.
func (db *DB) BotLeaderboard(ctx context.Context, game string, maxDeviation float64, limit int, bots bool) ([]store.RatedUser, error) {
	if limit <= 0 {
		limit = 50
	}
	scan := func(row scanner) (store.RatedUser, error) {
		var r store.RatedUser
		var updated int64
		err := row.Scan(&r.UserID, &r.Game, &r.Rating.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated, &r.Name)
		r.Updated = fromMs(updated)
		return r, err
	}
	out, err := collect(ctx, db, db.r, scan, `SELECT r.user_id, r.game, r.rating, r.deviation, r.volatility, r.games, r.updated, u.name
		FROM ratings r JOIN users u ON u.id = r.user_id WHERE r.game = ? AND r.deviation <= ? AND u.bot = ?
		ORDER BY r.rating DESC, u.name_key LIMIT `+strconv.Itoa(limit), game, maxDeviation, b2i(bots))
	return out, db.wrap("bot leaderboard", err)
}
