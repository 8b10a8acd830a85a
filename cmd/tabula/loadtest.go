package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server/wire"
)

// `tabula loadtest` plays many concurrent bot-vs-bot games through the
// WebSocket bot API of a server on this machine and reports throughput and
// latency. It is bounded: a fixed number of concurrent games for a fixed
// time, loopback addresses only, and it stops by itself.

type loadStats struct {
	mu sync.Mutex
	// latencies by the phase of the run in which the move was
	// acknowledged (--flood: idle, ramp, flooded; otherwise all idle).
	latencies [numPhases][]time.Duration
	phase     atomic.Int32
	moves     atomic.Int64
	finished  atomic.Int64
	errors    atomic.Int64
	clients   atomic.Int64
	maxConns  atomic.Int64
	firstErr  atomic.Value
}

// The phases of a run.
const (
	phaseIdle    = iota // no flood (the whole run without --flood)
	phaseRamp           // the flooders are filling their quotas: not measured
	phaseFlooded        // the flooders hold their quotas
	numPhases
)

func (s *loadStats) fail(err error) {
	s.errors.Add(1)
	s.firstErr.CompareAndSwap(nil, err.Error())
}

func runLoadtest(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	addr := fs.String("addr", "", "server base `URL` on a loopback address (default: start tabula serve on a temporary database)")
	metricsURL := fs.String("metrics", "", "with --addr: the server's metrics `URL` on a loopback address (its --metrics-addr), to report its memory")
	games := fs.Int("games", 100, "concurrent games (two WebSocket clients each)")
	duration := fs.Duration("duration", 20*time.Second, "how long to play")
	which := fs.String("game", "all", "game to play, or all (rotated)")
	seed := fs.Uint64("seed", 1, "seed of the clients' random move choices")
	jsonOut := fs.Bool("json", false, "print the report as one JSON object")
	flood := fs.Bool("flood", false, "play --duration without a flood, then --duration while a registered user and a guest start as many games with hard server bots as the quotas allow and keep asking for more; report the latencies of both phases and how the flooders were refused")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected arguments %q", pos)
	}
	if *games < 1 || *games > 5000 {
		return fmt.Errorf("--games %d: want 1…5000", *games)
	}
	if *duration <= 0 || *duration > 10*time.Minute {
		return fmt.Errorf("--duration %v: want up to 10m", *duration)
	}
	names := game.Names()
	if *which != "all" {
		if _, err := game.Lookup(*which); err != nil {
			return err
		}
		names = []string{*which}
	}
	if len(names) == 0 {
		return errors.New("no games are registered")
	}

	base, metrics := *addr, *metricsURL
	var child *exec.Cmd
	if base == "" {
		var dir string
		base, metrics, child, dir, err = startServeChild(stderr)
		if err != nil {
			return err
		}
		defer os.RemoveAll(dir)
		defer func() {
			child.Process.Signal(syscall.SIGTERM)
			done := make(chan struct{})
			go func() { child.Wait(); close(done) }()
			select {
			case <-done:
			case <-time.After(20 * time.Second):
				child.Process.Kill()
			}
		}()
	}
	if err := checkLoopback("--addr", base); err != nil {
		return err
	}
	if metrics != "" {
		if err := checkLoopback("--metrics", metrics); err != nil {
			return err
		}
	}

	stats := &loadStats{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	start := time.Now()
	for i := 0; i < *games; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewPCG(*seed, uint64(i)))
			loadPair(ctx, base, names[i%len(names)], rng, stats)
		}()
		// Ramp up gently: account creation and dialing are the expensive part.
		time.Sleep(2 * time.Millisecond)
	}
	var fr *floodResult
	var flooders []*flooder
	if *flood {
		fr, flooders = runFlood(ctx, base, metrics, names, start, *duration, *seed, stats)
	} else {
		sleepUntil(ctx, start.Add(*duration))
	}
	cancel()
	wg.Wait()
	for _, f := range flooders {
		f.conn.CloseNow()
	}
	elapsed := time.Since(start)
	mem, heap := serverMemory(metrics)

	stats.mu.Lock()
	var lat []time.Duration
	for _, l := range stats.latencies {
		lat = append(lat, l...)
	}
	if fr != nil {
		fr.Idle.latencies(stats.latencies[phaseIdle])
		fr.Flooded.latencies(stats.latencies[phaseFlooded])
		if fr.Idle.P99 > 0 {
			fr.P99Ratio = round2(fr.Flooded.P99 / fr.Idle.P99)
		}
		for _, f := range flooders {
			r := f.report()
			fr.Flooders = append(fr.Flooders, r)
			for _, n := range r.Other {
				fr.OtherAnsw += n
			}
		}
	}
	stats.mu.Unlock()
	slices.Sort(lat)
	pct := func(p float64) float64 { return percentile(lat, p) }
	report := map[string]any{
		"games_concurrent":  *games,
		"clients":           stats.maxConns.Load(),
		"games_finished":    stats.finished.Load(),
		"moves":             stats.moves.Load(),
		"seconds":           round2(elapsed.Seconds()),
		"moves_per_second":  round2(float64(stats.moves.Load()) / elapsed.Seconds()),
		"latency_p50_ms":    pct(0.50),
		"latency_p99_ms":    pct(0.99),
		"latency_max_ms":    pct(1),
		"errors":            stats.errors.Load(),
		"server_rss_mb":     round2(mem / (1 << 20)),
		"server_heap_mb":    round2(heap / (1 << 20)),
		"games":             strings.Join(names, ","),
		"server_started_by": map[bool]string{true: "loadtest", false: "you"}[child != nil],
	}
	if e, ok := stats.firstErr.Load().(string); ok {
		report["first_error"] = e
	}
	if fr != nil {
		report["flood"] = fr
	}
	if *jsonOut {
		b, _ := json.Marshal(report)
		fmt.Fprintln(stdout, string(b))
	} else {
		fmt.Fprintf(stdout, "games: %s\n", report["games"])
		fmt.Fprintf(stdout, "concurrent games %d, WebSocket clients %d, games finished %d\n", *games, report["clients"], report["games_finished"])
		fmt.Fprintf(stdout, "moves %d in %.1fs: %.0f moves/s\n", report["moves"], elapsed.Seconds(), report["moves_per_second"])
		fmt.Fprintf(stdout, "move latency (send to acknowledgement, committed): p50 %.2f ms, p99 %.2f ms, max %.2f ms\n", pct(0.5), pct(0.99), pct(1))
		fmt.Fprintf(stdout, "errors %d\n", report["errors"])
		fmt.Fprintf(stdout, "server memory: RSS %.1f MiB, Go heap in use %.1f MiB\n", report["server_rss_mb"], report["server_heap_mb"])
		if e, ok := report["first_error"]; ok {
			fmt.Fprintf(stdout, "first error: %s\n", e)
		}
		if fr != nil {
			floodText(stdout, fr)
		}
	}
	if n := stats.errors.Load(); n > 0 {
		return fmt.Errorf("%d errors", n)
	}
	if fr != nil && fr.OtherAnsw > 0 {
		return fmt.Errorf("the flooders got %d answers other than a game, 403 or 429", fr.OtherAnsw)
	}
	return nil
}

