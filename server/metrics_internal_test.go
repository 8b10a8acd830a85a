package server

import (
	"bufio"
	"bytes"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/compute"
)

// The server's own metrics, written by hand, against text worked out from
// the Prometheus exposition format: cumulative buckets, le="+Inf", _sum and
// _count, one HELP and TYPE line per family, label values sorted.
func TestMetricsText(t *testing.T) {
	m := newMetrics()
	m.liveGames = func() int { return 1 }
	m.pool = func() compute.Load {
		return compute.Load{Cores: 3, Busy: 2, LiveWaiting: 4, BackgroundWaiting: 5, LiveWait: 1500 * time.Millisecond}
	}
	m.botMemory = func() compute.MemoryStats {
		return compute.MemoryStats{Limit: 512 << 20, Used: 96 << 20, Kept: 64 << 20, Refused: 7}
	}
	m.wsClients.Inc()
	for range 3 {
		m.moves.Inc()
	}
	for _, v := range []float64{0.0005, 0.003, 0.003, 7} { // le=0.0005 holds 0.0005 itself
		m.latency.Observe(v)
	}
	m.requests.WithLabelValues("404").Inc()
	m.requests.WithLabelValues("200").Inc()
	m.requests.WithLabelValues("200").Inc()
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	m.write(w)
	w.Flush()
	got := buf.String()
	want := `# HELP tabula_live_games Open and live games held by an owner in this process.
# TYPE tabula_live_games gauge
tabula_live_games 1
# HELP tabula_ws_clients Connected WebSocket clients (game and user channels).
# TYPE tabula_ws_clients gauge
tabula_ws_clients 1
# HELP tabula_moves_total Moves committed (people and bots); rate() gives moves per second.
# TYPE tabula_moves_total counter
tabula_moves_total 3
# HELP tabula_move_latency_seconds Time from receiving a client's move to acknowledging it (validated and committed to disk).
# TYPE tabula_move_latency_seconds histogram
tabula_move_latency_seconds_bucket{le="0.0005"} 1
tabula_move_latency_seconds_bucket{le="0.001"} 1
tabula_move_latency_seconds_bucket{le="0.002"} 1
tabula_move_latency_seconds_bucket{le="0.005"} 3
tabula_move_latency_seconds_bucket{le="0.01"} 3
tabula_move_latency_seconds_bucket{le="0.02"} 3
tabula_move_latency_seconds_bucket{le="0.05"} 3
tabula_move_latency_seconds_bucket{le="0.1"} 3
tabula_move_latency_seconds_bucket{le="0.2"} 3
tabula_move_latency_seconds_bucket{le="0.5"} 3
tabula_move_latency_seconds_bucket{le="1"} 3
tabula_move_latency_seconds_bucket{le="2"} 3
tabula_move_latency_seconds_bucket{le="5"} 3
tabula_move_latency_seconds_bucket{le="+Inf"} 4
tabula_move_latency_seconds_sum 7.0065
tabula_move_latency_seconds_count 4
# HELP tabula_http_requests_total HTTP requests by status code.
# TYPE tabula_http_requests_total counter
tabula_http_requests_total{code="200"} 2
tabula_http_requests_total{code="404"} 1
`
	if !strings.HasPrefix(got, want) {
		t.Fatalf("metrics text:\n%s\nwant it to begin with:\n%s", got, want)
	}
	// Every family has HELP and TYPE before its samples, and every sample
	// is a name, optional labels and a number.
	typed := map[string]bool{}
	values := map[string]float64{}
	for _, line := range strings.Split(strings.TrimSuffix(got, "\n"), "\n") {
		f := strings.Fields(line)
		if f[0] == "#" {
			if f[1] == "TYPE" {
				typed[f[2]] = true
			}
			continue
		}
		name, _, _ := strings.Cut(f[0], "{")
		family := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, "_bucket"), "_sum"), "_count")
		if !typed[name] && !typed[family] {
			t.Errorf("sample before its TYPE line: %q", line)
		}
		v, err := strconv.ParseFloat(f[len(f)-1], 64)
		if len(f) != 2 || err != nil {
			t.Errorf("bad sample line %q", line)
		}
		values[name] = v
	}
	for name, want := range map[string]float64{"tabula_compute_cores": 3, "tabula_compute_busy_cores": 2,
		"tabula_compute_waiting_live": 4, "tabula_compute_waiting_background": 5, "tabula_compute_live_wait_seconds": 1.5,
		"tabula_bot_memory_limit_bytes": 512 << 20, "tabula_bot_memory_used_bytes": 96 << 20, "tabula_bot_memory_kept_bytes": 64 << 20,
		"tabula_bot_memory_refused_total": 7} {
		if values[name] != want {
			t.Errorf("%s = %v, want %v", name, values[name], want)
		}
	}
	if values["go_goroutines"] < 1 || values["go_memstats_heap_inuse_bytes"] <= 0 {
		t.Errorf("runtime metrics: goroutines %v, heap %v", values["go_goroutines"], values["go_memstats_heap_inuse_bytes"])
	}
	if runtime.GOOS == "linux" && (values["process_resident_memory_bytes"] <= 0 || values["process_open_fds"] < 3) {
		t.Errorf("process metrics: rss %v, fds %v", values["process_resident_memory_bytes"], values["process_open_fds"])
	}
}
