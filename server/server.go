// Package server is the Tabula game site's transport: HTTP routes, the two
// WebSocket channels, the lobby API, the records' endpoints. The life of each
// game — seats, clocks, moves, results, bots — is the match package's: every
// open or live game has one owner (a match.Match) that runs its commands one
// at a time, commits each change to the store and only then acknowledges
// it and publishes it as a numbered event, which the hub fans out to the
// connections that listen. Clients get per-seat views (game.View), never the
// true state; the messages they get are the wire package's, into which
// wireof.go converts the engines' values. The account rules are package
// account's, the record format package record's: the server maps them to
// HTTP.
//
// Files: server.go (Config, New, Start, Shutdown), routes.go, httpx.go
// (requests, answers, middleware), errors.go, auth.go (sessions, cookies
// and account errors over HTTP), ratelimit.go (limits: site-wide ones in the store, per-node ones in
// memory), quotas.go, proxy.go, origin.go, headers.go, text.go, metrics.go;
// lobby.go (create, list, seats), play.go (commands, moves, the game as it
// stands), notifications.go, catalog.go, records.go, rulesapi.go,
// analysis.go (the analysis board and reviews); views.go
// (everything a client may see of a game), wireof.go, summary.go and
// ratings.go (the names and ratings beside players); hub.go (the
// fan-out), ws.go, wsguard.go, gamechannel.go, userchannel.go.
package server

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/netip"
	"sync"
	"time"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/botpool"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Config configures a Server. Only Store is required.
type Config struct {
	Store  store.Store
	Logger *slog.Logger // default: slog.Default()
	// Web is the web application's static files, served at /. Nil or empty:
	// nothing is served there.
	Web fs.FS
	// Now is the clock (tests may fake it). Default time.Now.
	Now func() time.Time
	// Seed returns the seed of a new game's chance events. Default: a
	// cryptographically random uint64 (a guessable seed would reveal a
	// Skyjo deck).
	Seed func() uint64
	// PasswordCost tunes argon2id; the zero value is the production
	// setting (OWASP's m=19 MiB, t=2). Tests lower it.
	PasswordCost PasswordCost
	// RateLimit is the sustained HTTP requests per second allowed per
	// client (user, or address before login), with bursts of RateBurst.
	// 0: unlimited.
	RateLimit float64
	RateBurst int
	// SignupRate is accounts (guest or registered) and logins per minute
	// per address. 0: unlimited.
	SignupRate float64
	// WSRate is WebSocket messages per second per connection (burst
	// 4×). 0: unlimited.
	WSRate float64
	// BotTimeout caps one server-side bot decision. Default 10s.
	BotTimeout time.Duration
	// BotDelay is a pause before each server-side bot move, so people can
	// follow a bot's play. Default 0.
	BotDelay time.Duration
	// ClaimGrace is how long the seat to move must have been away before
	// another player may claim the win. Default match.DefaultClaimGrace.
	ClaimGrace time.Duration
	// UnattendedAfter is how long every person of a live game must have
	// been away before the public list leaves it out. Default
	// match.UnattendedAfter.
	UnattendedAfter time.Duration
	// RematchGrace is how long a player's pages of a finished game may all
	// be closed before their pending rematch is withdrawn or declined
	// (a reload is not leaving). Default DefaultRematchGrace.
	RematchGrace time.Duration
	// Compute is the node's pool of search workers: server bots' moves
	// run on it as Live tasks, analysis as Background ones. Default:
	// compute.New with its defaults (all cores but one).
	Compute *compute.Pool
	// BotOnlyDelay is the least pause before each move of a game without a
	// seat for a person. Default 500ms; negative: none.
	BotOnlyDelay time.Duration
	// Quotas bound each user's open games, games with bots and games of
	// bots only (match.Quotas; its Games is filled in from the store).
	// Nil: match.DefaultQuotas.
	Quotas *match.Quotas
	// OpenGameExpiry aborts an open game nobody joined or left for that
	// long (default one hour); IdleGameExpiry ends a live game in which
	// no person moved for that long (default three days). Negative: never.
	OpenGameExpiry, IdleGameExpiry time.Duration
	// SecureCookies marks the session cookie Secure even without TLS (set
	// it behind a TLS-terminating proxy).
	SecureCookies bool
	// AnalysisJobs is how many analyses and reviews may run at once on the
	// node (default: twice its cores; each searches one core at most, in
	// slices that are Background tasks of Compute). AnalysisTime caps one
	// analysis (default one minute).
	AnalysisJobs int
	AnalysisTime time.Duration
	// ReviewPositionTime caps the search of each position of a game's
	// review (default one second).
	ReviewPositionTime time.Duration
	// AnalysisQueue is how many jobs may wait for a place (default 16 per
	// place; more are refused). AnalysisQuantum is how long an analysis
	// runs before it gives its place to a waiting job (default 15 s).
	AnalysisQueue   int
	AnalysisQuantum time.Duration
	// Cluster, if set, makes this server one node of several sharing the
	// site (package cluster); nil: it owns every game.
	Cluster Cluster
	// TrustedProxies are the proxies whose X-Forwarded-For (the client's
	// address, for per-address limits) and X-Forwarded-Proto (https: HSTS
	// and Secure cookies) are believed. Empty: none, the peer is the client.
	TrustedProxies []netip.Prefix
}

