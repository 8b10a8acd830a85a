package main

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// selfSigned writes a certificate for 127.0.0.1 and its key to dir.
func selfSigned(t *testing.T, dir string) (certFile, keyFile string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, KeyUsage: x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)
	return certFile, keyFile
}

// startServe runs serve with args in this process and returns what it
// printed; the server stops when the test ends.
func startServe(t *testing.T, args ...string) (string, error) {
	t.Helper()
	m, err := parseServe(args)
	if err != nil {
		return "", err
	}
	var out bytes.Buffer
	err = m.run(context.Background(), &out, io.Discard)
	t.Cleanup(func() { m.close() })
	return out.String(), err
}

func lineAfter(out, prefix string) string {
	for _, l := range strings.Split(out, "\n") {
		if a, ok := strings.CutPrefix(l, prefix); ok {
			return a
		}
	}
	return ""
}

// TestServeTLSAndMetrics: with --tls-cert/--tls-key the site is HTTPS with
// HSTS; metrics are on their own listener and not on the site.
func TestServeTLSAndMetrics(t *testing.T) {
	dir := t.TempDir()
	cert, key := selfSigned(t, dir)
	out, err := startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "t.db"), "--log-level", "error",
		"--tls-cert", cert, "--tls-key", key, "--metrics-addr", "127.0.0.1:0", "--trusted-proxy", "10.0.0.0/8,192.0.2.1", "--trusted-proxy", "::1")
	if err != nil {
		t.Fatal(err)
	}
	site, metrics := lineAfter(out, "listening on "), lineAfter(out, "metrics on ")
	if !strings.HasPrefix(site, "https://127.0.0.1:") || !strings.HasPrefix(metrics, "http://127.0.0.1:") {
		t.Fatalf("output %q", out)
	}
	pool := x509.NewCertPool()
	pem, _ := os.ReadFile(cert)
	pool.AppendCertsFromPEM(pem)
	c := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	resp, err := c.Get(site + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Strict-Transport-Security"), "max-age=") {
		t.Fatalf("GET / over TLS: %d, HSTS %q", resp.StatusCode, resp.Header.Get("Strict-Transport-Security"))
	}
	if resp, err := c.Get(site + "/metrics"); err != nil || resp.StatusCode != http.StatusNotFound {
		t.Fatalf("/metrics on the site: %v %v", resp.StatusCode, err)
	}
	// The WebSocket works over TLS (HTTP/1.1 upgrade).
	resp, err = c.Post(site+"/api/guest", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	var guest struct{ Token string }
	json.NewDecoder(resp.Body).Decode(&guest)
	resp.Body.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "wss"+strings.TrimPrefix(site, "https")+"/api/ws", &websocket.DialOptions{
		HTTPClient: c, HTTPHeader: http.Header{"Authorization": {"Bearer " + guest.Token}}})
	if err != nil {
		t.Fatalf("wss: %v", err)
	}
	ws.Close(websocket.StatusNormalClosure, "")
	resp, err = http.Get(metrics)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), "tabula_live_games") {
		t.Fatalf("metrics: %.200s", body)
	}
}

// TestServeFlagErrors: transport flags that cannot work are refused with
// a clear error before anything is served.
func TestServeFlagErrors(t *testing.T) {
	dir := t.TempDir()
	cert, _ := selfSigned(t, dir)
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	db := filepath.Join(dir, "t.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--tls-cert", cert}, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-cert", cert, "--tls-key", filepath.Join(dir, "none.pem")}, "--tls-cert/--tls-key"},
		{[]string{"--trusted-proxy", "10.0.0.0/33"}, "--trusted-proxy"},
		{[]string{"--trusted-proxy", "proxy.example"}, "--trusted-proxy"},
		{[]string{"--metrics-addr", taken.Addr().String()}, "--metrics-addr"},
		{[]string{"--claim-grace", "0s"}, "--claim-grace"},
		{[]string{"--review-time", "0s"}, "--review-time"},
		{[]string{"--unattended-after", "0s"}, "--unattended-after"},
	} {
		_, err := startServe(t, append([]string{"--addr", "127.0.0.1:0", "--db", db, "--log-level", "error"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error about %s", tc.args, err, tc.want)
		}
	}
	// The default metrics address being taken (held here, or by whatever
	// holds it already) costs only the metrics.
	if ln, err := net.Listen("tcp", defaultMetricsAddr); err == nil {
		defer ln.Close()
	}
	out, err := startServe(t, "--addr", "127.0.0.1:0", "--db", db, "--log-level", "error")
	if err != nil || lineAfter(out, "listening on ") == "" || lineAfter(out, "metrics on ") != "" {
		t.Fatalf("default metrics address taken: %v %q", err, out)
	}
	// And an empty --metrics-addr serves none.
	out, err = startServe(t, "--addr", "127.0.0.1:0", "--db", filepath.Join(dir, "u.db"), "--log-level", "error", "--metrics-addr", "")
	if err != nil || lineAfter(out, "metrics on ") != "" {
		t.Fatalf("--metrics-addr '': %v %q", err, out)
	}
}

// TestServeGivesSearchesTheirOwnProcessors (issue 16, finding 2): the
// pool's cores come on top of Go's processors, so that a bot's search,
// which holds one per core it is granted, never takes one serving people
// (under `tabula loadtest --flood` on two cores, people's p50 tripled while
// hard bots searched); closing the server gives them back.
func TestServeGivesSearchesTheirOwnProcessors(t *testing.T) {
	before := runtime.GOMAXPROCS(0)
	m, err := parseServe([]string{"--addr", "127.0.0.1:0", "--metrics-addr", "", "--db", filepath.Join(t.TempDir(), "p.db"), "--log-level", "error", "--bot-cores", "2"})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.run(context.Background(), io.Discard, io.Discard); err != nil {
		m.close()
		t.Fatal(err)
	}
	if got := runtime.GOMAXPROCS(0); got != before+2 {
		m.close()
		t.Fatalf("GOMAXPROCS %d while serving with --bot-cores 2; want %d", got, before+2)
	}
	m.close()
	if got := runtime.GOMAXPROCS(0); got != before {
		t.Fatalf("GOMAXPROCS %d after closing; want %d", got, before)
	}
}
