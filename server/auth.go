package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

const (
	sessionCookie = "tabula_session"
	sessionTTL    = 30 * 24 * time.Hour
	tokenPrefix   = "tbl_"
)

var validName = regexp.MustCompile(`^[A-Za-z0-9_-]{3,24}$`)

// secret returns a new random credential and its stored hash.
func secret(prefix string) (string, []byte) {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("server: crypto/rand failed: " + err.Error())
	}
	s := prefix + base64.RawURLEncoding.EncodeToString(b[:])
	h := sha256.Sum256([]byte(s))
	return s, h[:]
}

func hashSecret(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// authenticate finds the user behind a request's credentials: the
// Authorization header if present (an API token or a session token), else
// the session cookie. It returns (nil, nil) for an anonymous request and
// errUnauthorized for credentials that do not check out — a wrong token is
// an error, not anonymity.
func (s *Server) authenticate(r *http.Request) (*store.User, error) {
	ctx := r.Context()
	var sessionValue string
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		if !ok || tok == "" {
			return nil, errUnauthorized
		}
		if strings.HasPrefix(tok, tokenPrefix) {
			t, err := s.store.TokenByHash(ctx, hashSecret(tok))
			if err != nil {
				return nil, s.authErr(err)
			}
			return s.userByID(ctx, t.UserID)
		}
		sessionValue = tok
	} else if c, err := r.Cookie(sessionCookie); err == nil && c.Value != "" {
		sessionValue = c.Value
	} else {
		return nil, nil
	}
	sess, err := s.store.Session(ctx, hashSecret(sessionValue), s.now())
	if err != nil {
		return nil, s.authErr(err)
	}
	return s.userByID(ctx, sess.UserID)
}

func (s *Server) authErr(err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return errUnauthorized
	}
	return s.internal("authenticate", err)
}

func (s *Server) userByID(ctx context.Context, id int64) (*store.User, error) {
	u, err := s.store.User(ctx, id)
	if err != nil {
		return nil, s.authErr(err)
	}
	s.presence.saw(u.ID)
	return &u, nil
}

// internal logs an unexpected error and returns the generic 503.
func (s *Server) internal(op string, err error) error {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	if errors.Is(err, context.Canceled) {
		return errUnavailable
	}
	s.log.Error(op, "err", err)
	return errUnavailable
}

func publicUser(u *store.User) *wire.User {
	return &wire.User{ID: u.ID, Name: u.Name, Guest: u.Guest, Created: u.Created.UTC()}
}

// startSession creates a session for u, sets the cookie and answers with
// the user and the session token.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, u *store.User, status int) {
	tok, hash := secret("")
	now := s.now()
	if err := s.store.CreateSession(r.Context(), store.Session{Hash: hash, UserID: u.ID, Created: now, Expires: now.Add(sessionTTL)}); err != nil {
		writeError(w, s.internal("create session", err))
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: tok, Path: "/", Expires: now.Add(sessionTTL),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.viaTLS(r) || s.cfg.SecureCookies,
	})
	writeJSON(w, status, wire.Session{User: publicUser(u), Token: tok})
}

func (s *Server) allowSignup(r *http.Request) error {
	ok, err := s.signups.allow(r.Context(), s.store, s.limitKey(r), s.now())
	if err != nil {
		return s.internal("signup limit", err)
	}
	if !ok {
		return errf(http.StatusTooManyRequests, "rate_limited", "too many new accounts from this address; try again later")
	}
	return nil
}

func (s *Server) handleGuest(w http.ResponseWriter, r *http.Request) {
	var req struct{}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	if err := s.allowSignup(r); err != nil {
		writeError(w, err)
		return
	}
	var u store.User
	for range 5 {
		suffix, _ := secret("")
		u = store.User{Name: "guest-" + strings.ToLower(strings.NewReplacer("-", "", "_", "").Replace(suffix))[:8], Guest: true, Created: s.now()}
		err := s.store.CreateUser(r.Context(), &u)
		if err == nil {
			break
		}
		if !errors.Is(err, store.ErrConflict) {
			writeError(w, s.internal("create guest", err))
			return
		}
	}
	if u.ID == 0 {
		writeError(w, errUnavailable)
		return
	}
	s.log.Info("guest created", "user", u.ID)
	s.startSession(w, r, &u, http.StatusCreated)
}

