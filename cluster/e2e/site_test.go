package e2e

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"database/sql"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"math/big"
	mrand "math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib"
	"github.com/nats-io/nats.go"
)

// The cluster's end-to-end tests: real `tabula serve` processes on one
// PostgreSQL database and one NATS server, behind HAProxy running the
// configuration of docs/haproxy.cfg, driven by clients over TLS through the
// proxy. They run when TABULA_TEST_CLUSTER=on (.ci/run sets it, after
// installing HAProxy and starting PostgreSQL and NATS), and then fail —
// never skip — when any of the three is missing. PostgreSQL and NATS are
// found at TABULA_TEST_POSTGRES and TABULA_TEST_NATS (default: loopback);
// every run uses a schema and a subject prefix of its own. They build
// tabula themselves unless TABULA_BIN names one.

var (
	binary   string // the tabula command, built once
	buildErr error
)

func TestMain(m *testing.M) {
	code := func() int {
		if os.Getenv("TABULA_TEST_CLUSTER") != "on" {
			return m.Run()
		}
		// .ci/run builds tabula once for the browser tests, the CLI
		// contract and these, and names it in TABULA_BIN: linking it again
		// here cost CPU that a CI run on two cores is short of.
		if bin := os.Getenv("TABULA_BIN"); bin != "" {
			if _, err := os.Stat(bin); err != nil {
				buildErr = fmt.Errorf("TABULA_BIN: %w", err)
			}
			binary = bin
			return m.Run()
		}
		dir, err := os.MkdirTemp("", "tabula-e2e-")
		if err != nil {
			buildErr = err
			return m.Run()
		}
		defer os.RemoveAll(dir)
		binary = filepath.Join(dir, "tabula")
		cmd := exec.Command("go", "build", "-o", binary, "github.com/tabula-games/tabula/cmd/tabula")
		if out, err := cmd.CombinedOutput(); err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
		return m.Run()
	}()
	os.Exit(code)
}

// site is one cluster: its nodes, the proxy in front, its database schema
// and subject prefix, and clients' trust in the proxy's certificate.
type site struct {
	t       *testing.T
	dir     string
	pgBase  string
	pgURL   string
	admin   *sql.DB
	schema  string
	nats    string
	prefix  string
	ports   []int // the nodes' fixed ports (a restarted node keeps its port: the proxy names it)
	nodes   []*proc
	proxy   *proc
	https   string // https://127.0.0.1:PORT, the site through the proxy
	plain   string // http://127.0.0.1:PORT, the proxy's plain port
	tlsConf *tls.Config
	extra   []string // more flags for every node
	mu      sync.Mutex
}

// proc is a process the test started: a node or the proxy.
type proc struct {
	name    string
	cmd     *exec.Cmd
	log     *os.File
	metrics string // a node's metrics URL
	exited  chan struct{}
}

func needCluster(t *testing.T) {
	t.Helper()
	if os.Getenv("TABULA_TEST_CLUSTER") != "on" {
		t.Skip("the cluster's end-to-end tests run with TABULA_TEST_CLUSTER=on (.ci/run sets it)")
	}
	if buildErr != nil {
		t.Fatal(buildErr)
	}
	if _, err := exec.LookPath("haproxy"); err != nil {
		t.Fatal("haproxy is not installed (apt-get install haproxy; .ci/run does)")
	}
}

