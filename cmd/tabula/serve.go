package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

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
	secureCookies                      bool

	log   *slog.Logger
	store store.Store
	srv   *server.Server
	hs    *http.Server
}

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
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
	fs.BoolVar(&m.secureCookies, "secure-cookies", false, "mark session cookies Secure (behind a TLS proxy)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected arguments %q", pos)
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

func (m *serveMain) run(ctx context.Context, stdout, stderr io.Writer) error {
	var level slog.Level
	if err := level.UnmarshalText([]byte(m.logLevel)); err != nil {
		return fmt.Errorf("--log-level %q: %w", m.logLevel, err)
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
	if strings.HasPrefix(m.db, "postgres://") || strings.HasPrefix(m.db, "postgresql://") {
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
	cfg := server.Config{
		Store: m.store, Logger: m.log, RateLimit: m.rate, SignupRate: m.signupRate, WSRate: m.wsRate,
		BotDelay: m.botDelay, SecureCookies: m.secureCookies,
		Web: web.App(),
	}
	if m.web != "" {
		if fi, err := os.Stat(m.web); err != nil || !fi.IsDir() {
			return fmt.Errorf("--web %q: not a directory", m.web)
		}
		cfg.Web = web.AppFrom(os.DirFS(m.web)) // the rules pages stay embedded
	}
	srv, err := server.New(cfg)
	if err != nil {
		return err
	}
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
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(m.log.Handler(), slog.LevelWarn),
	}
	go func() {
		if err := m.hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			m.log.Error("serve", "err", err)
		}
	}()
	// The one line scripts (and `tabula loadtest`) read to find the port.
	fmt.Fprintf(stdout, "listening on http://%s\n", ln.Addr())
	m.log.Info("serving", "addr", ln.Addr().String(), "db", dbLabel(m.db))
	return nil
}

// close shuts down in order: no new requests, then WebSockets and rooms
// (each finishing the move it is committing), then the database.
func (m *serveMain) close() error {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	var errs []error
	if m.hs != nil {
		errs = append(errs, m.hs.Shutdown(ctx))
	}
	if m.srv != nil {
		errs = append(errs, m.srv.Shutdown(ctx))
	}
	if m.store != nil {
		errs = append(errs, m.store.Close())
	}
	return errors.Join(errs...)
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
