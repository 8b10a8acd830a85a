package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
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

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server/wire"
)

// The connector's tests run a real server (tabula serve on a SQLite file,
// in this process), a user "alice" who challenges and plays through the
// HTTP API, and the connector for the account "robot" with an engine:
// this test binary acting as one (TABULA_CONNECT_ENGINE, below) or a
// built-in level.

func init() {
	// Run before TestMain: the test binary as an engine of its own modes,
	// or as the tabula command (the arguments in $TABULA_CONNECT_ARGS, as
	// a JSON list), to be sent real signals.
	if mode := os.Getenv("TABULA_CONNECT_ENGINE"); mode != "" {
		connectEngine(mode)
		os.Exit(0)
	}
	if args := os.Getenv("TABULA_CONNECT_ARGS"); args != "" {
		var list []string
		if json.Unmarshal([]byte(args), &list) != nil {
			os.Exit(2)
		}
		os.Exit(run(list, os.Stdin, os.Stdout, os.Stderr))
	}
}

// connectEngine plays a random legal move. Modes: "any" (every game),
// "sgolte" (its hello lists Sgolte only), "times" (writes each request's
// timeMs to the file $TABULA_CONNECT_TIMES), "illegal" (answers a move no
// game has).
func connectEngine(mode string) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<20)
	rng := rand.New(rand.NewPCG(uint64(os.Getpid()), 7))
	for in.Scan() {
		var req struct {
			Type   string   `json:"type"`
			Legal  []string `json:"legal"`
			TimeMs int64    `json:"timeMs"`
		}
		if json.Unmarshal(in.Bytes(), &req) != nil {
			os.Exit(3)
		}
		if req.Type == "hello" {
			games := ""
			if mode == "sgolte" {
				games = `,"games":["sgolte"]`
			}
			fmt.Printf(`{"type":"hello","protocol":2,"name":"connect test (%s)"%s}`+"\n", mode, games)
			continue
		}
		move := req.Legal[rng.IntN(len(req.Legal))]
		switch mode {
		case "illegal":
			move = "zz99"
		case "times":
			f, err := os.OpenFile(os.Getenv("TABULA_CONNECT_TIMES"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
			if err == nil {
				fmt.Fprintln(f, req.TimeMs)
				f.Close()
			}
		}
		out, _ := json.Marshal(map[string]string{"move": move})
		fmt.Println(string(out))
	}
}

func connectSpec(t *testing.T, mode string, env ...string) string {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("exec:%s %q", strings.Join(append(env, "TABULA_CONNECT_ENGINE="+mode), " "), exe)
}

// site is a server under test: its address, database and accounts.
type site struct {
	t     *testing.T
	dir   string
	addr  string // host:port, kept across restarts
	base  string
	m     *serveMain
	alice string        // alice's session token
	robot string        // robot's API token
	sweep time.Duration // the connectors' sweep; 0 is 500 ms
}

// startSite serves a new database and registers alice and robot.
func startSite(t *testing.T) *site {
	t.Helper()
	s := &site{t: t, dir: t.TempDir(), addr: "127.0.0.1:0"}
	s.start()
	t.Cleanup(func() {
		if s.m != nil {
			s.m.close()
		}
	})
	s.alice = s.register("alice")
	session := s.register("robot")
	var tok struct{ Token string }
	s.call(session, http.MethodPost, "/api/tokens", map[string]string{"name": "connector"}, &tok)
	s.robot = tok.Token
	return s
}

func (s *site) start() {
	s.t.Helper()
	m, err := parseServe([]string{"--addr", s.addr, "--db", filepath.Join(s.dir, "site.db"), "--log-level", "error",
		"--metrics-addr", "", "--rate", "0", "--signup-rate", "0", "--ws-rate", "0", "--bot-cores", "1",
		"--max-open-games", "-1", "--max-bot-games", "-1"})
	if err != nil {
		s.t.Fatal(err)
	}
	var out bytes.Buffer
	if err := m.run(context.Background(), &out, io.Discard); err != nil {
		m.close()
		s.t.Fatal(err)
	}
	s.m = m
	base := lineAfter(out.String(), "listening on ")
	if s.base == "" {
		// Set once: other goroutines read them while the server restarts.
		s.base, s.addr = base, strings.TrimPrefix(base, "http://")
	} else if base != s.base {
		s.t.Fatalf("restarted on %s, not %s", base, s.base)
	}
}

// restart stops the server and starts it again on the same address and
// database.
func (s *site) restart() {
	s.t.Helper()
	if err := s.m.close(); err != nil {
		s.t.Logf("close: %v", err)
	}
	s.m = nil
	s.start()
}

func (s *site) register(name string) string {
	var r struct{ Token string }
	s.call("", http.MethodPost, "/api/users", map[string]string{"name": name, "password": "a long test passphrase 7"}, &r)
	return r.Token
}

// call makes a request that must succeed.
func (s *site) call(token, method, path string, body, out any) {
	s.t.Helper()
	if err := s.try(token, method, path, body, out); err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
}

// try makes a request and returns its error.
func (s *site) try(token, method, path string, body, out any) error {
	c := &connector{o: connectOptions{server: s.base, token: token}, http: &http.Client{Timeout: 20 * time.Second}}
	return c.api(context.Background(), method, path, body, out)
}

// challenge has alice invite robot to a game; seats, clock and rated as
// POST /api/games takes them (seats nil: alice and robot).
func (s *site) challenge(body map[string]any) string {
	s.t.Helper()
	if body["seats"] == nil {
		body["seats"] = []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "robot"}}
	}
	var r wire.GameResult
	s.call(s.alice, http.MethodPost, "/api/games", body, &r)
	return r.Game.ID
}

