package matchtest

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/tabula-games/tabula/match"
)

// Journal is a match.Journal in memory, with the store's guarantees (a
// move's ply must be the next one; versions count writes) and a way to make
// writes fail.
type Journal struct {
	mu    sync.Mutex
	games map[string]*journalGame
	// Fail, if set, is asked before every write (op is "create", "update",
	// "append", "takeback" or "end"); a non-nil answer fails the write, which then
	// changes nothing.
	Fail func(op, gameID string) error
}

type journalGame struct {
	meta  match.Meta
	moves []match.Move
	rated []match.Rating // what the last rated end stored
}

// NewJournal returns an empty journal.
func NewJournal() *Journal { return &Journal{games: map[string]*journalGame{}} }

func (j *Journal) fail(op, id string) error {
	if j.Fail != nil {
		return j.Fail(op, id)
	}
	return nil
}

// CreateGame implements match.Journal.
func (j *Journal) CreateGame(_ context.Context, m *match.Meta) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if err := j.fail("create", m.ID); err != nil {
		return err
	}
	if j.games[m.ID] != nil {
		return fmt.Errorf("game %s: %w", m.ID, match.ErrConflict)
	}
	m.Version = 1
	j.games[m.ID] = &journalGame{meta: m.Clone()}
	return nil
}

// write is the stored game id for a write op, unless Fail fails it.
func (j *Journal) write(op, id string) (*journalGame, error) {
	if err := j.fail(op, id); err != nil {
		return nil, err
	}
	return j.game(id)
}

func (j *Journal) game(id string) (*journalGame, error) {
	g := j.games[id]
	if g == nil {
		return nil, fmt.Errorf("no game %s", id)
	}
	return g, nil
}

// UpdateGame implements match.Journal.
func (j *Journal) UpdateGame(_ context.Context, m *match.Meta) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	g, err := j.write("update", m.ID)
	if err != nil {
		return err
	}
	if g.meta.Version != m.Version || g.meta.Status == match.Finished {
		return fmt.Errorf("update %s: %w", m.ID, match.ErrConflict)
	}
	m.Version++
	ply := g.meta.Ply
	g.meta = m.Clone()
	g.meta.Ply = ply
	return nil
}

// AppendMove implements match.Journal.
func (j *Journal) AppendMove(_ context.Context, id string, mv match.Move, turn match.Turn, end *match.End) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	g, err := j.write("append", id)
	if err != nil {
		return err
	}
	if g.meta.Status != match.Live || mv.Ply != len(g.moves) {
		return fmt.Errorf("append %s ply %d: %w", id, mv.Ply, match.ErrConflict)
	}
	g.moves = append(g.moves, mv)
	g.meta.Ply, g.meta.ToMove, g.meta.Deadline = len(g.moves), turn.ToMove, turn.Deadline
	g.meta.Version++
	if end != nil {
		j.finish(g, *end)
	}
	return nil
}

// EndGame implements match.Journal.
func (j *Journal) EndGame(_ context.Context, id string, end match.End) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	g, err := j.write("end", id)
	if err != nil {
		return err
	}
	if g.meta.Status != match.Live {
		return fmt.Errorf("end %s: %w", id, match.ErrConflict)
	}
	j.finish(g, end)
	return nil
}

func (j *Journal) finish(g *journalGame, end match.End) {
	res := end.Result
	g.meta.Status, g.meta.Result, g.meta.Finished = match.Finished, &res, end.Finished
	g.meta.ToMove, g.meta.Deadline = -1, time.Time{}
	g.meta.Version++
	if end.Rate != nil {
		cur := make([]match.Rating, len(end.RatedUsers))
		for i, uid := range end.RatedUsers {
			cur[i] = match.Rating{UserID: uid, Game: g.meta.Game}
		}
		g.rated = end.Rate(cur)
	}
}

// TakeBack implements match.Journal.
func (j *Journal) TakeBack(_ context.Context, id string, had, keep int, turn match.Turn) error {
	j.mu.Lock()
	defer j.mu.Unlock()
	g, err := j.write("takeback", id)
	if err != nil {
		return err
	}
	if g.meta.Status != match.Live || len(g.moves) != had || keep < 0 || keep > had {
		return fmt.Errorf("take back %s from %d to %d: %w", id, had, keep, match.ErrConflict)
	}
	g.moves = g.moves[:keep:keep]
	g.meta.Ply, g.meta.ToMove, g.meta.Deadline = keep, turn.ToMove, turn.Deadline
	g.meta.Version++
	return nil
}

// Moves implements match.Journal.
func (j *Journal) Moves(_ context.Context, id string) ([]match.Move, error) {
	j.mu.Lock()
	defer j.mu.Unlock()
	g, err := j.game(id)
	if err != nil {
		return nil, err
	}
	return slices.Clone(g.moves), nil
}

