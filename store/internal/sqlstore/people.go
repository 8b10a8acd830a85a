package sqlstore

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

var (
	_ store.People   = (*DB)(nil)
	_ store.Presence = (*DB)(nil)
)

// presenceChunk is how many rows one INSERT writes (four values each:
// far below both databases' limits on a statement's parameters).
const presenceChunk = 200

// nameKeyC is name_key compared byte by byte: the expression the prefix
// index (migration 7) is built on.
func (db *DB) nameKeyC() string {
	if db.d.Name == "postgres" {
		return `(name_key COLLATE "C")`
	}
	return "name_key"
}

// UsersByPrefix implements store.People. A prefix is one range of the
// byte-ordered index of registered users' names, [prefix, prefix+"\x7f"):
// names are lower-case ASCII in name_key, all below 0x7f, so every name
// that begins with the prefix, and only those, lie in it. No LIKE: a "%"
// or "_" in prefix is just a character.
func (db *DB) UsersByPrefix(ctx context.Context, prefix string, limit int) ([]store.User, error) {
	if limit <= 0 {
		return nil, nil
	}
	p := strings.ToLower(prefix)
	col := db.nameKeyC()
	out, err := collect(ctx, db, db.r, scanUser, "SELECT "+userCols+" FROM users WHERE guest = 0 AND "+col+" >= ? AND "+col+" < ? ORDER BY "+col+" LIMIT "+strconv.Itoa(limit),
		p, p+"\x7f")
	if err != nil {
		return nil, db.wrap("users by prefix", err)
	}
	// The range holds exactly the names that begin with p when every
	// name_key is below 0x7f; should a name outside the account rules have
	// got in, it is left out here rather than shown to a search it does
	// not match.
	kept := out[:0]
	for _, u := range out {
		if strings.HasPrefix(strings.ToLower(u.Name), p) {
			kept = append(kept, u)
		}
	}
	return kept, nil
}

// WritePresence implements store.Presence.
func (db *DB) WritePresence(ctx context.Context, w store.PresenceWrite) (int, error) {
	refreshed := 0
	at := ms(w.At)
	err := db.tx(ctx, func(tx *sql.Tx) error {
		refreshed = 0
		if w.Clear {
			if _, err := tx.ExecContext(ctx, db.d.Rebind("DELETE FROM presence WHERE node = ?"), w.Node); err != nil {
				return err
			}
		}
		for _, e := range w.Remove {
			if _, err := tx.ExecContext(ctx, db.d.Rebind("DELETE FROM presence WHERE node = ? AND user_id = ? AND game_id = ?"), w.Node, e.UserID, e.GameID); err != nil {
				return err
			}
		}
		for i := 0; i < len(w.Add); i += presenceChunk {
			rows := w.Add[i:min(i+presenceChunk, len(w.Add))]
			var q strings.Builder
			q.WriteString("INSERT INTO presence (node, user_id, game_id, seen) VALUES ")
			args := make([]any, 0, 4*len(rows))
			for j, e := range rows {
				if j > 0 {
					q.WriteString(", ")
				}
				q.WriteString("(?, ?, ?, ?)")
				args = append(args, w.Node, e.UserID, e.GameID, at)
			}
			q.WriteString(" ON CONFLICT (node, user_id, game_id) DO UPDATE SET seen = excluded.seen")
			if _, err := tx.ExecContext(ctx, db.d.Rebind(q.String()), args...); err != nil {
				return err
			}
		}
		if w.Refresh {
			res, err := tx.ExecContext(ctx, db.d.Rebind("UPDATE presence SET seen = ? WHERE node = ?"), at, w.Node)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			refreshed = int(n)
		}
		return nil
	})
	if err != nil {
		return 0, db.wrap("write presence", err)
	}
	if !w.ExpireBefore.IsZero() {
		// Apart from the node's own transaction: it touches other nodes'
		// rows, and holding them while writing one's own would invite
		// lock-order deadlocks between nodes on PostgreSQL.
		if _, err := db.exec(ctx, "DELETE FROM presence WHERE seen < ?", ms(w.ExpireBefore)); err != nil {
			return refreshed, db.wrap("expire presence", err)
		}
	}
	return refreshed, nil
}

// OnlineUsers implements store.Presence.
func (db *DB) OnlineUsers(ctx context.Context, since time.Time, limit int) ([]store.OnlineEntry, error) {
	if limit <= 0 {
		return nil, nil
	}
	out, err := collect(ctx, db, db.r, func(row scanner) (store.OnlineEntry, error) {
		var e store.OnlineEntry
		var status string
		var seen int64
		err := row.Scan(&e.UserID, &e.Name, &e.GameID, &e.Game, &status, &seen)
		e.Status, e.Seen = match.Status(status), fromMs(seen)
		return e, err
	}, `SELECT p.user_id, u.name, p.game_id, COALESCE(g.game, ''), COALESCE(g.status, ''), MAX(p.seen)
		FROM presence p JOIN users u ON u.id = p.user_id LEFT JOIN games g ON g.id = p.game_id
		WHERE p.seen >= ? AND u.guest = 0
		GROUP BY p.user_id, u.name, u.name_key, p.game_id, g.game, g.status
		ORDER BY u.name_key, p.game_id LIMIT `+strconv.Itoa(limit), ms(since))
	return out, db.wrap("online users", err)
}

// OnlineCount implements store.Presence.
func (db *DB) OnlineCount(ctx context.Context, since time.Time) (users, guests int, err error) {
	rows, err := db.r.QueryContext(ctx, db.d.Rebind(`SELECT u.guest, COUNT(DISTINCT p.user_id) FROM presence p JOIN users u ON u.id = p.user_id
		WHERE p.seen >= ? GROUP BY u.guest`), ms(since))
	if err != nil {
		return 0, 0, db.wrap("online count", err)
	}
	defer rows.Close()
	for rows.Next() {
		var guest, n int
		if err := rows.Scan(&guest, &n); err != nil {
			return 0, 0, db.wrap("online count", err)
		}
		if guest != 0 {
			guests += n
		} else {
			users += n
		}
	}
	return users, guests, db.wrap("online count", rows.Err())
}
