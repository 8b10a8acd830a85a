package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Bot accounts and scoped API tokens (issue 26, issue 24 point 8): a
// registered user with no games may turn their account into a bot account,
// for good (POST /api/me/bot); a bot shows as BOT wherever its name does,
// is ranked on a leaderboard of its own, never uses quick pairing and never
// takes an open seat in a person's game (people invite it). API tokens
// carry scopes: "full" (everything, what every token made before scopes
// can do), "bot:play" (everything but managing the account: tokens,
// becoming a bot) and "read" (GET requests only, and no socket: both
// sockets carry moves).

const (
	// maxTokens is the most API tokens one account may hold at once.
	maxTokens = 20
	// tokenTouchEvery bounds the writes of a token's last use: at most one
	// per token per interval, on whichever node it is used.
	tokenTouchEvery = time.Minute
	// botFalseTTL is how long "not a bot" is believed: an account becomes a
	// bot (perhaps on another node) at most once, and "a bot" is for good.
	botFalseTTL = 30 * time.Second
)

// botState is the node's cache of who is a bot account; its zero value is
// ready (a field of Server).
type botState struct {
	once  sync.Once
	cache *account.Cache[int64, bool]
}

func (b *botState) get() *account.Cache[int64, bool] {
	b.once.Do(func() { b.cache = account.NewCache[int64, bool](20000) })
	return b.cache
}

// botStore is the store's bot accounts; 503 for a store without them.
func (s *Server) botStore() (store.BotAccounts, error) {
	bs, ok := s.store.(store.BotAccounts)
	if !ok {
		return nil, errf(http.StatusServiceUnavailable, "unavailable", "this server's store has no bot accounts")
	}
	return bs, nil
}

// isBot reports whether user id is a bot account, cached (false for no
// user, a store without bot accounts, or one that cannot be read: a name
// without its badge is the lesser harm than a page that fails).
func (s *Server) isBot(ctx context.Context, id int64) bool {
	if id == 0 {
		return false
	}
	c, now := s.botAccts.get(), s.now()
	if v, ok := c.Get(id, now); ok {
		return v
	}
	return s.loadBot(ctx, id)
}

// loadBot reads whether id is a bot account from the store and caches it.
func (s *Server) loadBot(ctx context.Context, id int64) bool {
	bs, ok := s.store.(store.BotAccounts)
	if !ok {
		return false
	}
	bot, err := bs.IsBot(ctx, id)
	if err != nil {
		return false
	}
	s.rememberBot(id, bot)
	return bot
}

func (s *Server) rememberBot(id int64, bot bool) {
	now := s.now()
	ttl := botFalseTTL
	if bot {
		ttl = 24 * time.Hour
	}
	s.botAccts.get().Put(id, bot, now.Add(ttl), now)
}

// userWire is u on the wire, with its BOT mark.
func (s *Server) userWire(ctx context.Context, u *store.User) *wire.User {
	w := publicUser(u)
	w.Bot = !u.Guest && s.isBot(ctx, u.ID)
	return w
}

var errBotPairing = errf(http.StatusForbidden, "bot_account",
	"bot accounts do not use quick pairing: they play by invitations (challenges), tournaments that admit them and the ladder")

// refuseBotPairing keeps bot accounts out of quick pairing. It asks the
// store, not the cache: the account may have become a bot on another
// node a moment ago.
func (s *Server) refuseBotPairing(ctx context.Context, u *store.User) error {
	if u.Guest {
		return nil
	}
	if c, ok := s.botAccts.get().Get(u.ID, s.now()); ok && c {
		return errBotPairing
	}
	if s.loadBot(ctx, u.ID) {
		return errBotPairing
	}
	return nil
}

