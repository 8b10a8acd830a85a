package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/store"
)

// The rated puzzles (store.Puzzles; migrate_puzzles.go has the tables).

const puzzlePlayerCols = "rating, deviation, volatility, plays, streak, streak_puzzle, streak_seen, streak_best"

func scanPuzzlePlayer(row scanner) (store.PuzzlePlayer, error) {
	var p store.PuzzlePlayer
	var seen string
	if err := row.Scan(&p.Rating.Rating, &p.Rating.Deviation, &p.Rating.Volatility, &p.Plays, &p.Streak, &p.StreakPuzzle, &seen, &p.StreakBest); err != nil {
		return p, err
	}
	if err := json.Unmarshal([]byte(seen), &p.StreakSeen); err != nil {
		return p, fmt.Errorf("streak_seen: %w", err)
	}
	return p, nil
}

// lockPuzzlePlayer makes sure the player's row exists (at start) and reads
// it locked: every write to a player's puzzle rating or streak takes this
// lock first, and the puzzle's row (lockPuzzle) only after it, so that two
// transactions never wait for each other in a circle.
func (db *DB) lockPuzzlePlayer(ctx context.Context, tx *sql.Tx, userID int64, game string, start store.Glicko, at int64) (store.PuzzlePlayer, error) {
	if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO puzzle_players (user_id, game, rating, deviation, volatility, plays, streak, streak_puzzle, streak_seen, streak_best, updated)
		VALUES (?, ?, ?, ?, ?, 0, 0, '', '[]', 0, ?) ON CONFLICT (user_id, game) DO NOTHING`),
		userID, game, start.Rating, start.Deviation, start.Volatility, at); err != nil {
		return store.PuzzlePlayer{}, err
	}
	return scanPuzzlePlayer(tx.QueryRowContext(ctx, db.d.Rebind("SELECT "+puzzlePlayerCols+" FROM puzzle_players WHERE user_id = ? AND game = ?"+db.d.ForUpdate), userID, game))
}

const attemptCols = "user_id, puzzle, game, mode, solved, rated, player_before, player_after, puzzle_before, puzzle_after, at"

func scanAttempt(row scanner) (store.PuzzleAttempt, error) {
	var a store.PuzzleAttempt
	var solved, rated int
	var at int64
	err := row.Scan(&a.UserID, &a.Puzzle, &a.Game, &a.Mode, &solved, &rated, &a.PlayerBefore, &a.PlayerAfter, &a.PuzzleBefore, &a.PuzzleAfter, &at)
	a.Solved, a.Rated, a.At = solved != 0, rated != 0, fromMs(at)
	return a, err
}

// RecordPuzzleAttempt implements store.Puzzles.
func (db *DB) RecordPuzzleAttempt(ctx context.Context, a store.PuzzleAttempt, playerStart, puzzleStart store.Glicko, rate store.PuzzleRater) (store.PuzzleAttempt, bool, error) {
	var out store.PuzzleAttempt
	var first bool
	err := db.tx(ctx, func(tx *sql.Tx) error {
		first = false
		at := ms(a.At)
		rec := a
		rec.Rated = rate != nil
		if rate != nil {
			player, err := db.lockPuzzlePlayer(ctx, tx, a.UserID, a.Game, playerStart, at)
			if err != nil {
				return err
			}
			// Under the player's lock, an earlier attempt is certainly
			// visible: the same player's attempts are serialised here.
			prev, err := scanAttempt(tx.QueryRowContext(ctx, db.d.Rebind("SELECT "+attemptCols+" FROM puzzle_attempts WHERE user_id = ? AND puzzle = ?"), a.UserID, a.Puzzle))
			if err == nil {
				out = prev
				return nil
			}
			if !errors.Is(err, sql.ErrNoRows) {
				return err
			}
			if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO puzzle_ratings (puzzle, game, rating, deviation, volatility, plays, solved, updated)
				VALUES (?, ?, ?, ?, ?, 0, 0, ?) ON CONFLICT (puzzle) DO NOTHING`),
				a.Puzzle, a.Game, puzzleStart.Rating, puzzleStart.Deviation, puzzleStart.Volatility, at); err != nil {
				return err
			}
			var pz store.Glicko
			if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT rating, deviation, volatility FROM puzzle_ratings WHERE puzzle = ?"+db.d.ForUpdate), a.Puzzle).
				Scan(&pz.Rating, &pz.Deviation, &pz.Volatility); err != nil {
				return err
			}
			np, nz := rate(player.Rating, pz, a.Solved)
			rec.PlayerBefore, rec.PlayerAfter, rec.PuzzleBefore, rec.PuzzleAfter = player.Rating.Rating, np.Rating, pz.Rating, nz.Rating
			if _, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE puzzle_players SET rating = ?, deviation = ?, volatility = ?, plays = plays + 1, updated = ? WHERE user_id = ? AND game = ?"),
				np.Rating, np.Deviation, np.Volatility, at, a.UserID, a.Game); err != nil {
				return err
			}
			if _, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE puzzle_ratings SET rating = ?, deviation = ?, volatility = ?, plays = plays + 1, solved = solved + ?, updated = ? WHERE puzzle = ?"),
				nz.Rating, nz.Deviation, nz.Volatility, b2i(a.Solved), at, a.Puzzle); err != nil {
				return err
			}
		}
		res, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO puzzle_attempts ("+attemptCols+") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, puzzle) DO NOTHING"),
			rec.UserID, rec.Puzzle, rec.Game, rec.Mode, b2i(rec.Solved), b2i(rec.Rated), rec.PlayerBefore, rec.PlayerAfter, rec.PuzzleBefore, rec.PuzzleAfter, at)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			// Only an unrated attempt gets here: another one won the race.
			out, err = scanAttempt(tx.QueryRowContext(ctx, db.d.Rebind("SELECT "+attemptCols+" FROM puzzle_attempts WHERE user_id = ? AND puzzle = ?"), a.UserID, a.Puzzle))
			return err
		}
		out, first = rec, true
		out.At = fromMs(at)
		return nil
	})
	if err != nil {
		return store.PuzzleAttempt{}, false, db.wrap("record puzzle attempt", err)
	}
	return out, first, nil
}

