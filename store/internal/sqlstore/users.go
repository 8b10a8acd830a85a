package sqlstore

import (
	"context"
	"database/sql"
	"strings"
	"time"

	"github.com/tabula-games/tabula/store"
)

// CreateUser implements store.Users.
func (db *DB) CreateUser(ctx context.Context, u *store.User) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, db.d.Rebind(
			`INSERT INTO users (name, name_key, guest, password_hash, created) VALUES (?, ?, ?, ?, ?) RETURNING id`),
			u.Name, strings.ToLower(u.Name), b2i(u.Guest), u.PasswordHash, ms(u.Created)).Scan(&u.ID)
	})
	return db.wrap("create user", err)
}

const userCols = "id, name, guest, password_hash, created"

func scanUser(row scanner) (store.User, error) {
	var u store.User
	var guest int
	var created int64
	err := row.Scan(&u.ID, &u.Name, &guest, &u.PasswordHash, &created)
	u.Guest = guest != 0
	u.Created = fromMs(created)
	return u, err
}

// User implements store.Users.
func (db *DB) User(ctx context.Context, id int64) (store.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+userCols+" FROM users WHERE id = ?"), id))
	return u, db.wrap("user", err)
}

// UserByName implements store.Users.
func (db *DB) UserByName(ctx context.Context, name string) (store.User, error) {
	u, err := scanUser(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+userCols+" FROM users WHERE name_key = ?"), strings.ToLower(name)))
	return u, db.wrap("user by name", err)
}

// UpdateUser implements store.Users.
func (db *DB) UpdateUser(ctx context.Context, u store.User) error {
	res, err := db.exec(ctx, "UPDATE users SET name = ?, name_key = ?, guest = ?, password_hash = ? WHERE id = ?",
		u.Name, strings.ToLower(u.Name), b2i(u.Guest), u.PasswordHash, u.ID)
	if err != nil {
		return db.wrap("update user", err)
	}
	return db.wrap("update user", mustOne(res))
}

// CreateSession implements store.Users.
func (db *DB) CreateSession(ctx context.Context, s store.Session) error {
	_, err := db.exec(ctx, "INSERT INTO sessions (hash, user_id, created, expires) VALUES (?, ?, ?, ?)",
		s.Hash, s.UserID, ms(s.Created), ms(s.Expires))
	return db.wrap("create session", err)
}

// Session implements store.Users.
func (db *DB) Session(ctx context.Context, hash []byte, now time.Time) (store.Session, error) {
	var s store.Session
	var created, expires int64
	err := db.r.QueryRowContext(ctx, db.d.Rebind("SELECT hash, user_id, created, expires FROM sessions WHERE hash = ? AND expires > ?"),
		hash, ms(now)).Scan(&s.Hash, &s.UserID, &created, &expires)
	s.Created, s.Expires = fromMs(created), fromMs(expires)
	return s, db.wrap("session", err)
}

// DeleteSession implements store.Users.
func (db *DB) DeleteSession(ctx context.Context, hash []byte) error {
	_, err := db.exec(ctx, "DELETE FROM sessions WHERE hash = ?", hash)
	return db.wrap("delete session", err)
}

// DeleteExpiredSessions implements store.Users.
func (db *DB) DeleteExpiredSessions(ctx context.Context, now time.Time) (int64, error) {
	res, err := db.exec(ctx, "DELETE FROM sessions WHERE expires <= ?", ms(now))
	if err != nil {
		return 0, db.wrap("delete expired sessions", err)
	}
	n, err := res.RowsAffected()
	return n, db.wrap("delete expired sessions", err)
}

// CreateToken implements store.Users.
func (db *DB) CreateToken(ctx context.Context, t *store.Token) error {
	err := db.tx(ctx, func(tx *sql.Tx) error {
		return tx.QueryRowContext(ctx, db.d.Rebind("INSERT INTO tokens (user_id, name, hash, created) VALUES (?, ?, ?, ?) RETURNING id"),
			t.UserID, t.Name, t.Hash, ms(t.Created)).Scan(&t.ID)
	})
	return db.wrap("create token", err)
}

const tokenCols = "id, user_id, name, hash, created"

func scanToken(row scanner) (store.Token, error) {
	var t store.Token
	var created int64
	err := row.Scan(&t.ID, &t.UserID, &t.Name, &t.Hash, &created)
	t.Created = fromMs(created)
	return t, err
}

// TokenByHash implements store.Users.
func (db *DB) TokenByHash(ctx context.Context, hash []byte) (store.Token, error) {
	t, err := scanToken(db.r.QueryRowContext(ctx, db.d.Rebind("SELECT "+tokenCols+" FROM tokens WHERE hash = ?"), hash))
	return t, db.wrap("token", err)
}

// Tokens implements store.Users.
func (db *DB) Tokens(ctx context.Context, userID int64) ([]store.Token, error) {
	ts, err := collect(ctx, db, db.r, scanToken, "SELECT "+tokenCols+" FROM tokens WHERE user_id = ? ORDER BY id", userID)
	return ts, db.wrap("tokens", err)
}

// DeleteToken implements store.Users.
func (db *DB) DeleteToken(ctx context.Context, userID, id int64) error {
	res, err := db.exec(ctx, "DELETE FROM tokens WHERE user_id = ? AND id = ?", userID, id)
	if err != nil {
		return db.wrap("delete token", err)
	}
	return db.wrap("delete token", mustOne(res))
}