// Game is the stored game id and its moves.
func (j *Journal) Game(id string) (match.Meta, []match.Move) {
	j.mu.Lock()
	defer j.mu.Unlock()
	g := j.games[id]
	if g == nil {
		return match.Meta{}, nil
	}
	return g.meta.Clone(), slices.Clone(g.moves)
}

// Rated is what the last rated end of game id stored (every player new to
// the game's ratings).
func (j *Journal) Rated(id string) []match.Rating {
	j.mu.Lock()
	defer j.mu.Unlock()
	if g := j.games[id]; g != nil {
		return slices.Clone(g.rated)
	}
	return nil
}

// Time is a match.TimeSource that stands still until Advance moves it; the
// functions scheduled with AfterFunc run (on goroutines of their own, as
// time.AfterFunc's do) when it passes their time.
type Time struct {
	mu      sync.Mutex
	now     time.Time
	timers  []*timer
	running int // functions started and not yet returned
}

type timer struct {
	t       *Time
	at      time.Time
	f       func()
	stopped bool
}

// NewTime returns a clock standing at start.
func NewTime(start time.Time) *Time { return &Time{now: start} }

// Now implements match.TimeSource.
func (t *Time) Now() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.now
}

// AfterFunc implements match.TimeSource. A function whose time has already
// come (d ≤ 0) starts at once, as with time.AfterFunc: an owner that arms
// a deadline the test's clock has already passed (it armed it just after
// the test's Advance) must not wait for another Advance that never comes.
func (t *Time) AfterFunc(d time.Duration, f func()) match.Stopper {
	t.mu.Lock()
	defer t.mu.Unlock()
	tm := &timer{t: t, at: t.now.Add(d), f: f}
	if d <= 0 {
		tm.stopped = true
		t.start(f)
		return tm
	}
	t.timers = append(t.timers, tm)
	return tm
}

// Stop implements match.Stopper.
func (tm *timer) Stop() bool {
	tm.t.mu.Lock()
	defer tm.t.mu.Unlock()
	was := !tm.stopped
	tm.stopped = true
	return was
}

// Advance moves the clock by d and starts every function whose time has
// come, in the order of their times.
func (t *Time) Advance(d time.Duration) {
	t.mu.Lock()
	t.now = t.now.Add(d)
	var due []*timer
	keep := t.timers[:0]
	for _, tm := range t.timers {
		switch {
		case tm.stopped:
		case !tm.at.After(t.now):
			tm.stopped = true
			due = append(due, tm)
		default:
			keep = append(keep, tm)
		}
	}
	t.timers = keep
	sort.SliceStable(due, func(a, b int) bool { return due[a].at.Before(due[b].at) })
	for _, tm := range due {
		t.start(tm.f)
	}
	t.mu.Unlock()
}

// start runs f on a goroutine of its own, counted until it returns. The
// caller holds t.mu.
func (t *Time) start(f func()) {
	t.running++
	go func() {
		defer func() {
			t.mu.Lock()
			t.running--
			t.mu.Unlock()
		}()
		f()
	}()
}

// Settle waits until every function the clock has started has returned
// (false if some still runs after d), so that a test can check what a
// timer did not do without sleeping: what a function hands to a game's
// owner (Match.post) is then in the owner's queue.
func (t *Time) Settle(d time.Duration) bool {
	for deadline := time.Now().Add(d); ; time.Sleep(time.Millisecond) {
		t.mu.Lock()
		n := t.running
		t.mu.Unlock()
		if n == 0 {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
	}
}

// Pending is how long from now each armed function is due, earliest
// first.
func (t *Time) Pending() []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	var ds []time.Duration
	for _, tm := range t.timers {
		if !tm.stopped {
			ds = append(ds, tm.at.Sub(t.now))
		}
	}
	slices.Sort(ds)
	return ds
}

// Events is a match.Publisher that records every event.
type Events struct {
	mu     sync.Mutex
	events []match.Event
	more   chan struct{}
}

// NewEvents returns an empty record.
func NewEvents() *Events { return &Events{more: make(chan struct{}, 1)} }

// Publish implements match.Publisher.
func (e *Events) Publish(ev match.Event) {
	e.mu.Lock()
	e.events = append(e.events, ev)
	e.mu.Unlock()
	select {
	case e.more <- struct{}{}:
	default:
	}
}

// All is every event so far.
func (e *Events) All() []match.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.events)
}

// Wait returns the events so far once one satisfies done, or fails after
// a while (real time: the game's owner runs on its own goroutine). A
// minute: a hard bot's move under -race on a loaded two-core machine took
// more than the 10 s this once waited, in CI.
func (e *Events) Wait(done func(match.Event) bool) ([]match.Event, error) {
	deadline := time.After(time.Minute)
	for {
		all := e.All()
		if slices.ContainsFunc(all, done) {
			return all, nil
		}
		select {
		case <-e.more:
		case <-deadline:
			return all, fmt.Errorf("no such event within a minute; %d events", len(all))
		}
	}
}