// PuzzlePlayer implements store.Puzzles.
func (db *DB) PuzzlePlayer(ctx context.Context, userID int64, game string, start store.Glicko) (store.PuzzlePlayer, error) {
	p, err := scanPuzzlePlayer(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+puzzlePlayerCols+" FROM puzzle_players WHERE user_id = ? AND game = ?"), userID, game))
	if errors.Is(err, sql.ErrNoRows) {
		return store.PuzzlePlayer{Rating: start}, nil
	}
	return p, db.wrap("puzzle player", err)
}

// PuzzleStats implements store.Puzzles.
func (db *DB) PuzzleStats(ctx context.Context, game string) (map[string]store.PuzzleStat, error) {
	scan := func(row scanner) (store.PuzzleStat, error) {
		var s store.PuzzleStat
		err := row.Scan(&s.Puzzle, &s.Rating.Rating, &s.Rating.Deviation, &s.Rating.Volatility, &s.Plays, &s.Solved)
		return s, err
	}
	list, err := collect(ctx, db, db.r, scan, "SELECT puzzle, rating, deviation, volatility, plays, solved FROM puzzle_ratings WHERE game = ?", game)
	if err != nil {
		return nil, db.wrap("puzzle stats", err)
	}
	out := make(map[string]store.PuzzleStat, len(list))
	for _, s := range list {
		out[s.Puzzle] = s
	}
	return out, nil
}

// PuzzleAttempts implements store.Puzzles.
func (db *DB) PuzzleAttempts(ctx context.Context, userID int64, game string, before time.Time, limit int) ([]store.PuzzleAttempt, error) {
	if limit <= 0 {
		limit = 50
	}
	q := "SELECT " + attemptCols + " FROM puzzle_attempts WHERE user_id = ?"
	args := []any{userID}
	if game != "" {
		q += " AND game = ?"
		args = append(args, game)
	}
	if !before.IsZero() {
		q += " AND at < ?"
		args = append(args, ms(before))
	}
	out, err := collect(ctx, db, db.r, scanAttempt, q+" ORDER BY at DESC, puzzle LIMIT "+strconv.Itoa(limit), args...)
	return out, db.wrap("puzzle attempts", err)
}

func (db *DB) saveStreak(ctx context.Context, tx *sql.Tx, userID int64, game string, p store.PuzzlePlayer, at int64) error {
	seen, err := json.Marshal(p.StreakSeen)
	if err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, db.d.Rebind("UPDATE puzzle_players SET streak = ?, streak_puzzle = ?, streak_seen = ?, streak_best = ?, updated = ? WHERE user_id = ? AND game = ?"),
		p.Streak, p.StreakPuzzle, string(seen), p.StreakBest, at, userID, game)
	return err
}

// StartPuzzleStreak implements store.Puzzles.
func (db *DB) StartPuzzleStreak(ctx context.Context, userID int64, game, first string, start store.Glicko, at time.Time) (store.PuzzlePlayer, error) {
	var out store.PuzzlePlayer
	err := db.tx(ctx, func(tx *sql.Tx) error {
		p, err := db.lockPuzzlePlayer(ctx, tx, userID, game, start, ms(at))
		if err != nil {
			return err
		}
		p.Streak, p.StreakPuzzle, p.StreakSeen = 0, first, []string{first}
		out = p
		return db.saveStreak(ctx, tx, userID, game, p, ms(at))
	})
	return out, db.wrap("start puzzle streak", err)
}

// AnswerPuzzleStreak implements store.Puzzles.
func (db *DB) AnswerPuzzleStreak(ctx context.Context, userID int64, game, puzzle string, solved bool, next store.PuzzleStreakNext, start store.Glicko, at time.Time) (store.PuzzlePlayer, error) {
	var out store.PuzzlePlayer
	err := db.tx(ctx, func(tx *sql.Tx) error {
		p, err := db.lockPuzzlePlayer(ctx, tx, userID, game, start, ms(at))
		if err != nil {
			return err
		}
		if p.StreakPuzzle == "" || p.StreakPuzzle != puzzle {
			return fmt.Errorf("the streak waits for %q, not %q: %w", p.StreakPuzzle, puzzle, store.ErrConflict)
		}
		if solved {
			p.Streak++
			p.StreakBest = max(p.StreakBest, p.Streak)
			p.StreakPuzzle = next(p.StreakSeen)
			if p.StreakPuzzle != "" {
				p.StreakSeen = append(p.StreakSeen, p.StreakPuzzle)
			}
		} else {
			p.StreakPuzzle = ""
		}
		out = p
		return db.saveStreak(ctx, tx, userID, game, p, ms(at))
	})
	return out, db.wrap("answer puzzle streak", err)
}

var _ store.Puzzles = (*DB)(nil)
