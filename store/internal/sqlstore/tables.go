package sqlstore

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/tabula-games/tabula/store"
)

// Tables (store.Tables): the seats of each table of a Skyjo table
// tournament, one row a seat (migration 14, migrate_tables.go), written
// in the transactions that write the table's board.

var _ store.Tables = (*DB)(nil)

// AddTableRoundFenced implements store.Tables.
func (db *DB) AddTableRoundFenced(ctx context.Context, epoch int64, id string, r store.TournamentRound, seats [][]int64) error {
	if len(seats) != len(r.Boards) {
		return fmt.Errorf("add table round %d: %d boards and %d tables of seats", r.Number, len(r.Boards), len(seats))
	}
	return db.fenced(ctx, "add table round", id, epoch, func(tx *sql.Tx) error {
		var last int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT current_round FROM tournaments WHERE id = ?"), id).Scan(&last); err != nil {
			return err
		}
		if r.Number != last+1 {
			return fmt.Errorf("round %d after round %d: %w", r.Number, last, store.ErrConflict)
		}
		for i, b := range r.Boards {
			if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO tournament_boards (tournament_id, round, board, white, black, game_id, result)
				VALUES (?, ?, ?, ?, ?, ?, ?)`), id, r.Number, b.Board, b.White, b.Black, b.GameID, b.Result); err != nil {
				return err
			}
			for seat, uid := range seats[i] {
				if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO tournament_table_seats (tournament_id, round, board, seat, user_id, half_points, total)
					VALUES (?, ?, ?, ?, ?, 0, 0)`), id, r.Number, b.Board, seat, uid); err != nil {
					return err
				}
			}
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE tournaments SET current_round = ? WHERE id = ?"), r.Number, id)
		return err
	})
}

// TableSeats implements store.Tables.
func (db *DB) TableSeats(ctx context.Context, id string) ([]store.TableSeat, error) {
	out, err := collect(ctx, db, db.r, func(row scanner) (store.TableSeat, error) {
		var s store.TableSeat
		return s, row.Scan(&s.Round, &s.Board, &s.Seat, &s.UserID, &s.HalfPoints, &s.Total)
	}, `SELECT round, board, seat, user_id, half_points, total FROM tournament_table_seats
		WHERE tournament_id = ? ORDER BY round, board, seat`, id)
	return out, db.wrap("table seats", err)
}

// SetTableResultFenced implements store.Tables.
func (db *DB) SetTableResultFenced(ctx context.Context, epoch int64, id string, round, board int, result string, halfPoints, totals []int) error {
	if len(halfPoints) != len(totals) {
		return fmt.Errorf("set table result: %d points and %d totals", len(halfPoints), len(totals))
	}
	return db.fenced(ctx, "set table result", id, epoch, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE tournament_boards SET result = ? WHERE tournament_id = ? AND round = ? AND board = ? AND result = ''"),
			result, id, round, board)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n != 1 {
			return fmt.Errorf("board %d of round %d has a result already or does not exist: %w", board, round, store.ErrConflict)
		}
		var seats int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT COUNT(*) FROM tournament_table_seats WHERE tournament_id = ? AND round = ? AND board = ?"),
			id, round, board).Scan(&seats); err != nil {
			return err
		}
		if seats != len(totals) {
			return fmt.Errorf("table %d of round %d has %d seats, not %d", board, round, seats, len(totals))
		}
		for seat := range totals {
			if _, err := tx.ExecContext(ctx, db.d.Rebind(`UPDATE tournament_table_seats SET half_points = ?, total = ?
				WHERE tournament_id = ? AND round = ? AND board = ? AND seat = ?`), halfPoints[seat], totals[seat], id, round, board, seat); err != nil {
				return err
			}
		}
		return nil
	})
}
