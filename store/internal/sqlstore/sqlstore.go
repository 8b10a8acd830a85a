// Package sqlstore implements store.Store over database/sql for both SQL
// dialects the project uses (SQLite and PostgreSQL): the schema, queries and
// transactions are shared, and a Dialect carries the few differences.
package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Dialect is what differs between SQL databases.
type Dialect struct {
	Name   string
	Serial string // an auto-increment integer primary key column type
	Blob   string
	Float  string
	// Numbered placeholders ($1, $2, …) instead of ?.
	Numbered bool
	// ForUpdate is appended to SELECTs that read rows the transaction will
	// write (PostgreSQL row locks; SQLite transactions are exclusive).
	ForUpdate string
	// IsUnique reports whether err is a unique-constraint violation.
	IsUnique func(err error) bool
	// MigrationLock, if set, runs first in the migration transaction so
	// that nodes starting together migrate one at a time.
	MigrationLock string
}

// Rebind rewrites ? placeholders for the dialect.
func (d *Dialect) Rebind(q string) string {
	if !d.Numbered {
		return q
	}
	var b strings.Builder
	n := 0
	for i := 0; i < len(q); i++ {
		if q[i] == '?' {
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
			continue
		}
		b.WriteByte(q[i])
	}
	return b.String()
}

// DB is a store.Store over database/sql. Writes go through w, reads
// through r; for SQLite w is a single connection (SQLite has one writer
// anyway, and queueing in Go is cheaper than spinning on the busy lock).
type DB struct {
	r, w *sql.DB
	d    *Dialect
	// Prepared write statements of the hot path, by query; read-only
	// after New.
	stmts map[string]*sql.Stmt
	// Group commit (batch.go), when enabled.
	ops     chan writeOp
	stop    chan struct{}
	stopped chan struct{}
}

var errClosed = errors.New("store: closed")

// New wraps open databases; the schema must already be migrated. With
// groupCommit, write transactions are batched by one committer goroutine
// (for SQLite's single writer).
func New(r, w *sql.DB, d *Dialect, groupCommit bool) *DB {
	db := &DB{r: r, w: w, d: d, stmts: map[string]*sql.Stmt{}}
	db.prepare()
	if groupCommit {
		db.ops, db.stop, db.stopped = make(chan writeOp, maxBatch), make(chan struct{}), make(chan struct{})
		go db.committer()
	}
	return db
}

var _ store.Store = (*DB)(nil)

// Close implements store.Store.
func (db *DB) Close() error {
	if db.stop != nil {
		close(db.stop)
		<-db.stopped
	}
	for _, st := range db.stmts {
		st.Close()
	}
	err := db.w.Close()
	if db.r != db.w {
		if e := db.r.Close(); err == nil {
			err = e
		}
	}
	return err
}

// Ping implements store.Store.
func (db *DB) Ping(ctx context.Context) error {
	var one int
	return db.r.QueryRowContext(ctx, "SELECT 1").Scan(&one)
}

func ms(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMs(v int64) time.Time {
	if v == 0 {
		return time.Time{}
	}
	return time.UnixMilli(v).UTC()
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func (db *DB) wrap(op string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, sql.ErrNoRows):
		return fmt.Errorf("store: %s: %w", op, store.ErrNotFound)
	case db.d.IsUnique(err):
		return fmt.Errorf("store: %s: %w", op, store.ErrConflict)
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// exec runs one write statement in its own transaction.
func (db *DB) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	var res sql.Result
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var err error
		res, err = tx.ExecContext(ctx, db.d.Rebind(q), args...)
		return err
	})
	return res, err
}

// Hot-path write statements, prepared once when the store opens (parsing
// SQL was a tenth of the server's time per move). They are prepared before
// the committer starts: with SQLite's single writer connection, preparing
// later could wait for the connection the committer holds.
const (
	qAdvance    = `UPDATE games SET ply = ply + 1, to_move = ?, deadline = ? WHERE id = ? AND status = ? AND ply = ?`
	qInsertMove = "INSERT INTO moves (game_id, ply, seat, text, at, clock_ms) VALUES (?, ?, ?, ?, ?, ?)"
)

