package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// CreateGame implements store.Games.
func (db *DB) CreateGame(ctx context.Context, m *match.Meta) error {
	return db.wrap("create game", db.insertGame(ctx, m, nil, ""))
}

// CreateOwnedGame implements store.Leases.
func (db *DB) CreateOwnedGame(ctx context.Context, m *match.Meta, node string) error {
	return db.wrap("create game", db.insertGame(ctx, m, nil, node))
}

// ImportGame implements store.Games.
func (db *DB) ImportGame(ctx context.Context, m *match.Meta, moves []match.Move) error {
	m.Ply = len(moves)
	return db.wrap("import game", db.insertGame(ctx, m, moves, ""))
}

// insertGame stores a new game, its seats and moves in one transaction, at
// Version 1; owned by node at epoch 1 unless node is "".
func (db *DB) insertGame(ctx context.Context, m *match.Meta, moves []match.Move, node string) error {
	opts, err := json.Marshal(m.Options)
	if err != nil {
		return err
	}
	clock, err := json.Marshal(m.Clock)
	if err != nil {
		return err
	}
	result, err := encodeResult(m.Result)
	if err != nil {
		return err
	}
	m.Version = 1
	epoch := 0
	if node != "" {
		epoch = 1
	}
	return db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO games (id, game, options, seed, start_position, status, clock, rated,
			creator_id, created, started, finished, result, ply, to_move, deadline, version, owner, owner_epoch, origin, keep_deal, expires)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			m.ID, m.Game, string(opts), int64(m.Seed), string(m.StartPosition), string(m.Status), string(clock), b2i(m.Rated),
			m.CreatorID, ms(m.Created), ms(m.Started), ms(m.Finished), result, m.Ply, m.ToMove, ms(m.Deadline), m.Version, node, epoch,
			string(m.Origin), b2i(m.KeepDeal), ms(m.Expires))
		if err != nil {
			return err
		}
		if err := db.insertSeats(ctx, tx, m); err != nil {
			return err
		}
		for _, mv := range moves {
			if _, err := db.txExec(ctx, tx, qInsertMove, m.ID, mv.Ply, mv.Seat, mv.Text, ms(mv.At), mv.ClockMs); err != nil {
				return err
			}
		}
		return nil
	})
}

// encodeResult is the result column: JSON, or empty while there is none.
func encodeResult(r *match.Result) (string, error) {
	if r == nil {
		return "", nil
	}
	b, err := json.Marshal(r)
	return string(b), err
}

func (db *DB) insertSeats(ctx context.Context, tx *sql.Tx, m *match.Meta) error {
	for i, s := range m.Seats {
		if _, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO seats (game_id, seat, kind, user_id, level) VALUES (?, ?, ?, ?, ?)"),
			m.ID, i, string(s.Kind), s.UserID, s.Level); err != nil {
			return err
		}
	}
	return nil
}

const gameCols = `g.id, g.game, g.options, g.seed, g.start_position, g.status, g.clock, g.rated, g.creator_id,
	g.created, g.started, g.finished, g.result, g.ply, g.to_move, g.deadline, g.version, g.origin, g.keep_deal, g.expires`

func scanGame(row scanner) (match.Meta, error) {
	var m match.Meta
	var opts, startPos, status, clock, result, origin string
	var seed, created, started, finished, deadline, expires int64
	var rated, keepDeal int
	err := row.Scan(&m.ID, &m.Game, &opts, &seed, &startPos, &status, &clock, &rated, &m.CreatorID,
		&created, &started, &finished, &result, &m.Ply, &m.ToMove, &deadline, &m.Version, &origin, &keepDeal, &expires)
	if err != nil {
		return m, err
	}
	m.Origin, m.KeepDeal, m.Expires = match.Origin(origin), keepDeal != 0, fromMs(expires)
	m.Seed = uint64(seed)
	if startPos != "" {
		m.StartPosition = []byte(startPos)
	}
	m.Status = match.Status(status)
	m.Rated = rated != 0
	m.Created, m.Started, m.Finished, m.Deadline = fromMs(created), fromMs(started), fromMs(finished), fromMs(deadline)
	if err := json.Unmarshal([]byte(opts), &m.Options); err != nil {
		return m, fmt.Errorf("game %s options: %w", m.ID, err)
	}
	if err := json.Unmarshal([]byte(clock), &m.Clock); err != nil {
		return m, fmt.Errorf("game %s clock: %w", m.ID, err)
	}
	if result != "" {
		m.Result = new(match.Result)
		if err := json.Unmarshal([]byte(result), m.Result); err != nil {
			return m, fmt.Errorf("game %s result: %w", m.ID, err)
		}
	}
	return m, nil
}

// seatRow is one row of the seats table.
type seatRow struct {
	gameID string
	index  int
	seat   match.Seat
}

