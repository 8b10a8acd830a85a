package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Migration is one versioned change of the schema. Up and Down hold the
// SQL for each dialect (statements separated by ";\n"); a migration is
// applied in the same transaction as its row in schema_migrations, so a
// crash half-way leaves the schema at the previous version.
type Migration struct {
	Version int
	Name    string
	Up      func(d *Dialect) string
	Down    func(d *Dialect) string
}

// migrations is the schema's whole history. Never edit an entry once it has
// shipped: add a new one.
var migrations = []Migration{
	{
		Version: 1,
		Name:    "users, sessions, tokens, games, seats, moves, ratings",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE users (
	id ` + d.Serial + `,
	name TEXT NOT NULL,
	name_key TEXT NOT NULL UNIQUE,
	guest INTEGER NOT NULL,
	password_hash TEXT NOT NULL,
	created BIGINT NOT NULL
);
CREATE TABLE sessions (
	hash ` + d.Blob + ` PRIMARY KEY,
	user_id BIGINT NOT NULL REFERENCES users(id),
	created BIGINT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX sessions_user ON sessions(user_id);
CREATE TABLE tokens (
	id ` + d.Serial + `,
	user_id BIGINT NOT NULL REFERENCES users(id),
	name TEXT NOT NULL,
	hash ` + d.Blob + ` NOT NULL UNIQUE,
	created BIGINT NOT NULL
);
CREATE INDEX tokens_user ON tokens(user_id);
CREATE TABLE games (
	id TEXT PRIMARY KEY,
	game TEXT NOT NULL,
	options TEXT NOT NULL,
	seed BIGINT NOT NULL,
	start_position TEXT NOT NULL,
	status TEXT NOT NULL,
	clock TEXT NOT NULL,
	rated INTEGER NOT NULL,
	creator_id BIGINT NOT NULL,
	created BIGINT NOT NULL,
	started BIGINT NOT NULL,
	finished BIGINT NOT NULL,
	result TEXT NOT NULL,
	ply INTEGER NOT NULL,
	to_move INTEGER NOT NULL,
	deadline BIGINT NOT NULL,
	version BIGINT NOT NULL
);
CREATE INDEX games_status ON games(status, created);
CREATE TABLE seats (
	game_id TEXT NOT NULL REFERENCES games(id),
	seat INTEGER NOT NULL,
	kind TEXT NOT NULL,
	user_id BIGINT NOT NULL,
	level TEXT NOT NULL,
	PRIMARY KEY (game_id, seat)
);
CREATE INDEX seats_user ON seats(user_id);
CREATE TABLE moves (
	game_id TEXT NOT NULL REFERENCES games(id),
	ply INTEGER NOT NULL,
	seat INTEGER NOT NULL,
	text TEXT NOT NULL,
	at BIGINT NOT NULL,
	clock_ms BIGINT NOT NULL,
	PRIMARY KEY (game_id, ply)
);
CREATE TABLE ratings (
	user_id BIGINT NOT NULL REFERENCES users(id),
	game TEXT NOT NULL,
	rating ` + d.Float + ` NOT NULL,
	deviation ` + d.Float + ` NOT NULL,
	volatility ` + d.Float + ` NOT NULL,
	games INTEGER NOT NULL,
	updated BIGINT NOT NULL,
	PRIMARY KEY (user_id, game)
);
CREATE INDEX ratings_board ON ratings(game, rating)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE ratings;
DROP TABLE moves;
DROP TABLE seats;
DROP TABLE games;
DROP TABLE tokens;
DROP TABLE sessions;
DROP TABLE users`
		},
	},
	{
		Version: 2,
		Name:    "game owners and node leases (cluster mode)",
		Up: func(d *Dialect) string {
			return `
ALTER TABLE games ADD COLUMN owner TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN owner_epoch BIGINT NOT NULL DEFAULT 0;
CREATE INDEX games_owner ON games(owner, status);
CREATE TABLE cluster_nodes (
	id TEXT PRIMARY KEY,
	started BIGINT NOT NULL,
	renewed BIGINT NOT NULL,
	expires BIGINT NOT NULL,
	bots_full INTEGER NOT NULL
)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE cluster_nodes;
DROP INDEX games_owner;
ALTER TABLE games DROP COLUMN owner_epoch;
ALTER TABLE games DROP COLUMN owner`
		},
	},
	{
		Version: 3,
		Name:    "where a game's start came from; games by creator (quotas)",
		Up: func(d *Dialect) string {
			return `
ALTER TABLE games ADD COLUMN origin TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN keep_deal INTEGER NOT NULL DEFAULT 0;
CREATE INDEX games_creator ON games(creator_id, status)`
		},
		Down: func(d *Dialect) string {
			return `
DROP INDEX games_creator;
ALTER TABLE games DROP COLUMN keep_deal;
ALTER TABLE games DROP COLUMN origin`
		},
	},
	{
		Version: 4,
		Name:    "the site's limits, shared by every node (store.Limits)",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE rate_limits (
	name TEXT PRIMARY KEY,
	n ` + d.Float + ` NOT NULL,
	at BIGINT NOT NULL,
	wait_until BIGINT NOT NULL,
	holder TEXT NOT NULL,
	expires BIGINT NOT NULL
);
CREATE INDEX rate_limits_expires ON rate_limits(expires)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE rate_limits`
		},
	},
	{
		Version: 5,
		Name:    "tournaments, their players and boards, and their directors' leases",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE tournaments (
	id TEXT PRIMARY KEY,
	name TEXT NOT NULL,
	format TEXT NOT NULL,
	game TEXT NOT NULL,
	options TEXT NOT NULL,
	clock TEXT NOT NULL,
	rounds INTEGER NOT NULL,
	double_rr INTEGER NOT NULL,
	start_at BIGINT NOT NULL,
	rated INTEGER NOT NULL,
	password_hash TEXT NOT NULL,
	min_rated_games INTEGER NOT NULL,
	bots INTEGER NOT NULL,
	max_players INTEGER NOT NULL,
	creator_id BIGINT NOT NULL,
	created BIGINT NOT NULL,
	status TEXT NOT NULL,
	finished BIGINT NOT NULL,
	note TEXT NOT NULL,
	owner TEXT NOT NULL,
	epoch BIGINT NOT NULL,
	lease_expires BIGINT NOT NULL,
	current_round INTEGER NOT NULL
);
CREATE INDEX tournaments_status ON tournaments(status, start_at);
CREATE INDEX tournaments_creator ON tournaments(creator_id, status);
CREATE TABLE tournament_players (
	tournament_id TEXT NOT NULL REFERENCES tournaments(id),
	user_id BIGINT NOT NULL,
	number INTEGER NOT NULL,
	joined BIGINT NOT NULL,
	withdrawn INTEGER NOT NULL,
	PRIMARY KEY (tournament_id, user_id),
	UNIQUE (tournament_id, number)
);
CREATE INDEX tournament_players_user ON tournament_players(user_id);
CREATE TABLE tournament_boards (
	tournament_id TEXT NOT NULL REFERENCES tournaments(id),
	round INTEGER NOT NULL,
	board INTEGER NOT NULL,
	white BIGINT NOT NULL,
	black BIGINT NOT NULL,
	game_id TEXT NOT NULL,
	result TEXT NOT NULL,
	PRIMARY KEY (tournament_id, round, board)
)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE tournament_boards;
DROP TABLE tournament_players;
DROP TABLE tournaments`
		},
	},
	{
		Version: 6,
		Name:    "rating changes of rated games (profiles) and blocks between users",
		Up: func(d *Dialect) string {
			return `
CREATE TABLE rating_changes (
	game_id TEXT NOT NULL REFERENCES games(id),
	user_id BIGINT NOT NULL REFERENCES users(id),
	game TEXT NOT NULL,
	before_rating ` + d.Float + ` NOT NULL,
	before_games INTEGER NOT NULL,
	after_rating ` + d.Float + ` NOT NULL,
	deviation_after ` + d.Float + ` NOT NULL,
	at BIGINT NOT NULL,
	PRIMARY KEY (game_id, user_id)
);
CREATE INDEX rating_changes_user ON rating_changes(user_id, at);
CREATE TABLE blocks (
	user_id BIGINT NOT NULL REFERENCES users(id),
	blocked_id BIGINT NOT NULL REFERENCES users(id),
	created BIGINT NOT NULL,
	PRIMARY KEY (user_id, blocked_id)
)`
		},
		Down: func(d *Dialect) string {
			return `
DROP TABLE blocks;
DROP TABLE rating_changes`
		},
	},
}

// register adds a migration kept in a file of its own (migrate_*.go, one
// per feature), so that features built side by side never edit one list.
// Versions are numbered by hand and must follow the list above without a
// gap; checkMigrations refuses anything else when the package loads, so a
// mistake fails every test rather than a deployment.
func register(m Migration) {
	migrations = append(migrations, m)
	sort.SliceStable(migrations, func(i, j int) bool { return migrations[i].Version < migrations[j].Version })
}

// checkMigrations panics on a repeated or missing version: a database at
// version N must be able to go to N+1 and nothing else.
func checkMigrations() {
	for i, m := range migrations {
		if m.Version != i+1 {
			panic(fmt.Sprintf("sqlstore: migration %d (%s) where %d was due: versions must run 1, 2, 3, … without a gap or repeat", m.Version, m.Name, i+1))
		}
	}
}

// LatestVersion is the schema version this code expects.
func LatestVersion() int { checkOnce.Do(checkMigrations); return migrations[len(migrations)-1].Version }

var checkOnce sync.Once

const migrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	version INTEGER PRIMARY KEY,
	name TEXT NOT NULL,
	applied BIGINT NOT NULL
)`

// Version reports the schema version of the database (0: empty).
func Version(ctx context.Context, db *sql.DB, d *Dialect) (int, error) {
	if _, err := db.ExecContext(ctx, migrationsTable); err != nil {
		return 0, fmt.Errorf("store: migrations table: %w", err)
	}
	var v sql.NullInt64
	if err := db.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&v); err != nil {
		return 0, fmt.Errorf("store: schema version: %w", err)
	}
	return int(v.Int64), nil
}

// Migrate brings the schema to version target (LatestVersion() for the
// newest), up or down, in one transaction. A database newer than this code
// is refused rather than guessed at.
func Migrate(ctx context.Context, db *sql.DB, d *Dialect, target int) error {
	checkOnce.Do(checkMigrations)
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	defer tx.Rollback()
	if d.MigrationLock != "" {
		if _, err := tx.ExecContext(ctx, d.MigrationLock); err != nil {
			return fmt.Errorf("store: migration lock: %w", err)
		}
	}
	// Under the lock: nodes starting together on an empty database would
	// otherwise race to create this table, and all but one fail.
	if _, err := tx.ExecContext(ctx, migrationsTable); err != nil {
		return fmt.Errorf("store: migrations table: %w", err)
	}
	var cur sql.NullInt64
	if err := tx.QueryRowContext(ctx, "SELECT MAX(version) FROM schema_migrations").Scan(&cur); err != nil {
		return fmt.Errorf("store: schema version: %w", err)
	}
	v := int(cur.Int64)
	if v > LatestVersion() {
		return fmt.Errorf("store: database schema version %d is newer than this program's %d", v, LatestVersion())
	}
	if target < 0 || target > LatestVersion() {
		return fmt.Errorf("store: no schema version %d", target)
	}
	now := time.Now().UnixMilli()
	for _, m := range migrations {
		if m.Version > v && m.Version <= target {
			if err := execAll(ctx, tx, m.Up(d)); err != nil {
				return fmt.Errorf("store: migration %d (%s): %w", m.Version, m.Name, err)
			}
			if _, err := tx.ExecContext(ctx, d.Rebind("INSERT INTO schema_migrations (version, name, applied) VALUES (?, ?, ?)"), m.Version, m.Name, now); err != nil {
				return fmt.Errorf("store: record migration %d: %w", m.Version, err)
			}
		}
	}
	for i := len(migrations) - 1; i >= 0; i-- {
		m := migrations[i]
		if m.Version <= v && m.Version > target {
			if err := execAll(ctx, tx, m.Down(d)); err != nil {
				return fmt.Errorf("store: undo migration %d (%s): %w", m.Version, m.Name, err)
			}
			if _, err := tx.ExecContext(ctx, d.Rebind("DELETE FROM schema_migrations WHERE version = ?"), m.Version); err != nil {
				return fmt.Errorf("store: unrecord migration %d: %w", m.Version, err)
			}
		}
	}
	return tx.Commit()
}

func execAll(ctx context.Context, tx *sql.Tx, script string) error {
	for _, stmt := range strings.Split(script, ";\n") {
		if strings.TrimSpace(stmt) == "" {
			continue
		}
		if _, err := tx.ExecContext(ctx, stmt); err != nil {
			return err
		}
	}
	return nil
}
