package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// AppendMove implements match.Journal.
func (db *DB) AppendMove(ctx context.Context, gameID string, mv match.Move, turn match.Turn, end *match.End) error {
	return db.appendMove(ctx, 0, gameID, mv, turn, end)
}

// AppendMoveFenced implements store.Leases.
func (db *DB) AppendMoveFenced(ctx context.Context, epoch int64, gameID string, mv match.Move, turn match.Turn, end *match.End) error {
	return db.appendMove(ctx, epoch, gameID, mv, turn, end)
}

// appendMove commits a move; fenced by the owner's epoch unless it is 0.
func (db *DB) appendMove(ctx context.Context, epoch int64, gameID string, mv match.Move, turn match.Turn, end *match.End) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		// The guarded update is what makes move N unique even across
		// nodes: only the writer that still sees ply = N (and, fenced,
		// still holds the game's epoch) advances it, and the (game_id,
		// ply) key backs it up.
		var res sql.Result
		var err error
		if epoch != 0 {
			res, err = db.txExec(ctx, tx, qAdvanceFenced, turn.ToMove, ms(turn.Deadline), gameID, string(match.Live), mv.Ply, epoch)
		} else {
			res, err = db.txExec(ctx, tx, qAdvance, turn.ToMove, ms(turn.Deadline), gameID, string(match.Live), mv.Ply)
		}
		if err := db.guarded(ctx, tx, gameID, epoch, res, err); err != nil {
			return err
		}
		if _, err := db.txExec(ctx, tx, qInsertMove, gameID, mv.Ply, mv.Seat, mv.Text, ms(mv.At), mv.ClockMs); err != nil {
			return err
		}
		if end != nil {
			return db.finish(ctx, tx, 0, gameID, *end) // the move's write was fenced
		}
		return nil
	})
	return db.wrap("append move", err)
}

// TakeBack implements match.Journal.
func (db *DB) TakeBack(ctx context.Context, gameID string, had, keep int, turn match.Turn) error {
	return db.takeBack(ctx, 0, gameID, had, keep, turn)
}

// TakeBackFenced implements store.Leases.
func (db *DB) TakeBackFenced(ctx context.Context, epoch int64, gameID string, had, keep int, turn match.Turn) error {
	return db.takeBack(ctx, epoch, gameID, had, keep, turn)
}

// takeBack removes a live game's moves from ply keep on, guarded like a
// move by the number of moves the owner has seen; fenced by the owner's
// epoch unless it is 0.
func (db *DB) takeBack(ctx context.Context, epoch int64, gameID string, had, keep int, turn match.Turn) error {
	if keep < 0 || keep > had {
		return db.wrap("take back", fmt.Errorf("keep %d of %d moves: %w", keep, had, store.ErrConflict))
	}
	err := db.tx(ctx, func(tx *sql.Tx) error {
		q := `UPDATE games SET ply = ?, to_move = ?, deadline = ?, version = version + 1
			WHERE id = ? AND status = ? AND ply = ?`
		args := []any{keep, turn.ToMove, ms(turn.Deadline), gameID, string(match.Live), had}
		if epoch != 0 {
			q += " AND owner_epoch = ?"
			args = append(args, epoch)
		}
		res, err := tx.ExecContext(ctx, db.d.Rebind(q), args...)
		if err := db.guarded(ctx, tx, gameID, epoch, res, err); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind("DELETE FROM moves WHERE game_id = ? AND ply >= ?"), gameID, keep)
		return err
	})
	return db.wrap("take back", err)
}

// guarded checks the outcome of a guarded update of a game's row: when it
// changed nothing, the game is missing (ErrNotFound), owned at another
// epoch than the fenced writer's (ErrDeposed), or not as the write
// expected (ErrConflict).
func (db *DB) guarded(ctx context.Context, tx *sql.Tx, gameID string, epoch int64, res sql.Result, err error) error {
	if err != nil {
		return err
	}
	n, err := res.RowsAffected()
	if err != nil || n > 0 {
		return err
	}
	var now int64
	err = tx.QueryRowContext(ctx, db.d.Rebind("SELECT owner_epoch FROM games WHERE id = ?"), gameID).Scan(&now)
	if err != nil {
		return err // sql.ErrNoRows becomes ErrNotFound
	}
	if epoch != 0 && now != epoch {
		return fmt.Errorf("game %s is at owner epoch %d, not %d: %w", gameID, now, epoch, store.ErrDeposed)
	}
	return store.ErrConflict
}

// EndGame implements match.Journal.
func (db *DB) EndGame(ctx context.Context, gameID string, end match.End) error {
	err := db.tx(ctx, func(tx *sql.Tx) error { return db.finish(ctx, tx, 0, gameID, end) })
	return db.wrap("end game", err)
}

// EndGameFenced implements store.Leases.
func (db *DB) EndGameFenced(ctx context.Context, epoch int64, gameID string, end match.End) error {
	err := db.tx(ctx, func(tx *sql.Tx) error { return db.finish(ctx, tx, epoch, gameID, end) })
	return db.wrap("end game", err)
}

// finish ends a live game in tx (fenced by epoch unless it is 0) and, for a
// rated game, updates its players' ratings (ratings.go).
func (db *DB) finish(ctx context.Context, tx *sql.Tx, epoch int64, gameID string, end match.End) error {
	result, err := encodeResult(&end.Result)
	if err != nil {
		return err
	}
	q := `UPDATE games SET status = ?, result = ?, finished = ?, to_move = -1, deadline = 0,
		version = version + 1 WHERE id = ? AND status = ?`
	args := []any{string(match.Finished), result, ms(end.Finished), gameID, string(match.Live)}
	if epoch != 0 {
		q += " AND owner_epoch = ?"
		args = append(args, epoch)
	}
	res, err := tx.ExecContext(ctx, db.d.Rebind(q), args...)
	if err := db.guarded(ctx, tx, gameID, epoch, res, err); err != nil {
		return err
	}
	if end.Rate == nil || len(end.RatedUsers) == 0 {
		return nil
	}
	return db.rate(ctx, tx, gameID, end)
}

func scanMove(row scanner) (match.Move, error) {
	var m match.Move
	var at int64
	err := row.Scan(&m.Ply, &m.Seat, &m.Text, &at, &m.ClockMs)
	m.At = fromMs(at)
	return m, err
}

// Moves implements match.Journal.
func (db *DB) Moves(ctx context.Context, gameID string) ([]match.Move, error) {
	out, err := collect(ctx, db, db.r, scanMove, "SELECT ply, seat, text, at, clock_ms FROM moves WHERE game_id = ? ORDER BY ply", gameID)
	return out, db.wrap("moves", err)
}
