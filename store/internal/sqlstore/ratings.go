package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"slices"
	"strconv"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// rate applies end.Rate to the ratings of end.RatedUsers inside the
// transaction that finishes the game.
func (db *DB) rate(ctx context.Context, tx *sql.Tx, gameID string, end match.End) error {
	var game string
	if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT game FROM games WHERE id = ?"), gameID).Scan(&game); err != nil {
		return err
	}
	// Lock the players' rows (in id order, so two games cannot deadlock)
	// before reading their ratings: two games ending at once for the same
	// player then update one after the other, and neither is lost.
	if db.d.ForUpdate != "" {
		ids := slices.Clone(end.RatedUsers)
		slices.Sort(ids)
		for _, uid := range ids {
			var one int64
			if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT id FROM users WHERE id = ?"+db.d.ForUpdate), uid).Scan(&one); err != nil {
				return err
			}
		}
	}
	cur := make([]match.Rating, len(end.RatedUsers))
	for i, uid := range end.RatedUsers {
		r, err := scanRating(tx.QueryRowContext(ctx, db.d.Rebind("SELECT "+ratingCols+" FROM ratings WHERE user_id = ? AND game = ?"+db.d.ForUpdate),
			uid, game))
		if errors.Is(err, sql.ErrNoRows) {
			r = match.Rating{UserID: uid, Game: game}
		} else if err != nil {
			return err
		}
		cur[i] = r
	}
	next := end.Rate(cur)
	if err := db.recordRatingChanges(ctx, tx, gameID, game, cur, next, ms(end.Finished)); err != nil {
		return err
	}
	for _, r := range next {
		if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO ratings (user_id, game, rating, deviation, volatility, games, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET rating = excluded.rating,
			deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, updated = excluded.updated`),
			r.UserID, game, r.Rating, r.Deviation, r.Volatility, r.Games, ms(r.Updated)); err != nil {
			return err
		}
	}
	return nil
}

const ratingCols = "user_id, game, rating, deviation, volatility, games, updated"

func scanRating(row scanner) (match.Rating, error) {
	var r match.Rating
	var updated int64
	err := row.Scan(&r.UserID, &r.Game, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated)
	r.Updated = fromMs(updated)
	return r, err
}

// Ratings implements store.Ratings.
func (db *DB) Ratings(ctx context.Context, userID int64) ([]match.Rating, error) {
	out, err := collect(ctx, db, db.r, scanRating, "SELECT "+ratingCols+" FROM ratings WHERE user_id = ? ORDER BY game", userID)
	return out, db.wrap("ratings", err)
}

// Leaderboard implements store.Ratings.
func (db *DB) Leaderboard(ctx context.Context, game string, maxDeviation float64, limit int) ([]store.RatedUser, error) {
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
		FROM ratings r JOIN users u ON u.id = r.user_id WHERE r.game = ? AND r.deviation <= ?
		ORDER BY r.rating DESC, u.name_key LIMIT `+strconv.Itoa(limit), game, maxDeviation)
	return out, db.wrap("leaderboard", err)
}