// newSite starts n nodes and the proxy.
func newSite(t *testing.T, n int, extra ...string) *site {
	needCluster(t)
	s := &site{t: t, dir: t.TempDir(), extra: extra}
	s.pgBase = os.Getenv("TABULA_TEST_POSTGRES")
	if s.pgBase == "" {
		s.pgBase = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"
	}
	s.nats = os.Getenv("TABULA_TEST_NATS")
	if s.nats == "" {
		s.nats = "nats://127.0.0.1:4222"
	}
	admin, err := sql.Open("pgx", s.pgBase)
	if err == nil {
		err = admin.Ping()
	}
	if err != nil {
		t.Fatalf("no PostgreSQL at %s: %v", s.pgBase, err)
	}
	nc, err := nats.Connect(s.nats, nats.Timeout(3*time.Second))
	if err != nil {
		t.Fatalf("no NATS at %s: %v", s.nats, err)
	}
	nc.Close()
	s.admin = admin
	id := mrand.Uint64() >> 1
	s.schema = fmt.Sprintf("tabula_e2e_%d", id)
	s.prefix = fmt.Sprintf("tabulae2e%d", id)
	if _, err := admin.Exec("CREATE SCHEMA " + s.schema); err != nil {
		t.Fatal(err)
	}
	s.pgURL = s.pgBase + "&search_path=" + s.schema
	t.Cleanup(s.close)
	s.certificate()
	for i := range n {
		s.ports = append(s.ports, freePort(t))
		s.nodes = append(s.nodes, nil)
		s.startNode(i)
	}
	s.startProxy()
	return s
}

func (s *site) close() {
	for _, p := range append([]*proc{s.proxy}, s.nodes...) {
		if p != nil {
			p.stop()
		}
	}
	s.admin.Exec("DROP SCHEMA " + s.schema + " CASCADE")
	s.admin.Close()
	if s.t.Failed() {
		if keep := os.Getenv("TABULA_TEST_KEEP_LOGS"); keep != "" {
			exec.Command("cp", "-r", s.dir, keep).Run()
		}
		for _, p := range s.nodes {
			if p != nil {
				s.t.Logf("--- %s log (last lines):\n%s", p.name, tail(p.log.Name(), 30))
			}
		}
	}
}

func tail(path string, n int) string {
	b, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// freePort is a port free now, below the kernel's range of ephemeral
// ports (ip_local_port_range, 32768–60999 by default): a node is stopped
// and started again on its port, and while it is down any outgoing
// connection on the machine may take a port of that range as its own
// end, after which listening on it fails "address already in use" (seen
// on this kernel: TestNodePortsNotEphemeral). A restarted node would exit
// at start; in CI the machine's other tests connect all the time. A port
// is handed out once in a test process: two asked for together (the
// proxy's plain and TLS ports) were free alike and could be the same, and
// HAProxy, binding with SO_REUSEPORT, then serves both on it: a TLS client
// gets plain HTTP on about half its connections (checked by hand with two
// such binds). That is what one CI run of
// TestProxyResendsARequestItsNodeDropped met: "server gave HTTP response to
// HTTPS client" after the proxy had answered its health check over TLS.
var (
	handedMu sync.Mutex
	handed   = map[int]bool{} // the ports freePort has returned
)

func freePort(t *testing.T) int {
	handedMu.Lock()
	defer handedMu.Unlock()
	for range 1000 {
		port := 20000 + mrand.IntN(12000)
		if handed[port] {
			continue
		}
		ln, err := net.Listen("tcp", fmt.Sprint("127.0.0.1:", port))
		if err != nil {
			continue
		}
		ln.Close()
		handed[port] = true
		return port
	}
	t.Fatal("no free port in 20000-31999")
	return 0
}

// startNode starts node i on its port, waiting until it serves.
func (s *site) startNode(i int) {
	s.t.Helper()
	name := fmt.Sprint("node", i+1)
	args := append([]string{"serve", "--addr", fmt.Sprint("127.0.0.1:", s.ports[i]), "--db", s.pgURL,
		"--nats", s.nats, "--nats-prefix", s.prefix, "--node-name", name, "--metrics-addr", "127.0.0.1:0",
		"--trusted-proxy", "127.0.0.1", "--rate", "0", "--signup-rate", "0", "--ws-rate", "0"}, s.extra...)
	p := s.start(name, binary, args...)
	s.mu.Lock()
	s.nodes[i] = p
	s.mu.Unlock()
	s.waitHealthy(fmt.Sprint("http://127.0.0.1:", s.ports[i], "/healthz"), name)
}

// start runs a command with its output in a log file of its own; a node's
// metrics URL is read from what it prints.
func (s *site) start(name, bin string, args ...string) *proc {
	s.t.Helper()
	// O_APPEND: the process and this test (its stdout) write it together.
	log, err := os.OpenFile(filepath.Join(s.dir, name+"-"+fmt.Sprint(time.Now().UnixNano())+".log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Stderr = log
	out, err := cmd.StdoutPipe()
	if err != nil {
		s.t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("start %s: %v", name, err)
	}
	p := &proc{name: name, cmd: cmd, log: log, exited: make(chan struct{})}
	metrics := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			fmt.Fprintln(log, sc.Text())
			if a, ok := strings.CutPrefix(sc.Text(), "metrics on "); ok {
				metrics <- a
			}
		}
		cmd.Wait()
		close(p.exited)
	}()
	if bin == binary && len(args) > 0 && args[0] == "serve" {
		select {
		case p.metrics = <-metrics:
		case <-p.exited:
			s.t.Fatalf("%s exited at start:\n%s", name, tail(log.Name(), 20))
		case <-time.After(60 * time.Second):
			s.t.Fatalf("%s did not start", name)
		}
	}
	return p
}

// kill is kill -9.
func (p *proc) kill() {
	p.cmd.Process.Signal(syscall.SIGKILL)
	<-p.exited
}

// stop is SIGTERM, then SIGKILL if it lingers.
func (p *proc) stop() {
	select {
	case <-p.exited:
		return
	default:
	}
	p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.exited:
	case <-time.After(20 * time.Second):
		p.kill()
	}
}