func (s *site) summary(id string) wire.Snapshot {
	var snap wire.Snapshot
	s.call(s.alice, http.MethodGet, "/api/games/"+id, nil, &snap)
	return snap
}

// syncBuffer is a log written by one goroutine and read by the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// running is a connector running in this process.
type running struct {
	log   *syncBuffer
	stops chan struct{}
	done  chan error
}

// startBot runs the connector for robot with the engine and policy.
func (s *site) startBot(engine string, p botPolicy, onStop string) *running {
	s.t.Helper()
	if err := p.check(); err != nil {
		s.t.Fatal(err)
	}
	if onStop == "" {
		onStop = "finish"
	}
	r := &running{log: &syncBuffer{}, stops: make(chan struct{}, 2), done: make(chan error, 1)}
	sweep := s.sweep
	if sweep == 0 {
		sweep = 500 * time.Millisecond
	}
	o := connectOptions{server: s.base, token: s.robot, engine: engine, policy: p, onStop: onStop, seed: 1, sweep: sweep}
	go func() { r.done <- connect(context.Background(), o, r.stops, r.log) }()
	s.t.Cleanup(func() {
		select {
		case r.stops <- struct{}{}:
		default:
		}
		select {
		case r.stops <- struct{}{}:
		default:
		}
		select {
		case <-r.done:
		case <-time.After(30 * time.Second):
			s.t.Errorf("the connector did not stop; its log:\n%s", r.log)
		}
	})
	return r
}

