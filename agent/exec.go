package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tabula-games/tabula/game"
)

// Request is one line sent to an outside bot (docs/cli.md, bot protocol). The
// server's bot API sends the same shape.
type Request struct {
	Type   string          `json:"type"`
	Game   string          `json:"game"`
	Seat   int             `json:"seat"`
	View   json.RawMessage `json:"view"`
	Legal  []string        `json:"legal"`
	TimeMs int64           `json:"timeMs"`
}

// Reply is the outside bot's answer.
type Reply struct {
	Move string `json:"move"`
}

// NewRequest builds the request for the observing seat: its view (the
// public view for games with hidden information, the position JSON for the
// others, game.View) and the legal moves in canonical notation, sorted
// (game.LegalTexts).
func NewRequest(obs game.Observation, budget time.Duration) (Request, error) {
	view, err := obs.View()
	if err != nil {
		return Request{}, err
	}
	return Request{Type: "move", Game: obs.Game().Name(), Seat: obs.Seat(), View: view,
		Legal: game.LegalTexts(obs.World()), TimeMs: budget.Milliseconds()}, nil
}

// Starter is implemented by agents that have something to start before
// their first move (an outside program and its handshake).
type Starter interface {
	Start(ctx context.Context) error
}

// Start starts a if it has anything to start: callers that can do it
// before a game begins keep the start-up out of every move's time. Agents
// that start on their first move anyway do the same then, with the same
// limit.
func Start(ctx context.Context, a Agent) error {
	if s, ok := a.(Starter); ok {
		return s.Start(ctx)
	}
	return nil
}

// ProtocolVersion is the bot protocol this Tabula speaks (docs/bots.md):
// version 2 opens with the hello handshake; an engine that does not answer
// it speaks version 1, move requests only, and keeps working.
const ProtocolVersion = 2

// Hello is the handshake line of protocol version 2, in both directions:
// Tabula sends {"type":"hello","protocol":2} when it starts the engine, and
// the engine answers with the version it speaks, its name and the games it
// plays (none: every game).
type Hello struct {
	Type     string   `json:"type"`
	Protocol int      `json:"protocol"`
	Name     string   `json:"name,omitempty"`
	Games    []string `json:"games,omitempty"`
}

// Plays reports whether the engine that sent h plays the game named g.
func (h Hello) Plays(g string) bool {
	return len(h.Games) == 0 || slices.Contains(h.Games, g)
}

// Exec is an outside program speaking the bot protocol on its standard
// input and output. It is started before its first move (by Start, or by
// the first Choose), and its start-up and handshake have a limit of their
// own (Startup) that is never charged to a move: the move's limit runs
// from the request. Any illegal, late or unreadable reply is a forfeit,
// reported as an error wrapping ErrForfeit; the process is then stopped.
type Exec struct {
	command string
	budget  time.Duration
	// Grace is added to the budget before a reply counts as late, to allow
	// for pipes and scheduling.
	Grace time.Duration
	// Startup is how long the program may take to start and answer the
	// hello; an engine of protocol version 1 (no hello) has it on top of
	// its first move's limit instead.
	Startup time.Duration
	// Game is the name of the game the engine is to play, checked against
	// the games its hello lists ("": not checked).
	Game string
	// NoHello starts the engine without the hello, as version 1, for a
	// caller that knows it has none (which saves a silent one Startup).
	NoHello bool

	mu       sync.Mutex
	cmd      *exec.Cmd
	stdin    io.WriteCloser
	lines    chan string
	stderr   *tailBuffer
	started  bool
	hello    *Hello        // the engine's hello; nil for version 1
	firstFor time.Duration // extra time for the first move of an engine that never said it was ready
	dead     error         // set after a forfeit: every later call fails the same way
}

// Default limits of an outside program (exec:time=…:grace=…:startup=…).
const (
	DefaultExecGrace   = 2 * time.Second
	DefaultExecStartup = 20 * time.Second
)

// NewExec returns an agent that runs command (through sh -c) with the given
// per-move budget and the default grace and start-up limit.
func NewExec(command string, budget time.Duration) *Exec {
	return &Exec{command: command, budget: budget, Grace: DefaultExecGrace, Startup: DefaultExecStartup}
}

// Name implements Agent.
func (e *Exec) Name() string { return "exec:" + e.command }

// Budget is the time per move the program is told it has (timeMs).
func (e *Exec) Budget() time.Duration { return e.budget }

// SetBudget changes the time per move the program is told (timeMs), and
// with it the reply's limit, from its next request on: tabula bot tells
// it what the game's clock leaves. Call it between moves, not during one.
func (e *Exec) SetBudget(d time.Duration) { e.budget = d }

// Hello returns the engine's handshake once it has started: ok is false
// for an engine of protocol version 1 (or one not started yet).
func (e *Exec) Hello() (h Hello, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.hello == nil {
		return Hello{}, false
	}
	return *e.hello, true
}

// spawn starts the process and its reader.
func (e *Exec) spawn() error {
	cmd := exec.Command("sh", "-c", e.command)
	ownGroup(cmd)
	// Never wait long for a stopped bot's pipes to drain.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	e.stderr = &tailBuffer{max: 4096}
	cmd.Stderr = e.stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start %q: %w", e.command, err)
	}
	e.cmd, e.stdin = cmd, stdin
	lines := make(chan string, 1)
	e.lines = lines
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	return nil
}

// Start starts the program and shakes hands with it, within Startup and
// ctx. It does nothing if the program has started. An engine that answers
// the hello with anything but a hello, or ignores it until Startup has
// passed, is taken for version 1; one that ends at the hello is started
// again without it (a version 1 engine may stumble on a request it does not
// know) and has Startup on top of its first move's limit. An error (the
// program cannot start, its hello is wrong, it does not play Game) wraps
// ErrForfeit.
func (e *Exec) Start(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.startLocked(ctx)
}