func (db *DB) prepare() {
	for _, q := range []string{qAdvance, qInsertMove} {
		if st, err := db.w.Prepare(db.d.Rebind(q)); err == nil {
			db.stmts[q] = st
		}
	}
}

// txExec runs q in tx, prepared if it is a hot-path statement.
func (db *DB) txExec(ctx context.Context, tx *sql.Tx, q string, args ...any) (sql.Result, error) {
	if st, ok := db.stmts[q]; ok {
		return tx.StmtContext(ctx, st).ExecContext(ctx, args...)
	}
	return tx.ExecContext(ctx, db.d.Rebind(q), args...)
}

// tx runs fn in a write transaction.
func (db *DB) tx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.ops != nil {
		return db.batchedTx(ctx, fn)
	}
	tx, err := db.w.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}

// --- users, sessions, tokens ---

// CreateUser implements store.Store.
func (db *DB) CreateUser(ctx context.Context, u *store.User) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, db.d.Rebind(
			`INSERT INTO users (name, name_key, guest, password_hash, created) VALUES (?, ?, ?, ?, ?) RETURNING id`),
			u.Name, strings.ToLower(u.Name), b2i(u.Guest), u.PasswordHash, ms(u.Created)).Scan(&u.ID)
	})
	return db.wrap("create user", err)
}

const userCols = "id, name, guest, password_hash, created"

func scanUser(row interface{ Scan(...any) error }) (store.User, error) {
	var u store.User
	var guest int
	var created int64
	err := row.Scan(&u.ID, &u.Name, &guest, &u.PasswordHash, &created)
	u.Guest = guest != 0
	u.Created = fromMs(created)
	return u, err
}

// User implements store.Store.
func (db *DB) User(ctx context.Context, id int64) (store.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+userCols+" FROM users WHERE id = ?"), id))
	return u, db.wrap("user", err)
}

// UserByName implements store.Store.
func (db *DB) UserByName(ctx context.Context, name string) (store.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+userCols+" FROM users WHERE name_key = ?"), strings.ToLower(name)))
	return u, db.wrap("user by name", err)
}

// UpdateUser implements store.Store.
func (db *DB) UpdateUser(ctx context.Context, u store.User) error {
	res, err := db.exec(ctx, "UPDATE users SET name = ?, name_key = ?, guest = ?, password_hash = ? WHERE id = ?",
		u.Name, strings.ToLower(u.Name), b2i(u.Guest), u.PasswordHash, u.ID)
	if err != nil {
		return db.wrap("update user", err)
	}
	return db.wrap("update user", mustOne(res))
}

func mustOne(res sql.Result) error {
	n, err := res.RowsAffected()
	if err != nil {
		return err
	}
	if n == 0 {
		return sql.ErrNoRows
	}
	return nil
}

// CreateSession implements store.Store.
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	_, err := db.exec(ctx, "INSERT INTO sessions (hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
		s.Hash, s.UserID, ms(s.Created), ms(s.Expires))
	return db.wrap("create session", err)
}

// Session implements store.Store.
func (db *DB) Session(ctx context.Context, hash []byte, now time.Time) (store.Session, error) {
	var s store.Session
	var created, expires int64
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT hash, user_id, created, expires FROM sessions WHERE hash = ? AND expires > ?"),
		hash, ms(now)).Scan(&s.Hash, &s.UserID, &created, &expires)
	s.Created, s.Expires = fromMs(created), fromMs(expires)
	return s, db.wrap("session", err)
}

// DeleteSession implements store.Store.
func (db *DB) DeleteSession(ctx context.Context, hash []byte) error {
	_, err := db.exec(ctx, "DELETE FROM sessions WHERE hash = ?", hash)
	return db.wrap("delete session", err)
}

// DeleteExpiredSessions implements store.Store.
func (db *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.exec(ctx, "DELETE FROM sessions WHERE expires <= ?", ms(now))
	if err != nil {
		return 0, db.wrap("delete expired sessions", err)
	}
	n, err := res.RowsAffected()
	return n, db.wrap("delete expired sessions", err)
}