// waitLog waits until the connector's log matches re.
func (r *running) waitLog(t *testing.T, re string) {
	t.Helper()
	rx := regexp.MustCompile(re)
	// Three minutes: a whole game of Sgolte between the easy level and
	// the test's player, race-built, took more than 60 s in a clean-clone
	// .ci/run at a load of 50 (TestBotBuiltInEngine); a line that comes
	// costs no more for the longer bound.
	deadline := time.Now().Add(3 * time.Minute)
	for !rx.MatchString(r.log.String()) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 3 minutes for a log line matching %s; the log:\n%s", re, r.log)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stopped waits for the connector to end by itself.
func (r *running) stopped(t *testing.T) {
	t.Helper()
	select {
	case err := <-r.done:
		if err != nil {
			t.Fatalf("the connector ended with %v; its log:\n%s", err, r.log)
		}
		r.done <- nil // for the cleanup
	case <-time.After(60 * time.Second):
		t.Fatalf("the connector did not stop; its log:\n%s", r.log)
	}
}

func waitFor(t *testing.T, d time.Duration, cond func() bool, what string) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for %s", d, what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// alice plays her turns in the given games with random legal moves, until
// ctx ends, as far as allow lets her (nil: always). Failed requests (the
// server restarting) are tried again.
func (s *site) alicePlays(ctx context.Context, allow func(id string, ply int) bool) {
	rng := rand.New(rand.NewPCG(3, 4))
	for ctx.Err() == nil {
		var n wire.Notifications
		if err := s.try(s.alice, http.MethodGet, "/api/notifications", nil, &n); err != nil {
			time.Sleep(20 * time.Millisecond)
			continue
		}
		played := false
		for _, yt := range n.YourTurn {
			if allow != nil && !allow(yt.ID, yt.Ply) {
				continue
			}
			var snap wire.Snapshot
			if s.try(s.alice, http.MethodGet, "/api/games/"+yt.ID, nil, &snap) != nil || len(snap.Legal) == 0 {
				continue
			}
			ply := len(snap.Moves)
			move := snap.Legal[rng.IntN(len(snap.Legal))]
			if s.try(s.alice, http.MethodPost, "/api/games/"+yt.ID+"/moves", map[string]any{"ply": ply, "move": move}, nil) == nil {
				played = true
			}
		}
		if !played {
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// checkGames checks the games finished and that every move of robot's
// in the stored record was sent once: the connector's logs (of every run)
// say "played" at most once per ply, with the move stored, and miss at
// most one acknowledgement per game and interruption.
func (s *site) checkGames(ids []string, interruptions int, logs ...*syncBuffer) {
	s.t.Helper()
	text := func() string {
		var all strings.Builder
		for _, l := range logs {
			all.WriteString(l.String())
		}
		return all.String()
	}
	// The end of a game can reach the connector before the acknowledgement
	// of the move that ended it, which it logs when it comes (its c.over):
	// the log is read once it has caught up, or after five seconds.
	for deadline := time.Now().Add(5 * time.Second); s.unlogged(ids, text()) > interruptions && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
	}
	all := text()
	played := regexp.MustCompile(`game (\S+): ply (\d+): played (.+)`)
	count := map[string]int{}
	moveAt := map[string]string{}
	for _, m := range played.FindAllStringSubmatch(all, -1) {
		k := m[1] + "/" + m[2]
		count[k]++
		moveAt[k] = m[3]
	}
	for _, id := range ids {
		snap := s.summary(id)
		if snap.Game.Status != wire.StatusFinished {
			s.t.Errorf("game %s: %s, want finished", id, snap.Game.Status)
			continue
		}
		seat := seatOf(&snap.Game, "robot")
		missing := 0
		for i, m := range snap.Moves {
			if m.Ply != i {
				s.t.Errorf("game %s: the %dth move stored is ply %d", id, i, m.Ply)
			}
			if m.Seat != seat {
				continue
			}
			k := fmt.Sprintf("%s/%d", id, m.Ply)
			switch {
			case count[k] > 1:
				s.t.Errorf("game %s: ply %d played %d times by the log", id, m.Ply, count[k])
			case count[k] == 0:
				missing++
			case moveAt[k] != m.Move:
				s.t.Errorf("game %s: ply %d: the log says %s, the game %s", id, m.Ply, moveAt[k], m.Move)
			}
			delete(count, k)
		}
		if missing > interruptions {
			s.t.Errorf("game %s: %d of robot's moves never acknowledged (interruptions: %d)", id, missing, interruptions)
		}
		if snap.Game.Result != nil && snap.Game.Result.Reason != wire.ReasonNormal {
			s.t.Errorf("game %s ended %s, want normal", id, snap.Game.Result.Reason)
		}
	}
	for k := range count {
		for _, id := range ids {
			if strings.HasPrefix(k, id+"/") {
				s.t.Errorf("the log says %s was played, but the game has no such move of robot's", k)
			}
		}
	}
	if s.t.Failed() {
		s.t.Logf("logs:\n%s", all)
	}
}

// unlogged is the most of robot's moves stored in one of the finished games
// ids that the log does not say were played.
func (s *site) unlogged(ids []string, log string) int {
	most := 0
	for _, id := range ids {
		snap := s.summary(id)
		if snap.Game.Status != wire.StatusFinished {
			continue
		}
		seat, n := seatOf(&snap.Game, "robot"), 0
		for _, m := range snap.Moves {
			if m.Seat == seat && !strings.Contains(log, fmt.Sprintf("game %s: ply %d: played ", id, m.Ply)) {
				n++
			}
		}
		most = max(most, n)
	}
	return most
}

// threeGames are the games of the concurrency and reconnection tests: one
// of each kind of request (Skyjo's hidden cards and two-step turns
// included), short enough to finish quickly.
var threeGames = []map[string]any{
	{"game": "sgolte"},
	{"game": "sploof"},
	{"game": "skyjo", "options": map[string]string{"target": "1", "maxturns": "10"}},
}

// TestBotPolicy: the connector accepts the challenges its policy allows
// and declines the others, saying why.
func TestBotPolicy(t *testing.T) {
	s := startSite(t)
	p := botPolicy{Games: []string{"sgolte", "skyjo"}, Clocks: []string{"none", "realtime"}, MinInitialMs: 60000,
		Rated: "unrated", MaxGames: 1, Options: map[string]map[string][]string{"sgolte": {"size": {"5"}}}}
	bot := s.startBot(connectSpec(t, "sgolte"), p, "")
	bot.waitLog(t, `connected to`)
	decline := []struct {
		body map[string]any
		why  string
	}{
		{map[string]any{"game": "sploof"}, `sploof is not among the games accepted \(sgolte, skyjo\)`},
		{map[string]any{"game": "skyjo"}, `the engine does not play skyjo`},
		{map[string]any{"game": "sgolte", "options": map[string]string{"size": "7"}}, `option size=7 is not accepted \(accepted: 5\)`},
		{map[string]any{"game": "sgolte", "clock": map[string]any{"kind": "correspondence", "days": 3}}, `clock correspondence is not accepted`},
		{map[string]any{"game": "sgolte", "clock": map[string]any{"kind": "realtime", "initialMs": 30000, "incrementMs": 0}}, `clock realtime 30s\+0s: less than 1m0s to start with`},
		{map[string]any{"game": "sgolte", "rated": true}, `only unrated games are accepted`},
	}
	for _, d := range decline {
		id := s.challenge(d.body)
		bot.waitLog(t, `challenge `+id+` from alice \(.*\): declined: `+d.why)
		waitFor(t, 10*time.Second, func() bool { return s.summary(id).Game.Status == wire.StatusAborted }, id+" aborted")
	}
	// Accepted: it is played (alice plays too), and while it goes on a
	// second challenge is one game too many.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	first := s.challenge(map[string]any{"game": "sgolte", "clock": map[string]any{"kind": "realtime", "initialMs": 600000, "incrementMs": 0}})
	bot.waitLog(t, `challenge `+first+` from alice \(sgolte, clock realtime 10m0s\+0s, unrated\): accepted`)
	bot.waitLog(t, `game `+first+`: started \(sgolte, seat 1, vs alice`)
	second := s.challenge(map[string]any{"game": "sgolte"})
	bot.waitLog(t, `challenge `+second+` from alice \(sgolte, clock none, unrated\): declined: already 1 games at once \(maxGames 1\)`)
	go s.alicePlays(ctx, nil)
	bot.waitLog(t, `game `+first+`: ended: `)
	s.checkGames([]string{first}, 0, bot.log)
}

// TestBotPolicyUnit: the decisions on summaries alone.
func TestBotPolicyUnit(t *testing.T) {
	p := botPolicy{IgnoreUsers: []string{"Mallory"}, KeptDeal: false}
	if err := p.check(); err != nil {
		t.Fatal(err)
	}
	all := func(string) bool { return true }
	g := wire.Summary{Game: "sgolte", Creator: "mallory", Clock: wire.TimeControl{Kind: wire.ClockNone}}
	if ok, why := p.decide(&g, all, 0); ok || why != "challenges from mallory are ignored" {
		t.Errorf("ignored user: %v %q", ok, why)
	}
	g.Creator = "bob"
	if ok, why := p.decide(&g, all, 0); !ok {
		t.Errorf("bob: declined: %s", why)
	}
	if ok, why := p.decide(&g, all, 2); ok || !strings.Contains(why, "maxGames 2") {
		t.Errorf("the default maxGames: %v %q", ok, why)
	}
	g.Start = &wire.Start{From: wire.OriginPosition, KeepDeal: true}
	if ok, why := p.decide(&g, all, 0); ok || !strings.Contains(why, "keptDeal") {
		t.Errorf("kept deal: %v %q", ok, why)
	}
	only := botPolicy{Users: []string{"carol"}, Rated: "rated"}
	only.check()
	g.Start = nil
	if ok, why := only.decide(&g, all, 0); ok || why != "only challenges from carol are accepted" {
		t.Errorf("users: %v %q", ok, why)
	}
	g.Creator = "Carol"
	if ok, why := only.decide(&g, all, 0); ok || why != "only rated games are accepted" {
		t.Errorf("rated: %v %q", ok, why)
	}
	for _, bad := range []string{`{"games":["chess"]}`, `{"clocks":["blitz"]}`, `{"rated":"yes"}`, `{"maxGames":-1}`,
		`{"options":{"sgolte":{"size":["99"]}}}`, `{"onStop":"later"}`, `{"colour":"red"}`} {
		f := filepath.Join(t.TempDir(), "p.json")
		os.WriteFile(f, []byte(bad), 0o600)
		if _, err := readPolicy(f); err == nil {
			t.Errorf("policy %s accepted", bad)
		}
	}
}

// TestBotPlaysThreeGamesAtOnce: three challenges accepted, three games
// played at once to their end, each move sent once.
func TestBotPlaysThreeGamesAtOnce(t *testing.T) {
	s := startSite(t)
	bot := s.startBot(connectSpec(t, "any"), botPolicy{MaxGames: 3}, "")
	bot.waitLog(t, `connected to`)
	var ids []string
	for _, body := range threeGames {
		ids = append(ids, s.challenge(body))
	}
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: started`)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.alicePlays(ctx, nil)
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: ended: `)
	}
	s.checkGames(ids, 0, bot.log)
}

// TestBotSurvivesRestarts: in the middle of three games the server
// restarts (same address, same database), then the connector itself;
// all three games finish, every move sent once.
func TestBotSurvivesRestarts(t *testing.T) {
	s := startSite(t)
	bot := s.startBot(connectSpec(t, "any"), botPolicy{MaxGames: 3}, "")
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("the first connector's log:\n%s", bot.log)
		}
	})
	bot.waitLog(t, `connected to`)
	var ids []string
	for _, body := range threeGames {
		ids = append(ids, s.challenge(body))
	}
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: started`)
	}
	// alice plays up to a limit in every game, so that each is in its
	// middle when a restart comes.
	var mu sync.Mutex
	limit := 4
	allow := func(id string, ply int) bool {
		mu.Lock()
		defer mu.Unlock()
		return ply < limit
	}
	// atLimit: every game is at alice's turn past the limit, or (orOver)
	// has ended — a Sploof game may end early.
	atLimit := func(orOver bool) func() bool {
		return func() bool {
			for _, id := range ids {
				snap := s.summary(id)
				if orOver && snap.Game.Status == wire.StatusFinished {
					continue
				}
				if snap.Game.Status != wire.StatusLive || snap.Game.Ply < limit || seatOf(&snap.Game, "alice") != snap.Game.ToMove {
					return false
				}
			}
			return true
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.alicePlays(ctx, allow)
	waitFor(t, 60*time.Second, atLimit(false), "every game at alice's turn past ply 4")
	// alice plays on, and the server stops as soon as one game has moved:
	// robot has a move to make, or is making it, in that game.
	moved := func(ply int) func() bool {
		return func() bool {
			for _, id := range ids {
				if s.summary(id).Game.Ply > ply {
					return true
				}
			}
			return false
		}
	}
	mu.Lock()
	limit = 8
	mu.Unlock()
	waitFor(t, 60*time.Second, moved(5), "a game past ply 5")
	s.restart()
	bot.waitLog(t, `(?s)connection lost: .*connected to`)
	mu.Lock()
	limit = 10
	mu.Unlock()
	waitFor(t, 60*time.Second, atLimit(true), "every game at alice's turn past ply 10, or over")

	// The connector restarts as soon as one game has moved on: the first
	// stops at once (two signals), a new one finds the games still on and
	// resumes them.
	mu.Lock()
	limit = 14
	mu.Unlock()
	waitFor(t, 60*time.Second, moved(11), "a game past ply 11")
	bot.stops <- struct{}{}
	bot.stops <- struct{}{}
	bot.stopped(t)
	var live []string
	for _, id := range ids {
		if s.summary(id).Game.Status == wire.StatusLive {
			live = append(live, id)
		}
	}
	bot2 := s.startBot(connectSpec(t, "any"), botPolicy{MaxGames: 3}, "")
	for _, id := range live {
		bot2.waitLog(t, `game `+id+`: resumed`)
	}
	mu.Lock()
	limit = 1 << 30
	mu.Unlock()
	for _, id := range live {
		bot2.waitLog(t, `game `+id+`: ended: `)
	}
	s.checkGames(ids, 2, bot.log, bot2.log)
	if testing.Verbose() {
		t.Logf("the logs:\n%s%s", bot.log, bot2.log)
	}
}

// TestBotStopFinishes: on a stop the connector declines new challenges,
// finishes its games and exits.
func TestBotStopFinishes(t *testing.T) {
	s := startSite(t)
	bot := s.startBot(connectSpec(t, "any"), botPolicy{MaxGames: 3}, "finish")
	bot.waitLog(t, `connected to`)
	id := s.challenge(map[string]any{"game": "sgolte"})
	bot.waitLog(t, `game `+id+`: started`)
	bot.stops <- struct{}{}
	bot.waitLog(t, `stopping: finishing 1 games`)
	late := s.challenge(map[string]any{"game": "sgolte"})
	bot.waitLog(t, `challenge `+late+` .*: declined: the bot is stopping`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.alicePlays(ctx, nil)
	bot.stopped(t)
	if !strings.Contains(bot.log.String(), "game "+id+": ended: ") {
		t.Errorf("stopped before the game ended:\n%s", bot.log)
	}
	s.checkGames([]string{id}, 0, bot.log)
}

// TestBotStopResigns: with --on-stop resign the games in progress are
// resigned and the connector exits.
func TestBotStopResigns(t *testing.T) {
	s := startSite(t)
	bot := s.startBot(connectSpec(t, "any"), botPolicy{MaxGames: 3}, "resign")
	bot.waitLog(t, `connected to`)
	ids := []string{s.challenge(map[string]any{"game": "sgolte"}), s.challenge(map[string]any{"game": "sploof"})}
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: started`)
	}
	bot.stops <- struct{}{}
	bot.stopped(t)
	for _, id := range ids {
		snap := s.summary(id)
		if snap.Game.Status != wire.StatusFinished || snap.Game.Result == nil || snap.Game.Result.Reason != wire.ReasonResign {
			t.Errorf("game %s: %s %+v, want resigned", id, snap.Game.Status, snap.Game.Result)
		}
		if !strings.Contains(bot.log.String(), "game "+id+": resigned (stopping)") {
			t.Errorf("no resignation of %s in the log:\n%s", id, bot.log)
		}
	}
}

