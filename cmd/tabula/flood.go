package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/server/wire"
)

// `tabula loadtest --flood` (issue 16): beside the pairs of people, one
// registered user and one guest start as many games with hard server bots
// as the server's quotas allow, keep them going (playing their own seats at
// once, so that the bots are always thinking) and keep asking for more. The
// run measures the people's move latency first without the flood, then
// with it, and counts how the server answered the flooders.

// floodAttemptEvery is how often each flooder asks for another game: ten
// times a second, within `tabula serve`'s default --rate, so that what a
// flooder is refused with is the game quota, not the rate limit.
const floodAttemptEvery = 100 * time.Millisecond

// floodRamp is the longest the flood may take to fill its quotas before
// the flooded phase is measured anyway.
const floodRamp = 15 * time.Second

// flooder is one user flooding the server with bot games.
type flooder struct {
	label string // "registered" or "guest"
	token string
	conn  *websocket.Conn
	names []string // the games it starts, rotated

	created atomic.Int64 // games the server let it start
	moves   atomic.Int64 // its own moves in its games against bots
	full    atomic.Bool  // it has been refused with 429 quota: its quota is full

	mu      sync.Mutex
	refused map[string]int // "429 quota" → times
	other   map[string]int // answers neither 2xx, 403 nor 429
	first   string         // the first of those
}

// floodReport is what one flooder did.
type floodReport struct {
	User    string         `json:"user"`
	Created int64          `json:"games_created"`
	Moves   int64          `json:"own_moves"`
	Refused map[string]int `json:"refused"`
	Other   map[string]int `json:"other_answers"`
	First   string         `json:"first_other_answer,omitempty"`
}

func (f *flooder) report() floodReport {
	f.mu.Lock()
	defer f.mu.Unlock()
	r := floodReport{User: f.label, Created: f.created.Load(), Moves: f.moves.Load(), Refused: map[string]int{}, Other: map[string]int{}, First: f.first}
	for k, v := range f.refused {
		r.Refused[k] = v
	}
	for k, v := range f.other {
		r.Other[k] = v
	}
	return r
}

func (f *flooder) odd(what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.other[what]++
	if f.first == "" {
		f.first = what
	}
}

// answerOf posts body and returns the status and the error code of the
// answer (empty for a success), or the transport's error.
func answerOf(ctx context.Context, base, token, path string, body any) (int, string, error) {
	data, _ := json.Marshal(body)
	req, err := http.NewRequestWithContext(ctx, "POST", base+path, bytes.NewReader(data))
	if err != nil {
		return 0, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 == 2 {
		return resp.StatusCode, "", nil
	}
	var e wire.ErrorResponse
	json.Unmarshal(b, &e)
	return resp.StatusCode, e.Error.Code, nil
}

// newFlooder makes the flooding user (registered or a guest) and opens
// its user channel.
func newFlooder(ctx context.Context, base string, registered bool, names []string) (*flooder, error) {
	var resp wire.Session
	label := "guest"
	if registered {
		label = "registered"
		var b [8]byte
		crand.Read(b[:])
		pw := make([]byte, 12)
		crand.Read(pw)
		if err := loadPost(ctx, base, "", "/api/users", map[string]string{"name": "flood-" + hex.EncodeToString(b[:4]), "password": hex.EncodeToString(pw)}, &resp); err != nil {
			return nil, err
		}
	} else if err := loadPost(ctx, base, "", "/api/guest", struct{}{}, &resp); err != nil {
		return nil, err
	}
	h := http.Header{"Authorization": {"Bearer " + resp.Token}}
	if resp.User == nil {
		return nil, errors.New("no user in the answer")
	}
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(base, "http")+"/api/ws", &websocket.DialOptions{HTTPHeader: h})
	if err != nil {
		return nil, err
	}
	c.SetReadLimit(1 << 20)
	return &flooder{label: label + " " + resp.User.Name, token: resp.Token, conn: c, names: names,
		refused: map[string]int{}, other: map[string]int{}}, nil
}

