// Package sqlite is the embedded default store: one SQLite file in WAL mode
// (pure Go, no cgo), schema migrations run at open.
//
// Durability: synchronous=FULL makes every committed transaction reach the
// disk (fsync of the WAL) before Commit returns, so a move the server has
// acknowledged survives kill -9 and power loss alike.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"runtime"
	"time"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/tabula-games/tabula/store/internal/sqlstore"
)

// DB is a store.Store on a SQLite file.
type DB struct {
	*sqlstore.DB
	w, ck *sql.DB
	stop  chan struct{}
	done  chan struct{}
}

var dialect = &sqlstore.Dialect{
	Name:   "sqlite",
	Serial: "INTEGER PRIMARY KEY",
	Blob:   "BLOB",
	Float:  "REAL",
	IsUnique: func(err error) bool {
		var e *sqlite.Error
		if errors.As(err, &e) {
			return e.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || e.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
		}
		return false
	},
	NowMs: "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)",
}

// Options tune a store; the zero value is the durable default.
type Options struct {
	// NoSync relaxes synchronous=FULL to NORMAL: commits survive a crash of
	// the process but not of the machine. For tests and benchmarks only.
	NoSync bool
}

func dsn(path string, o Options, readOnly bool) string {
	sync := "FULL"
	if o.NoSync {
		sync = "NORMAL"
	}
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+sync+")")
	q.Add("_pragma", "foreign_keys(1)")
	if readOnly {
		q.Add("_pragma", "query_only(1)")
	} else {
		// Checkpoints run in the background (checkpointer), not inside
		// whichever commit happens to cross the threshold.
		q.Add("_pragma", "wal_autocheckpoint(0)")
		// BEGIN IMMEDIATE takes the write lock up front, so a transaction
		// never has to upgrade a read lock and fail with SQLITE_BUSY.
		q.Set("_txlock", "immediate")
	}
	return "file:" + path + "?" + q.Encode()
}

// Open opens (creating if needed) the database file at path and migrates its
// schema to the newest version.
func Open(ctx context.Context, path string, o Options) (*DB, error) {
	if err := createPrivate(path); err != nil {
		return nil, err
	}
	w, err := sql.Open("sqlite", dsn(path, o, false))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	// One writer connection: SQLite serialises writers anyway, and queueing
	// in Go is fairer than retrying on a busy lock.
	w.SetMaxOpenConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	if err := sqlstore.Migrate(ctx, w, dialect, sqlstore.LatestVersion()); err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(path, o, true))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	r.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	r.SetMaxIdleConns(max(4, runtime.GOMAXPROCS(0)))
	ck, err := sql.Open("sqlite", dsn(path, o, false))
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	ck.SetMaxOpenConns(1)
	db := &DB{DB: sqlstore.New(r, w, dialect, true), w: w, ck: ck, stop: make(chan struct{}), done: make(chan struct{})}
	go db.checkpointer()
	return db, nil
}

// checkpointInterval is how often the WAL is copied back into the database
// file. PASSIVE checkpoints never wait for readers or the writer, so moves
// are not delayed by them.
const checkpointInterval = 500 * time.Millisecond

func (db *DB) checkpointer() {
	defer close(db.done)
	t := time.NewTicker(checkpointInterval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			db.ck.Exec("PRAGMA wal_checkpoint(PASSIVE)")
		case <-db.stop:
			return
		}
	}
}

// Close stops the checkpointer, folds the WAL into the database file and
// closes the store.
func (db *DB) Close() error {
	close(db.stop)
	<-db.done
	err := db.DB.Close()
	db.ck.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	db.ck.Close()
	return err
}

// MigrateTo moves the schema to version v (0 drops everything). For tests of
// the migrations themselves.
func (db *DB) MigrateTo(ctx context.Context, v int) error {
	return sqlstore.Migrate(ctx, db.w, dialect, v)
}

// SchemaVersion reports the schema version of the database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	return sqlstore.Version(ctx, db.w, dialect)
}

// LatestVersion is the schema version this program writes.
func LatestVersion() int { return sqlstore.LatestVersion() }