// Server is the game site. Create it with New, mount Handler, call Start to
// resume stored games, and Shutdown to stop.
type Server struct {
	cfg     Config
	store   store.Store
	log     *slog.Logger
	now     func() time.Time
	hub     *hub
	games   *match.Registry
	bots    match.BotPool // the node's compute pool, for the bots
	compute *compute.Pool
	metrics *metrics
	limits  *limiter // per credential
	// ipLimits is per address, 20 times wider: many users may share an
	// address, but inventing credentials must not escape every limit.
	ipLimits *limiter
	// signups is each address's budget of new accounts and sign-ins, in
	// the store: one budget on every node (ratelimit.go).
	signups sharedBucket
	// accounts is the account rules: passwords, sign-in and its back-off,
	// sessions, tokens, the names cache (package account).
	accounts *account.Accounts
	// createdMu guards lastCreated, the newest creation time handed out,
	// which keeps creation times strictly increasing (see createdNow).
	createdMu   sync.Mutex
	lastCreated time.Time
	analyses    *analysis.Jobs // the analysis board's and the reviews' jobs
	presence    *presenceTracker
	ratings     ratingCache  // users' ratings beside their names
	pairMu      sync.Mutex   // quick pairing, one request at a time (pairing.go)
	handler     http.Handler // the routes, wrapped in protect

	// ctx ends when the server shuts down; WebSocket handlers and bots
	// watch it.
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup // WebSocket handlers and the tournament director

	// tournaments is this node's part in running tournaments
	// (tournaments.go).
	tournaments tournamentNode

	// botAccts caches who is a bot account (bots.go).
	botAccts botState

	// notices counts this node's channels listening to each user's
	// notices, and inbox queues the inbox's changes (usernotice.go, inbox.go).
	notices userNotices
	inbox   inboxQueue
}

// New builds a server. It does not touch the network.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil {
		return nil, errors.New("server: Config.Store is required")
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Seed == nil {
		cfg.Seed = match.RandomSeed
	}
	if cfg.Compute == nil {
		cfg.Compute = compute.New(compute.Config{})
	}
	if cfg.ReviewPositionTime <= 0 {
		cfg.ReviewPositionTime = reviewPositionTime
	}
	if cfg.BotOnlyDelay == 0 {
		cfg.BotOnlyDelay = DefaultBotOnlyDelay
	}
	if cfg.Quotas == nil {
		q := match.DefaultQuotas
		cfg.Quotas = &q
	}
	if cfg.OpenGameExpiry == 0 {
		cfg.OpenGameExpiry = DefaultOpenGameExpiry
	}
	if cfg.IdleGameExpiry == 0 {
		cfg.IdleGameExpiry = DefaultIdleGameExpiry
	}
	if cfg.UnattendedAfter <= 0 {
		cfg.UnattendedAfter = match.UnattendedAfter
	}
	if cfg.RateBurst <= 0 {
		cfg.RateBurst = int(2*cfg.RateLimit) + 1
	}
	s := &Server{
		cfg:      cfg,
		store:    cfg.Store,
		compute:  cfg.Compute,
		log:      cfg.Logger,
		now:      cfg.Now,
		metrics:  newMetrics(),
		limits:   newLimiter(cfg.RateLimit, float64(cfg.RateBurst)),
		ipLimits: newLimiter(20*cfg.RateLimit, 20*float64(cfg.RateBurst)),
		signups:  sharedBucket{prefix: "addr:", rate: cfg.SignupRate / 60, burst: max(cfg.SignupRate/2, 1)},
		accounts: account.New(account.Config{Store: cfg.Store, Now: cfg.Now, Cost: cfg.PasswordCost, Logger: cfg.Logger}),
		ratings:  ratingCache{account.NewCache[int64, []match.Rating](maxCachedRaters)},
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.hub = newHub(s)
	s.presence = newPresence(s)
	s.analyses = newAnalyses(s.ctx, cfg)
	var err error
	var journal match.Journal = cfg.Store
	var publisher match.Publisher = s.hub
	if cfg.Cluster != nil {
		journal, publisher = cfg.Cluster.Journal(), cfg.Cluster.Publisher(s.hub)
	}
	s.bots = botpool.New(cfg.Compute)
	s.games, err = match.NewRegistry(match.Config{
		Journal: journal, Publisher: publisher, Time: match.RealTime{NowFunc: cfg.Now}, GameSeed: cfg.Seed,
		Log: cfg.Logger, BotTimeout: cfg.BotTimeout, BotDelay: cfg.BotDelay, BotOnlyDelay: max(cfg.BotOnlyDelay, 0), BotRest: botRest,
		ClaimGrace: cfg.ClaimGrace,
		Quotas:     s.quotas(*cfg.Quotas), OpenExpiry: max(cfg.OpenGameExpiry, 0), IdleExpiry: max(cfg.IdleGameExpiry, 0),
		// Bots think on the node's compute pool as Live work: analysis
		// (Background work on the same pool) waits while they need it.
		Bots: s.bots,
		// Correspondence games' conditional moves (conditional.go).
		Conditionals: conditionalsOf(cfg.Store),
	})
	if err != nil {
		return nil, err
	}
	s.metrics.liveGames = s.games.Len
	s.metrics.pool = s.compute.Load
	s.metrics.botMemory = s.compute.Memory().Stats
	s.routes()
	go s.presence.run(s.ctx)
	return s, nil
}

