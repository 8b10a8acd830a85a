package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
)

// Group commit. SQLite has one writer and each commit waits for an fsync,
// so committing every move in its own transaction caps a server at a few
// hundred moves per second however many games are live. Instead, writes
// queue for one committer goroutine that runs everything waiting in one
// transaction — each write inside its own savepoint, so one write's failure
// (a stale ply) undoes only that write — and commits once. Each caller
// still returns only after the commit that contains its write, so
// durability is exactly as before; only the fsync is shared.

const maxBatch = 256

type writeOp struct {
	ctx  context.Context
	fn   func(tx *sql.Tx) error
	done chan error
}

func (db *DB) committer() {
	defer close(db.stopped)
	for {
		var first writeOp
		select {
		case first = <-db.ops:
		case <-db.stop:
			return
		}
		batch := []writeOp{first}
	fill:
		for len(batch) < maxBatch {
			select {
			case op := <-db.ops:
				batch = append(batch, op)
			default:
				break fill
			}
		}
		db.runBatch(batch)
	}
}

func (db *DB) runBatch(batch []writeOp) {
	tx, err := db.w.BeginTx(context.Background(), nil)
	if err != nil {
		for _, op := range batch {
			op.done <- err
		}
		return
	}
	errs := make([]error, len(batch))
	for i, op := range batch {
		if err := op.ctx.Err(); err != nil {
			errs[i] = err
			continue
		}
		if _, err := tx.Exec("SAVEPOINT w"); err != nil {
			errs[i] = err
			continue
		}
		if err := op.fn(tx); err != nil {
			errs[i] = err
			if _, rerr := tx.Exec("ROLLBACK TO w"); rerr != nil {
				// The transaction is unusable; fail the whole batch.
				tx.Rollback()
				for _, op := range batch {
					op.done <- fmt.Errorf("batch rollback: %w", rerr)
				}
				return
			}
		}
		if _, err := tx.Exec("RELEASE w"); err != nil && errs[i] == nil {
			errs[i] = err
		}
	}
	if err := tx.Commit(); err != nil {
		for _, op := range batch {
			op.done <- err
		}
		return
	}
	for i, op := range batch {
		op.done <- errs[i]
	}
}

// batchedTx queues fn for the committer and waits for its commit.
func (db *DB) batchedTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	op := writeOp{ctx: ctx, fn: fn, done: make(chan error, 1)}
	select {
	case db.ops <- op:
	case <-ctx.Done():
		return ctx.Err()
	case <-db.stop:
		return errClosed
	}
	// Once queued, the op is committed or failed by the committer; waiting
	// for its answer even if ctx ends keeps "returned nil" meaning "on
	// disk" and "returned an error" meaning "not written".
	return <-op.done
}