// CreateToken implements store.Store.
func (db *DB) CreateToken(ctx context.Context, t *store.Token) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, db.d.Rebind("INSERT INTO tokens (user_id, name, hash, created) VALUES (?, ?, ?, ?) RETURNING id"),
			t.UserID, t.Name, t.Hash, ms(t.Created)).Scan(&t.ID)
	})
	return db.wrap("create token", err)
}

func scanToken(row interface{ Scan(...any) error }) (store.Token, error) {
	var t store.Token
	var created int64
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, &created)
	t.Created = fromMs(created)
	return t, err
}

// TokenByHash implements store.Store.
func (db *DB) TokenByHash(ctx context.Context, hash []byte) (store.Token, error) {
	t, err := scanToken(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT id, user_id, name, hash, created FROM tokens WHERE hash = ?"), hash))
	return t, db.wrap("token", err)
}

// Tokens implements store.Store.
func (db *DB) Tokens(ctx context.Context, userID int64) ([]store.Token, error) {
	rows, err := db.r.QueryContext(ctx, db.d.Rebind("SELECT id, user_id, name, hash, created FROM tokens WHERE user_id = ? ORDER BY id"), userID)
	if err != nil {
		return nil, db.wrap("tokens", err)
	}
	defer rows.Close()
	var out []store.Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, db.wrap("tokens", err)
		}
		out = append(out, t)
	}
	return out, db.wrap("tokens", rows.Err())
}

// DeleteToken implements store.Store.
func (db *DB) DeleteToken(ctx context.Context, userID, id int64) error {
	res, err := db.exec(ctx, "DELETE FROM tokens WHERE user_id = ? AND id = ?", userID, id)
	if err != nil {
		return db.wrap("delete token", err)
	}
	return db.wrap("delete token", mustOne(res))
}

// --- games ---

type clockJSON struct {
	Kind        string `json:"kind"`
	InitialMs   int64  `json:"initialMs,omitempty"`
	IncrementMs int64  `json:"incrementMs,omitempty"`
	Days        int    `json:"days,omitempty"`
}

type resultJSON struct {
	Status  string `json:"status"`
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
	Scores  []int  `json:"scores,omitempty"`
}

func encodeResult(r *store.Result) string {
	if r == nil {
		return ""
	}
	b, _ := json.Marshal(resultJSON(*r))
	return string(b)
}

// CreateGame implements store.Store.
func (db *DB) CreateGame(ctx context.Context, g *store.Game) error {
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return fmt.Errorf("store: create game: %w", err)
	}
	clock, _ := json.Marshal(clockJSON(g.Clock))
	g.Version = 1
	err = db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO games (id, game, options, seed, start_position, status, clock, rated,
			creator_id, created, started, finished, result, ply, to_move, deadline, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			g.ID, g.Game, string(opts), int64(g.Seed), string(g.StartPosition), string(g.Status), string(clock), b2i(g.Rated),
			g.CreatorID, ms(g.Created), ms(g.Started), ms(g.Finished), encodeResult(g.Result), g.Ply, g.ToMove, ms(g.Deadline), g.Version)
		if err != nil {
			return err
		}
		return db.insertSeats(ctx, tx, g)
	})
	return db.wrap("create game", err)
}

func (db *DB) insertSeats(ctx context.Context, tx *sql.Tx, g *store.Game) error {
	for i, s := range g.Seats {
		if _, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO seats (game_id, seat, kind, user_id, level) VALUES (?, ?, ?, ?, ?)"),
			g.ID, i, s.Kind, s.UserID, s.Level); err != nil {
			return err
		}
	}
	return nil
}

const gameCols = `g.id, g.game, g.options, g.seed, g.start_position, g.status, g.clock, g.rated, g.creator_id,
	g.created, g.started, g.finished, g.result, g.ply, g.to_move, g.deadline, g.version`

