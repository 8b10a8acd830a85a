package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

var _ store.Ladder = (*DB)(nil)

// JoinLadder implements store.Ladder. A bot's row keeps rating 0: its
// rating is the ratings table's.
func (db *DB) JoinLadder(ctx context.Context, game string, uid int64, maxGames int, now time.Time) error {
	_, err := db.exec(ctx, `INSERT INTO ladder_entries (game, user_id, level, max_games, joined, active, rating, deviation)
		VALUES (?, ?, '', ?, ?, 1, 0, 0) ON CONFLICT (game, user_id, level) DO UPDATE SET max_games = excluded.max_games,
		joined = CASE WHEN ladder_entries.active = 0 THEN excluded.joined ELSE ladder_entries.joined END, active = 1`,
		game, uid, maxGames, ms(now))
	return db.wrap("join ladder", err)
}

// LeaveLadder implements store.Ladder.
func (db *DB) LeaveLadder(ctx context.Context, game string, uid int64) error {
	res, err := db.exec(ctx, "UPDATE ladder_entries SET active = 0 WHERE game = ? AND user_id = ? AND level = ''", game, uid)
	if err == nil {
		err = mustOne(res)
	}
	return db.wrap("leave ladder", err)
}

// SetLadderAnchor implements store.Ladder.
func (db *DB) SetLadderAnchor(ctx context.Context, game, level string, rating, deviation float64, active bool, now time.Time) error {
	if level == "" {
		return fmt.Errorf("store: set ladder anchor: no level")
	}
	_, err := db.exec(ctx, `INSERT INTO ladder_entries (game, user_id, level, max_games, joined, active, rating, deviation)
		VALUES (?, 0, ?, 0, ?, ?, ?, ?) ON CONFLICT (game, user_id, level) DO UPDATE SET rating = excluded.rating,
		deviation = excluded.deviation, active = excluded.active`,
		game, level, ms(now), b2i(active), rating, deviation)
	return db.wrap("set ladder anchor", err)
}

// LadderEntries implements store.Ladder.
func (db *DB) LadderEntries(ctx context.Context, game string) ([]store.LadderEntry, error) {
	out, err := collect(ctx, db, db.r, func(row scanner) (store.LadderEntry, error) {
		var e store.LadderEntry
		var joined int64
		var active int
		var name sql.NullString
		var r, d sql.NullFloat64
		var games sql.NullInt64
		err := row.Scan(&e.Game, &e.UserID, &e.Level, &e.MaxGames, &joined, &active, &e.Rating, &e.Deviation, &name, &r, &d, &games)
		e.Joined, e.Active = fromMs(joined), active != 0
		if e.Level != "" {
			e.Name = e.Level
		} else {
			e.Name = name.String
			e.Rating, e.Deviation, e.Games = r.Float64, d.Float64, int(games.Int64)
		}
		return e, err
	}, `SELECT l.game, l.user_id, l.level, l.max_games, l.joined, l.active, l.rating, l.deviation, u.name, r.rating, r.deviation, r.games
		FROM ladder_entries l LEFT JOIN users u ON u.id = l.user_id AND l.user_id <> 0
		LEFT JOIN ratings r ON r.user_id = l.user_id AND r.game = l.game AND l.user_id <> 0
		WHERE l.game = ? ORDER BY l.level = '', l.joined, l.user_id, l.level`, game)
	return out, db.wrap("ladder entries", err)
}

const ladderGameCols = "game_id, game, first_user, first_level, second_user, second_level, created, result, ended"

func scanLadderGame(row scanner) (store.LadderGame, error) {
	var g store.LadderGame
	var created, ended int64
	err := row.Scan(&g.GameID, &g.Game, &g.FirstUser, &g.FirstLevel, &g.SecondUser, &g.SecondLevel, &created, &g.Result, &ended)
	g.Created, g.Ended = fromMs(created), fromMs(ended)
	return g, err
}

// LadderGames implements store.Ladder.
func (db *DB) LadderGames(ctx context.Context, game string, since time.Time, limit int) ([]store.LadderGame, error) {
	if limit <= 0 {
		limit = 1000
	}
	out, err := collect(ctx, db, db.r, scanLadderGame,
		"SELECT "+ladderGameCols+" FROM ladder_games WHERE game = ? AND created >= ? ORDER BY created DESC, game_id LIMIT ?",
		game, ms(since), limit)
	return out, db.wrap("ladder games", err)
}

// PendingLadderGames implements store.Ladder.
func (db *DB) PendingLadderGames(ctx context.Context) ([]store.LadderGame, error) {
	out, err := collect(ctx, db, db.r, scanLadderGame,
		"SELECT "+ladderGameCols+" FROM ladder_games WHERE result = '' ORDER BY created, game_id")
	return out, db.wrap("pending ladder games", err)
}

// ClaimLadder implements store.Ladder.
func (db *DB) ClaimLadder(ctx context.Context, node string, epoch int64, ttl time.Duration) (int64, error) {
	var out int64
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var owner string
		var cur int64
		var live int
		err := tx.QueryRowContext(ctx, db.d.Rebind(`SELECT owner, epoch, CASE WHEN lease_expires >= `+db.now()+` THEN 1 ELSE 0 END
			FROM ladder_lease WHERE id = 1`+db.d.ForUpdate)).Scan(&owner, &cur, &live)
		if err != nil {
			return err
		}
		switch {
		case owner == node && cur == epoch && epoch > 0:
			out = cur // a renewal
		case epoch > 0:
			return fmt.Errorf("the ladder is at epoch %d, not %d: %w", cur, epoch, store.ErrDeposed)
		case live != 0:
			return fmt.Errorf("the ladder's matchmaker is %s: %w", owner, store.ErrConflict)
		default:
			out = cur + 1
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind(`UPDATE ladder_lease SET owner = ?, epoch = ?, lease_expires = `+db.now()+` + ? WHERE id = 1`),
			node, out, ttl.Milliseconds())
		return err
	})
	if err != nil {
		return 0, db.wrap("claim ladder", err)
	}
	return out, nil
}

