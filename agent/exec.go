package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
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

// Exec is an outside program speaking the bot protocol on its standard
// input and output. It is started on the first move and lives for the
// game. Any illegal, late or unreadable reply is a forfeit, reported as an
// error wrapping ErrForfeit; the process is then stopped.
type Exec struct {
	command string
	budget  time.Duration
	// Grace is added to the budget before a reply counts as late, to allow
	// for process start-up and pipes.
	Grace time.Duration

	mu     sync.Mutex
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string
	stderr *tailBuffer
	dead   error // set after a forfeit: every later call fails the same way
}

// NewExec returns an agent that runs command (through sh -c) with the given
// per-move budget.
func NewExec(command string, budget time.Duration) *Exec {
	return &Exec{command: command, budget: budget, Grace: 2 * time.Second}
}

// Name implements Agent.
func (e *Exec) Name() string { return "exec:" + e.command }

func (e *Exec) start() error {
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
	e.lines = make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			e.lines <- sc.Text()
		}
		close(e.lines)
	}()
	return nil
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
	if e.cmd == nil {
		if err := e.start(); err != nil {
			return 0, e.forfeit("%v", err)
		}
	}
	req, err := NewRequest(obs, e.budget)
	if err != nil {
		return 0, err
	}
	line, _ := json.Marshal(req)
	if _, err := e.stdin.Write(append(line, '\n')); err != nil {
		return 0, e.forfeit("write request: %v", err)
	}
	timer := time.NewTimer(e.budget + e.Grace)
	defer timer.Stop()
	select {
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-timer.C:
		return 0, e.forfeit("no reply within %v", e.budget+e.Grace)
	case reply, ok := <-e.lines:
		if !ok {
			// Wait for the program first: its stderr is copied by a
			// goroutine of its own, and only Wait makes sure the last words
			// of a crash are in before they are quoted.
			e.stop()
			return 0, e.forfeit("the program ended without replying%s", e.stderr.suffix())
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
