package server

import (
	"bufio"
	"fmt"
	"maps"
	"math"
	"net/http"
	"os"
	"runtime"
	rtmetrics "runtime/metrics"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/tabula-games/tabula/compute"
)

// MetricsHandler serves the Prometheus metrics. It is not part of Handler:
// the operator serves it on an address of its own (tabula serve
// --metrics-addr, loopback by default), since the figures (process memory,
// request counts) are nobody else's business.
func (s *Server) MetricsHandler() http.Handler { return s.metrics }

// metrics are the server's Prometheus metrics, each owned by its server (so
// that several servers, in tests, can live in one process) and written in
// the text exposition format by hand. The Prometheus client library
// registers Go and process collectors in a global registry in its package
// init, which every start of the tabula binary paid for, `tabula moves`
// included (about 0.8 ms of its 5 ms when measured); these few metrics need
// none of it.
type metrics struct {
	liveGames func() int // the games owned in this process
	pool      func() compute.Load
	botMemory func() compute.MemoryStats
	wsClients gauge
	moves     counter
	latency   *histogram
	requests  counterVec
}

func newMetrics() *metrics {
	return &metrics{liveGames: func() int { return 0 }, pool: func() compute.Load { return compute.Load{} },
		botMemory: func() compute.MemoryStats { return compute.MemoryStats{} }, latency: newHistogram(.0005, .001, .002, .005, .01, .02, .05, .1, .2, .5, 1, 2, 5)}
}

// gauge is a value that goes up and down.
type gauge struct{ v atomic.Int64 }

// Inc adds one.
func (g *gauge) Inc() { g.v.Add(1) }

// Dec takes one away.
func (g *gauge) Dec() { g.v.Add(-1) }

// counter is a value that only goes up.
type counter struct{ v atomic.Uint64 }

// Inc adds one.
func (c *counter) Inc() { c.v.Add(1) }

// counterVec is a counter per value of one label.
type counterVec struct {
	mu sync.Mutex
	m  map[string]*counter
}

// WithLabelValues returns the counter for the label value v.
func (c *counterVec) WithLabelValues(v string) *counter {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]*counter{}
	}
	if c.m[v] == nil {
		c.m[v] = &counter{}
	}
	return c.m[v]
}

// histogram counts observations into buckets with the given upper bounds.
type histogram struct {
	bounds []float64
	mu     sync.Mutex
	counts []uint64 // per bucket, not cumulative; the last is +Inf
	sum    float64
}

func newHistogram(bounds ...float64) *histogram {
	return &histogram{bounds: bounds, counts: make([]uint64, len(bounds)+1)}
}

// Observe counts one observation.
func (h *histogram) Observe(v float64) {
	i, _ := slices.BinarySearch(h.bounds, v) // the first bound ≥ v: buckets are "le"
	h.mu.Lock()
	h.counts[i]++
	h.sum += v
	h.mu.Unlock()
}

// ServeHTTP writes every metric in the Prometheus text format.
func (m *metrics) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
	b := bufio.NewWriter(w)
	m.write(b)
	b.Flush()
}