// run asks for a game every floodAttemptEvery, alternating a game of hard
// bots only and a game of its own against a hard bot, until ctx ends.
func (f *flooder) run(ctx context.Context, base string) {
	tick := time.NewTicker(floodAttemptEvery)
	defer tick.Stop()
	for i := 0; ctx.Err() == nil; i++ {
		name := f.names[(i/2)%len(f.names)]
		var opts map[string]string
		if name == "skyjo" {
			opts = map[string]string{"players": "2"}
		}
		hard := map[string]string{"kind": "bot", "level": "hard"}
		seats := []map[string]string{hard, hard}
		if i%2 == 1 {
			seats[0] = map[string]string{"kind": "me"}
		}
		code, errCode, err := answerOf(ctx, base, f.token, "/api/games", map[string]any{"game": name, "options": opts, "seats": seats})
		switch {
		case ctx.Err() != nil:
			return
		case err != nil:
			f.odd(err.Error())
		case code/100 == 2:
			f.created.Add(1)
		case code == http.StatusTooManyRequests || code == http.StatusForbidden:
			f.mu.Lock()
			f.refused[fmt.Sprintf("%d %s", code, errCode)]++
			f.mu.Unlock()
			if code == http.StatusTooManyRequests && errCode == "quota" {
				f.full.Store(true)
			}
		default:
			f.odd(fmt.Sprintf("%d %s", code, errCode))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// play answers at once, with a random legal move, every move request of
// the flooder's own seats, so that its bots never wait for it.
func (f *flooder) play(ctx context.Context, rng *rand.Rand) {
	answered := map[string]int{}
	for {
		_, data, err := f.conn.Read(ctx)
		if err != nil {
			if ctx.Err() == nil {
				f.odd("read: " + err.Error())
			}
			return
		}
		m, err := readUserMessage(data)
		if err != nil {
			f.odd("read: " + err.Error())
			return
		}
		switch m.Type {
		case wire.TypeMove:
			pr := m.Prompt
			if p, ok := answered[pr.ID]; (ok && pr.Ply <= p) || len(pr.Legal) == 0 {
				continue
			}
			answered[pr.ID] = pr.Ply
			msg := moveCommand(pr.ID, pr.Ply, pr.Legal[rng.IntN(len(pr.Legal))])
			if err := f.conn.Write(ctx, websocket.MessageText, msg); err != nil {
				if ctx.Err() == nil {
					f.odd("write: " + err.Error())
				}
				return
			}
			f.moves.Add(1)
		case wire.TypeEnd:
			// Its games end and free their places; the next attempt
			// takes one again. (Answered plies of ended games are
			// forgotten only with the flooder: a run is short.)
		case wire.TypeError:
			if ctx.Err() == nil {
				f.odd("channel: " + m.Error.Error.Code + ": " + m.Error.Error.Message)
			}
		}
	}
}

// floodPhase is the latencies of one phase of a --flood run.
type floodPhase struct {
	Moves int     `json:"moves"`
	P50   float64 `json:"latency_p50_ms"`
	P99   float64 `json:"latency_p99_ms"`
	Max   float64 `json:"latency_max_ms"`
	RSS   float64 `json:"server_rss_mb"`
	Heap  float64 `json:"server_heap_mb"`
}

// latencies sets the phase's move count and percentiles from its moves'
// latencies.
func (p *floodPhase) latencies(lat []time.Duration) {
	lat = slices.Clone(lat)
	slices.Sort(lat)
	p.Moves, p.P50, p.P99, p.Max = len(lat), percentile(lat, 0.5), percentile(lat, 0.99), percentile(lat, 1)
}

// percentile of sorted latencies, in milliseconds.
func percentile(lat []time.Duration, p float64) float64 {
	if len(lat) == 0 {
		return 0
	}
	return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
}

// floodResult is the flood part of the report.
type floodResult struct {
	Idle      floodPhase    `json:"idle"`
	Flooded   floodPhase    `json:"flooded"`
	P99Ratio  float64       `json:"p99_ratio"`
	RampSec   float64       `json:"ramp_seconds"`
	Filled    bool          `json:"quotas_filled"`
	Flooders  []floodReport `json:"flooders"`
	OtherAnsw int           `json:"other_answers"`
}

// floodText prints the flood part of the report.
func floodText(w io.Writer, r *floodResult) {
	fmt.Fprintf(w, "idle:    %d moves, latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; server RSS %.1f MiB, heap %.1f MiB\n",
		r.Idle.Moves, r.Idle.P50, r.Idle.P99, r.Idle.Max, r.Idle.RSS, r.Idle.Heap)
	fmt.Fprintf(w, "flooded: %d moves, latency p50 %.2f ms, p99 %.2f ms, max %.2f ms; server RSS %.1f MiB, heap %.1f MiB\n",
		r.Flooded.Moves, r.Flooded.P50, r.Flooded.P99, r.Flooded.Max, r.Flooded.RSS, r.Flooded.Heap)
	fmt.Fprintf(w, "p99 flooded/idle: %.2f\n", r.P99Ratio)
	if r.Filled {
		fmt.Fprintf(w, "the flooders filled their quotas in %.1fs\n", r.RampSec)
	} else {
		fmt.Fprintf(w, "the flooders did not fill their quotas within %.0fs\n", r.RampSec)
	}
	for _, f := range r.Flooders {
		fmt.Fprintf(w, "flooder %s: %d games started, %d own moves, refused: %s; other answers: %s\n",
			f.User, f.Created, f.Moves, countsText(f.Refused), countsText(f.Other))
		if f.First != "" {
			fmt.Fprintf(w, "  first other answer: %s\n", f.First)
		}
	}
}

// countsText is {"429 quota": 12} as "429 quota ×12", sorted; "none" for
// nothing.
func countsText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s ×%d", k, m[k])
	}
	return strings.Join(parts, ", ")
}
