package cluster

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/match/matchtest"
	"github.com/tabula-games/tabula/store/postgres"
)

// The nodes of these tests run in one process: each its own database pool,
// NATS connection, lease and registry, on one PostgreSQL schema and one
// NATS server of their own (a fresh schema and subject prefix per test, so
// that test runs sharing the servers do not meet). PostgreSQL and NATS
// are expected at TABULA_TEST_POSTGRES and TABULA_TEST_NATS (default: the
// local ones .ci/run starts); a test fails when they do not answer, and
// skips only when the variable is "off".

// env is one test's cluster: the database, the NATS server, the nodes.
type env struct {
	t      *testing.T
	pgURL  string // with the test's schema
	admin  *sql.DB
	schema string
	nats   string
	prefix string
	lease  time.Duration
	// scan is how often the nodes look for orphans (a tenth of it: how
	// often they reconcile); default 100ms.
	scan time.Duration

	mu    sync.Mutex
	nodes []*testNode
	logs  lockedBuffer
}

// testNode is one node: its store, cluster membership, registry, and what
// its connections would have been sent (every event, its own games' and the
// others').
type testNode struct {
	e      *env
	db     *postgres.DB
	n      *Node
	reg    *match.Registry
	events *matchtest.Events
	full   bool // its bot budget is full
	fullMu sync.Mutex
	// forgot is the users other nodes said changed (Forget).
	forgot   []int64
	forgotMu sync.Mutex
	down     bool
}

func postgresURL(t testing.TB) string {
	u := os.Getenv("TABULA_TEST_POSTGRES")
	switch u {
	case "off":
		t.Skip("TABULA_TEST_POSTGRES=off")
	case "":
		u = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	return u
}

func natsURL(t testing.TB) string {
	u := os.Getenv("TABULA_TEST_NATS")
	switch u {
	case "off":
		t.Skip("TABULA_TEST_NATS=off")
	case "":
		u = "nats://127.0.0.1:4222"
	}
	nc, err := nats.Connect(u, nats.Timeout(3*time.Second))
	if err != nil {
		t.Fatalf("no NATS at %s (set TABULA_TEST_NATS=off to skip): %v", u, err)
	}
	nc.Close()
	return u
}

func newEnv(t *testing.T) *env {
	t.Helper()
	base := postgresURL(t)
	e := &env{t: t, nats: natsURL(t), lease: time.Second, scan: 100 * time.Millisecond}
	admin, err := sql.Open("pgx", base)
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Fatalf("no PostgreSQL at %s (set TABULA_TEST_POSTGRES=off to skip): %v", base, err)
	}
	e.admin = admin
	id := rand.Uint64() >> 1
	e.schema = fmt.Sprintf("tabula_cluster_test_%d", id)
	e.prefix = fmt.Sprintf("tabulatest%d", id)
	if _, err := admin.Exec("CREATE SCHEMA " + e.schema); err != nil {
		t.Fatal(err)
	}
	e.pgURL = base + "&search_path=" + e.schema
	t.Cleanup(func() {
		e.mu.Lock()
		nodes := e.nodes
		e.mu.Unlock()
		for _, n := range nodes {
			n.stop()
		}
		admin.Exec("DROP SCHEMA " + e.schema + " CASCADE")
		admin.Close()
	})
	return e
}

// newQuietEnv is an env whose leases last long enough that a loaded
// machine lets none lapse: the tests that take no game over use it
// (with the 1 s default, .ci/run's race step beside the browser tests
// starved renewals, and a node lost a game the test went on asking it for).
func newQuietEnv(t *testing.T) *env {
	e := newEnv(t)
	e.lease = 10 * time.Second
	return e
}

// logger is the nodes' log, kept for the test to read (and shown when the
// test runs verbose).
func (e *env) logger() *slog.Logger {
	var w io.Writer = &e.logs
	if testing.Verbose() {
		w = io.MultiWriter(w, os.Stderr)
	}
	return slog.New(slog.NewTextHandler(w, nil))
}

// logged counts the log lines that contain s.
func (e *env) logged(s string) int {
	e.logs.mu.Lock()
	defer e.logs.mu.Unlock()
	return strings.Count(e.logs.b.String(), s)
}

type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// start starts a new node.
func (e *env) start(edit ...func(*match.Config)) *testNode {
	e.t.Helper()
	db, err := postgres.Open(context.Background(), e.pgURL)
	if err != nil {
		e.t.Fatal(err)
	}
	tn := &testNode{e: e, db: db, events: matchtest.NewEvents()}
	e.mu.Lock()
	tn.n, err = New(Config{Store: db, NATS: e.nats, Prefix: e.prefix, Name: fmt.Sprint("node", len(e.nodes)+1),
		LeaseTTL: e.lease, Renew: e.lease / 4, Scan: e.scan, Log: e.logger(), BotsFull: tn.botsFull})
	e.nodes = append(e.nodes, tn)
	e.mu.Unlock()
	if err != nil {
		e.t.Fatal(err)
	}
	cfg := match.Config{Journal: tn.n.Journal(), Publisher: tn.n.Publisher(tn.events), Log: e.logger()}
	for _, f := range edit {
		f(&cfg)
	}
	if tn.reg, err = match.NewRegistry(cfg); err != nil {
		e.t.Fatal(err)
	}
	if err := tn.n.Start(context.Background(), tn.reg, remoteOf{tn.events, tn}); err != nil {
		e.t.Fatal(err)
	}
	return tn
}

