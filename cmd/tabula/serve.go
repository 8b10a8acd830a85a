package main

import (
	"context"
	"crypto/tls"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/tabula-games/tabula/cluster"
	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/postgres"
	"github.com/tabula-games/tabula/store/sqlite"
	"github.com/tabula-games/tabula/web"
)

// serveMain is `tabula serve`: flags in, a running site out. It is a type
// (in the manner of wtf's Main) so that Run and Close can be driven
// separately.
type serveMain struct {
	addr, db, web, logFormat, logLevel string
	rate, signupRate, wsRate           float64
	botDelay                           time.Duration
	botCores                           int
	botMemory                          int
	// Each user's games: quotas and expiries (docs/security.md).
	maxOpen, maxBot, maxBotOnly int
	openExpiry, idleExpiry      time.Duration
	claimGrace                  time.Duration
	unattendedAfter             time.Duration
	reviewTime                  time.Duration
	secureCookies               bool
	// Transport: TLS served directly, the proxies whose forwarding headers
	// are believed, and where metrics are served (apart from the site).
	tlsCert, tlsKey string
	trustedProxies  listFlag
	metricsAddr     string
	metricsSet      bool // --metrics-addr was given, so failing to bind it is an error
	// Cluster mode: --db postgres://… with --nats (cluster.go).
	nats, natsPrefix, nodeName string
	leaseTTL                   time.Duration
	node                       *cluster.Node

	procs int // GOMAXPROCS before run added the pool's cores (0: not yet)

	log   *slog.Logger
	store store.Store
	srv   *server.Server
	hs    *http.Server
	ms    *http.Server // metrics
}

// defaultMetricsAddr is loopback: metrics are for the operator.
const defaultMetricsAddr = "127.0.0.1:9090"

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	m, err := parseServe(args)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := m.run(ctx, stdout, stderr); err != nil {
		m.close()
		return err
	}
	<-ctx.Done()
	m.log.Info("shutting down")
	return m.close()
}

// parseServe reads serve's flags.
func parseServe(args []string) (*serveMain, error) {
	m := &serveMain{}
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.StringVar(&m.addr, "addr", "127.0.0.1:8080", "address to listen on (port 0: any free port)")
	fs.StringVar(&m.db, "db", "tabula.db", "SQLite database file (created if missing), or a postgres:// URL")
	fs.StringVar(&m.web, "web", "", "serve the web application's static files from this directory instead of the embedded ones (for working on the page)")
	fs.StringVar(&m.logFormat, "log", "text", "log format: text or json")
	fs.StringVar(&m.logLevel, "log-level", "info", "log level: debug, info, warn or error")
	fs.Float64Var(&m.rate, "rate", 20, "HTTP requests per second per client (0: unlimited)")
	fs.Float64Var(&m.signupRate, "signup-rate", 10, "new accounts per minute per address (0: unlimited)")
	fs.Float64Var(&m.wsRate, "ws-rate", 20, "WebSocket messages per second per connection (0: unlimited)")
	fs.DurationVar(&m.botDelay, "bot-delay", 0, "pause before each server bot move")
	fs.IntVar(&m.botCores, "bot-cores", 0, "cores for the server bots' searches and analysis, shared fairly among users (0: all but one)")
	fs.IntVar(&m.botMemory, "bot-memory", compute.DefaultMemory>>20, "MiB the server bots' search trees, and what they keep between moves, may hold on this node; when it is nearly spent they search smaller trees and new bot games are refused (503 bots_busy)")
	fs.IntVar(&m.maxOpen, "max-open-games", match.DefaultQuotas.OpenGames, "open games one user may have waiting for players (-1: no limit)")
	fs.IntVar(&m.maxBot, "max-bot-games", match.DefaultQuotas.BotGames, "games with server bots one user may have going (-1: no limit)")
	fs.IntVar(&m.maxBotOnly, "max-bot-only-games", match.DefaultQuotas.BotOnlyGames, "games of bots only (no seat for a person) one registered user may have going; guests never (0: none, -1: no limit)")
	fs.DurationVar(&m.openExpiry, "open-game-expiry", server.DefaultOpenGameExpiry, "abort an open game nobody joined or left for this long (0: never)")
	fs.DurationVar(&m.idleExpiry, "idle-game-expiry", server.DefaultIdleGameExpiry, "end a live game in which no person moved for this long; the person to move loses (0: never)")
	fs.DurationVar(&m.claimGrace, "claim-grace", match.DefaultClaimGrace, "how long the player to move must have been away before the others may claim the win")
	fs.DurationVar(&m.unattendedAfter, "unattended-after", match.UnattendedAfter, "how long every person of a live game (not correspondence) must have been away before the public list of games leaves it out")
	fs.DurationVar(&m.reviewTime, "review-time", time.Second, "search time for each position of a game review (a review of N positions takes up to N times this, on one core)")
	fs.BoolVar(&m.secureCookies, "secure-cookies", false, "mark session cookies Secure (behind a TLS proxy)")
	fs.StringVar(&m.tlsCert, "tls-cert", "", "serve HTTPS with this PEM certificate (chain) file; needs --tls-key")
	fs.StringVar(&m.tlsKey, "tls-key", "", "the PEM private key of --tls-cert")
	fs.Var(&m.trustedProxies, "trusted-proxy", "a proxy (CIDR range or address; repeatable, or comma separated) whose X-Forwarded-For and X-Forwarded-Proto are believed")
	fs.StringVar(&m.metricsAddr, "metrics-addr", defaultMetricsAddr, "address of the Prometheus metrics listener, apart from the site (empty: none)")
	fs.StringVar(&m.nats, "nats", "", "cluster mode, with --db postgres://…: the NATS server(s) the nodes share (nats://host:4222)")
	fs.StringVar(&m.natsPrefix, "nats-prefix", "tabula", "cluster mode: the prefix of the NATS subjects (sites sharing a NATS server choose different ones)")
	fs.StringVar(&m.nodeName, "node-name", "", "cluster mode: this node's name in leases and logs (default: the host's name); a random suffix makes each process a new node")
	fs.DurationVar(&m.leaseTTL, "lease-ttl", 3*time.Second, "cluster mode: how long a node's lease lasts unrenewed, i.e. the longest a dead node's games wait for another node")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return nil, err
	}
	fs.Visit(func(f *flag.Flag) { m.metricsSet = m.metricsSet || f.Name == "metrics-addr" })
	m.fromEnvironment(fs)
	if len(pos) > 0 {
		return nil, fmt.Errorf("unexpected arguments %q", pos)
	}
	return m, nil
}