// sleepUntil returns at t or when ctx ends.
func sleepUntil(ctx context.Context, t time.Time) {
	timer := time.NewTimer(time.Until(t))
	defer timer.Stop()
	select {
	case <-timer.C:
	case <-ctx.Done():
	}
}

// runFlood is the rest of a --flood run once the pairs are playing: the
// idle phase until start+d, then the flooders, who get up to floodRamp to
// fill their quotas, then the flooded phase for d. It returns with the
// flooders still playing; the caller's cancelling ctx stops them.
func runFlood(ctx context.Context, base, metrics string, names []string, start time.Time, d time.Duration, seed uint64, stats *loadStats) (*floodResult, []*flooder) {
	fr := &floodResult{}
	sleepUntil(ctx, start.Add(d))
	rss, heap := serverMemory(metrics)
	fr.Idle.RSS, fr.Idle.Heap = round2(rss/(1<<20)), round2(heap/(1<<20))
	stats.phase.Store(phaseRamp)
	rampStart := time.Now()
	var flooders []*flooder
	for i, registered := range []bool{true, false} {
		f, err := newFlooder(ctx, base, registered, names)
		if err != nil {
			stats.fail(fmt.Errorf("flooder: %w", err))
			continue
		}
		flooders = append(flooders, f)
		go f.run(ctx, base)
		go f.play(ctx, rand.New(rand.NewPCG(seed, uint64(1_000_000+i))))
	}
	for time.Since(rampStart) < floodRamp && ctx.Err() == nil {
		full := true
		for _, f := range flooders {
			full = full && f.full.Load()
		}
		if full {
			fr.Filled = true
			break
		}
		sleepUntil(ctx, time.Now().Add(20*time.Millisecond))
	}
	fr.RampSec = round2(time.Since(rampStart).Seconds())
	stats.phase.Store(phaseFlooded)
	sleepUntil(ctx, time.Now().Add(d))
	rss, heap = serverMemory(metrics)
	fr.Flooded.RSS, fr.Flooded.Heap = round2(rss/(1<<20)), round2(heap/(1<<20))
	return fr, flooders
}