// remoteOf is what a node hands the events of other nodes' games to (its
// connections', recorded) and the users other nodes say changed.
type remoteOf struct {
	*matchtest.Events
	tn *testNode
}

func (r remoteOf) ForgetUsers(uids []int64) {
	r.tn.forgotMu.Lock()
	r.tn.forgot = append(r.tn.forgot, uids...)
	r.tn.forgotMu.Unlock()
}

// forgotten is the users other nodes said changed, so far.
func (tn *testNode) forgotten() []int64 {
	tn.forgotMu.Lock()
	defer tn.forgotMu.Unlock()
	return slices.Clone(tn.forgot)
}

func (tn *testNode) botsFull() bool {
	tn.fullMu.Lock()
	defer tn.fullMu.Unlock()
	return tn.full
}

func (tn *testNode) setFull(v bool) {
	tn.fullMu.Lock()
	tn.full = v
	tn.fullMu.Unlock()
}

// stop shuts the node down as `tabula serve` does on SIGTERM.
func (tn *testNode) stop() {
	if tn.down {
		return
	}
	tn.down = true
	tn.reg.StopAll()
	tn.n.Stop(context.Background())
	tn.db.Close()
}

// crash stops the node the way kill -9 would as far as the others can
// tell: it renews no more, answers nothing, publishes nothing and leaves
// its lease to expire.
func (tn *testNode) crash() {
	if tn.down {
		return
	}
	tn.down = true
	tn.n.cancel()
	tn.n.wg.Wait()
	tn.n.nc.Close()
	tn.reg.StopAll()
	tn.db.Close()
}

// do runs a command as the server does: on this node's owner, else
// forwarded to the game's.
func (tn *testNode) do(id string, c match.Command) (match.Ack, error) {
	ctx := context.Background()
	ack, err := tn.reg.Do(ctx, id, c)
	if errors.Is(err, match.ErrClosed) {
		ack, err = tn.n.Forward(ctx, id, c)
	}
	return ack, err
}

// create makes a game of tnim on this node, alice its creator; bob takes
// the seat he is invited to.
func (tn *testNode) create(id string, m match.Meta) {
	tn.e.t.Helper()
	m.ID = id
	if m.Game == "" {
		m.Game = "tnim"
	}
	if _, err := tn.reg.Create(context.Background(), alice, m); err != nil {
		tn.e.t.Fatalf("create %s: %v", id, err)
	}
	if m.Seats[1].Kind == match.SeatInvite {
		if _, err := tn.do(id, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}); err != nil {
			tn.e.t.Fatalf("bob joins %s: %v", id, err)
		}
	}
}

// watch is a connection of node n watching game id until the test ends.
func watch(n *testNode, id string) {
	n.e.t.Cleanup(n.n.WatchGame(id))
}

// owner is the node that owns game id in the database.
func (e *env) owner(id string) string {
	var node string
	if err := e.admin.QueryRow("SELECT owner FROM "+e.schema+".games WHERE id = $1", id).Scan(&node); err != nil {
		e.t.Fatal(err)
	}
	return node
}

// depose makes the lease of game id's owner lapse (as if the node had
// paused), again and again until another node has claimed the game, and
// returns the old owner.
func (e *env) depose(id string) string {
	e.t.Helper()
	old := e.owner(id)
	e.waitFor(10*time.Second, "a takeover of "+id, func() bool {
		if e.owner(id) != old {
			return true
		}
		if _, err := e.admin.Exec("UPDATE "+e.schema+".cluster_nodes SET expires = 0 WHERE id = $1", old); err != nil {
			e.t.Fatal(err)
		}
		return false
	})
	return old
}

// lapse makes node's lease expire now, as if the node had paused: its
// games are orphans until it renews.
func (e *env) lapse(node *testNode) {
	e.t.Helper()
	if _, err := e.admin.Exec("UPDATE "+e.schema+".cluster_nodes SET expires = 0 WHERE id = $1", node.n.ID()); err != nil {
		e.t.Fatal(err)
	}
}

// renew renews node's lease for the env's term, as its lease loop would
// (but without telling the node that it had lapsed).
func (e *env) renew(node *testNode) {
	e.t.Helper()
	if _, err := node.db.RenewNode(context.Background(), node.n.ID(), e.lease, false); err != nil {
		e.t.Fatal(err)
	}
}

// moves is the stored moves of game id.
func (e *env) moves(id string) []string {
	rows, err := e.admin.Query("SELECT text FROM "+e.schema+".moves WHERE game_id = $1 ORDER BY ply", id)
	if err != nil {
		e.t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		rows.Scan(&s)
		out = append(out, s)
	}
	return out
}

// waitFor polls cond until it holds, failing the test after d.
func (e *env) waitFor(d time.Duration, what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			e.t.Fatalf("%s: not within %v", what, d)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

var (
	alice = match.User{ID: 1}
	bob   = match.User{ID: 2}
)

func twoHumans(stones int) match.Meta {
	return match.Meta{Options: map[string]string{"stones": fmt.Sprint(stones)},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}}
}

func mover(ply int) match.User { return []match.User{alice, bob}[ply%2] }

func move(ply int, text string) match.Command {
	return match.Command{Kind: match.CmdMove, User: mover(ply), Seat: -1, Ply: ply, Move: text}
}

func codeOf(err error) match.Code {
	var me *match.Error
	if errors.As(err, &me) {
		return me.Code
	}
	if err != nil {
		return match.Code("other: " + err.Error())
	}
	return ""
}