func (m *serveMain) run(ctx context.Context, stdout, stderr io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(m.logLevel)); err != nil {
		return fmt.Errorf("--log-level %q: %w", m.logLevel, err)
	}
	if (m.tlsCert == "") != (m.tlsKey == "") {
		return errors.New("--tls-cert and --tls-key go together")
	}
	var tlsConfig *tls.Config
	if m.openExpiry < 0 || m.idleExpiry < 0 {
		return errors.New("--open-game-expiry and --idle-game-expiry: want a duration, 0 for never")
	}
	if m.claimGrace <= 0 {
		return fmt.Errorf("--claim-grace %s: want a duration above 0", m.claimGrace)
	}
	if m.unattendedAfter <= 0 {
		return fmt.Errorf("--unattended-after %s: want a duration above 0", m.unattendedAfter)
	}
	if m.reviewTime <= 0 {
		return fmt.Errorf("--review-time %s: want a duration above 0", m.reviewTime)
	}
	if m.botCores < 0 {
		return fmt.Errorf("--bot-cores %d: want 0 (all cores but one) or more", m.botCores)
	}
	if m.botMemory <= 0 {
		return fmt.Errorf("--bot-memory %d: want a number of MiB, more than 0", m.botMemory)
	}
	if m.tlsCert != "" {
		cert, err := tls.LoadX509KeyPair(m.tlsCert, m.tlsKey)
		if err != nil {
			return fmt.Errorf("--tls-cert/--tls-key: %w", err)
		}
		tlsConfig = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	}
	proxies, err := server.ParseTrustedProxies(m.trustedProxies)
	if err != nil {
		return fmt.Errorf("--trusted-proxy: %w", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch m.logFormat {
	case "text":
		m.log = slog.New(slog.NewTextHandler(stderr, opts))
	case "json":
		m.log = slog.New(slog.NewJSONHandler(stderr, opts))
	default:
		return fmt.Errorf("--log %q: want text or json", m.logFormat)
	}
	pg := strings.HasPrefix(m.db, "postgres://") || strings.HasPrefix(m.db, "postgresql://")
	if err := checkClusterFlags(pg, m.nats); err != nil {
		return err
	}
	if pg {
		st, err := openPostgres(ctx, m.db)
		if err != nil {
			return err
		}
		m.store = st
	} else {
		st, err := sqlite.Open(ctx, m.db, sqlite.Options{})
		if err != nil {
			return err
		}
		m.store = st
	}
	pool := compute.New(compute.Config{Cores: m.botCores, Memory: int64(m.botMemory) << 20})
	cfg := server.Config{
		Store: m.store, Logger: m.log, RateLimit: m.rate, SignupRate: m.signupRate, WSRate: m.wsRate,
		BotDelay: m.botDelay, SecureCookies: m.secureCookies, TrustedProxies: proxies,
		Web: web.App(), Compute: pool,
		Quotas:         &match.Quotas{OpenGames: m.maxOpen, BotGames: m.maxBot, BotOnlyGames: m.maxBotOnly},
		OpenGameExpiry: never(m.openExpiry), IdleGameExpiry: never(m.idleExpiry),
		ClaimGrace: m.claimGrace, UnattendedAfter: m.unattendedAfter, ReviewPositionTime: m.reviewTime,
	}
	if m.web != "" {
		if fi, err := os.Stat(m.web); err != nil || !fi.IsDir() {
			return fmt.Errorf("--web %q: not a directory", m.web)
		}
		cfg.Web = web.AppFrom(os.DirFS(m.web)) // the rules pages stay embedded
	}
	if m.nats != "" {
		if cfg.Cluster, err = m.joinCluster(); err != nil {
			return err
		}
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
	// A search holds one of Go's processors (GOMAXPROCS) per core it is
	// granted; so that it never takes one that serves people, the pool's
	// cores come on top of them (after the store and the server sized
	// themselves by the machine). Its threads run at a lower priority
	// (compute.LowerPriority), so the kernel gives the machine's cores
	// to people's requests first and to the searches what is left.
	m.procs = runtime.GOMAXPROCS(runtime.GOMAXPROCS(0) + pool.Cores())
	m.srv = srv
	if err := srv.Start(ctx); err != nil {
		return err
	}
	ln, err := net.Listen("tcp", m.addr)
	if err != nil {
		return err
	}
	m.hs = &http.Server{
		Handler:           srv.Handler(),
		TLSConfig:         tlsConfig,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(m.log.Handler(), slog.LevelWarn),
	}
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
	}
	go func() {
		var err error
		if tlsConfig != nil {
			err = m.hs.ServeTLS(ln, "", "")
		} else {
			err = m.hs.Serve(ln)
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.log.Error("serve", "err", err)
		}
	}()
	// The one line scripts (and `tabula loadtest`) read to find the port.
	fmt.Fprintf(stdout, "listening on %s://%s\n", scheme, ln.Addr())
	m.log.Info("serving", "addr", ln.Addr().String(), "tls", tlsConfig != nil, "db", dbLabel(m.db), "cluster", m.node != nil)
	return m.serveMetrics(stdout)
}

// serveMetrics starts the metrics listener. The default address being
// taken (another tabula on this machine) only costs the metrics, with a
// warning; an address the operator chose must work.
func (m *serveMain) serveMetrics(stdout io.Writer) error {
	if m.metricsAddr == "" {
		return nil
	}
	ln, err := net.Listen("tcp", m.metricsAddr)
	if err != nil {
		if m.metricsSet {
			return fmt.Errorf("--metrics-addr: %w", err)
		}
		m.log.Warn("metrics not served: the default address is taken; choose one with --metrics-addr", "addr", m.metricsAddr, "err", err)
		return nil
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.srv.MetricsHandler())
	m.ms = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ErrorLog: slog.NewLogLogger(m.log.Handler(), slog.LevelWarn)}
	go func() {
		if err := m.ms.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.log.Error("serve metrics", "err", err)
		}
	}()
	fmt.Fprintf(stdout, "metrics on http://%s/metrics\n", ln.Addr())
	return nil
}

// close shuts down in order: no new requests, then WebSockets and game owners
// (each finishing the move it is committing), then the database.
func (m *serveMain) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var errs []error
	if m.hs != nil {
		errs = append(errs, m.hs.Shutdown(ctx))
	}
	if m.ms != nil {
		errs = append(errs, m.ms.Shutdown(ctx))
	}
	if m.srv != nil {
		errs = append(errs, m.srv.Shutdown(ctx)) // the cluster node too
	} else if m.node != nil {
		errs = append(errs, m.node.Stop(ctx))
	}
	if m.store != nil {
		errs = append(errs, m.store.Close())
	}
	if m.procs > 0 {
		runtime.GOMAXPROCS(m.procs)
		m.procs = 0
	}
	return errors.Join(errs...)
}

// never is a duration flag's 0 ("never") as server.Config says it.
func never(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// dbLabel names the database for logs without a password in it.
func dbLabel(db string) string {
	if i := strings.Index(db, "@"); i >= 0 && strings.Contains(db, "://") {
		return db[:strings.Index(db, "://")+3] + "…" + db[i:]
	}
	return db
}

// openPostgres opens the PostgreSQL store.
func openPostgres(ctx context.Context, url string) (store.Store, error) {
	return postgres.Open(ctx, url)
}