func scanGame(row interface{ Scan(...any) error }) (store.Game, error) {
	var g store.Game
	var opts, startPos, status, clock, result string
	var seed, created, started, finished, deadline int64
	var rated int
	err := row.Scan(&g.ID, &g.Game, &opts, &seed, &startPos, &status, &clock, &rated, &g.CreatorID,
		&created, &started, &finished, &result, &g.Ply, &g.ToMove, &deadline, &g.Version)
	if err != nil {
		return g, err
	}
	g.Seed = uint64(seed)
	if startPos != "" {
		g.StartPosition = []byte(startPos)
	}
	g.Status = store.Status(status)
	g.Rated = rated != 0
	g.Created, g.Started, g.Finished, g.Deadline = fromMs(created), fromMs(started), fromMs(finished), fromMs(deadline)
	if err := json.Unmarshal([]byte(opts), &g.Options); err != nil {
		return g, fmt.Errorf("game %s options: %w", g.ID, err)
	}
	var c clockJSON
	if err := json.Unmarshal([]byte(clock), &c); err != nil {
		return g, fmt.Errorf("game %s clock: %w", g.ID, err)
	}
	g.Clock = store.Clock(c)
	if result != "" {
		var r resultJSON
		if err := json.Unmarshal([]byte(result), &r); err != nil {
			return g, fmt.Errorf("game %s result: %w", g.ID, err)
		}
		rr := store.Result(r)
		g.Result = &rr
	}
	return g, nil
}

// loadSeats fills in the seats of the given games.
func (db *DB) loadSeats(ctx context.Context, q interface {
	QueryContext(context.Context, string, ...any) (*sql.Rows, error)
}, games []store.Game) error {
	if len(games) == 0 {
		return nil
	}
	idx := make(map[string]int, len(games))
	args := make([]any, len(games))
	marks := make([]string, len(games))
	for i, g := range games {
		idx[g.ID] = i
		args[i] = g.ID
		marks[i] = "?"
	}
	rows, err := q.QueryContext(ctx, db.d.Rebind("SELECT game_id, seat, kind, user_id, level FROM seats WHERE game_id IN ("+
		strings.Join(marks, ", ")+") ORDER BY game_id, seat"), args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var seat int
		var s store.Seat
		if err := rows.Scan(&id, &seat, &s.Kind, &s.UserID, &s.Level); err != nil {
			return err
		}
		g := &games[idx[id]]
		for len(g.Seats) <= seat {
			g.Seats = append(g.Seats, store.Seat{})
		}
		g.Seats[seat] = s
	}
	return rows.Err()
}

// Game implements store.Store.
func (db *DB) Game(ctx context.Context, id string) (store.Game, error) {
	g, err := scanGame(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+gameCols+" FROM games g WHERE g.id = ?"), id))
	if err != nil {
		return g, db.wrap("game", err)
	}
	gs := []store.Game{g}
	if err := db.loadSeats(ctx, db.r, gs); err != nil {
		return g, db.wrap("game seats", err)
	}
	return gs[0], nil
}

// UpdateGame implements store.Store.
func (db *DB) UpdateGame(ctx context.Context, g *store.Game) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.Rebind(`UPDATE games SET status = ?, rated = ?, started = ?, finished = ?,
			to_move = ?, deadline = ?, version = version + 1 WHERE id = ? AND version = ? AND status <> ?`),
			string(g.Status), b2i(g.Rated), ms(g.Started), ms(g.Finished), g.ToMove, ms(g.Deadline), g.ID, g.Version, string(store.Finished))
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return store.ErrConflict
		}
		if _, err := tx.ExecContext(ctx, db.d.Rebind("DELETE FROM seats WHERE game_id = ?"), g.ID); err != nil {
			return err
		}
		return db.insertSeats(ctx, tx, g)
	})
	if err != nil {
		return db.wrap("update game", err)
	}
	g.Version++
	return nil
}

