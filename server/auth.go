package server

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// sessionCookie is the cookie that carries a browser's session token.
const sessionCookie = "tabula_session"

// PasswordCost is the argon2id work factor of new password hashes
// (account.PasswordCost).
type PasswordCost = account.PasswordCost

// accountStatus is the HTTP status of each refusal of package account.
var accountStatus = map[account.Code]int{
	account.CodeBadRequest:   http.StatusBadRequest,
	account.CodeWeakPassword: http.StatusBadRequest,
	account.CodeConflict:     http.StatusConflict,
	account.CodeUnauthorized: http.StatusUnauthorized,
	account.CodeForbidden:    http.StatusForbidden,
	account.CodeRateLimited:  http.StatusTooManyRequests,
}

// accountError is the one place a refusal of package account becomes an
// HTTP error; anything else is unexpected, logged as op, and the generic
// 503.
func (s *Server) accountError(op string, err error) error {
	if errors.Is(err, account.ErrUnauthorized) {
		return errUnauthorized
	}
	var ae *account.Error
	if errors.As(err, &ae) {
		if st, ok := accountStatus[ae.Code]; ok {
			e := errf(st, string(ae.Code), "%s", ae.Message)
			e.RetryAfter = ae.RetryAfter
			return e
		}
	}
	return s.internal(op, err)
}

// credential is the session or API token a request carries: the
// Authorization header's bearer token if there is the header, else the
// session cookie's; "" for none. ok is false for an Authorization header
// that is not a bearer token.
func credential(r *http.Request) (value string, ok bool) {
	if h := r.Header.Get("Authorization"); h != "" {
		tok, ok := strings.CutPrefix(h, "Bearer ")
		return tok, ok && tok != ""
	}
	if c, err := r.Cookie(sessionCookie); err == nil {
		return c.Value, true
	}
	return "", true
}

// authenticate finds the user behind a request's credentials: the
// Authorization header if present (an API token or a session token), else
// the session cookie. It returns (nil, nil) for an anonymous request and
// errUnauthorized for credentials that do not check out — a wrong token is
// an error, not anonymity.
func (s *Server) authenticate(r *http.Request) (*store.User, error) {
	cred, ok := credential(r)
	if !ok {
		return nil, errUnauthorized
	}
	if cred == "" {
		return nil, nil
	}
	var u *store.User
	var err error
	if account.IsAPIToken(cred) {
		// An API token's scopes decide what the request may do (bots.go).
		u, err = s.tokenUser(r, cred)
	} else {
		u, err = s.accounts.Authenticate(r.Context(), cred)
		if err != nil {
			err = s.accountError("authenticate", err)
		}
	}
	if err != nil {
		return nil, err
	}
	if account.IsAPIToken(cred) {
		// tokenUser reads the user itself: a closed account's tokens stop
		// here (moderation.go; sessions stop in account.Authenticate).
		if err := s.notClosed(r.Context(), u.ID); err != nil {
			return nil, err
		}
	}
	s.presence.saw(u.ID)
	return u, nil
}

// userName is a user's name for summaries, cached (account.Accounts.Name).
func (s *Server) userName(ctx context.Context, id int64) string { return s.accounts.Name(ctx, id) }

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
	tok, expires, err := s.accounts.StartSession(r.Context(), u)
	if err != nil {
		writeError(w, s.internal("create session", err))
		return
	}
	http.SetCookie(w, &http.Cookie{
		Name: sessionCookie, Value: tok, Path: "/", Expires: expires,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.viaTLS(r) || s.cfg.SecureCookies,
	})
	writeJSON(w, status, wire.Session{User: s.userWire(r.Context(), u), Token: tok})
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
	u, err := s.accounts.NewGuest(r.Context())
	if err != nil {
		writeError(w, s.internal("create guest", err))
		return
	}
	s.log.Info("guest created", "user", u.ID)
	s.startSession(w, r, &u, http.StatusCreated)
}

