package cluster

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Store is what a node needs of the database: the games and their moves,
// and the leases.
type Store interface {
	store.Games
	store.Leases
}

// Config configures a node. Store and NATS are required.
type Config struct {
	Store Store
	// NATS is the NATS server's URL (nats://host:4222, or several
	// separated by commas).
	NATS string
	// Prefix begins every subject the nodes use (default "tabula"): sites
	// (or test runs) sharing one NATS server choose different prefixes.
	Prefix string
	// Name names the node in leases and logs (default: the host's name);
	// a random suffix makes the node's id, so that a restarted process is
	// always a new node, never the heir of a lease of its own. Letters,
	// digits, '-' and '_'.
	Name string
	// LeaseTTL is how long a lease lasts without renewal (default 3s): the
	// longest a dead node's games wait before a takeover. Renew is how
	// often it is renewed (default LeaseTTL/3); Scan how often a node looks
	// for orphans to take over (default 500ms).
	LeaseTTL, Renew, Scan time.Duration
	// ForwardTimeout bounds how long a forwarded command waits for its
	// game's owner, a takeover included (default 10s).
	ForwardTimeout time.Duration
	// BotsFull reports that this node's bot compute budget is full: it
	// then claims no orphan with a bot seat (nil: never full).
	BotsFull func() bool
	Log      *slog.Logger // default slog.Default()
}

// Node is one node of a cluster: its lease, its fenced journal, its share
// of the event bus and of command forwarding. Create it with New, give
// Journal and Publisher to the node's match.Registry, then Start it.
type Node struct {
	cfg Config
	id  string
	log *slog.Logger
	nc  *nats.Conn

	fences fences
	owners ownerCache
	starts startCache
	bus    *bus

	// The receiving side of the bus (watch.go): the subscriptions of the
	// games and users this node's connections watch, all feeding in.
	watches watches
	in      chan *nats.Msg
	inbound inbound
	repairs sync.WaitGroup
	// filledGaps counts the gaps filled from a publisher's history;
	// foreignMsgs the messages not read (another wire version, another
	// type, unreadable), foreignSeen the kinds of them logged once.
	filledGaps  atomic.Int64
	foreignMsgs atomic.Int64
	foreignSeen sync.Map
	// testDrop, set by a test, loses the received messages it says
	// (as NATS may).
	testDrop atomic.Pointer[func(*nats.Msg) bool]
	// scans counts the orphan scans done (takeover.go), for the tests to
	// wait on.
	scans atomic.Int64

	reg    *match.Registry
	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	subs   []*nats.Subscription

	// renewed is when the lease was last renewed (this machine's clock,
	// Unix nanoseconds); 0 before the first.
	renewed atomic.Int64
	// reconcile asks the lease loop's partner to compare the games held
	// here with the ones the database says this node owns.
	reconcile chan struct{}
}

