// Package sqlstore implements store.Store over database/sql for both SQL
// dialects the project uses (SQLite and PostgreSQL): the schema, queries and
// transactions are shared, and a Dialect carries the few differences. One
// file per kind of data: users.go (users, sessions, tokens), games.go,
// moves.go, ratings.go; this one holds what they share.
package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
	// NowMs is an SQL expression for the database's clock in Unix
	// milliseconds, the same throughout a statement: leases are timed by
	// the database, so that the nodes' clocks need not agree.
	NowMs string
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

// Times are stored as Unix milliseconds, 0 for the zero time.
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

// Booleans are stored as 0 and 1 (SQLite has no boolean type).
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

// scanner is a row to scan: *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// querier runs queries: the read pool or a transaction.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// collect runs query on q and scans every row it returns with scan.
func collect[T any](ctx context.Context, db *DB, q querier, scan func(scanner) (T, error), query string, args ...any) ([]T, error) {
	rows, err := q.QueryContext(ctx, db.d.Rebind(query), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
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

// mustOne turns "no row changed" into sql.ErrNoRows (ErrNotFound).
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

// Hot-path write statements, prepared once when the store opens (parsing
// SQL was a tenth of the server's time per move). They are prepared before
// the committer starts: with SQLite's single writer connection, preparing
// later could wait for the connection the committer holds.
const (
	qAdvance = `UPDATE games SET ply = ply + 1, to_move = ?, deadline = ?, version = version + 1
		WHERE id = ? AND status = ? AND ply = ?`
	qAdvanceFenced = qAdvance + " AND owner_epoch = ?"
	qInsertMove    = "INSERT INTO moves (game_id, ply, seat, text, at, clock_ms) VALUES (?, ?, ?, ?, ?, ?)"
)

func (db *DB) prepare() {
	for _, q := range []string{qAdvance, qAdvanceFenced, qInsertMove} {
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