type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

func (s *Server) hash(ctx context.Context, pw string) (string, error) {
	select {
	case s.hashSem <- struct{}{}:
	case <-ctx.Done():
		return "", ctx.Err()
	}
	defer func() { <-s.hashSem }()
	return hashPassword(pw, s.cfg.PasswordCost)
}

func (s *Server) check(ctx context.Context, pw, hash string) bool {
	select {
	case s.hashSem <- struct{}{}:
	case <-ctx.Done():
		return false
	}
	defer func() { <-s.hashSem }()
	return checkPassword(pw, hash)
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	if !validName.MatchString(req.Name) || strings.HasPrefix(strings.ToLower(req.Name), "guest-") {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "a name is 3–24 characters A–Z a–z 0–9 _ - and does not start with guest-"))
		return
	}
	if err := checkNewPassword(req.Name, req.Password); err != nil {
		writeError(w, err)
		return
	}
	cur, err := s.authenticate(r)
	if err != nil && !errors.Is(err, errUnauthorized) {
		writeError(w, err)
		return
	}
	if cur != nil && !cur.Guest {
		writeError(w, errf(http.StatusConflict, "conflict", "you already have an account; log out first"))
		return
	}
	if cur == nil {
		if err := s.allowSignup(r); err != nil {
			writeError(w, err)
			return
		}
	}
	hash, err := s.hash(r.Context(), req.Password)
	if err != nil {
		writeError(w, s.internal("hash password", err))
		return
	}
	var u store.User
	if cur != nil {
		// A guest registering keeps its games: the account is upgraded.
		u = *cur
		u.Name, u.Guest, u.PasswordHash = req.Name, false, hash
		err = s.store.UpdateUser(r.Context(), u)
		s.names.forget(u.ID)
	} else {
		u = store.User{Name: req.Name, PasswordHash: hash, Created: s.now()}
		err = s.store.CreateUser(r.Context(), &u)
	}
	if errors.Is(err, store.ErrConflict) {
		writeError(w, errf(http.StatusConflict, "conflict", "the name %q is taken", req.Name))
		return
	}
	if err != nil {
		writeError(w, s.internal("register", err))
		return
	}
	s.log.Info("user registered", "user", u.ID, "name", u.Name)
	s.startSession(w, r, &u, http.StatusCreated)
}

// dummyHash equalises the time of a login for an unknown name with that of
// a wrong password, so names cannot be probed by timing.
func (s *Server) dummyHash() string {
	s.dummyOnce.Do(func() { s.dummy, _ = hashPassword("not a password", s.cfg.PasswordCost) })
	return s.dummy
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	bad := errf(http.StatusUnauthorized, "unauthorized", "wrong name or password")
	// Password guessing costs the same per-address budget as making
	// accounts, and each account has a back-off of its own (beginSignIn);
	// both are kept in the store, one for every node.
	if ok, err := s.signups.allow(r.Context(), s.store, s.limitKey(r), s.now()); err != nil || !ok {
		if err != nil {
			writeError(w, s.internal("sign-in limit", err))
		} else {
			writeError(w, errf(http.StatusTooManyRequests, "rate_limited", "too many attempts from this address; try again later"))
		}
		return
	}
	u, err := s.store.UserByName(r.Context(), req.Name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && u.Guest) {
		s.check(r.Context(), req.Password, s.dummyHash())
		writeError(w, bad)
		return
	}
	if err != nil {
		writeError(w, s.internal("login", err))
		return
	}
	wait, tries, err := s.beginSignIn(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("sign-in back-off", err))
		return
	}
	if wait > 0 {
		e := errf(http.StatusTooManyRequests, "rate_limited", "too many failed sign-ins to this account; try again in %d s", int64((wait+time.Second-1)/time.Second))
		e.RetryAfter = wait
		writeError(w, e)
		return
	}
	if !s.check(r.Context(), req.Password, u.PasswordHash) {
		if tries >= loginFreeTries {
			s.log.Warn("login failed; the account backs off", "user", u.ID, "failures", tries, "addr", s.clientIP(r))
		} else {
			s.log.Info("login failed", "user", u.ID, "addr", s.clientIP(r))
		}
		writeError(w, bad)
		return
	}
	if err := s.signInSucceeded(r.Context(), u.ID); err != nil {
		writeError(w, s.internal("sign-in back-off", err))
		return
	}
	s.startSession(w, r, &u, http.StatusOK)
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	value := ""
	if h := r.Header.Get("Authorization"); h != "" {
		value, _ = strings.CutPrefix(h, "Bearer ")
	} else if c, err := r.Cookie(sessionCookie); err == nil {
		value = c.Value
	}
	if value != "" && !strings.HasPrefix(value, tokenPrefix) {
		if err := s.store.DeleteSession(r.Context(), hashSecret(value)); err != nil {
			writeError(w, s.internal("logout", err))
			return
		}
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteLaxMode})
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) ratingsOf(ctx context.Context, id int64) ([]wire.Rating, error) {
	rs, err := s.store.Ratings(ctx, id)
	if err != nil {
		return nil, err
	}
	out := []wire.Rating{}
	for _, r := range rs {
		out = append(out, wire.Rating{Game: r.Game, Rating: round1(r.Rating), Deviation: round1(r.Deviation), Volatility: r.Volatility, Games: r.Games})
	}
	return out, nil
}