// botMayJoin refuses a bot account an open seat in a game a person
// created: people play bots by inviting them (as on lichess, where bots
// cannot answer open seeks either). A seat it is invited to, and any seat
// of a game another bot created, it may take.
func (s *Server) botMayJoin(ctx context.Context, u *store.User, gameID string) error {
	if u.Guest || !s.isBot(ctx, u.ID) {
		return nil
	}
	m, err := s.store.Game(ctx, gameID)
	if errors.Is(err, store.ErrNotFound) {
		return errNotFound
	}
	if err != nil {
		return s.internal("game", err)
	}
	if m.Invites(u.ID) || m.SeatOf(u.ID) >= 0 || s.isBot(ctx, m.CreatorID) {
		return nil
	}
	return errf(http.StatusForbidden, "bot_account",
		"a bot account cannot take an open seat in a person's game; a person plays a bot by inviting it")
}

// handleMakeBot is POST /api/me/bot: the signed-in user's account becomes
// a bot account, for good.
func (s *Server) handleMakeBot(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req struct{}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	bs, err := s.botStore()
	if err != nil {
		writeError(w, err)
		return
	}
	ctx := r.Context()
	if u.Guest {
		writeError(w, errf(http.StatusForbidden, "forbidden", "a guest cannot become a bot account; register an account first"))
		return
	}
	if bot, err := bs.IsBot(ctx, u.ID); err != nil {
		writeError(w, s.internal("is bot", err))
		return
	} else if bot {
		writeError(w, errf(http.StatusConflict, "conflict", "this account is a bot account already"))
		return
	}
	if has, err := bs.HasGames(ctx, u.ID); err != nil {
		writeError(w, s.internal("has games", err))
		return
	} else if has {
		writeError(w, errf(http.StatusConflict, "conflict", "only an account that has played no games can become a bot account; make a new account for the bot"))
		return
	}
	if err := s.notInBotlessTournament(ctx, u.ID); err != nil {
		writeError(w, err)
		return
	}
	if err := bs.MakeBot(ctx, u.ID); errors.Is(err, store.ErrConflict) {
		// Something changed between the checks and the guarded update.
		writeError(w, errf(http.StatusConflict, "conflict", "this account can no longer become a bot account (it has a game now, or is one already)"))
		return
	} else if err != nil {
		writeError(w, s.internal("make bot", err))
		return
	}
	s.rememberBot(u.ID, true)
	s.log.Info("became a bot account", "user", u.ID)
	writeJSON(w, http.StatusOK, s.userWire(ctx, u))
}

// tokenUser authenticates an API token: its user, after checking the
// token's scopes allow the request, and its last use recorded (at most once
// per tokenTouchEvery).
func (s *Server) tokenUser(r *http.Request, cred string) (*store.User, error) {
	bs, ok := s.store.(store.BotAccounts)
	if !ok {
		u, err := s.accounts.Authenticate(r.Context(), cred)
		if err != nil {
			return nil, s.accountError("authenticate", err)
		}
		return u, nil
	}
	ctx := r.Context()
	t, err := bs.ScopedToken(ctx, account.HashSecret(cred))
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnauthorized
	}
	if err != nil {
		return nil, s.internal("token", err)
	}
	if err := scopeAllows(strings.Fields(t.Scopes), r); err != nil {
		return nil, err
	}
	u, err := s.store.User(ctx, t.UserID)
	if errors.Is(err, store.ErrNotFound) {
		return nil, errUnauthorized
	}
	if err != nil {
		return nil, s.internal("user", err)
	}
	now := s.now()
	if now.Sub(t.LastUsed) >= tokenTouchEvery {
		if _, err := bs.TouchToken(ctx, t.ID, now, tokenTouchEvery); err != nil && !errors.Is(err, context.Canceled) {
			s.log.Warn("token last use", "token", t.ID, "err", err)
		}
	}
	return &u, nil
}

// accountPaths are the routes a bot:play token may not use: managing the
// account itself.
var accountPaths = []string{"/api/tokens", "/api/me/bot"}