func (m *metrics) write(b *bufio.Writer) {
	one := func(name, kind, help string, v float64) {
		fmt.Fprintf(b, "# HELP %s %s\n# TYPE %s %s\n%s %s\n", name, help, name, kind, name, num(v))
	}
	one("tabula_live_games", "gauge", "Open and live games held by an owner in this process.", float64(m.liveGames()))
	one("tabula_ws_clients", "gauge", "Connected WebSocket clients (game and user channels).", float64(m.wsClients.v.Load()))
	one("tabula_moves_total", "counter", "Moves committed (people and bots); rate() gives moves per second.", float64(m.moves.v.Load()))

	h := m.latency
	h.mu.Lock()
	counts, sum := slices.Clone(h.counts), h.sum
	h.mu.Unlock()
	const lat = "tabula_move_latency_seconds"
	fmt.Fprintf(b, "# HELP %s Time from receiving a client's move to acknowledging it (validated and committed to disk).\n# TYPE %s histogram\n", lat, lat)
	var cum uint64
	for i, c := range counts {
		cum += c
		le := "+Inf"
		if i < len(h.bounds) {
			le = num(h.bounds[i])
		}
		fmt.Fprintf(b, "%s_bucket{le=%q} %d\n", lat, le, cum)
	}
	fmt.Fprintf(b, "%s_sum %s\n%s_count %d\n", lat, num(sum), lat, cum)

	const req = "tabula_http_requests_total"
	fmt.Fprintf(b, "# HELP %s HTTP requests by status code.\n# TYPE %s counter\n", req, req)
	m.requests.mu.Lock()
	codes := slices.Sorted(maps.Keys(m.requests.m))
	for _, code := range codes {
		fmt.Fprintf(b, "%s{code=%q} %d\n", req, code, m.requests.m[code].v.Load())
	}
	m.requests.mu.Unlock()

	pool := m.pool()
	one("tabula_compute_cores", "gauge", "Cores of the pool of search workers (bots, analysis).", float64(pool.Cores))
	one("tabula_compute_busy_cores", "gauge", "Cores of the pool held by running searches.", float64(pool.Busy))
	one("tabula_compute_waiting_live", "gauge", "Bot moves waiting for the pool.", float64(pool.LiveWaiting))
	one("tabula_compute_waiting_background", "gauge", "Background searches (analysis) waiting for the pool.", float64(pool.BackgroundWaiting))
	one("tabula_compute_live_wait_seconds", "gauge", "How long bot moves waited for the pool lately (moving average).", pool.LiveWait.Seconds())
	mem := m.botMemory()
	one("tabula_bot_memory_limit_bytes", "gauge", "The node's memory budget for bots' trees and tables (serve --bot-memory).", float64(mem.Limit))
	one("tabula_bot_memory_used_bytes", "gauge", "Bytes of the bot memory budget reserved now, kept between moves included.", float64(mem.Used))
	one("tabula_bot_memory_kept_bytes", "gauge", "Bytes of the bot memory budget that bots keep between moves.", float64(mem.Kept))
	one("tabula_bot_memory_refused_total", "counter", "Reservations of bot memory that did not fit (a search made do with less).", float64(mem.Refused))

	writeRuntime(b, one)
}

// runtimeSamples are the Go runtime's figures the metrics show.
var runtimeSamples = []string{
	"/memory/classes/heap/objects:bytes",
	"/memory/classes/heap/unused:bytes",
	"/memory/classes/total:bytes",
}

// writeRuntime writes the Go and process metrics operators look for, under
// the client library's names: goroutines, heap in use and memory from the
// runtime; resident and virtual memory, CPU time and open files from /proc
// where there is one (Linux).
func writeRuntime(b *bufio.Writer, one func(name, kind, help string, v float64)) {
	s := make([]rtmetrics.Sample, len(runtimeSamples))
	for i, n := range runtimeSamples {
		s[i].Name = n
	}
	rtmetrics.Read(s)
	u := func(i int) float64 {
		if s[i].Value.Kind() != rtmetrics.KindUint64 {
			return math.NaN()
		}
		return float64(s[i].Value.Uint64())
	}
	one("go_goroutines", "gauge", "Number of goroutines that currently exist.", float64(runtime.NumGoroutine()))
	one("go_memstats_heap_inuse_bytes", "gauge", "Bytes in in-use heap spans.", u(0)+u(1))
	one("go_memstats_sys_bytes", "gauge", "Bytes obtained from the system.", u(2))
	if statm, err := os.ReadFile("/proc/self/statm"); err == nil {
		f := strings.Fields(string(statm))
		page := float64(os.Getpagesize())
		if len(f) >= 2 {
			vsz, _ := strconv.ParseFloat(f[0], 64)
			rss, _ := strconv.ParseFloat(f[1], 64)
			one("process_virtual_memory_bytes", "gauge", "Virtual memory size in bytes.", vsz*page)
			one("process_resident_memory_bytes", "gauge", "Resident memory size in bytes.", rss*page)
		}
	}
	if stat, err := os.ReadFile("/proc/self/stat"); err == nil {
		// Fields after the command name (which may hold spaces) start at
		// the state, field 3; utime and stime are fields 14 and 15, in
		// clock ticks of 1/100 s on Linux.
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 {
			f := strings.Fields(string(stat[i+1:]))
			if len(f) > 12 {
				ut, _ := strconv.ParseFloat(f[11], 64)
				st, _ := strconv.ParseFloat(f[12], 64)
				one("process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.", (ut+st)/100)
			}
		}
	}
	if fds, err := os.ReadDir("/proc/self/fd"); err == nil {
		one("process_open_fds", "gauge", "Number of open file descriptors.", float64(len(fds)))
	}
}

// num writes a value as Prometheus does: integers without a fraction.
func num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}