func (s *site) waitHealthy(url, name string) {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("%s is not healthy: %v", name, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// certificate makes the proxy's self-signed certificate and the clients'
// trust in it.
func (s *site) certificate() {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		s.t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(24 * time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IsCA: true, BasicConstraintsValid: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		s.t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		s.t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder})
	if err := os.WriteFile(filepath.Join(s.dir, "proxy.pem"), append(certPEM, keyPEM...), 0o600); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(s.dir, "ca.pem"), certPEM, 0o644); err != nil {
		s.t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(certPEM)
	s.tlsConf = &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}

// startProxy runs HAProxy on docs/haproxy.cfg, with only its marked lines
// (ports, certificate, nodes) changed for this machine.
func (s *site) startProxy() {
	s.t.Helper()
	cfg, err := os.ReadFile("../../docs/haproxy.cfg")
	if err != nil {
		s.t.Fatal(err)
	}
	plain, secure := freePort(s.t), freePort(s.t)
	var out []string
	node := 0
	for _, line := range strings.Split(string(cfg), "\n") {
		if !strings.Contains(line, "# test:") {
			out = append(out, line)
			continue
		}
		switch {
		case strings.Contains(line, "# test: plain port"):
			line = fmt.Sprintf("    bind 127.0.0.1:%d", plain)
		case strings.Contains(line, "# test: TLS port"):
			line = regexp.MustCompile(`bind \S+ ssl crt \S+`).ReplaceAllString(line,
				fmt.Sprintf("bind 127.0.0.1:%d ssl crt %s", secure, filepath.Join(s.dir, "proxy.pem")))
		case strings.Contains(line, "# test: node"):
			if node >= len(s.ports) {
				continue
			}
			line = fmt.Sprintf("    server node%d 127.0.0.1:%d check", node+1, s.ports[node])
			node++
		}
		out = append(out, line)
	}
	path := filepath.Join(s.dir, "haproxy.cfg")
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")), 0o644); err != nil {
		s.t.Fatal(err)
	}
	if b, err := exec.Command("haproxy", "-c", "-f", path).CombinedOutput(); err != nil {
		s.t.Fatalf("haproxy -c: %v\n%s", err, b)
	}
	s.proxy = s.start("haproxy", "haproxy", "-db", "-f", path)
	s.https = fmt.Sprint("https://127.0.0.1:", secure)
	s.plain = fmt.Sprint("http://127.0.0.1:", plain)
	s.checkRedirect()
	// Up once every node is: the proxy checks them every second.
	deadline := time.Now().Add(30 * time.Second)
	seen := map[string]bool{}
	c := s.anonymous()
	for len(seen) < len(s.nodes) {
		if time.Now().After(deadline) {
			s.t.Fatalf("through the proxy, only %v answered", seen)
		}
		if resp, err := c.http.Get(s.https + "/healthz"); err == nil {
			resp.Body.Close()
			if resp.ProtoMajor != 2 {
				s.t.Fatalf("the proxy spoke %s, want HTTP/2", resp.Proto)
			}
			if resp.StatusCode == http.StatusOK {
				seen[resp.Header.Get("X-Tabula-Node")] = true
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// checkRedirect: the proxy's plain port only redirects to HTTPS.
func (s *site) checkRedirect() {
	s.t.Helper()
	noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	// 30 s: at a load of 80 on two cores HAProxy once took more than 10 s
	// to listen.
	deadline := time.Now().Add(30 * time.Second)
	for {
		select {
		case <-s.proxy.exited:
			s.t.Fatalf("haproxy exited at start:\n%s", tail(s.proxy.log.Name(), 20))
		default:
		}
		resp, err := noFollow.Get(s.plain + "/api/games")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode != http.StatusMovedPermanently || !strings.HasPrefix(resp.Header.Get("Location"), "https://") {
				s.t.Fatalf("plain HTTP through the proxy: %d %q, want a redirect to https", resp.StatusCode, resp.Header.Get("Location"))
			}
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the proxy's plain port: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// nodeIndex is the index of the node the proxy calls name ("node2": 1).
func nodeIndex(name string) int {
	var i int
	fmt.Sscanf(name, "node%d", &i)
	return i - 1
}

// owner is the node (by name, "node2") that owns game id, from the
// database.
func (s *site) owner(id string) string {
	var node string
	if err := s.admin.QueryRow("SELECT owner FROM "+s.schema+".games WHERE id = $1", id).Scan(&node); err != nil {
		s.t.Fatal(err)
	}
	name, _, _ := strings.Cut(node, "-")
	return name
}

// storedMoves is game id's moves in the database.
func (s *site) storedMoves(id string) []storedMove {
	rows, err := s.admin.Query("SELECT ply, seat, text FROM "+s.schema+".moves WHERE game_id = $1 ORDER BY ply", id)
	if err != nil {
		s.t.Fatal(err)
	}
	defer rows.Close()
	var out []storedMove
	for rows.Next() {
		var m storedMove
		if err := rows.Scan(&m.Ply, &m.Seat, &m.Text); err != nil {
			s.t.Fatal(err)
		}
		out = append(out, m)
	}
	return out
}

type storedMove struct {
	Ply, Seat int
	Text      string
}

// consistent checks that every game's row agrees with its moves: the
// restart race once left a row saying 146 moves with 147 stored.
func (s *site) consistent(games []string) {
	s.t.Helper()
	for _, id := range games {
		var ply, moves int
		if err := s.admin.QueryRow("SELECT g.ply, (SELECT COUNT(*) FROM "+s.schema+".moves m WHERE m.game_id = g.id) FROM "+
			s.schema+".games g WHERE g.id = $1", id).Scan(&ply, &moves); err != nil {
			s.t.Fatal(err)
		}
		if ply != moves {
			s.t.Fatalf("game %s: the row says %d moves, %d stored", id, ply, moves)
		}
	}
}

// cleanLogs fails the test if a node logged what must never happen.
func (s *site) cleanLogs() {
	s.t.Helper()
	logs := s.logs()
	for _, bad := range []string{"game row says", "move conflict", "panic", "resume game", "adopt game"} {
		if strings.Contains(logs, bad) {
			s.t.Fatalf("a node logged %q", bad)
		}
	}
}

// logs is every log line of the nodes so far.
func (s *site) logs() string {
	var b strings.Builder
	entries, _ := os.ReadDir(s.dir)
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), "node") && strings.HasSuffix(e.Name(), ".log") {
			data, _ := os.ReadFile(filepath.Join(s.dir, e.Name()))
			b.Write(data)
		}
	}
	return b.String()
}

// client is one user (or an anonymous spectator) talking to the site
// through the proxy.
type client struct {
	s     *site
	http  *http.Client
	token string
	name  string
}

// anonymous is a client without an account. Its API requests speak
// HTTP/2 to the proxy (WebSockets, HTTP/1.1).
func (s *site) anonymous() *client {
	return &client{s: s, http: &http.Client{Timeout: 30 * time.Second,
		Transport: &http.Transport{TLSClientConfig: s.tlsConf.Clone(), ForceAttemptHTTP2: true}}}
}

// guest signs a new guest in.
func (s *site) guest() *client {
	s.t.Helper()
	c := s.anonymous()
	var resp struct {
		User  struct{ Name string }
		Token string
	}
	if status, err := c.call("POST", "/api/guest", struct{}{}, &resp); err != nil || status != http.StatusCreated {
		s.t.Fatalf("guest: %d %v", status, err)
	}
	c.token, c.name = resp.Token, resp.User.Name
	return c
}

// call makes one API request through the proxy and decodes its answer
// into out; an error status is returned with the error body's code.
func (c *client) call(method, path string, body, out any) (int, error) {
	return c.callAt(c.s.https, method, path, body, out)
}

// callAt is call at another base URL: a node's own address.
func (c *client) callAt(base, method, path string, body, out any) (int, error) {
	return c.callWith(base, method, path, body, out, nil)
}

// callWith is callAt with more request headers.
func (c *client) callWith(base, method, path string, body, out any, hdr map[string]string) (int, error) {
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = strings.NewReader(string(b))
	}
	req, err := http.NewRequest(method, base+path, r)
	if err != nil {
		return 0, err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if method == http.MethodPost {
		// As the web client and tabula bot connect do: the proxy has a
		// client send a request again when its node dies before answering
		// (TestProxyResendsARequestItsNodeDropped), which a test killing
		// nodes would otherwise see refused as a second command.
		req.Header.Set("Idempotency-Key", rand.Text())
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		var e struct {
			Error struct{ Code, Message string }
		}
		json.Unmarshal(data, &e)
		return resp.StatusCode, &apiError{resp.StatusCode, e.Error.Code, e.Error.Message}
	}
	if out != nil {
		return resp.StatusCode, json.Unmarshal(data, out)
	}
	return resp.StatusCode, nil
}

type apiError struct {
	Status        int
	Code, Message string
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

func codeOf(err error) string {
	var e *apiError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// createGame creates a game of name with the given seats and options
// through the proxy.
func (c *client) createGame(name string, opts map[string]string, seats []map[string]string, clock map[string]any) string {
	return c.createGameOn(-1, name, opts, seats, clock)
}

// createGameOn creates a game on node i (its owner), bypassing the proxy;
// through the proxy if i < 0.
func (c *client) createGameOn(i int, name string, opts map[string]string, seats []map[string]string, clock map[string]any) string {
	c.s.t.Helper()
	var resp struct{ Game struct{ ID string } }
	body := map[string]any{"game": name, "options": opts, "seats": seats}
	if clock != nil {
		body["clock"] = clock
	}
	base := c.s.https
	if i >= 0 {
		base = fmt.Sprint("http://127.0.0.1:", c.s.ports[i])
	}
	if _, err := c.callAt(base, "POST", "/api/games", body, &resp); err != nil {
		c.s.t.Fatalf("create %s: %v", name, err)
	}
	return resp.Game.ID
}

var _ = context.Background