// Games implements store.Store.
func (db *DB) Games(ctx context.Context, f store.GameFilter) ([]store.Game, error) {
	var where []string
	var args []any
	if len(f.Statuses) > 0 {
		marks := make([]string, len(f.Statuses))
		for i, s := range f.Statuses {
			marks[i] = "?"
			args = append(args, string(s))
		}
		where = append(where, "g.status IN ("+strings.Join(marks, ", ")+")")
	}
	if f.Game != "" {
		where = append(where, "g.game = ?")
		args = append(args, f.Game)
	}
	if f.UserID != 0 {
		if f.ToMove {
			where = append(where, "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.seat = g.to_move AND s.kind = ? AND s.user_id = ?)")
			args = append(args, store.SeatHuman, f.UserID)
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
	rows, err := db.r.QueryContext(ctx, db.d.Rebind(q), args...)
	if err != nil {
		return nil, db.wrap("games", err)
	}
	var out []store.Game
	for rows.Next() {
		g, err := scanGame(rows)
		if err != nil {
			rows.Close()
			return nil, db.wrap("games", err)
		}
		out = append(out, g)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, db.wrap("games", err)
	}
	return out, db.wrap("games seats", db.loadSeats(ctx, db.r, out))
}

// --- moves ---

// AppendMove implements store.Store.
func (db *DB) AppendMove(ctx context.Context, gameID string, m store.Move, turn store.Turn, end *store.End) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		// The guarded update is what makes move N unique even across
		// nodes: only the writer that still sees ply = N advances it, and
		// the (game_id, ply) key backs it up.
		res, err := db.txExec(ctx, tx, qAdvance, turn.ToMove, ms(turn.Deadline), gameID, string(store.Live), m.Ply)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return db.missingOrConflict(ctx, tx, gameID)
		}
		if _, err := db.txExec(ctx, tx, qInsertMove,
			gameID, m.Ply, m.Seat, m.Text, ms(m.At), m.ClockMs); err != nil {
			return err
		}
		if end != nil {
			return db.finish(ctx, tx, gameID, *end)
		}
		return nil
	})
	return db.wrap("append move", err)
}

func (db *DB) missingOrConflict(ctx context.Context, tx *sql.Tx, gameID string) error {
	var one int
	err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT 1 FROM games WHERE id = ?"), gameID).Scan(&one)
	if err != nil {
		return err // sql.ErrNoRows becomes ErrNotFound
	}
	return store.ErrConflict
}

// EndGame implements store.Store.
func (db *DB) EndGame(ctx context.Context, gameID string, end store.End) error {
	err := db.tx(ctx, func(tx *sql.Tx) error { return db.finish(ctx, tx, gameID, end) })
	return db.wrap("end game", err)
}