func round2(x float64) float64 { return float64(int64(x*100+0.5)) / 100 }

// checkLoopback refuses any target that is not this machine.
func checkLoopback(flagName, base string) error {
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return fmt.Errorf("%s %q: want http://127.0.0.1:PORT", flagName, base)
	}
	host := u.Hostname()
	ips, err := net.LookupIP(host)
	if err != nil || len(ips) == 0 {
		return fmt.Errorf("%s %q: cannot resolve %s", flagName, base, host)
	}
	for _, ip := range ips {
		if !ip.IsLoopback() {
			return fmt.Errorf("%s %q: the load generator only targets loopback addresses", flagName, base)
		}
	}
	return nil
}

// startServeChild runs `tabula serve` on a free loopback port with a
// temporary database and no rate limits, and returns its base URL and its
// metrics URL (on another free loopback port).
func startServeChild(stderr io.Writer) (base, metrics string, cmd *exec.Cmd, dir string, err error) {
	exe, err := os.Executable()
	if err != nil {
		return "", "", nil, "", err
	}
	dir, err = os.MkdirTemp("", "tabula-loadtest-")
	if err != nil {
		return "", "", nil, "", err
	}
	cmd = exec.Command(exe, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--db", filepath.Join(dir, "load.db"),
		"--rate", "0", "--signup-rate", "0", "--ws-rate", "0", "--log-level", "warn")
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return "", "", nil, dir, err
	}
	if err := cmd.Start(); err != nil {
		return "", "", nil, dir, err
	}
	// serve prints the site's line, then the metrics line.
	found := make(chan [2]string, 1)
	go func() {
		var site string
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			if a, ok := strings.CutPrefix(sc.Text(), "listening on "); ok {
				site = a
			}
			if a, ok := strings.CutPrefix(sc.Text(), "metrics on "); ok {
				found <- [2]string{site, a}
			}
		}
	}()
	select {
	case a := <-found:
		return a[0], a[1], cmd, dir, nil
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		return "", "", nil, dir, errors.New("tabula serve did not start within 30s")
	}
}

// serverMemory reads the server's resident memory and Go heap from its
// Prometheus metrics (0 and 0 without them).
func serverMemory(metrics string) (rss, heap float64) {
	if metrics == "" {
		return 0, 0
	}
	resp, err := http.Get(metrics)
	if err != nil {
		return 0, 0
	}
	defer resp.Body.Close()
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 2 {
			continue
		}
		v, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "process_resident_memory_bytes":
			rss = v
		case "go_memstats_heap_inuse_bytes":
			heap = v
		}
	}
	return rss, heap
}

// loadPlayer is one guest with its user channel.
type loadPlayer struct {
	token string
	name  string
	conn  *websocket.Conn
}

func loadPost(ctx context.Context, base, token, path string, body any, out any) error {
	data, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", base+path, bytes.NewReader(data))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode/100 != 2 {
		return fmt.Errorf("POST %s: %d %s", path, resp.StatusCode, bytes.TrimSpace(b))
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}

