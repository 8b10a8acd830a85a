package sqlstore

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

var _ store.Social = (*DB)(nil)

// errFollowCap is AddFollow's refusal of a follower at the cap.
var errFollowCap = errors.New("follows at the cap")

// AddFollow implements store.Social. The follower's user row is locked
// (PostgreSQL; SQLite's write transactions are exclusive) so that two
// follows at once cannot both pass the cap.
func (db *DB) AddFollow(ctx context.Context, f store.Follow, max int) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		var id int64
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT id FROM users WHERE id = ?"+db.d.ForUpdate), f.UserID).Scan(&id); err != nil {
			return err
		}
		var one int
		err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT 1 FROM follows WHERE user_id = ? AND followed_id = ?"), f.UserID, f.FollowedID).Scan(&one)
		if err == nil {
			return nil // following already
		}
		if err != sql.ErrNoRows {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, db.d.Rebind("SELECT COUNT(*) FROM follows WHERE user_id = ?"), f.UserID).Scan(&n); err != nil {
			return err
		}
		if max > 0 && n >= max {
			return errFollowCap
		}
		_, err = tx.ExecContext(ctx, db.d.Rebind("INSERT INTO follows (user_id, followed_id, created) VALUES (?, ?, ?)"),
			f.UserID, f.FollowedID, ms(f.Created))
		return err
	})
	if errors.Is(err, errFollowCap) {
		return &capError{max}
	}
	return db.wrap("follow", err)
}

// capError is ErrConflict, saying which cap.
type capError struct{ max int }

func (e *capError) Error() string {
	return "store: follow: already following " + strconv.Itoa(e.max) + " users: " + store.ErrConflict.Error()
}
func (e *capError) Unwrap() error { return store.ErrConflict }

// Unfollow implements store.Social.
func (db *DB) Unfollow(ctx context.Context, userID, followedID int64) error {
	res, err := db.exec(ctx, "DELETE FROM follows WHERE user_id = ? AND followed_id = ?", userID, followedID)
	if err != nil {
		return db.wrap("unfollow", err)
	}
	return db.wrap("unfollow", mustOne(res))
}

// DropFollows implements store.Social.
func (db *DB) DropFollows(ctx context.Context, a, b int64) error {
	_, err := db.exec(ctx, "DELETE FROM follows WHERE (user_id = ? AND followed_id = ?) OR (user_id = ? AND followed_id = ?)", a, b, b, a)
	return db.wrap("drop follows", err)
}

// Following implements store.Social.
func (db *DB) Following(ctx context.Context, userID int64, limit int) ([]store.Follow, error) {
	scan := func(row scanner) (store.Follow, error) {
		var f store.Follow
		var created int64
		err := row.Scan(&f.UserID, &f.FollowedID, &f.Name, &created)
		f.Created = fromMs(created)
		return f, err
	}
	out, err := collect(ctx, db, db.r, scan, `SELECT f.user_id, f.followed_id, u.name, f.created FROM follows f
		JOIN users u ON u.id = f.followed_id WHERE f.user_id = ? ORDER BY f.created DESC, u.name_key LIMIT `+strconv.Itoa(positive(limit, 500)), userID)
	return out, db.wrap("following", err)
}

// Followers implements store.Social.
func (db *DB) Followers(ctx context.Context, userID int64, limit int) ([]int64, error) {
	scan := func(row scanner) (int64, error) {
		var id int64
		return id, row.Scan(&id)
	}
	out, err := collect(ctx, db, db.r, scan, "SELECT user_id FROM follows WHERE followed_id = ? ORDER BY created DESC, user_id LIMIT "+
		strconv.Itoa(positive(limit, 1000)), userID)
	return out, db.wrap("followers", err)
}