// ReleaseLadder implements store.Ladder.
func (db *DB) ReleaseLadder(ctx context.Context, node string, epoch int64) error {
	_, err := db.exec(ctx, "UPDATE ladder_lease SET lease_expires = 0 WHERE id = 1 AND owner = ? AND epoch = ?", node, epoch)
	return db.wrap("release ladder", err)
}

// ladderFence fails with ErrDeposed unless the ladder lease is at epoch,
// and holds its row for the rest of tx.
func (db *DB) ladderFence(ctx context.Context, tx *sql.Tx, epoch int64) error {
	var cur int64
	if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT epoch FROM ladder_lease WHERE id = 1"+db.d.ForUpdate)).Scan(&cur); err != nil {
		return err
	}
	if cur != epoch {
		return fmt.Errorf("the ladder is at epoch %d, not %d: %w", cur, epoch, store.ErrDeposed)
	}
	return nil
}

// CreateLadderGameFenced implements store.Ladder.
func (db *DB) CreateLadderGameFenced(ctx context.Context, epoch int64, g store.LadderGame) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := db.ladderFence(ctx, tx, epoch); err != nil {
			return err
		}
		for _, uid := range []int64{g.FirstUser, g.SecondUser} {
			if uid == 0 {
				continue // an anchor's seat
			}
			var active int
			err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT active FROM ladder_entries WHERE game = ? AND user_id = ? AND level = ''"+db.d.ForUpdate), g.Game, uid).Scan(&active)
			if errors.Is(err, sql.ErrNoRows) || (err == nil && active == 0) {
				return fmt.Errorf("user %d: %w", uid, store.ErrLeftLadder)
			}
			if err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO ladder_games ("+ladderGameCols+") VALUES (?, ?, ?, ?, ?, ?, ?, '', 0)"),
			g.GameID, g.Game, g.FirstUser, g.FirstLevel, g.SecondUser, g.SecondLevel, ms(g.Created))
		return err
	})
	return db.wrap("create ladder game", err)
}

// EndLadderGameFenced implements store.Ladder.
func (db *DB) EndLadderGameFenced(ctx context.Context, epoch int64, gameID, result string, ended time.Time,
	rate func(bot match.Rating, anchorRating, anchorDeviation, score float64) match.Rating) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		if err := db.ladderFence(ctx, tx, epoch); err != nil {
			return err
		}
		g, err := scanLadderGame(tx.QueryRowContext(ctx, db.d.Rebind("SELECT "+ladderGameCols+" FROM ladder_games WHERE game_id = ?"+db.d.ForUpdate), gameID))
		if err != nil {
			return err
		}
		if g.Result != store.LadderPending {
			return fmt.Errorf("ladder game %s ended already (%s): %w", gameID, g.Result, store.ErrNotFound)
		}
		if _, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE ladder_games SET result = ?, ended = ? WHERE game_id = ?"),
			result, ms(ended), gameID); err != nil {
			return err
		}
		anchorFirst := g.FirstLevel != "" && g.SecondLevel == "" && g.SecondUser != 0
		anchorSecond := g.SecondLevel != "" && g.FirstLevel == "" && g.FirstUser != 0
		if rate == nil || result == store.LadderAborted || !(anchorFirst || anchorSecond) {
			return nil
		}
		uid, level, score := g.FirstUser, g.SecondLevel, 0.5
		if anchorFirst {
			uid, level = g.SecondUser, g.FirstLevel
		}
		switch {
		case result == store.LadderFirst && anchorSecond, result == store.LadderSecond && anchorFirst:
			score = 1
		case result == store.LadderFirst, result == store.LadderSecond:
			score = 0
		}
		var ar, ad float64
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT rating, deviation FROM ladder_entries WHERE game = ? AND user_id = 0 AND level = ?"),
			g.Game, level).Scan(&ar, &ad); err != nil {
			return fmt.Errorf("anchor %s of %s: %w", level, g.Game, err)
		}
		if db.d.ForUpdate != "" {
			var one int64
			if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT id FROM users WHERE id = ?"+db.d.ForUpdate), uid).Scan(&one); err != nil {
				return err
			}
		}
		cur, err := scanRating(tx.QueryRowContext(ctx, db.d.Rebind("SELECT "+ratingCols+" FROM ratings WHERE user_id = ? AND game = ?"+db.d.ForUpdate), uid, g.Game))
		if errors.Is(err, sql.ErrNoRows) {
			cur, err = match.Rating{UserID: uid, Game: g.Game}, nil
		}
		if err != nil {
			return err
		}
		next := rate(cur, ar, ad, score)
		next.UserID, next.Game, next.Games, next.Updated = uid, g.Game, cur.Games+1, ended
		if err := db.recordRatingChanges(ctx, tx, gameID, g.Game, []match.Rating{cur}, []match.Rating{next}, ms(ended)); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO ratings (user_id, game, rating, deviation, volatility, games, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET rating = excluded.rating,
			deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, updated = excluded.updated`),
			uid, g.Game, next.Rating, next.Deviation, next.Volatility, next.Games, ms(next.Updated))
		return err
	})
	return db.wrap("end ladder game", err)
}
