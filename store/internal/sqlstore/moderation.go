package sqlstore

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/store"
)

var _ store.Moderation = (*DB)(nil)

// audit writes e in tx: every change of moderation is logged in the
// transaction that makes it.
func (db *DB) audit(ctx context.Context, tx *sql.Tx, e store.AuditEntry) error {
	_, err := tx.ExecContext(ctx, db.d.Rebind(`INSERT INTO moderation_log (actor_id, actor, action, target_id, report_id, reason, detail, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), e.ActorID, e.Actor, e.Action, e.TargetID, e.ReportID, e.Reason, e.Detail, ms(e.At))
	return err
}

// changeLogged runs q in a transaction with e's line of the log; with one,
// a q that changes no row is sql.ErrNoRows (ErrNotFound) and nothing is
// logged.
func (db *DB) changeLogged(ctx context.Context, op string, e store.AuditEntry, one bool, q string, args ...any) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, db.d.Rebind(q), args...)
		if err != nil {
			return err
		}
		if one {
			if err := mustOne(res); err != nil {
				return err
			}
		}
		return db.audit(ctx, tx, e)
	})
	return db.wrap(op, err)
}

// CreateReport implements store.Moderation.
func (db *DB) CreateReport(ctx context.Context, r *store.Report) error {
	cx, err := json.Marshal(r.Context)
	if err != nil {
		return fmt.Errorf("store: create report: %w", err)
	}
	if r.Context == nil {
		cx = []byte("[]")
	}
	r.Status = store.ReportOpen
	err = db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, db.d.Rebind(`INSERT INTO reports (reporter_id, user_id, game_id, line, line_text, context, reason, text,
			created, status, resolved_by, resolved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0) RETURNING id`),
			r.ReporterID, r.UserID, r.GameID, r.Line, r.LineText, string(cx), r.Reason, r.Text, ms(r.Created), r.Status).Scan(&r.ID)
	})
	return db.wrap("create report", err)
}

const reportCols = `r.id, r.reporter_id, a.name, r.user_id, b.name, r.game_id, r.line, r.line_text, r.context, r.reason, r.text,
	r.created, r.status, r.resolved_by, r.resolved`

const reportFrom = ` FROM reports r JOIN users a ON a.id = r.reporter_id JOIN users b ON b.id = r.user_id`

func scanReport(row scanner) (store.Report, error) {
	var r store.Report
	var cx string
	var created, resolved int64
	err := row.Scan(&r.ID, &r.ReporterID, &r.Reporter, &r.UserID, &r.User, &r.GameID, &r.Line, &r.LineText, &cx, &r.Reason, &r.Text,
		&created, &r.Status, &r.ResolvedBy, &resolved)
	if err != nil {
		return r, err
	}
	r.Created, r.Resolved = fromMs(created), fromMs(resolved)
	if err := json.Unmarshal([]byte(cx), &r.Context); err != nil {
		return r, fmt.Errorf("report %d context: %w", r.ID, err)
	}
	return r, nil
}

// Report implements store.Moderation.
func (db *DB) Report(ctx context.Context, id int64) (store.Report, error) {
	r, err := scanReport(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+reportCols+reportFrom+" WHERE r.id = ?"), id))
	return r, db.wrap("report", err)
}

// Reports implements store.Moderation.
func (db *DB) Reports(ctx context.Context, f store.ReportFilter) ([]store.Report, error) {
	q := "SELECT " + reportCols + reportFrom + " WHERE 1 = 1"
	var args []any
	if f.Status != "" {
		q += " AND r.status = ?"
		args = append(args, f.Status)
	}
	if f.UserID != 0 {
		q += " AND r.user_id = ?"
		args = append(args, f.UserID)
	}
	if f.Before > 0 {
		q += " AND r.id < ?"
		args = append(args, f.Before)
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	q += " ORDER BY r.id DESC LIMIT " + strconv.Itoa(limit)
	out, err := collect(ctx, db, db.r, scanReport, q, args...)
	return out, db.wrap("reports", err)
}

// CountReportsBy implements store.Moderation.
func (db *DB) CountReportsBy(ctx context.Context, reporterID int64, since time.Time) (int, error) {
	var n int
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT COUNT(*) FROM reports WHERE reporter_id = ? AND created >= ?"),
		reporterID, ms(since)).Scan(&n)
	return n, db.wrap("count reports", err)
}

// ResolveReport implements store.Moderation.
func (db *DB) ResolveReport(ctx context.Context, id int64, status string, by int64, at time.Time, e store.AuditEntry) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var cur string
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT status FROM reports WHERE id = ?"+db.d.ForUpdate), id).Scan(&cur); err != nil {
			return err
		}
		if cur == status {
			return store.ErrConflict
		}
		if status == store.ReportOpen {
			by, at = 0, time.Time{}
		}
		if _, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE reports SET status = ?, resolved_by = ?, resolved = ? WHERE id = ?"),
			status, by, ms(at), id); err != nil {
			return err
		}
		return db.audit(ctx, tx, e)
	})
	return db.wrap("resolve report", err)
}

// SetModerator implements store.Moderation.
func (db *DB) SetModerator(ctx context.Context, userID int64, on bool, e store.AuditEntry) error {
	var err error
	if on {
		err = db.changeLogged(ctx, "grant moderator", e, false,
			"INSERT INTO moderators (user_id, granted_by, granted) VALUES (?, ?, ?)", userID, e.ActorID, ms(e.At))
	} else {
		err = db.changeLogged(ctx, "revoke moderator", e, true, "DELETE FROM moderators WHERE user_id = ?", userID)
		if err != nil && isNotFound(err) {
			err = fmt.Errorf("store: revoke moderator: not a moderator: %w", store.ErrConflict)
		}
	}
	return err
}

func isNotFound(err error) bool { return errors.Is(err, store.ErrNotFound) }

// Moderators implements store.Moderation.
func (db *DB) Moderators(ctx context.Context) ([]store.User, error) {
	out, err := collect(ctx, db, db.r, scanUser, `SELECT u.id, u.name, u.guest, u.password_hash, u.created FROM moderators m
		JOIN users u ON u.id = m.user_id ORDER BY u.name_key`)
	for i := range out {
		out[i].PasswordHash = "" // never needed by whoever lists moderators
	}
	return out, db.wrap("moderators", err)
}

// Mute implements store.Moderation.
func (db *DB) Mute(ctx context.Context, m store.Mute, e store.AuditEntry) error {
	return db.changeLogged(ctx, "mute", e, false, `INSERT INTO mutes (user_id, until, by_id, reason, created) VALUES (?, ?, ?, ?, ?)
		ON CONFLICT (user_id) DO UPDATE SET until = excluded.until, by_id = excluded.by_id, reason = excluded.reason, created = excluded.created`,
		m.UserID, ms(m.Until), m.By, m.Reason, ms(m.Created))
}

// Unmute implements store.Moderation.
func (db *DB) Unmute(ctx context.Context, userID int64, e store.AuditEntry) error {
	return db.changeLogged(ctx, "unmute", e, true, "DELETE FROM mutes WHERE user_id = ?", userID)
}

// CloseAccount implements store.Moderation.
func (db *DB) CloseAccount(ctx context.Context, c store.Closure, e store.AuditEntry) error {
	return db.changeLogged(ctx, "close account", e, false,
		"INSERT INTO account_closures (user_id, by_id, reason, created) VALUES (?, ?, ?, ?)", c.UserID, c.By, c.Reason, ms(c.Created))
}

// ReopenAccount implements store.Moderation.
func (db *DB) ReopenAccount(ctx context.Context, userID int64, e store.AuditEntry) error {
	return db.changeLogged(ctx, "reopen account", e, true, "DELETE FROM account_closures WHERE user_id = ?", userID)
}

// AccountClosed implements store.Moderation.
func (db *DB) AccountClosed(ctx context.Context, userID int64) (bool, error) {
	var one int
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT 1 FROM account_closures WHERE user_id = ?"), userID).Scan(&one)
	if err == sql.ErrNoRows {
		return false, nil
	}
	return err == nil, db.wrap("account closed", err)
}

// Standing implements store.Moderation: one query, three left joins on
// primary keys.
func (db *DB) Standing(ctx context.Context, userID int64) (store.Standing, error) {
	var mod, closedBy, muteUntil, muteBy, muteCreated, closedAt sql.NullInt64
	var closedReason, muteReason sql.NullString
	err := db.r.QueryRowContext(ctx, db.d.Rebind(`SELECT m.user_id, c.by_id, c.reason, c.created, t.until, t.by_id, t.reason, t.created
		FROM users u LEFT JOIN moderators m ON m.user_id = u.id LEFT JOIN account_closures c ON c.user_id = u.id
		LEFT JOIN mutes t ON t.user_id = u.id WHERE u.id = ?`), userID).Scan(&mod, &closedBy, &closedReason, &closedAt,
		&muteUntil, &muteBy, &muteReason, &muteCreated)
	if err != nil {
		return store.Standing{}, db.wrap("standing", err)
	}
	st := store.Standing{Moderator: mod.Valid}
	if closedBy.Valid {
		st.Closed = &store.Closure{UserID: userID, By: closedBy.Int64, Reason: closedReason.String, Created: fromMs(closedAt.Int64)}
	}
	if muteUntil.Valid {
		st.Mute = &store.Mute{UserID: userID, Until: fromMs(muteUntil.Int64), By: muteBy.Int64, Reason: muteReason.String, Created: fromMs(muteCreated.Int64)}
	}
	return st, nil
}

// AuditLog implements store.Moderation.
func (db *DB) AuditLog(ctx context.Context, before int64, limit int) ([]store.AuditEntry, error) {
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT l.id, l.actor_id, l.actor, l.action, l.target_id, COALESCE(u.name, ''), l.report_id, l.reason, l.detail, l.at
		FROM moderation_log l LEFT JOIN users u ON u.id = l.target_id`
	var args []any
	if before > 0 {
		q += " WHERE l.id < ?"
		args = append(args, before)
	}
	q += " ORDER BY l.id DESC LIMIT " + strconv.Itoa(limit)
	scan := func(row scanner) (store.AuditEntry, error) {
		var e store.AuditEntry
		var at int64
		err := row.Scan(&e.ID, &e.ActorID, &e.Actor, &e.Action, &e.TargetID, &e.Target, &e.ReportID, &e.Reason, &e.Detail, &at)
		e.At = fromMs(at)
		return e, err
	}
	out, err := collect(ctx, db, db.r, scan, q, args...)
	return out, db.wrap("moderation log", err)
}