func (db *DB) finish(ctx context.Context, tx *sql.Tx, gameID string, end store.End) error {
	res, err := tx.ExecContext(ctx, db.d.Rebind(`UPDATE games SET status = ?, result = ?, finished = ?, to_move = -1, deadline = 0,
		version = version + 1 WHERE id = ? AND status = ?`),
		string(store.Finished), encodeResult(&end.Result), ms(end.Finished), gameID, string(store.Live))
	if err != nil {
		return err
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return db.missingOrConflict(ctx, tx, gameID)
	}
	if end.Rate == nil || len(end.RatedUsers) == 0 {
		return nil
	}
	var game string
	if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT game FROM games WHERE id = ?"), gameID).Scan(&game); err != nil {
		return err
	}
	// Lock the players' rows (in id order, so two games cannot deadlock)
	// before reading their ratings: two games ending at once for the same
	// player then update one after the other, and neither is lost.
	if db.d.ForUpdate != "" {
		ids := append([]int64(nil), end.RatedUsers...)
		slices.Sort(ids)
		for _, uid := range ids {
			var one int64
			if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT id FROM users WHERE id = ?"+db.d.ForUpdate), uid).Scan(&one); err != nil {
				return err
			}
		}
	}
	cur := make([]store.Rating, len(end.RatedUsers))
	for i, uid := range end.RatedUsers {
		cur[i] = store.Rating{UserID: uid, Game: game}
		var updated int64
		err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT rating, deviation, volatility, games, updated FROM ratings WHERE user_id = ? AND game = ?"+db.d.ForUpdate),
			uid, game).Scan(&cur[i].Rating, &cur[i].Deviation, &cur[i].Volatility, &cur[i].Games, &updated)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		cur[i].Updated = fromMs(updated)
	}
	for _, r := range end.Rate(cur) {
		if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO ratings (user_id, game, rating, deviation, volatility, games, updated)
			VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game) DO UPDATE SET rating = excluded.rating,
			deviation = excluded.deviation, volatility = excluded.volatility, games = excluded.games, updated = excluded.updated`),
			r.UserID, game, r.Rating, r.Deviation, r.Volatility, r.Games, ms(r.Updated)); err != nil {
			return err
		}
	}
	return nil
}

// Moves implements store.Store.
func (db *DB) Moves(ctx context.Context, gameID string) ([]store.Move, error) {
	rows, err := db.r.QueryContext(ctx, db.d.Rebind("SELECT ply, seat, text, at, clock_ms FROM moves WHERE game_id = ? ORDER BY ply"), gameID)
	if err != nil {
		return nil, db.wrap("moves", err)
	}
	defer rows.Close()
	var out []store.Move
	for rows.Next() {
		var m store.Move
		var at int64
		if err := rows.Scan(&m.Ply, &m.Seat, &m.Text, &at, &m.ClockMs); err != nil {
			return nil, db.wrap("moves", err)
		}
		m.At = fromMs(at)
		out = append(out, m)
	}
	return out, db.wrap("moves", rows.Err())
}

// ImportGame implements store.Store.
func (db *DB) ImportGame(ctx context.Context, g *store.Game, moves []store.Move) error {
	opts, err := json.Marshal(g.Options)
	if err != nil {
		return fmt.Errorf("store: import game: %w", err)
	}
	clock, _ := json.Marshal(clockJSON(g.Clock))
	g.Version = 1
	g.Ply = len(moves)
	err = db.tx(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO games (id, game, options, seed, start_position, status, clock, rated,
			creator_id, created, started, finished, result, ply, to_move, deadline, version)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
			g.ID, g.Game, string(opts), int64(g.Seed), string(g.StartPosition), string(g.Status), string(clock), b2i(g.Rated),
			g.CreatorID, ms(g.Created), ms(g.Started), ms(g.Finished), encodeResult(g.Result), g.Ply, g.ToMove, ms(g.Deadline), g.Version)
		if err != nil {
			return err
		}
		if err := db.insertSeats(ctx, tx, g); err != nil {
			return err
		}
		for _, m := range moves {
			if _, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO moves (game_id, ply, seat, text, at, clock_ms) VALUES (?, ?, ?, ?, ?, ?)"),
				g.ID, m.Ply, m.Seat, m.Text, ms(m.At), m.ClockMs); err != nil {
				return err
			}
		}
		return nil
	})
	return db.wrap("import game", err)
}

// --- ratings ---

// Ratings implements store.Store.
func (db *DB) Ratings(ctx context.Context, userID int64) ([]store.Rating, error) {
	rows, err := db.r.QueryContext(ctx, db.d.Rebind(`SELECT user_id, game, rating, deviation, volatility, games, updated
		FROM ratings WHERE user_id = ? ORDER BY game`), userID)
	if err != nil {
		return nil, db.wrap("ratings", err)
	}
	defer rows.Close()
	var out []store.Rating
	for rows.Next() {
		var r store.Rating
		var updated int64
		if err := rows.Scan(&r.UserID, &r.Game, &r.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated); err != nil {
			return nil, db.wrap("ratings", err)
		}
		r.Updated = fromMs(updated)
		out = append(out, r)
	}
	return out, db.wrap("ratings", rows.Err())
}

// Leaderboard implements store.Store.
func (db *DB) Leaderboard(ctx context.Context, game string, maxDeviation float64, limit int) ([]store.RatedUser, error) {
	if limit <= 0 {
		limit = 50
	}
	rows, err := db.r.QueryContext(ctx, db.d.Rebind(`SELECT r.user_id, r.game, r.rating, r.deviation, r.volatility, r.games, r.updated, u.name
		FROM ratings r JOIN users u ON u.id = r.user_id WHERE r.game = ? AND r.deviation <= ?
		ORDER BY r.rating DESC, u.name_key LIMIT `+strconv.Itoa(limit)), game, maxDeviation)
	if err != nil {
		return nil, db.wrap("leaderboard", err)
	}
	defer rows.Close()
	var out []store.RatedUser
	for rows.Next() {
		var r store.RatedUser
		var updated int64
		if err := rows.Scan(&r.UserID, &r.Game, &r.Rating.Rating, &r.Deviation, &r.Volatility, &r.Games, &updated, &r.Name); err != nil {
			return nil, db.wrap("leaderboard", err)
		}
		r.Updated = fromMs(updated)
		out = append(out, r)
	}
	return out, db.wrap("leaderboard", rows.Err())
}