// TestBotSweepMeetsAnAcceptedGame: a game the connector accepted starts in
// its log ("started") whether the user channel's start or the sweep's
// listing of the live games meets it first, and only a game that was going
// on before the connector came is "resumed" — the sweep said "resumed" of
// every game, and a clean-clone .ci/run failed TestBotSurvivesRestarts
// waiting for "started" of a game the sweep had met first.
func TestBotSweepMeetsAnAcceptedGame(t *testing.T) {
	s := startSite(t)
	var ids []string
	for range 2 {
		id := s.challenge(map[string]any{"game": "sgolte"})
		s.call(s.robot, http.MethodPost, "/api/games/"+id+"/join", map[string]any{"seat": 1}, nil)
		ids = append(ids, id)
	}
	accepted, before := ids[0], ids[1]
	hard, stop := context.WithCancel(context.Background())
	defer stop()
	log := &syncBuffer{}
	c := &connector{o: connectOptions{server: s.base, token: s.robot, engine: connectSpec(t, "any"), seed: 1}, http: &http.Client{Timeout: 20 * time.Second},
		me: "robot", hard: hard, stopHard: stop, log: log, games: map[string]*botGame{}, over: map[string]*botGame{},
		invites: make(chan wire.Summary, 64), decided: map[string]bool{accepted: true}}
	c.resync(hard) // the sweep, before the user channel said anything
	if !strings.Contains(log.String(), "game "+accepted+": started") || !strings.Contains(log.String(), "game "+before+": resumed") {
		t.Fatalf("want %s (accepted here) started and %s (going on before) resumed; the log:\n%s", accepted, before, log)
	}
}

