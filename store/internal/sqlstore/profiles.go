package sqlstore

import (
	"context"
	"database/sql"
	"strconv"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/rating"
	"github.com/tabula-games/tabula/store"
)

var (
	_ store.RatingHistory = (*DB)(nil)
	_ store.Blocks        = (*DB)(nil)
)

// recordRatingChanges writes each player's rating before and after a rated
// game, in the transaction that finishes it (rate): the game's guarded
// update lets only one end through, and the primary key refuses a second
// row besides.
func (db *DB) recordRatingChanges(ctx context.Context, tx *sql.Tx, gameID, game string, before, after []match.Rating, at int64) error {
	for i, b := range before {
		if i >= len(after) {
			break
		}
		before := b.Rating
		if b.Games == 0 {
			before = rating.DefaultRating // what the update started from
		}
		if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO rating_changes (game_id, user_id, game, before_rating, before_games,
			after_rating, deviation_after, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`),
			gameID, b.UserID, game, before, b.Games, after[i].Rating, after[i].Deviation, at); err != nil {
			return err
		}
	}
	return nil
}

const ratingChangeCols = "game_id, user_id, game, before_rating, before_games, after_rating, deviation_after, at"

func scanRatingChange(row scanner) (store.RatingChange, error) {
	var c store.RatingChange
	var at int64
	err := row.Scan(&c.GameID, &c.UserID, &c.Game, &c.Before, &c.BeforeGames, &c.After, &c.DeviationAfter, &at)
	c.At = fromMs(at)
	return c, err
}

// RatingChanges implements store.RatingHistory.
func (db *DB) RatingChanges(ctx context.Context, userID int64, game string, limit int) ([]store.RatingChange, error) {
	if limit <= 0 {
		limit = 500
	}
	q := "SELECT " + ratingChangeCols + " FROM rating_changes WHERE user_id = ?"
	args := []any{userID}
	if game != "" {
		q += " AND game = ?"
		args = append(args, game)
	}
	q += " ORDER BY at DESC, game_id DESC LIMIT " + strconv.Itoa(limit)
	out, err := collect(ctx, db, db.r, scanRatingChange, q, args...)
	if err != nil {
		return nil, db.wrap("rating changes", err)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}

// GameRatingChanges implements store.RatingHistory.
func (db *DB) GameRatingChanges(ctx context.Context, gameID string) ([]store.RatingChange, error) {
	out, err := collect(ctx, db, db.r, scanRatingChange, "SELECT "+ratingChangeCols+" FROM rating_changes WHERE game_id = ? ORDER BY user_id", gameID)
	return out, db.wrap("game rating changes", err)
}

// Block implements store.Blocks.
func (db *DB) Block(ctx context.Context, b store.Block) error {
	_, err := db.exec(ctx, "INSERT INTO blocks (user_id, blocked_id, created) VALUES (?, ?, ?) ON CONFLICT (user_id, blocked_id) DO NOTHING",
		b.UserID, b.BlockedID, ms(b.Created))
	return db.wrap("block", err)
}

// Unblock implements store.Blocks.
func (db *DB) Unblock(ctx context.Context, userID, blockedID int64) error {
	res, err := db.exec(ctx, "DELETE FROM blocks WHERE user_id = ? AND blocked_id = ?", userID, blockedID)
	if err != nil {
		return db.wrap("unblock", err)
	}
	return db.wrap("unblock", mustOne(res))
}

// BlockList implements store.Blocks.
func (db *DB) BlockList(ctx context.Context, userID int64) ([]store.Block, error) {
	scan := func(row scanner) (store.Block, error) {
		var b store.Block
		var created int64
		err := row.Scan(&b.UserID, &b.BlockedID, &b.Name, &created)
		b.Created = fromMs(created)
		return b, err
	}
	out, err := collect(ctx, db, db.r, scan, `SELECT b.user_id, b.blocked_id, u.name, b.created FROM blocks b
		JOIN users u ON u.id = b.blocked_id WHERE b.user_id = ? ORDER BY b.created DESC, u.name_key`, userID)
	return out, db.wrap("block list", err)
}

// Blocked implements store.Blocks.
func (db *DB) Blocked(ctx context.Context, userID, blockedID int64) (bool, error) {
	var one int
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT 1 FROM blocks WHERE user_id = ? AND blocked_id = ?"), userID, blockedID).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, db.wrap("blocked", err)
}