var validID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// New connects to NATS. It does not touch the database or take any game.
func New(cfg Config) (*Node, error) {
	if cfg.Store == nil || cfg.NATS == "" {
		return nil, errors.New("cluster: Config.Store and Config.NATS are required")
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "tabula"
	}
	if !validID.MatchString(strings.ReplaceAll(cfg.Prefix, ".", "_")) {
		return nil, fmt.Errorf("cluster: prefix %q: letters, digits, '-', '_' and '.'", cfg.Prefix)
	}
	if cfg.Name == "" {
		host, _ := os.Hostname()
		cfg.Name = regexp.MustCompile(`[^A-Za-z0-9_-]`).ReplaceAllString(host, "")
		cfg.Name = cfg.Name[:min(len(cfg.Name), 40)]
		if cfg.Name == "" {
			cfg.Name = "node"
		}
	}
	if !validID.MatchString(cfg.Name) || len(cfg.Name) > 40 {
		return nil, fmt.Errorf("cluster: node name %q: 1 to 40 letters, digits, '-' or '_'", cfg.Name)
	}
	var suffix [4]byte
	rand.Read(suffix[:])
	id := cfg.Name + "-" + hex.EncodeToString(suffix[:])
	if cfg.LeaseTTL <= 0 {
		cfg.LeaseTTL = 3 * time.Second
	}
	if cfg.Renew <= 0 {
		cfg.Renew = cfg.LeaseTTL / 3
	}
	if cfg.Renew >= cfg.LeaseTTL {
		return nil, fmt.Errorf("cluster: renewing every %v cannot keep a %v lease", cfg.Renew, cfg.LeaseTTL)
	}
	if cfg.Scan <= 0 {
		cfg.Scan = 500 * time.Millisecond
	}
	if cfg.ForwardTimeout <= 0 {
		cfg.ForwardTimeout = 10 * time.Second
	}
	if cfg.BotsFull == nil {
		cfg.BotsFull = func() bool { return false }
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	n := &Node{cfg: cfg, id: id, log: cfg.Log.With("node", id), reconcile: make(chan struct{}, 1)}
	n.fences.m = map[string]int64{}
	n.owners.m = map[string]string{}
	n.starts.m = map[string][]byte{}
	n.watches.m = map[string]*watching{}
	n.inbound.games = map[string]*heard{}
	n.in = make(chan *nats.Msg, inQueue)
	nc, err := nats.Connect(cfg.NATS,
		nats.Name("tabula "+id),
		// A node never hears its own messages: its connections have its
		// events from its publisher.
		nats.NoEcho(),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { n.log.Warn("NATS disconnected", "err", err) }),
		nats.ReconnectHandler(func(*nats.Conn) { n.log.Info("NATS reconnected") }),
	)
	if err != nil {
		return nil, fmt.Errorf("cluster: NATS at %s: %w", redact(cfg.NATS), err)
	}
	n.nc = nc
	n.ctx, n.cancel = context.WithCancel(context.Background())
	n.bus = newBus(n)
	return n, nil
}

// redact is a list of NATS URLs without the passwords or tokens in them,
// for errors and logs.
func redact(urls string) string {
	parts := strings.Split(urls, ",")
	for i, p := range parts {
		if u, err := url.Parse(strings.TrimSpace(p)); err == nil && u.User != nil {
			u.User = nil
			parts[i] = u.String()
		}
	}
	return strings.Join(parts, ",")
}

// ID is the node's id: its name and a random suffix.
func (n *Node) ID() string { return n.id }

// subject is a subject under the prefix.
func (n *Node) subject(parts ...string) string {
	return n.cfg.Prefix + "." + strings.Join(parts, ".")
}

// Start joins the cluster: the node takes its lease, runs the commands
// other nodes forward to it on reg, hands the events of games it does not
// own that its connections watch (WatchGame, WatchUser) to remote (and,
// when remote is a Forgetter, the users other nodes say changed), and
// from then on renews its lease and takes over orphaned games. It returns
// once the lease is held.
func (n *Node) Start(ctx context.Context, reg *match.Registry, remote match.Publisher) error {
	n.reg = reg
	if _, err := n.cfg.Store.RenewNode(ctx, n.id, n.cfg.LeaseTTL, n.cfg.BotsFull()); err != nil {
		return fmt.Errorf("cluster: take the lease: %w", err)
	}
	n.renewed.Store(time.Now().UnixNano())
	cmdSub, err := n.nc.Subscribe(n.subject("cmd", n.id), n.serveCommand)
	if err != nil {
		return fmt.Errorf("cluster: subscribe to commands: %w", err)
	}
	histSub, err := n.nc.Subscribe(n.subject("hist", n.id), n.serveHistory)
	if err != nil {
		return fmt.Errorf("cluster: subscribe to history requests: %w", err)
	}
	n.subs = []*nats.Subscription{cmdSub, histSub}
	if f, ok := remote.(Forgetter); ok {
		forgetSub, err := n.nc.Subscribe(n.subject("forget"), n.serveForget(f))
		if err != nil {
			return fmt.Errorf("cluster: subscribe to changed users: %w", err)
		}
		n.subs = append(n.subs, forgetSub)
	}
	if l, ok := remote.(TournamentListener); ok { // tournament pages (tournamentnews.go)
		tnSub, err := n.nc.Subscribe(n.subject("tournament"), n.serveTournament(l))
		if err != nil {
			return fmt.Errorf("cluster: subscribe to changed tournaments: %w", err)
		}
		n.subs = append(n.subs, tnSub)
	}
	if h, ok := remote.(AnalysisHost); ok { // analysis jobs read and stopped from other nodes (analysis.go)
		anSub, err := n.nc.Subscribe(n.subject("an", n.id), n.serveAnalysis(h))
		if err != nil {
			return fmt.Errorf("cluster: subscribe to questions about analyses: %w", err)
		}
		startSub, err := n.nc.Subscribe(n.subject("anstart"), n.serveAnalysisStarts(h))
		if err != nil {
			return fmt.Errorf("cluster: subscribe to started analyses: %w", err)
		}
		n.subs = append(n.subs, anSub, startSub)
	}
	if err := n.nc.FlushTimeout(5 * time.Second); err != nil {
		return fmt.Errorf("cluster: NATS: %w", err)
	}
	n.wg.Add(3)
	go n.leaseLoop()
	go n.takeoverLoop()
	go n.receive(remote)
	n.log.Info("joined the cluster", "lease", n.cfg.LeaseTTL, "prefix", n.cfg.Prefix)
	return nil
}