// TestBotStopResignsDuringASweep: a stop that comes while the connector
// lists its games again (its sweep) resigns each game once and says so —
// the sweep's own pass over the games must not resign them a second time
// and, finding them over, end the connector under the first pass's
// resignations ("resigning failed: game_over", then "context canceled";
// a clean-clone .ci/run failed TestBotLadder so). A sweep every few
// milliseconds makes the two passes meet at every stop.
func TestBotStopResignsDuringASweep(t *testing.T) {
	s := startSite(t)
	s.sweep = 2 * time.Millisecond
	bot := s.startBot(connectSpec(t, "any"), botPolicy{MaxGames: 3}, "resign")
	bot.waitLog(t, `connected to`)
	ids := []string{s.challenge(map[string]any{"game": "sgolte"}), s.challenge(map[string]any{"game": "sploof"}), s.challenge(map[string]any{"game": "skjuub"})}
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: started`)
	}
	bot.stops <- struct{}{}
	bot.stopped(t)
	log := bot.log.String()
	if strings.Contains(log, "resigning failed") {
		t.Errorf("a resignation failed:\n%s", log)
	}
	for _, id := range ids {
		if n := strings.Count(log, "game "+id+": resigned (stopping)"); n != 1 {
			t.Errorf("game %s resigned %d times in the log, want once:\n%s", id, n, log)
		}
		snap := s.summary(id)
		if snap.Game.Status != wire.StatusFinished || snap.Game.Result == nil || snap.Game.Result.Reason != wire.ReasonResign {
			t.Errorf("game %s: %s %+v, want resigned", id, snap.Game.Status, snap.Game.Result)
		}
	}
}

// TestBotPassesTheClock: with a realtime clock the engine is told a
// share of its time left, not its own default of 5 s.
func TestBotPassesTheClock(t *testing.T) {
	s := startSite(t)
	times := filepath.Join(t.TempDir(), "times")
	bot := s.startBot(connectSpec(t, "times", "TABULA_CONNECT_TIMES="+times), botPolicy{}, "")
	bot.waitLog(t, `connected to`)
	id := s.challenge(map[string]any{"game": "sgolte", "clock": map[string]any{"kind": "realtime", "initialMs": 20000, "incrementMs": 0}})
	bot.waitLog(t, `game `+id+`: started`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.alicePlays(ctx, nil)
	bot.waitLog(t, `game `+id+`: ended: `)
	data, _ := os.ReadFile(times)
	lines := strings.Fields(string(data))
	if len(lines) == 0 {
		t.Fatal("the engine was asked nothing")
	}
	for _, l := range lines {
		var ms int64
		fmt.Sscan(l, &ms)
		// A twentieth of at most 20 s left (no increment).
		if ms <= 0 || ms > 1000 {
			t.Errorf("the engine was told timeMs %d with at most 20 s on the clock", ms)
		}
	}
}

// TestBotDryRun: a good engine and a reachable server pass; a broken
// engine, or a wrong token, fail with the reason, and nothing is played.
func TestBotDryRun(t *testing.T) {
	s := startSite(t)
	code, out, errs := tabula(t, "", "bot", "--server", s.base, "--token", s.robot, "--engine", connectSpec(t, "sgolte"), "--dry-run")
	if code != 0 || !strings.Contains(out, `"connect test (sgolte)", protocol 2, plays sgolte`) || !strings.Contains(out, "sgolte: ok    a first move: ") ||
		strings.Contains(out, "skyjo") || !strings.Contains(out, "signed in as robot") || !strings.Contains(out, "dry run: ok") {
		t.Errorf("a good engine: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = tabula(t, "", "bot", "--server", s.base, "--token", s.robot, "--engine", "random", "--dry-run")
	if code != 0 || strings.Count(out, "ok    a first move: ") != 4 {
		t.Errorf("a built-in engine: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = tabula(t, "", "bot", "--server", s.base, "--token", s.robot, "--engine", connectSpec(t, "illegal"), "--dry-run")
	if code != 1 || !strings.Contains(out, `sgolte: FAIL  a first move: reply "zz99"`) || !strings.Contains(errs, "dry run failed: sgolte, skjuub, skyjo, sploof") {
		t.Errorf("an engine answering illegal moves: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = tabula(t, "", "bot", "--server", s.base, "--token", s.robot, "--engine", engineSpec(t, "badhello", ""), "--dry-run")
	if code != 1 || !strings.Contains(out, "FAIL  the engine did not start: handshake: the engine speaks protocol 3") || !strings.Contains(errs, "dry run failed: the engine") {
		t.Errorf("an engine with a wrong hello: exit %d\n%s%s", code, out, errs)
	}
	code, out, errs = tabula(t, "", "bot", "--server", s.base, "--token", "tbl_wrong", "--engine", "random", "--dry-run")
	if code != 1 || !strings.Contains(out, "FAIL  unauthorized (401)") || !strings.Contains(errs, "dry run failed: the server") {
		t.Errorf("a wrong token: exit %d\n%s%s", code, out, errs)
	}
	var list wire.GameList
	s.call(s.alice, http.MethodGet, "/api/games?user=robot&status=open&status=live&status=finished", nil, &list)
	if len(list.Games) != 0 {
		t.Errorf("a dry run played: %+v", list.Games)
	}
}

// TestBotBadFlags: missing or malformed flags are one line each.
func TestBotBadFlags(t *testing.T) {
	cases := []struct {
		args []string
		says string
	}{
		{[]string{"bot", "--token", "t", "--engine", "random"}, "--server: want the server's URL"},
		{[]string{"bot", "--server", "ftp://x", "--token", "t", "--engine", "random"}, `--server "ftp://x": want http://`},
		{[]string{"bot", "--server", "http://127.0.0.1:1", "--engine", "random"}, "--token: want"},
		{[]string{"bot", "--server", "http://127.0.0.1:1", "--token", "t"}, "--engine: want"},
		{[]string{"bot", "--server", "http://127.0.0.1:1", "--token", "t", "--engine", "wizard"}, `unknown agent "wizard"`},
		{[]string{"bot", "--server", "http://127.0.0.1:1", "--token", "t", "--engine", "random", "--on-stop", "later"}, `--on-stop "later"`},
		{[]string{"bot", "--server", "http://127.0.0.1:1", "--token", "t", "--engine", "random", "--config", "/no/such/file"}, "--config"},
		{[]string{"bot", "--server", "http://127.0.0.1:1", "--token", "t", "--engine", "random"}, "server http://127.0.0.1:1"},
	}
	t.Setenv("TABULA_TOKEN", "")
	for _, c := range cases {
		code, _, errs := tabula(t, "", c.args...)
		if code != 1 || !strings.Contains(errs, c.says) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%q: exit %d, %q; want one line with %q", c.args, code, errs, c.says)
		}
	}
}

