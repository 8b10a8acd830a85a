// Package postgres is the store for more than one machine: PostgreSQL as
// the source of truth, behind the same store.Store interface and passing the
// same storetest suite as the embedded SQLite store. Each move is one
// transaction guarded by the game's ply (and the (game, ply) key), so two
// nodes can never both accept move N.
package postgres

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" database/sql driver

	"github.com/tabula-games/tabula/store/internal/sqlstore"
)

// DB is a store.Store on a PostgreSQL database.
type DB struct {
	*sqlstore.DB
	sql *sql.DB
}

var dialect = &sqlstore.Dialect{
	Name:      "postgres",
	Serial:    "BIGSERIAL PRIMARY KEY",
	Blob:      "BYTEA",
	Float:     "DOUBLE PRECISION",
	Numbered:  true,
	ForUpdate: " FOR UPDATE",
	IsUnique: func(err error) bool {
		var pe *pgconn.PgError
		return errors.As(err, &pe) && pe.Code == "23505"
	},
	// Any fixed key: nodes starting together migrate one after another.
	MigrationLock: "SELECT pg_advisory_xact_lock(7250411)",
	NowMs:         "CAST(EXTRACT(EPOCH FROM statement_timestamp()) * 1000 AS BIGINT)",
}

// Open connects to the database at url (postgres://user@host/db?…) and
// migrates its schema to the newest version.
func Open(ctx context.Context, url string) (*DB, error) {
	db, err := sql.Open("pgx", url)
	if err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	db.SetMaxOpenConns(16)
	db.SetMaxIdleConns(16)
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	if err := sqlstore.Migrate(ctx, db, dialect, sqlstore.LatestVersion()); err != nil {
		db.Close()
		return nil, fmt.Errorf("postgres: %w", err)
	}
	return &DB{DB: sqlstore.New(db, db, dialect, false), sql: db}, nil
}

// MigrateTo moves the schema to version v (0 drops everything). For tests of
// the migrations themselves.
func (db *DB) MigrateTo(ctx context.Context, v int) error {
	return sqlstore.Migrate(ctx, db.sql, dialect, v)
}

// SchemaVersion reports the schema version of the database.
func (db *DB) SchemaVersion(ctx context.Context) (int, error) {
	return sqlstore.Version(ctx, db.sql, dialect)
}

// LatestVersion is the schema version this program writes.
func LatestVersion() int { return sqlstore.LatestVersion() }

// Exclusive runs fn while it holds the lock named key, which the database
// gives to one holder at a time: the nodes of a cluster sharing it run one
// fn of a key at a time (quick pairing, which must read the waiting games
// and then join or create one without another node doing the same between
// the two). The lock is a PostgreSQL advisory lock in a transaction of its
// own, on one of the pool's connections for fn's run; it is let go when fn
// returns, or when the connection dies with its node.
func (db *DB) Exclusive(ctx context.Context, key string, fn func() error) error {
	tx, err := db.sql.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("postgres: lock %s: %w", key, err)
	}
	defer tx.Rollback()
	// The two-key form, in a space of its own: MigrationLock's one key
	// cannot meet it.
	if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(7250412, hashtext($1))", key); err != nil {
		return fmt.Errorf("postgres: lock %s: %w", key, err)
	}
	return fn()
}