// Start resumes every open and live game from the store: each gets its
// owner again, clocks continue and bots carry on. A node of a cluster
// instead joins it, and takes over only the games no live node owns.
func (s *Server) Start(ctx context.Context) error {
	if s.cfg.Cluster != nil {
		if err := s.cfg.Cluster.Start(ctx, s.games, remoteEvents{s.hub}); err != nil {
			return err
		}
		go s.janitor()
		s.startDirector()
		return nil
	}
	var before time.Time
	n := 0
	for {
		games, err := s.store.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Open, match.Live}, Before: before, Limit: 200})
		if err != nil {
			return fmt.Errorf("server: resume games: %w", err)
		}
		for _, g := range games {
			if _, err := s.games.Load(ctx, g); err != nil {
				// One corrupt game must not keep the site down.
				s.log.Error("resume game", "game", g.ID, "err", err)
				continue
			}
			n++
		}
		if len(games) < 200 {
			break
		}
		before = games[len(games)-1].Created
	}
	s.log.Info("games resumed", "count", n)
	go s.janitor()
	s.startDirector()
	return nil
}

// janitor removes expired sessions and limits now and then.
func (s *Server) janitor() {
	t := time.NewTicker(time.Hour)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
		if n, err := s.store.DeleteExpiredSessions(ctx, s.now()); err != nil && s.ctx.Err() == nil {
			s.log.Warn("delete expired sessions", "err", err)
		} else if n > 0 {
			s.log.Info("expired sessions deleted", "count", n)
		}
		if _, err := s.store.DeleteExpiredLimits(ctx, s.now()); err != nil && s.ctx.Err() == nil {
			s.log.Warn("delete expired limits", "err", err)
		}
		cancel()
		select {
		case <-t.C:
		case <-s.ctx.Done():
			return
		}
	}
}

// Shutdown stops the server's own work: WebSocket connections are closed
// with "going away", every game's owner finishes the move it is committing and
// stops, bots are cancelled. The caller shuts the http.Server down first
// (so no new request arrives) and closes the store after.
func (s *Server) Shutdown(ctx context.Context) error {
	s.cancel()
	done := make(chan struct{})
	var err error
	go func() {
		s.games.StopAll()
		s.wg.Wait()
		if s.cfg.Cluster != nil {
			err = s.cfg.Cluster.Stop(ctx)
		}
		close(done)
	}()
	select {
	case <-done:
		return err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Handler is the site's HTTP handler.
func (s *Server) Handler() http.Handler { return s.handler }

// newID returns a game id: 10 characters from an alphabet without look-alikes.
func newID() string {
	var b [10]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("server: crypto/rand failed: " + err.Error())
	}
	return idOf(b[:], len(b))
}

// idOf spells the first n bytes of b as a game id of n characters.
func idOf(b []byte, n int) string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	out := make([]byte, n)
	for i := range out {
		out[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(out)
}

// createdNow is the creation time of a new game. Games are listed newest
// first and the store keeps milliseconds, so two games made in the same
// millisecond would list in an arbitrary order; handing out strictly
// increasing times keeps the order of creation.
func (s *Server) createdNow() time.Time {
	s.createdMu.Lock()
	defer s.createdMu.Unlock()
	t := s.now().Truncate(time.Millisecond)
	if !t.After(s.lastCreated) {
		t = s.lastCreated.Add(time.Millisecond)
	}
	s.lastCreated = t
	return t
}
