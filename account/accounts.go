package account

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Store is what accounts are kept in: the users with their sessions and
// tokens, and the limits that hold the sign-in back-off.
type Store interface {
	store.Users
	store.Limits
}

// Config sets up Accounts.
type Config struct {
	Store Store
	// Now is the clock (time.Now if nil).
	Now func() time.Time
	// Cost is the argon2id work factor of new password hashes.
	Cost PasswordCost
	// Logger hears sign-ins that failed (slog.Default if nil).
	Logger *slog.Logger
}

// Accounts applies the account rules to a store.
type Accounts struct {
	st   Store
	now  func() time.Time
	cost PasswordCost
	log  *slog.Logger
	// hashSem bounds the argon2 hashes computed at once: each takes its
	// cost's memory, and a flood of sign-ins must not take the node's.
	hashSem chan struct{}
	// dummy is a password hash checked for unknown names.
	dummyOnce sync.Once
	dummy     string
	names     *Cache[int64, string] // user id → name, for summaries
}

// How long a user's name is kept. A registered user's name never changes
// (there is no renaming), so it may be kept long; a guest's changes once,
// when the guest registers — on whichever node that happens — so it is
// kept briefly: the guest flag is the name's version.
const (
	maxCachedNames = 10000
	nameTTL        = time.Hour
	guestNameTTL   = 10 * time.Second
)

// New returns the accounts kept in cfg.Store.
func New(cfg Config) *Accounts {
	a := &Accounts{st: cfg.Store, now: cfg.Now, cost: cfg.Cost, log: cfg.Logger,
		hashSem: make(chan struct{}, 2), names: NewCache[int64, string](maxCachedNames)}
	if a.now == nil {
		a.now = time.Now
	}
	if a.log == nil {
		a.log = slog.Default()
	}
	return a
}

// hash hashes a password, waiting for a place among the hashes under way.
func (a *Accounts) hash(ctx context.Context, pw string) (string, error) {
	select {
	case a.hashSem <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-a.hashSem }()
	return HashPassword(pw, a.cost)
}

// check checks a password against its hash, waiting likewise.
func (a *Accounts) check(ctx context.Context, pw, hash string) bool {
	select {
	case a.hashSem <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-a.hashSem }()
	return CheckPassword(pw, hash)
}

// dummyHash equalises the time of a sign-in for an unknown name with that
// of a wrong password, so names cannot be probed by timing.
func (a *Accounts) dummyHash() string {
	a.dummyOnce.Do(func() { a.dummy, _ = HashPassword("not a password", a.cost) })
	return a.dummy
}

// Authenticate finds the user behind a credential: an API token (it starts
// with TokenPrefix) or a session token. ErrUnauthorized if it does not
// check out.
func (a *Accounts) Authenticate(ctx context.Context, credential string) (*store.User, error) {
	var uid int64
	if IsAPIToken(credential) {
		t, err := a.st.TokenByHash(ctx, HashSecret(credential))
		if err != nil {
			return nil, notFoundIsUnauthorized("api token", err)
		}
		uid = t.UserID
	} else {
		sess, err := a.st.Session(ctx, HashSecret(credential), a.now())
		if err != nil {
			return nil, notFoundIsUnauthorized("session", err)
		}
		uid = sess.UserID
	}
	u, err := a.st.User(ctx, uid)
	if err != nil {
		return nil, notFoundIsUnauthorized("user", err)
	}
	// A closed account's sessions and tokens stop at once, on every node:
	// the closure is read from the store on each request, never cached.
	if closed, err := a.closed(ctx, uid); err != nil || closed {
		if err != nil {
			return nil, err
		}
		return nil, ErrUnauthorized
	}
	return &u, nil
}

// closedAccounts is the part of a store that knows which accounts a
// moderator closed (store.Moderation); a store without it closes none.
type closedAccounts interface {
	AccountClosed(ctx context.Context, userID int64) (bool, error)
}

// ErrClosed is a sign-in to an account a moderator closed.
var ErrClosed = errorf(CodeForbidden, "this account is closed")

// closed reports whether user uid's account is closed.
func (a *Accounts) closed(ctx context.Context, uid int64) (bool, error) {
	cs, ok := a.st.(closedAccounts)
	if !ok {
		return false, nil
	}
	c, err := cs.AccountClosed(ctx, uid)
	if err != nil {
		return false, fmt.Errorf("account closed: %w", err)
	}
	return c, nil
}

func notFoundIsUnauthorized(what string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return ErrUnauthorized
	}
	return fmt.Errorf("%s: %w", what, err)
}

// NewGuest makes a guest account with a random name.
func (a *Accounts) NewGuest(ctx context.Context) (store.User, error) {
	for range 5 {
		suffix, _ := NewSecret("")
		u := store.User{Name: guestPrefix + strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(suffix))[:8], Guest: true, Created: a.now()}
		err := a.st.CreateUser(ctx, &u)
		if err == nil {
			return u, nil
		}
		if !errors.Is(err, store.ErrConflict) {
			return store.User{}, fmt.Errorf("create guest: %w", err)
		}
	}
	return store.User{}, errors.New("create guest: five random names were all taken")
}