// Healthy is nil while the node can serve: NATS connected and its lease
// renewed within its term.
func (n *Node) Healthy() error {
	if !n.nc.IsConnected() {
		return errors.New("NATS is not connected")
	}
	if !n.leaseFresh() {
		return errors.New("the node's lease is not renewed")
	}
	return nil
}

// leaseFresh: the lease was renewed less than a term ago.
func (n *Node) leaseFresh() bool {
	t := n.renewed.Load()
	return t != 0 && time.Since(time.Unix(0, t)) < n.cfg.LeaseTTL
}

// Stop leaves the cluster. Call it after the node's owners have stopped
// (Registry.StopAll): the lease ends at once, so the other nodes take the
// games over without waiting for it to expire, and their clocks stopped
// when this node left.
func (n *Node) Stop(ctx context.Context) error {
	n.cancel()
	n.wg.Wait()
	n.repairs.Wait()
	for _, s := range n.subs {
		s.Unsubscribe()
	}
	var errs []error
	if n.reg != nil {
		// Owners adopted while the registry was being stopped stop too.
		n.reg.StopAll()
	}
	n.bus.close()
	if n.reg != nil {
		if err := n.cfg.Store.LeaveNode(ctx, n.id); err != nil {
			errs = append(errs, fmt.Errorf("cluster: leave: %w", err))
		}
	}
	if err := n.nc.FlushTimeout(2 * time.Second); err != nil && !errors.Is(err, nats.ErrConnectionClosed) {
		errs = append(errs, err)
	}
	n.nc.Close()
	n.log.Info("left the cluster")
	return errors.Join(errs...)
}

// leaseLoop renews the lease. A renewal that finds the lease lapsed (this
// node was cut off or paused for longer than its term) asks for a
// reconciliation: other nodes may have claimed some of its games.
func (n *Node) leaseLoop() {
	defer n.wg.Done()
	t := time.NewTicker(n.cfg.Renew)
	defer t.Stop()
	for {
		select {
		case <-n.ctx.Done():
			return
		case <-t.C:
		}
		ctx, cancel := context.WithTimeout(n.ctx, n.cfg.Renew)
		lapsed, err := n.cfg.Store.RenewNode(ctx, n.id, n.cfg.LeaseTTL, n.cfg.BotsFull())
		cancel()
		if err != nil {
			if n.ctx.Err() == nil {
				n.log.Warn("lease not renewed", "err", err)
			}
			continue
		}
		n.renewed.Store(time.Now().UnixNano())
		if lapsed {
			n.log.Warn("the lease had lapsed: checking which games are still this node's")
			select {
			case n.reconcile <- struct{}{}:
			default:
			}
		}
	}
}

// fences is the ownership epoch this node holds for each game it owns:
// what its journal's writes are fenced with.
type fences struct {
	mu sync.Mutex
	m  map[string]int64
}

func (f *fences) get(id string) (int64, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	e, ok := f.m[id]
	return e, ok
}

func (f *fences) set(id string, epoch int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.m[id] = epoch
}

func (f *fences) drop(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	delete(f.m, id)
}

func (f *fences) snapshot() map[string]int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make(map[string]int64, len(f.m))
	for k, v := range f.m {
		out[k] = v
	}
	return out
}
