package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestClusterLoad measures the site through the proxy with `tabula
// loadtest --addr`, on one node and then on three: moves a second, the
// latency of a move from sending to its acknowledgement, errors, and each
// node's memory. A measurement, not a check of speed: it runs only with
// TABULA_CLUSTER_LOAD=on (docs/deploy.md gives its figures), and fails
// only on errors. TABULA_CLUSTER_LOAD_GAMES and _DURATION set the load
// (default 200 games for 30s).
func TestClusterLoad(t *testing.T) {
	if os.Getenv("TABULA_CLUSTER_LOAD") != "on" {
		t.Skip("a measurement: TABULA_CLUSTER_LOAD=on runs it")
	}
	games := envOr("TABULA_CLUSTER_LOAD_GAMES", "200")
	duration := envOr("TABULA_CLUSTER_LOAD_DURATION", "30s")
	for _, n := range []int{1, 3} {
		t.Run(fmt.Sprint(n, "nodes"), func(t *testing.T) {
			s := newSite(t, n)
			cmd := exec.Command(binary, "loadtest", "--addr", s.https, "--games", games, "--duration", duration, "--json")
			cmd.Env = append(os.Environ(), "SSL_CERT_FILE="+filepath.Join(s.dir, "ca.pem"))
			out, err := cmd.Output()
			var report map[string]any
			if jerr := json.Unmarshal(out, &report); jerr != nil {
				t.Fatalf("loadtest: %v %v\n%s", err, jerr, out)
			}
			var mem []string
			for i, p := range s.nodes {
				mem = append(mem, fmt.Sprintf("node%d %.0f MiB", i+1, residentMiB(p.metrics)))
			}
			t.Logf("%d node(s) behind HAProxy, %s concurrent games for %s: %v moves/s, p50 %v ms, p99 %v ms, errors %v; resident memory: %s",
				n, games, duration, report["moves_per_second"], report["latency_p50_ms"], report["latency_p99_ms"], report["errors"], strings.Join(mem, ", "))
			if report["errors"] != float64(0) {
				t.Fatalf("loadtest errors: %v (%v)", report["errors"], report["first_error"])
			}
		})
	}
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// residentMiB reads a node's resident memory from its metrics.
func residentMiB(url string) float64 {
	resp, err := http.Get(url)
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "process_resident_memory_bytes "); ok {
			f, _ := strconv.ParseFloat(v, 64)
			return f / (1 << 20)
		}
	}
	return 0
}