func (e *Exec) startLocked(ctx context.Context) error {
	if e.dead != nil {
		return e.dead
	}
	if e.started {
		return nil
	}
	e.started = true
	if err := e.spawn(); err != nil {
		return e.forfeit("%v", err)
	}
	if e.NoHello {
		e.firstFor = e.Startup
		return nil
	}
	line, _ := json.Marshal(Hello{Type: "hello", Protocol: ProtocolVersion})
	if _, err := e.stdin.Write(append(line, '\n')); err != nil {
		return e.restartAsV1()
	}
	timer := time.NewTimer(e.Startup)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		e.stop()
		e.dead = fmt.Errorf("%s: start: %w", e.Name(), ctx.Err())
		return e.dead
	case <-timer.C:
		return nil // version 1, silent on what it does not know
	case reply, ok := <-e.lines:
		if !ok {
			return e.restartAsV1()
		}
		if !isHello(reply) {
			return nil // version 1: it took the hello for a request
		}
		h, err := parseHello(reply)
		if err != nil {
			return e.forfeit("handshake: %v", err)
		}
		if e.Game != "" && !h.Plays(e.Game) {
			return e.forfeit("handshake: the engine plays %s, not %s", strings.Join(h.Games, ", "), e.Game)
		}
		e.hello = &h
		return nil
	}
}

// restartAsV1 starts the program again after it ended at the hello.
func (e *Exec) restartAsV1() error {
	e.stop()
	if err := e.spawn(); err != nil {
		return e.forfeit("%v", err)
	}
	e.firstFor = e.Startup
	return nil
}

// isHello reports whether a line the engine wrote is a hello.
func isHello(line string) bool {
	var probe struct {
		Type string `json:"type"`
	}
	return json.Unmarshal([]byte(line), &probe) == nil && probe.Type == "hello"
}

// parseHello reads and checks an engine's hello.
func parseHello(line string) (Hello, error) {
	var h Hello
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&h); err != nil {
		return h, fmt.Errorf("unreadable hello %q: %v", clip(line, 80), err)
	}
	if h.Protocol != ProtocolVersion {
		return h, fmt.Errorf("the engine speaks protocol %d; this tabula speaks 1 (no hello) and %d", h.Protocol, ProtocolVersion)
	}
	if strings.TrimSpace(h.Name) == "" {
		return h, errors.New(`the hello has no "name"`)
	}
	for _, g := range h.Games {
		if strings.TrimSpace(g) == "" {
			return h, errors.New(`"games" lists an empty name`)
		}
	}
	return h, nil
}

// Choose implements Agent.
func (e *Exec) Choose(ctx context.Context, obs game.Observation) (game.Move, error) {
	s := obs.World()
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.dead != nil {
		return 0, e.dead
	}
	if s.Outcome().Over() {
		return 0, game.ErrGameOver
	}
	if err := e.startLocked(ctx); err != nil {
		return 0, err
	}
	req, err := NewRequest(obs, e.budget)
	if err != nil {
		return 0, err
	}
	line, _ := json.Marshal(req)
	if _, err := e.stdin.Write(append(line, '\n')); err != nil {
		return 0, e.forfeit("write request: %v", err)
	}
	limit := e.budget + e.Grace + e.firstFor
	e.firstFor = 0
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return 0, ctx.Err()
		case <-timer.C:
			return 0, e.forfeit("no reply within %v", limit)
		case reply, ok := <-e.lines:
			if !ok {
				// Wait for the program first: its stderr is copied by a
				// goroutine of its own, and only Wait makes sure the last
				// words of a crash are in before they are quoted.
				e.stop()
				return 0, e.forfeit("the program ended without replying%s", e.stderr.suffix())
			}
			if e.hello == nil && isHello(reply) {
				// A hello later than Startup: the engine is ready now,
				// and this was not its move.
				if h, err := parseHello(reply); err == nil {
					e.hello = &h
				}
				continue
			}
			var r Reply
			dec := json.NewDecoder(strings.NewReader(reply))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&r); err != nil || r.Move == "" {
				return 0, e.forfeit("unreadable reply %q", clip(reply, 80))
			}
			m, err := s.ParseMove(r.Move)
			if err != nil {
				return 0, e.forfeit("reply %q: %v", clip(r.Move, 40), err)
			}
			return m, nil
		}
	}
}

// forfeit stops the program and records why it lost.
func (e *Exec) forfeit(format string, args ...any) error {
	e.dead = fmt.Errorf("%s: %w: %s", e.Name(), ErrForfeit, fmt.Sprintf(format, args...))
	e.stop()
	return e.dead
}

func (e *Exec) stop() {
	if e.cmd == nil {
		return
	}
	e.stdin.Close()
	if e.dead != nil {
		killGroup(e.cmd) // a forfeited bot gets no time to linger
	}
	done := make(chan struct{})
	go func() { e.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(200 * time.Millisecond):
		killGroup(e.cmd)
		<-done
	}
	e.cmd = nil
}

// Close implements Closer: it ends the program.
func (e *Exec) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.stop()
	if e.dead == nil {
		e.dead = errors.New(e.Name() + ": closed")
	}
	return nil
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// tailBuffer keeps the last bytes an outside program wrote to stderr, to
// explain a failure.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	return len(p), nil
}

func (t *tailBuffer) suffix() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	lines := strings.Split(strings.TrimSpace(string(t.b)), "\n")
	if last := strings.TrimSpace(lines[len(lines)-1]); last != "" {
		return " (stderr: " + clip(last, 120) + ")"
	}
	return ""
}