// Register makes an account of name and password: a new one, or — for a
// guest (cur) — the guest's own, which keeps its games. A user already
// registered must sign out first.
func (a *Accounts) Register(ctx context.Context, cur *store.User, name, password string) (store.User, error) {
	if err := CheckSignUp(name, password); err != nil {
		return store.User{}, err
	}
	if cur != nil && !cur.Guest {
		return store.User{}, errorf(CodeConflict, "you already have an account; log out first")
	}
	hash, err := a.hash(ctx, password)
	if err != nil {
		return store.User{}, fmt.Errorf("hash password: %w", err)
	}
	var u store.User
	if cur != nil {
		u = *cur
		u.Name, u.Guest, u.PasswordHash = name, false, hash
		err = a.st.UpdateUser(ctx, u)
		a.names.Forget(u.ID)
	} else {
		u = store.User{Name: name, PasswordHash: hash, Created: a.now()}
		err = a.st.CreateUser(ctx, &u)
	}
	if errors.Is(err, store.ErrConflict) {
		return store.User{}, errorf(CodeConflict, "the name %q is taken", name)
	}
	if err != nil {
		return store.User{}, fmt.Errorf("register: %w", err)
	}
	return u, nil
}

// SignIn checks a name and password. A guest has no password, and an
// unknown name costs the time of a check too. The account's back-off
// counts the try before the check: a refusal while it backs off is
// CodeRateLimited with RetryAfter. from is the client's address, for the
// log only.
func (a *Accounts) SignIn(ctx context.Context, name, password, from string) (store.User, error) {
	u, err := a.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Guest) {
		a.check(ctx, password, a.dummyHash())
		return store.User{}, ErrBadCredentials
	}
	if err != nil {
		return store.User{}, fmt.Errorf("sign in: %w", err)
	}
	now := a.now()
	var wait time.Duration
	var tries int
	if _, err := a.st.UpdateLimit(ctx, signInLimit(u.ID), now, func(l store.Limit) store.Limit {
		l, wait, tries = beginSignIn(l, now)
		return l
	}); err != nil {
		return store.User{}, fmt.Errorf("sign-in back-off: %w", err)
	}
	if wait > 0 {
		e := errorf(CodeRateLimited, "too many failed sign-ins to this account; try again in %d s", int64((wait+time.Second-1)/time.Second))
		e.RetryAfter = wait
		return store.User{}, e
	}
	if !a.check(ctx, password, u.PasswordHash) {
		if tries >= FreeSignIns {
			a.log.Warn("login failed; the account backs off", "user", u.ID, "failures", tries, "addr", from)
		} else {
			a.log.Info("login failed", "user", u.ID, "addr", from)
		}
		return store.User{}, ErrBadCredentials
	}
	// Only the account's owner, with its password, learns that it is
	// closed.
	if closed, err := a.closed(ctx, u.ID); err != nil || closed {
		if err != nil {
			return store.User{}, err
		}
		return store.User{}, ErrClosed
	}
	// A success forgets the account's failures.
	if _, err := a.st.UpdateLimit(ctx, signInLimit(u.ID), a.now(), func(store.Limit) store.Limit { return store.Limit{} }); err != nil {
		return store.User{}, fmt.Errorf("sign-in back-off: %w", err)
	}
	return u, nil
}

// StartSession makes a session for u and returns its token and when it
// expires.
func (a *Accounts) StartSession(ctx context.Context, u *store.User) (string, time.Time, error) {
	tok, hash := NewSecret("")
	now := a.now()
	expires := now.Add(SessionTTL)
	if err := a.st.CreateSession(ctx, store.Session{Hash: hash, UserID: u.ID, Created: now, Expires: expires}); err != nil {
		return "", time.Time{}, fmt.Errorf("create session: %w", err)
	}
	return tok, expires, nil
}

// EndSession ends the session of a session token; an API token or an
// empty credential ends nothing (a token is deleted by its owner).
func (a *Accounts) EndSession(ctx context.Context, credential string) error {
	if credential == "" || IsAPIToken(credential) {
		return nil
	}
	if err := a.st.DeleteSession(ctx, HashSecret(credential)); err != nil {
		return fmt.Errorf("end session: %w", err)
	}
	return nil
}

// CreateToken makes a personal API token named name for u, a registered
// user, and returns it with its value, which is shown this once.
func (a *Accounts) CreateToken(ctx context.Context, u *store.User, name string) (store.Token, string, error) {
	if u.Guest {
		return store.Token{}, "", errorf(CodeForbidden, "register an account to create API tokens")
	}
	if name == "" || len(name) > 64 {
		return store.Token{}, "", errorf(CodeBadRequest, "a token needs a name of 1–64 characters")
	}
	tok, hash := NewSecret(TokenPrefix)
	t := store.Token{UserID: u.ID, Name: name, Hash: hash, Created: a.now()}
	if err := a.st.CreateToken(ctx, &t); err != nil {
		return store.Token{}, "", fmt.Errorf("create token: %w", err)
	}
	return t, tok, nil
}

// ForgetName drops the cached name of user id (it changed, perhaps on
// another node).
func (a *Accounts) ForgetName(id int64) { a.names.Forget(id) }

// Name is user id's name ("" for no user or one that cannot be read),
// cached: an hour for a registered user, whose name never changes, ten
// seconds for a guest, whose name changes when it registers (perhaps on
// another node).
func (a *Accounts) Name(ctx context.Context, id int64) string {
	if id == 0 {
		return ""
	}
	now := a.now()
	if v, ok := a.names.Get(id, now); ok {
		return v
	}
	u, err := a.st.User(ctx, id)
	if err != nil {
		return ""
	}
	ttl := nameTTL
	if u.Guest {
		ttl = guestNameTTL
	}
	a.names.Put(id, u.Name, now.Add(ttl), now)
	return u.Name
}