// loadPair is two guests playing one game after another, each answering
// its user channel's move requests with random legal moves, until ctx ends.
func loadPair(ctx context.Context, base, name string, rng *rand.Rand, stats *loadStats) {
	var ps [2]*loadPlayer
	for i := range ps {
		var resp wire.Session
		if err := loadPost(ctx, base, "", "/api/guest", struct{}{}, &resp); err != nil {
			if ctx.Err() == nil {
				stats.fail(err)
			}
			return
		}
		h := http.Header{"Authorization": {"Bearer " + resp.Token}}
		c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: h})
		if err != nil {
			if ctx.Err() == nil {
				stats.fail(err)
			}
			return
		}
		c.SetReadLimit(1 << 20)
		defer c.CloseNow()
		if resp.User == nil {
			stats.fail(errors.New("POST /api/guest: no user in the answer"))
			return
		}
		ps[i] = &loadPlayer{token: resp.Token, name: resp.User.Name, conn: c}
		stats.maxConns.Store(max(stats.maxConns.Load(), stats.clients.Add(1)))
		defer stats.clients.Add(-1)
	}
	var opts map[string]string
	if name == "skyjo" {
		opts = map[string]string{"players": "2"}
	}
	for ctx.Err() == nil {
		var created wire.GameResult
		err := loadPost(ctx, base, ps[0].token, "/api/games", map[string]any{"game": name, "options": opts,
			"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": ps[1].name}}}, &created)
		if err == nil {
			err = loadPost(ctx, base, ps[1].token, "/api/games/"+created.Game.ID+"/join", struct{}{}, nil)
		}
		if err != nil {
			if ctx.Err() == nil {
				stats.fail(err)
			}
			return
		}
		var wg sync.WaitGroup
		for i, p := range ps {
			wg.Add(1)
			r := rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
			go func() { defer wg.Done(); p.play(ctx, created.Game.ID, r, stats, i == 0) }()
		}
		wg.Wait()
	}
}

// play answers move requests for game id until it ends or ctx does.
// counter says whether this player counts the game as finished (one of the
// two does).
func (p *loadPlayer) play(ctx context.Context, id string, rng *rand.Rand, stats *loadStats, counter bool) {
	answered := -1
	var sent time.Time
	// The end of a game is announced before the acknowledgement of the
	// move that ended it; wait for that too, so every move is measured.
	pending, ended := false, false
	for {
		_, data, err := p.conn.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				stats.fail(fmt.Errorf("read: %w", err))
			}
			return
		}
		m, err := readUserMessage(data)
		if err != nil {
			stats.fail(err)
			return
		}
		switch m.Type {
		case wire.TypeMove:
			pr := m.Prompt
			if pr.ID != id || pr.Ply <= answered || len(pr.Legal) == 0 {
				continue
			}
			answered, pending = pr.Ply, true
			msg := moveCommand(id, pr.Ply, pr.Legal[rng.IntN(len(pr.Legal))])
			sent = time.Now()
			if err := p.conn.Write(ctx, websocket.MessageText, msg); err != nil {
				if ctx.Err() == nil {
					stats.fail(err)
				}
				return
			}
		case wire.TypeAck:
			if m.Ack.ID == id && m.Ack.Ply != nil && *m.Ack.Ply == answered && pending {
				d := time.Since(sent)
				pending = false
				stats.moves.Add(1)
				ph := stats.phase.Load()
				stats.mu.Lock()
				stats.latencies[ph] = append(stats.latencies[ph], d)
				stats.mu.Unlock()
				if ended {
					return
				}
			}
		case wire.TypeError:
			if ctx.Err() == nil {
				stats.fail(fmt.Errorf("game %s: %s: %s", id, m.Error.Error.Code, m.Error.Error.Message))
			}
			return
		case wire.TypeEnd:
			if m.Event.Game.ID == id {
				if counter {
					stats.finished.Add(1)
				}
				if !pending {
					return
				}
				ended = true
			}
		}
	}
}