func scanSeat(row scanner) (seatRow, error) {
	var r seatRow
	var kind string
	err := row.Scan(&r.gameID, &r.index, &kind, &r.seat.UserID, &r.seat.Level)
	r.seat.Kind = match.SeatKind(kind)
	return r, err
}

// loadSeats fills in the seats of the given games.
func (db *DB) loadSeats(ctx context.Context, q querier, games []match.Meta) error {
	if len(games) == 0 {
		return nil
	}
	idx := make(map[string]int, len(games))
	args := make([]any, len(games))
	for i, g := range games {
		idx[g.ID] = i
		args[i] = g.ID
	}
	rows, err := collect(ctx, db, q, scanSeat, "SELECT game_id, seat, kind, user_id, level FROM seats WHERE game_id IN ("+
		marks(len(games))+") ORDER BY game_id, seat", args...)
	if err != nil {
		return err
	}
	for _, r := range rows {
		g := &games[idx[r.gameID]]
		for len(g.Seats) <= r.index {
			g.Seats = append(g.Seats, match.Seat{})
		}
		g.Seats[r.index] = r.seat
	}
	return nil
}

// marks is n placeholders separated by commas, for IN (…).
func marks(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}

// Game implements store.Games.
func (db *DB) Game(ctx context.Context, id string) (match.Meta, error) {
	m, err := scanGame(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+gameCols+" FROM games g WHERE g.id = ?"), id))
	if err != nil {
		return m, db.wrap("game", err)
	}
	gs := []match.Meta{m}
	if err := db.loadSeats(ctx, db.r, gs); err != nil {
		return m, db.wrap("game seats", err)
	}
	return gs[0], nil
}

// UpdateGame implements match.Journal.
func (db *DB) UpdateGame(ctx context.Context, m *match.Meta) error {
	return db.updateGame(ctx, 0, m)
}

// UpdateGameFenced implements store.Leases.
func (db *DB) UpdateGameFenced(ctx context.Context, epoch int64, m *match.Meta) error {
	return db.updateGame(ctx, epoch, m)
}

// updateGame rewrites the lobby part of a game, fenced by the owner's
// epoch unless it is 0.
func (db *DB) updateGame(ctx context.Context, epoch int64, m *match.Meta) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		q := `UPDATE games SET status = ?, rated = ?, started = ?, finished = ?,
			to_move = ?, deadline = ?, version = version + 1 WHERE id = ? AND version = ? AND status <> ?`
		args := []any{string(m.Status), b2i(m.Rated), ms(m.Started), ms(m.Finished), m.ToMove, ms(m.Deadline), m.ID, m.Version, string(match.Finished)}
		if epoch != 0 {
			q += " AND owner_epoch = ?"
			args = append(args, epoch)
		}
		res, err := tx.ExecContext(ctx, db.d.Rebind(q), args...)
		if err := db.guarded(ctx, tx, m.ID, epoch, res, err); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, db.d.Rebind("DELETE FROM seats WHERE game_id = ?"), m.ID); err != nil {
			return err
		}
		return db.insertSeats(ctx, tx, m)
	})
	if err != nil {
		return db.wrap("update game", err)
	}
	m.Version++
	return nil
}

// Games implements store.Games.
func (db *DB) Games(ctx context.Context, f store.GameFilter) ([]match.Meta, error) {
	var where []string
	var args []any
	if len(f.Statuses) > 0 {
		for _, s := range f.Statuses {
			args = append(args, string(s))
		}
		where = append(where, "g.status IN ("+marks(len(f.Statuses))+")")
	}
	if f.Game != "" {
		where = append(where, "g.game = ?")
		args = append(args, f.Game)
	}
	if f.Creator != 0 {
		where = append(where, "g.creator_id = ?")
		args = append(args, f.Creator)
	}
	if f.UserID != 0 {
		if f.ToMove {
			where = append(where, "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = g.to_move AND s.kind = ? AND s.user_id = ?)")
			args = append(args, string(match.SeatHuman), f.UserID)
		} else {
			where = append(where, "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?)")
			args = append(args, f.UserID)
		}
	}
	if !f.Before.IsZero() {
		where = append(where, "g.created < ?")
		args = append(args, ms(f.Before))
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q := "SELECT " + gameCols + " FROM games g"
	if len(where) > 0 {
		q += " WHERE " + strings.Join(where, " AND ")
	}
	q += " ORDER BY g.created DESC, g.id LIMIT " + strconv.Itoa(limit)
	out, err := collect(ctx, db, db.r, scanGame, q, args...)
	if err != nil {
		return nil, db.wrap("games", err)
	}
	return out, db.wrap("games seats", db.loadSeats(ctx, db.r, out))
}
