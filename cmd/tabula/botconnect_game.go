package main

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server/wire"
)

// This file is one game the connector plays: a goroutine of its own with
// its own engine (one process per game for an exec: engine), fed the
// user channel's move requests.

// botGame is a live game of the connector's account.
type botGame struct {
	c      *connector
	id     string
	g      game.Game
	seat   int
	ctx    context.Context
	cancel context.CancelFunc
	done   chan struct{} // closed when the goroutine has ended

	mu      sync.Mutex
	latest  *wire.Prompt        // the newest request not yet taken
	last    *wire.Prompt        // the request taken last
	clock   *wire.TimeControl   // the game's time control, once known
	answers map[[2]int64]string // (ply, seq) → the move sent: a repeated request gets it again
	sent    map[int]string      // ply → the move sent, for the acknowledgement's log line
	wake    chan struct{}
}

func newBotGame(c *connector, id string, g game.Game, seat int) *botGame {
	ctx, cancel := context.WithCancel(c.hard)
	return &botGame{c: c, id: id, g: g, seat: seat, ctx: ctx, cancel: cancel, done: make(chan struct{}),
		answers: map[[2]int64]string{}, sent: map[int]string{}, wake: make(chan struct{}, 1)}
}

// offer hands the game a move request; the newest one wins.
func (b *botGame) offer(p wire.Prompt) {
	b.mu.Lock()
	if b.latest == nil || p.Seq >= b.latest.Seq {
		b.latest = &p
	}
	b.mu.Unlock()
	select {
	case b.wake <- struct{}{}:
	default:
	}
}

func (b *botGame) setClock(tc wire.TimeControl) {
	b.mu.Lock()
	b.clock = &tc
	b.mu.Unlock()
}

// take returns the newest request, if any.
func (b *botGame) take() *wire.Prompt {
	b.mu.Lock()
	defer b.mu.Unlock()
	p := b.latest
	b.latest = nil
	if p != nil {
		b.last = p
	}
	return p
}

// retry answers the last request again (the same move): the server
// refused it for the moment and will not ask again by itself.
func (b *botGame) retry() {
	b.mu.Lock()
	p := b.last
	b.mu.Unlock()
	if p != nil {
		b.offer(*p)
	}
}

// stale reports whether a newer request than p has come.
func (b *botGame) stale(p *wire.Prompt) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.latest != nil && (b.latest.Seq > p.Seq || b.latest.Ply != p.Ply)
}

// run plays the game until it ends or the connector stops.
func (b *botGame) run() {
	defer close(b.done)
	var eng agent.Agent
	defer func() {
		if eng != nil {
			agent.Close(eng)
		}
	}()
	for {
		select {
		case <-b.ctx.Done():
			return
		case <-b.wake:
		}
		p := b.take()
		if p == nil {
			continue
		}
		key := [2]int64{int64(p.Ply), p.Seq}
		b.mu.Lock()
		move, answered := b.answers[key]
		b.mu.Unlock()
		if !answered {
			if eng == nil {
				var err error
				if eng, err = b.c.newEngine(b.ctx, b.g); err != nil {
					if b.ctx.Err() != nil {
						return // the game was let go (a stop resigns it) while the engine started
					}
					b.c.resign(b, "the engine did not start: "+whyFailed(err))
					return
				}
			}
			m, err := b.choose(eng, p)
			if err != nil {
				if b.ctx.Err() != nil {
					return
				}
				if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
					// An exec engine stopped mid-move may still answer:
					// a fresh one is started for the next request.
					agent.Close(eng)
					eng = nil
					continue
				}
				b.c.resign(b, "the engine failed: "+whyFailed(err))
				return
			}
			if b.stale(p) {
				continue // the game changed while the engine thought
			}
			move = m
			b.mu.Lock()
			b.answers[key] = move
			b.sent[p.Ply] = move
			b.mu.Unlock()
		}
		ply := p.Ply
		if err := b.c.send(b.ctx, wire.ClientMessage{Type: wire.TypeMove, ID: b.id, MoveRequest: wire.MoveRequest{Ply: &ply, Move: move}}); err != nil {
			// Not connected: the server asks again on reconnecting, and
			// gets the same move.
			continue
		}
		if answered {
			b.c.logf("game %s: ply %d: sent %s again", b.id, ply, move)
		}
	}
}

// choose asks the engine for its move in the request's position, with the
// time the game's clock allows.
func (b *botGame) choose(eng agent.Agent, p *wire.Prompt) (string, error) {
	world, err := worldFromView(b.g, p.Seat, p.View, p.Legal)
	if err != nil {
		return "", err
	}
	obs, err := game.Observe(world, p.Seat)
	if err != nil {
		return "", err
	}
	b.mu.Lock()
	clock := b.clock
	b.mu.Unlock()
	think := moveTime(p.TimeMs, clock)
	ctx := b.ctx
	if e, ok := eng.(*agent.Exec); ok {
		if think > 0 {
			e.SetBudget(min(b.c.execBudget, think))
		}
	} else if think > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, think)
		defer cancel()
	}
	m, err := eng.Choose(ctx, obs)
	if err != nil {
		return "", err
	}
	text := world.FormatMove(m)
	if !slices.Contains(p.Legal, text) {
		return "", fmt.Errorf("%w: move %q is not legal here", agent.ErrForfeit, text)
	}
	return text, nil
}

// moveTime is how long the engine may think about a move when its seat
// has left ms on the clock (0: no limit): a twentieth of what is left
// plus the increment, and never within a second (or a tenth) of the end.
// 0 means no limit from the clock.
func moveTime(left int64, tc *wire.TimeControl) time.Duration {
	if left <= 0 {
		return 0
	}
	l := time.Duration(left) * time.Millisecond
	var inc time.Duration
	if tc != nil && tc.Kind == wire.ClockRealtime {
		inc = time.Duration(tc.IncrementMs) * time.Millisecond
	}
	t := l/20 + inc
	if most := l - min(time.Second, l/10); t > most {
		t = most
	}
	return max(t, 50*time.Millisecond)
}

// acked logs a move the server committed.
func (b *botGame) acked(ply int) {
	b.mu.Lock()
	move, ok := b.sent[ply]
	delete(b.sent, ply)
	b.mu.Unlock()
	if ok {
		b.c.logf("game %s: ply %d: played %s", b.id, ply, move)
	}
}

// seatOf is the connector's seat in a summary (-1: none).
func seatOf(g *wire.Summary, me string) int {
	for _, s := range g.Seats {
		if s.Kind == wire.SeatHuman && strings.EqualFold(s.User, me) {
			return s.Seat
		}
	}
	return -1
}

// opponents names the other seats of a summary for a log line.
func opponents(g *wire.Summary, me string) string {
	var out []string
	for _, s := range g.Seats {
		switch {
		case s.User != "" && strings.EqualFold(s.User, me) && s.Kind == wire.SeatHuman:
		case s.User != "":
			out = append(out, s.User)
		case s.Kind == wire.SeatBot:
			out = append(out, "bot "+s.Level)
		default:
			out = append(out, string(s.Kind))
		}
	}
	return strings.Join(out, ", ")
}

// outcome is how a finished game went for seat.
func outcome(g *wire.Summary, seat int) string {
	r := g.Result
	if r == nil {
		return string(g.Status)
	}
	what := "lost"
	switch {
	case r.Status == wire.Drawn:
		what = "drawn"
	case slices.Contains(r.Winners, seat):
		what = "won"
	}
	return fmt.Sprintf("%s (%s)", what, r.Reason)
}