// TestWorldFromView: every view the server sends reads back as a world
// with the same view and legal moves, in every game, Skyjo's hidden cards
// included — and the world holds nothing of the true face-down cards but
// what the view allows.
func TestWorldFromView(t *testing.T) {
	for _, name := range game.Names() {
		g := mustGame(name)
		for seed := uint64(1); seed <= 3; seed++ {
			s, err := g.New(nil, seed)
			if err != nil {
				t.Fatal(err)
			}
			rng := game.NewRNG(seed)
			var buf []game.Move
			for ply := 0; ply < 400 && !s.Outcome().Over(); ply++ {
				seat := s.ToMove()
				view, err := game.View(s, seat)
				if err != nil {
					t.Fatal(err)
				}
				w, err := worldFromView(g, seat, view, game.LegalTexts(s))
				if err != nil {
					t.Fatalf("%s seed %d ply %d: %v\nview %s", name, seed, ply, err, view)
				}
				if _, err := game.Observe(w, seat); err != nil {
					t.Fatal(err)
				}
				buf = s.Legal(buf[:0])
				s.Play(buf[rng.IntN(len(buf))])
			}
		}
	}
	if _, err := worldFromView(mustGame("sgolte"), 0, []byte(`{"game":"sgolte"}`), nil); err == nil {
		t.Error("a bad view read")
	}
}