func round1(x float64) float64 { return float64(int64(x*10+0.5)) / 10 }

// handleSession says who the request's credentials belong to, answering
// {"user": null} rather than 401 when there are none or they have expired:
// a page asks this on every visit, and a browser logs every 401 as an
// error.
func (s *Server) handleSession(w http.ResponseWriter, r *http.Request) {
	u, err := s.authenticate(r)
	if err != nil && !errors.Is(err, errUnauthorized) {
		writeError(w, err)
		return
	}
	if u == nil {
		writeJSON(w, http.StatusOK, wire.Session{})
		return
	}
	writeJSON(w, http.StatusOK, wire.Session{User: publicUser(u)})
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, u *store.User) {
	rs, err := s.ratingsOf(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("ratings", err))
		return
	}
	writeJSON(w, http.StatusOK, wire.Profile{User: *publicUser(u), Ratings: rs})
}

func (s *Server) handleUser(w http.ResponseWriter, r *http.Request) {
	u, err := s.store.UserByName(r.Context(), r.PathValue("name"))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, errNotFound)
		return
	}
	if err != nil {
		writeError(w, s.internal("user", err))
		return
	}
	rs, err := s.ratingsOf(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("ratings", err))
		return
	}
	writeJSON(w, http.StatusOK, wire.Profile{User: *publicUser(&u), Ratings: rs})
}

func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Name string `json:"name"`
	}
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	if u.Guest {
		writeError(w, errf(http.StatusForbidden, "forbidden", "register an account to create API tokens"))
		return
	}
	if req.Name == "" || len(req.Name) > 64 {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "a token needs a name of 1–64 characters"))
		return
	}
	tok, hash := secret(tokenPrefix)
	t := store.Token{UserID: u.ID, Name: req.Name, Hash: hash, Created: s.now()}
	if err := s.store.CreateToken(r.Context(), &t); err != nil {
		writeError(w, s.internal("create token", err))
		return
	}
	s.log.Info("token created", "user", u.ID, "token", t.ID)
	writeJSON(w, http.StatusCreated, wire.Token{ID: t.ID, Name: t.Name, Token: tok, Created: t.Created.UTC()})
}

func (s *Server) handleTokens(w http.ResponseWriter, r *http.Request, u *store.User) {
	ts, err := s.store.Tokens(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("tokens", err))
		return
	}
	out := []wire.Token{}
	for _, t := range ts {
		out = append(out, wire.Token{ID: t.ID, Name: t.Name, Created: t.Created.UTC()})
	}
	writeJSON(w, http.StatusOK, wire.Tokens{Tokens: out})
}

func (s *Server) handleDeleteToken(w http.ResponseWriter, r *http.Request, u *store.User) {
	id, err := strconv.ParseInt(r.PathValue("id"), 10, 64)
	if err != nil {
		writeError(w, errNotFound)
		return
	}
	err = s.store.DeleteToken(r.Context(), u.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, errNotFound)
		return
	}
	if err != nil {
		writeError(w, s.internal("delete token", err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}