// scopeAllows says whether a token with scopes may make request r: when
// any of its scopes allows it.
func scopeAllows(scopes []string, r *http.Request) error {
	read := (r.Method == http.MethodGet || r.Method == http.MethodHead) &&
		!strings.EqualFold(r.Header.Get("Upgrade"), "websocket")
	account := false
	for _, p := range accountPaths {
		if r.URL.Path == p || strings.HasPrefix(r.URL.Path, p+"/") {
			account = true
		}
	}
	for _, sc := range scopes {
		switch {
		case sc == store.ScopeFull,
			sc == store.ScopeBotPlay && !account,
			sc == store.ScopeRead && read:
			return nil
		}
	}
	if slices.Contains(scopes, store.ScopeBotPlay) {
		return errf(http.StatusForbidden, "scope", "this token (scope bot:play) plays but cannot manage the account (%s %s); use the site or a token with the full scope", r.Method, r.URL.Path)
	}
	if !read && strings.EqualFold(r.Header.Get("Upgrade"), "websocket") {
		return errf(http.StatusForbidden, "scope", "this token is read-only (scope read): it cannot open a socket, which carries moves")
	}
	return errf(http.StatusForbidden, "scope", "this token is read-only (scope read): it cannot %s %s", r.Method, r.URL.Path)
}

// knownScopes are the scopes a token may be made with.
var knownScopes = []string{store.ScopeFull, store.ScopeBotPlay, store.ScopeRead}

// checkTokenRequest checks a new token's name and scopes; the scopes come
// back deduplicated, "full" for none given (what a token was before
// scopes).
func checkTokenRequest(name string, scopes []string) ([]string, error) {
	if strings.TrimSpace(name) != name || name == "" || utf8.RuneCountInString(name) > 64 || !utf8.ValidString(name) {
		return nil, errf(http.StatusBadRequest, "bad_request", "a token needs a name of 1–64 characters, without spaces at either end")
	}
	for _, c := range name {
		if unicode.IsControl(c) {
			return nil, errf(http.StatusBadRequest, "bad_request", "a token's name cannot hold control characters")
		}
	}
	if scopes == nil {
		return []string{store.ScopeFull}, nil
	}
	var out []string
	for _, sc := range scopes {
		if !slices.Contains(knownScopes, sc) {
			return nil, errf(http.StatusBadRequest, "bad_request", "unknown scope %q; the scopes are full, bot:play and read", sc)
		}
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	if len(out) == 0 {
		return nil, errf(http.StatusBadRequest, "bad_request", "a token needs at least one scope: full, bot:play or read")
	}
	return out, nil
}

func tokenWire(t store.Token, secret string) wire.Token {
	out := wire.Token{ID: t.ID, Name: t.Name, Token: secret, Created: t.Created.UTC(), Scopes: strings.Fields(t.Scopes)}
	if len(out.Scopes) == 0 {
		out.Scopes = []string{store.ScopeFull}
	}
	if !t.LastUsed.IsZero() {
		at := t.LastUsed.UTC()
		out.LastUsed = &at
	}
	return out
}

// leaderboardRows is a game's leaderboard, people's or bots'.
func (s *Server) leaderboardRows(ctx context.Context, game string, limit int, bots bool) ([]store.RatedUser, error) {
	bs, ok := s.store.(store.BotAccounts)
	if !ok {
		if bots {
			return nil, nil
		}
		return s.store.Leaderboard(ctx, game, maxLeaderboardDeviation, limit)
	}
	rows, err := bs.BotLeaderboard(ctx, game, maxLeaderboardDeviation, limit, bots)
	if err == nil && bots {
		for _, r := range rows {
			s.rememberBot(r.UserID, true)
		}
	}
	return rows, err
}

// queryBots reads ?bots=1 (or true): the bots' leaderboard.
func queryBots(r *http.Request) (bool, error) {
	switch r.URL.Query().Get("bots") {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, errf(http.StatusBadRequest, "bad_request", "bots: want 1 or 0")
}

// seatIsBot marks a seat of a person (or an invitation to one) that is a
// bot account.
func (s *Server) seatIsBot(ctx context.Context, se match.Seat) bool {
	return (se.Kind == match.SeatHuman || se.Kind == match.SeatInvite) && s.isBot(ctx, se.UserID)
}