func TestMoveTime(t *testing.T) {
	rt := &wire.TimeControl{Kind: wire.ClockRealtime, IncrementMs: 2000}
	for _, c := range []struct {
		left int64
		tc   *wire.TimeControl
		want time.Duration
	}{
		{0, nil, 0},
		{60000, nil, 3 * time.Second},
		{60000, rt, 5 * time.Second},
		{2000, rt, 1800 * time.Millisecond}, // never within a tenth of the end
		{10, rt, 50 * time.Millisecond},
	} {
		if got := moveTime(c.left, c.tc); got != c.want {
			t.Errorf("moveTime(%d, %v) = %v, want %v", c.left, c.tc, got, c.want)
		}
	}
}

// TestBotStopsOnSignals: the command itself, sent SIGTERM, finishes its
// game and exits 0; with --on-stop resign, sent SIGINT, it resigns its
// games and exits 0.
func TestBotStopsOnSignals(t *testing.T) {
	s := startSite(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		sig    syscall.Signal
		onStop string
		says   string
		reason wire.Reason
	}{
		{syscall.SIGTERM, "finish", "stopping: finishing 1 games", wire.ReasonNormal},
		{syscall.SIGINT, "resign", "stopping: resigning 1 games", wire.ReasonResign},
	} {
		args, _ := json.Marshal([]string{"bot", "--server", s.base, "--token", s.robot, "--engine", "random", "--on-stop", c.onStop})
		cmd := exec.Command(exe)
		cmd.Env = append(os.Environ(), "TABULA_CONNECT_ARGS="+string(args))
		r := &running{log: &syncBuffer{}}
		cmd.Stdout, cmd.Stderr = r.log, r.log
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()
		r.waitLog(t, `connected to`)
		id := s.challenge(map[string]any{"game": "sgolte"})
		r.waitLog(t, `game `+id+`: started`)
		cmd.Process.Signal(c.sig)
		r.waitLog(t, c.says)
		ctx, cancel := context.WithCancel(context.Background())
		go s.alicePlays(ctx, nil)
		select {
		case err := <-exited:
			var ee *exec.ExitError
			if errors.As(err, &ee) || err != nil {
				t.Errorf("%v: %v; the log:\n%s", c.sig, err, r.log)
			}
		case <-time.After(60 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v: did not exit; the log:\n%s", c.sig, r.log)
		}
		cancel()
		snap := s.summary(id)
		if snap.Game.Status != wire.StatusFinished || snap.Game.Result == nil || snap.Game.Result.Reason != c.reason {
			t.Errorf("%v: game %s %s %+v, want ended %s", c.sig, id, snap.Game.Status, snap.Game.Result, c.reason)
		}
		if !strings.HasSuffix(r.log.String(), " stopped\n") {
			t.Errorf("%v: the log does not end with stopped:\n%s", c.sig, r.log)
		}
	}
}

// TestBotEngineFailureResigns: an engine that answers an illegal move
// loses its game by resigning, and the log says why.
func TestBotEngineFailureResigns(t *testing.T) {
	s := startSite(t)
	bot := s.startBot(connectSpec(t, "illegal"), botPolicy{}, "")
	bot.waitLog(t, `connected to`)
	id := s.challenge(map[string]any{"game": "sploof", "options": map[string]string{"first": "black"}})
	bot.waitLog(t, `game `+id+`: resigned: the engine failed: reply "zz99": sploof: .*unreadable`)
	bot.waitLog(t, `game `+id+`: ended: lost \(resign\)`)
}

// TestBotBuiltInEngine: a built-in level plays, Skyjo (its hidden cards
// rebuilt from the view) included.
func TestBotBuiltInEngine(t *testing.T) {
	s := startSite(t)
	bot := s.startBot("easy", botPolicy{MaxGames: 2}, "")
	bot.waitLog(t, `engine easy: built in, plays every game`)
	bot.waitLog(t, `connected to`)
	ids := []string{s.challenge(map[string]any{"game": "sgolte"}), s.challenge(threeGames[2])}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.alicePlays(ctx, nil)
	for _, id := range ids {
		bot.waitLog(t, `game `+id+`: ended: `)
	}
	s.checkGames(ids, 0, bot.log)
}