type credentials struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	// The rules first: a request that breaks them costs no sign-up.
	if err := account.CheckSignUp(req.Name, req.Password); err != nil {
		writeError(w, s.accountError("register", err))
		return
	}
	cur, err := s.authenticate(r)
	if err != nil && !errors.Is(err, errUnauthorized) {
		writeError(w, err)
		return
	}
	if cur == nil {
		if err := s.allowSignup(r); err != nil {
			writeError(w, err)
			return
		}
	}
	u, err := s.accounts.Register(r.Context(), cur, req.Name, req.Password)
	if err != nil {
		writeError(w, s.accountError("register", err))
		return
	}
	if cur != nil {
		s.forgetUsers([]int64{u.ID}) // a guest's name changed
	}
	s.log.Info("user registered", "user", u.ID, "name", u.Name)
	s.startSession(w, r, &u, http.StatusCreated)
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	var req credentials
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	// Password guessing costs the same per-address budget as making
	// accounts, and each account has a back-off of its own (package
	// account); both are kept in the store, one for every node.
	if ok, err := s.signups.allow(r.Context(), s.store, s.limitKey(r), s.now()); err != nil || !ok {
		if err != nil {
			writeError(w, s.internal("sign-in limit", err))
		} else {
			writeError(w, errf(http.StatusTooManyRequests, "rate_limited", "too many attempts from this address; try again later"))
		}
		return
	}
	u, err := s.accounts.SignIn(r.Context(), req.Name, req.Password, s.clientIP(r))
	if err != nil {
		writeError(w, s.accountError("login", err))
		return
	}
	s.startSession(w, r, &u, http.StatusOK)
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	cred, _ := credential(r)
	if err := s.accounts.EndSession(r.Context(), cred); err != nil {
		writeError(w, s.internal("logout", err))
		return
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
	writeJSON(w, http.StatusOK, wire.Session{User: s.userWire(r.Context(), u)})
}

func (s *Server) handleMe(w http.ResponseWriter, r *http.Request, u *store.User) {
	rs, err := s.ratingsOf(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("ratings", err))
		return
	}
	writeJSON(w, http.StatusOK, wire.Profile{User: *s.userWire(r.Context(), u), Ratings: rs})
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
	writeJSON(w, http.StatusOK, wire.Profile{User: *s.userWire(r.Context(), &u), Ratings: rs})
}

func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct {
		Name string `json:"name"`
		// Scopes: what the token may do (bots.go); none given is "full",
		// what a token was before scopes.
		Scopes []string `json:"scopes"`
	}
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	if u.Guest {
		writeError(w, errf(http.StatusForbidden, "forbidden", "register an account to create API tokens"))
		return
	}
	scopes, err := checkTokenRequest(req.Name, req.Scopes)
	if err != nil {
		writeError(w, err)
		return
	}
	bs, err := s.botStore()
	if err != nil {
		writeError(w, err)
		return
	}
	tok, hash := account.NewSecret(account.TokenPrefix)
	t := store.Token{UserID: u.ID, Name: req.Name, Hash: hash, Created: s.now(), Scopes: strings.Join(scopes, " ")}
	if err := bs.CreateScopedToken(r.Context(), &t, maxTokens); errors.Is(err, store.ErrConflict) {
		writeError(w, errf(http.StatusConflict, "too_many_tokens", "an account may hold %d API tokens; revoke one first", maxTokens))
		return
	} else if err != nil {
		writeError(w, s.internal("create token", err))
		return
	}
	s.log.Info("token created", "user", u.ID, "token", t.ID, "scopes", t.Scopes)
	writeJSON(w, http.StatusCreated, tokenWire(t, tok))
}

func (s *Server) handleTokens(w http.ResponseWriter, r *http.Request, u *store.User) {
	bs, err := s.botStore()
	if err != nil {
		writeError(w, err)
		return
	}
	ts, err := bs.ScopedTokens(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("tokens", err))
		return
	}
	out := []wire.Token{}
	for _, t := range ts {
		out = append(out, tokenWire(t, ""))
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
