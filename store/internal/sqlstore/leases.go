package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Node leases and game owners (store.Leases). Every time in a lease is the
// database's clock (Dialect.NowMs), in Unix milliseconds.

var _ store.Leases = (*DB)(nil)

// now is the database's clock in a statement.
func (db *DB) now() string { return db.d.NowMs }

// RenewNode implements store.Leases.
func (db *DB) RenewNode(ctx context.Context, id string, ttl time.Duration, botsFull bool) (lapsed bool, err error) {
	err = db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.Rebind(`UPDATE cluster_nodes SET renewed = `+db.now()+`, expires = `+db.now()+` + ?,
			bots_full = ? WHERE id = ? AND expires >= `+db.now()), ttl.Milliseconds(), b2i(botsFull), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		// Expired or new: a new lease from now.
		var one int
		switch err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT 1 FROM cluster_nodes WHERE id = ?"), id).Scan(&one); err {
		case nil:
			lapsed = true
		case sql.ErrNoRows:
		default:
			return err
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO cluster_nodes (id, started, renewed, expires, bots_full)
			VALUES (?, `+db.now()+`, `+db.now()+`, `+db.now()+` + ?, ?)
			ON CONFLICT (id) DO UPDATE SET renewed = excluded.renewed, expires = excluded.expires, bots_full = excluded.bots_full`),
			id, ttl.Milliseconds(), b2i(botsFull))
		return err
	})
	return lapsed, db.wrap("renew node", err)
}

// LeaveNode implements store.Leases. Leases of nodes long gone that own
// nothing any more are removed on the way.
func (db *DB) LeaveNode(ctx context.Context, id string) error {
	_, err := db.exec(ctx, `UPDATE cluster_nodes SET renewed = `+db.now()+`, expires = `+db.now()+` - 1 WHERE id = ?`, id)
	if err == nil {
		_, err = db.exec(ctx, `DELETE FROM cluster_nodes WHERE expires < `+db.now()+` - 86400000 AND NOT EXISTS
			(SELECT 1 FROM games g WHERE g.owner = cluster_nodes.id AND g.status IN (?, ?))`, string(match.Open), string(match.Live))
	}
	return db.wrap("leave node", err)
}

// LiveNodes implements store.Leases.
func (db *DB) LiveNodes(ctx context.Context) ([]store.Node, error) {
	out, err := collect(ctx, db, db.r, func(row scanner) (store.Node, error) {
		var n store.Node
		var started, renewed, expires int64
		var full int
		err := row.Scan(&n.ID, &started, &renewed, &expires, &full)
		n.Started, n.Renewed, n.Expires, n.BotsFull = fromMs(started), fromMs(renewed), fromMs(expires), full != 0
		return n, err
	}, "SELECT id, started, renewed, expires, bots_full FROM cluster_nodes WHERE expires >= "+db.now()+" ORDER BY id")
	return out, db.wrap("live nodes", err)
}

// Orphans implements store.Leases.
func (db *DB) Orphans(ctx context.Context, limit int) ([]store.Orphan, error) {
	out, err := collect(ctx, db, db.r, func(row scanner) (store.Orphan, error) {
		var o store.Orphan
		var down int64
		var bots int
		err := row.Scan(&o.GameID, &o.Owner, &o.Epoch, &down, &bots)
		o.DownSince, o.Bots = fromMs(down), bots != 0
		return o, err
	}, `SELECT g.id, g.owner, g.owner_epoch, COALESCE(n.renewed, 0),
		CASE WHEN EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.kind = ?) THEN 1 ELSE 0 END
		FROM games g LEFT JOIN cluster_nodes n ON n.id = g.owner
		WHERE g.status IN (?, ?) AND (n.id IS NULL OR n.expires < `+db.now()+`)
		ORDER BY g.created, g.id LIMIT ?`, string(match.SeatBot), string(match.Open), string(match.Live), limit)
	return out, db.wrap("orphans", err)
}

// Claim implements store.Leases.
func (db *DB) Claim(ctx context.Context, o store.Orphan, node string) (int64, error) {
	// A running deadline D moves to now + (D - DownSince): the seat to
	// move keeps the time it had when its owner was last known alive.
	down := ms(o.DownSince)
	res, err := db.exec(ctx, `UPDATE games SET owner = ?, owner_epoch = owner_epoch + 1, version = version + 1,
		deadline = CASE WHEN status = ? AND deadline > 0 AND CAST(? AS BIGINT) > 0 THEN
			`+db.now()+` + (CASE WHEN deadline > ? THEN deadline - ? ELSE 0 END) ELSE deadline END
		WHERE id = ? AND owner_epoch = ? AND status IN (?, ?)
		AND NOT EXISTS (SELECT 1 FROM cluster_nodes n WHERE n.id = games.owner AND n.expires >= `+db.now()+`)`,
		node, string(match.Live), down, down, down, o.GameID, o.Epoch, string(match.Open), string(match.Live))
	if err == nil {
		err = mustOne(res)
	}
	if err == sql.ErrNoRows {
		return 0, fmt.Errorf("store: claim game %s at epoch %d: %w", o.GameID, o.Epoch, store.ErrConflict)
	}
	if err != nil {
		return 0, db.wrap("claim game", err)
	}
	return o.Epoch + 1, nil
}

// Owned implements store.Leases.
func (db *DB) Owned(ctx context.Context, node string) (map[string]int64, error) {
	type owned struct {
		id    string
		epoch int64
	}
	rows, err := collect(ctx, db, db.r, func(row scanner) (owned, error) {
		var o owned
		return o, row.Scan(&o.id, &o.epoch)
	}, "SELECT id, owner_epoch FROM games WHERE owner = ? AND status IN (?, ?)", node, string(match.Open), string(match.Live))
	if err != nil {
		return nil, db.wrap("owned games", err)
	}
	out := make(map[string]int64, len(rows))
	for _, o := range rows {
		out[o.id] = o.epoch
	}
	return out, nil
}

// Owner implements store.Leases.
func (db *DB) Owner(ctx context.Context, id string) (store.Owner, error) {
	var o store.Owner
	var status string
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT owner, owner_epoch, status FROM games WHERE id = ?"), id).Scan(&o.Node, &o.Epoch, &status)
	o.Status = match.Status(status)
	return o, db.wrap("game owner", err)
}
