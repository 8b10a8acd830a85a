package sqlstore

import (
	"context"
	"database/sql"
	"time"

	"github.com/tabula-games/tabula/store"
)

// The site's limits (store.Limits): one row per limit, updated in a write
// transaction that holds the row — PostgreSQL's row lock, SQLite's single
// writer — so that concurrent updates of one limit, from any node, queue.

var _ store.Limits = (*DB)(nil)

// UpdateLimit implements store.Limits.
func (db *DB) UpdateLimit(ctx context.Context, name string, now time.Time, f func(store.Limit) store.Limit) (store.Limit, error) {
	var out store.Limit
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var cur store.Limit
		var at, until, expires int64
		// The row exists before it is read FOR UPDATE, so that two first
		// updates of a name queue on its lock instead of both reading
		// nothing (an expires of 0 reads as no limit). A row that
		// DeleteExpiredLimits deleted while this update queued for it
		// reads as no row: then again.
		for try := 0; ; try++ {
			if _, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO rate_limits (name, n, at, wait_until, holder, expires)
				VALUES (?, 0, 0, 0, '', 0) ON CONFLICT (name) DO NOTHING`), name); err != nil {
				return err
			}
			err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT n, at, wait_until, holder, expires FROM rate_limits WHERE name = ?"+db.d.ForUpdate), name).
				Scan(&cur.N, &at, &until, &cur.Holder, &expires)
			if err == nil {
				break
			}
			if err != sql.ErrNoRows || try == 10 {
				return err
			}
		}
		cur.At, cur.Until, cur.Expires = fromMs(at), fromMs(until), fromMs(expires)
		if !cur.Expires.After(now) {
			cur = store.Limit{}
		}
		out = f(cur)
		if !out.Expires.After(now) {
			// Forgotten, but not deleted: updates queued behind this one
			// would find no row, and go round again. An expired row reads
			// as none, and DeleteExpiredLimits removes it.
			out = store.Limit{}
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE rate_limits SET n = ?, at = ?, wait_until = ?, holder = ?, expires = ? WHERE name = ?"),
			out.N, ms(out.At), ms(out.Until), out.Holder, ms(out.Expires), name)
		return err
	})
	if err != nil {
		return store.Limit{}, db.wrap("update limit", err)
	}
	return out, nil
}

// DeleteExpiredLimits implements store.Limits.
func (db *DB) DeleteExpiredLimits(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.exec(ctx, "DELETE FROM rate_limits WHERE expires <= ?", ms(now))
	if err != nil {
		return 0, db.wrap("delete expired limits", err)
	}
	n, err := res.RowsAffected()
	return n, db.wrap("delete expired limits", err)
}