// LiveSeats implements store.Social.
func (db *DB) LiveSeats(ctx context.Context, userIDs []int64, limit int) ([]store.LiveSeat, error) {
	if len(userIDs) == 0 {
		return nil, nil
	}
	args := []any{string(match.Live), string(match.SeatHuman)}
	for _, id := range userIDs {
		args = append(args, id)
	}
	scan := func(row scanner) (store.LiveSeat, error) {
		var l store.LiveSeat
		return l, row.Scan(&l.UserID, &l.GameID, &l.Game)
	}
	out, err := collect(ctx, db, db.r, scan, `SELECT s.user_id, g.id, g.game FROM seats s JOIN games g ON g.id = s.game_id
		WHERE g.status = ? AND s.kind = ? AND s.user_id IN (`+marks(len(userIDs))+`) ORDER BY g.started DESC, g.id LIMIT `+
		strconv.Itoa(positive(limit, 500)), args...)
	return out, db.wrap("live seats", err)
}

// AddNotice implements store.Social.
func (db *DB) AddNotice(ctx context.Context, n *store.InboxNotice, keep int) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		q := "INSERT INTO inbox_notices (user_id, kind, title, link, created) VALUES (?, ?, ?, ?, ?)"
		args := []any{n.UserID, n.Kind, n.Title, n.Link, ms(n.Created)}
		var err error
		if db.d.Numbered {
			err = tx.QueryRowContext(ctx, db.d.Rebind(q+" RETURNING id"), args...).Scan(&n.ID)
		} else {
			var res sql.Result
			if res, err = tx.ExecContext(ctx, q, args...); err == nil {
				n.ID, err = res.LastInsertId()
			}
		}
		if err != nil || keep <= 0 {
			return err
		}
		// The oldest beyond keep go: a flood of notices cannot grow a
		// user's inbox without bound.
		_, err = tx.ExecContext(ctx, db.d.Rebind(`DELETE FROM inbox_notices WHERE user_id = ? AND id NOT IN
			(SELECT id FROM inbox_notices WHERE user_id = ? ORDER BY id DESC LIMIT `+strconv.Itoa(keep)+`)`), n.UserID, n.UserID)
		return err
	})
	return db.wrap("add notice", err)
}

// Notices implements store.Social.
func (db *DB) Notices(ctx context.Context, userID int64, limit int) ([]store.InboxNotice, error) {
	scan := func(row scanner) (store.InboxNotice, error) {
		var n store.InboxNotice
		var created int64
		err := row.Scan(&n.ID, &n.UserID, &n.Kind, &n.Title, &n.Link, &created)
		n.Created = fromMs(created)
		return n, err
	}
	out, err := collect(ctx, db, db.r, scan, "SELECT id, user_id, kind, title, link, created FROM inbox_notices WHERE user_id = ? ORDER BY id DESC LIMIT "+
		strconv.Itoa(positive(limit, 200)), userID)
	return out, db.wrap("notices", err)
}

// MarkRead implements store.Social.
func (db *DB) MarkRead(ctx context.Context, userID int64, keys []string, at, forgetBefore time.Time) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		for _, k := range keys {
			if _, err := tx.ExecContext(ctx, db.d.Rebind("INSERT INTO inbox_reads (user_id, item_key, at) VALUES (?, ?, ?) ON CONFLICT (user_id, item_key) DO NOTHING"),
				userID, k, ms(at)); err != nil {
				return err
			}
		}
		if forgetBefore.IsZero() {
			return nil
		}
		_, err := tx.ExecContext(ctx, db.d.Rebind("DELETE FROM inbox_reads WHERE user_id = ? AND at < ?"), userID, ms(forgetBefore))
		return err
	})
	return db.wrap("mark read", err)
}

// ReadKeys implements store.Social.
func (db *DB) ReadKeys(ctx context.Context, userID int64, keys []string) (map[string]bool, error) {
	out := map[string]bool{}
	for len(keys) > 0 {
		part := keys[:min(len(keys), 200)]
		keys = keys[len(part):]
		args := []any{userID}
		for _, k := range part {
			args = append(args, k)
		}
		scan := func(row scanner) (string, error) {
			var k string
			return k, row.Scan(&k)
		}
		got, err := collect(ctx, db, db.r, scan, "SELECT item_key FROM inbox_reads WHERE user_id = ? AND item_key IN ("+marks(len(part))+")", args...)
		if err != nil {
			return nil, db.wrap("read keys", err)
		}
		for _, k := range got {
			out[k] = true
		}
	}
	return out, nil
}

// positive is n, or def when n is not positive.
func positive(n, def int) int {
	if n <= 0 {
		return def
	}
	return n
}
