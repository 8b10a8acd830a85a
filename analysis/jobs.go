package analysis

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/compute"
)

// Jobs is a node's analyses and reviews. Every job is admitted by a Pool
// (one job per user — a new one replaces the old —, PerNode running: the
// jobs' trees and tables are memory; beyond, a job waits its turn in a queue
// whose place it is told, and while one waits an analysis that has had its
// quantum gives its place up, so a few users holding streams open cannot
// keep everyone out; a full queue refuses at once). A job runs on its own
// goroutine at a lower priority than the threads serving people, its search
// in slices (Search.Gate: Jobs.Gate), each a Background task of the node's
// compute pool charged to its user, and ends at a time cap. It keeps only
// its latest event (a stream wants the latest report, not every one); a job
// nobody reads is stopped; a finished job stays readable for a while. The
// reviews of finished games are kept, as those games never change.
//
// The server starts jobs, streams their events and stops them on request;
// everything that decides which job runs, waits or is refused is here.
type Jobs struct {
	cfg   JobsConfig
	ctx   context.Context
	admit *Pool

	mu       sync.Mutex
	jobs     map[string]*Job
	byUser   map[int64]*Job
	reviews  map[string]*Review
	reviewed []string             // the cached reviews' games, oldest first
	starting map[int64]*startGate // users with a Start under way
}

// startGate lets one Start of a user run at a time: two at once (a board
// stepped on while the last start still waited for the search before it)
// each stopped the same old job and the second found the first's new one
// in its way, refused as the user's second.
type startGate struct {
	turn    chan struct{} // holds a token while a Start runs
	waiters int
}

// startTurn waits for user's turn to start a job; the returned function
// ends it.
func (js *Jobs) startTurn(user int64) (done func()) {
	js.mu.Lock()
	g := js.starting[user]
	if g == nil {
		g = &startGate{turn: make(chan struct{}, 1)}
		js.starting[user] = g
	}
	g.waiters++
	js.mu.Unlock()
	g.turn <- struct{}{}
	return func() {
		<-g.turn
		js.mu.Lock()
		if g.waiters--; g.waiters == 0 {
			delete(js.starting, user)
		}
		js.mu.Unlock()
	}
}

// JobsConfig configures Jobs; a zero field takes the default given.
type JobsConfig struct {
	// PerNode is how many jobs run at once (2 × GOMAXPROCS).
	PerNode int
	// Queue is how many may wait (QueuePerPlace × PerNode).
	Queue int
	// MaxTime caps one analysis (DefaultMaxTime).
	MaxTime time.Duration
	// Quantum: while a job waits, an analysis that has run this long gives
	// its place to it (DefaultQuantum).
	Quantum time.Duration
	// Compute is the node's pool the jobs' search slices run on
	// (compute.New's defaults).
	Compute *compute.Pool
	// Log receives the failures of jobs (slog.Default()).
	Log *slog.Logger
	// Queued is the event telling a waiting job's reader its place; Failed
	// the one telling that its work failed. The server gives its wire
	// forms; nil sends none.
	Queued func(place int) Event
	Failed func(err error) Event
	// UnwatchedGrace: a job whose events nobody reads within this long is
	// stopped (DefaultUnwatchedGrace).
	UnwatchedGrace time.Duration
	// KeepFinished: a finished job's last events stay readable this long
	// (DefaultKeepFinished).
	KeepFinished time.Duration
	// StopWait: a user's new job waits this long for their previous one,
	// stopped, to end before it takes the user's place anyway
	// (DefaultStopWait).
	StopWait time.Duration
	// IDPrefix begins every job's id: a cluster node's id and a dot, so
	// that any node can tell where a job runs (remote.go).
	IDPrefix string
}

// Defaults of JobsConfig, each with its reason.
const (
	// DefaultMaxTime: long enough to settle the lines of any position,
	// short enough that a forgotten tab gives its place back soon.
	DefaultMaxTime = time.Minute
	// DefaultQuantum: long enough for a useful report.
	DefaultQuantum = 15 * time.Second
	// QueuePerPlace bounds the waiting jobs (each a goroutine and an open
	// stream, no search) by the places.
	QueuePerPlace = 16
	// DefaultUnwatchedGrace: a client that started a job and went away.
	DefaultUnwatchedGrace = 10 * time.Second
	// DefaultKeepFinished: a reader that reconnects finds how it ended.
	DefaultKeepFinished = time.Minute
	// DefaultStopWait: a stopped search ends within milliseconds on a
	// machine with a core to spare; waiting for it lets the new job have
	// its place at once rather than queue behind it.
	DefaultStopWait = 5 * time.Second
	// MaxCachedReviews: a review is a few kilobytes to a few hundred.
	MaxCachedReviews = 64
)

// The kinds of job.
const (
	KindAnalysis = "analysis" // an analysis board's search: it yields, and ends when its last reader leaves
	KindReview   = "review"   // a game's review: it runs to its end, its result kept
)

// The reasons a job's events end with.
const (
	EndDone     = "done"     // the work returned
	EndStopped  = "stopped"  // its user stopped it, started another, or nobody read it
	EndYielded  = "yielded"  // it gave its place to a waiting job, its last report standing
	EndShutdown = "shutdown" // the node is stopping
)

// Event is a job's latest event: a name and its data, which a stream sends
// as they are.
type Event struct {
	Name string
	Data any
}

// BusyError refuses a job: Err is ErrUserBusy or ErrNodeBusy, RetryAfter
// how long the client should wait before asking again.
type BusyError struct {
	Err        error
	RetryAfter time.Duration
}

func (e *BusyError) Error() string { return e.Err.Error() }
func (e *BusyError) Unwrap() error { return e.Err }

// How long a refused client is told to wait: its own job ends within a
// moment of being stopped; a full node frees a place within a quantum or so.
const (
	userBusyRetry = 5 * time.Second
	nodeBusyRetry = 30 * time.Second
)

// ErrNoJob is the answer for a job id that is not the asker's: another
// user's job does not exist for them.
var ErrNoJob = errors.New("analysis: no such job")

// NewJobs returns a node's jobs; they end when ctx does.
func NewJobs(ctx context.Context, cfg JobsConfig) *Jobs {
	if cfg.PerNode <= 0 {
		cfg.PerNode = 2 * runtime.GOMAXPROCS(0)
	}
	if cfg.Queue <= 0 {
		cfg.Queue = QueuePerPlace * cfg.PerNode
	}
	if cfg.MaxTime <= 0 {
		cfg.MaxTime = DefaultMaxTime
	}
	if cfg.Quantum <= 0 {
		cfg.Quantum = DefaultQuantum
	}
	if cfg.Compute == nil {
		cfg.Compute = compute.New(compute.Config{})
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.UnwatchedGrace <= 0 {
		cfg.UnwatchedGrace = DefaultUnwatchedGrace
	}
	if cfg.KeepFinished <= 0 {
		cfg.KeepFinished = DefaultKeepFinished
	}
	if cfg.StopWait <= 0 {
		cfg.StopWait = DefaultStopWait
	}
	return &Jobs{cfg: cfg, ctx: ctx, admit: NewPool(cfg.PerNode, cfg.Queue, cfg.Quantum),
		jobs: map[string]*Job{}, byUser: map[int64]*Job{}, reviews: map[string]*Review{},
		starting: map[int64]*startGate{}}
}

// MaxTime is the cap of one analysis.
func (js *Jobs) MaxTime() time.Duration { return js.cfg.MaxTime }

// Gate is where a job of user waits before each slice of its search
// (Search.Gate): a Background task of the node's compute pool.
func (js *Jobs) Gate(user int64, label string) func(ctx context.Context) (func(), error) {
	return func(ctx context.Context) (func(), error) {
		return js.cfg.Compute.Acquire(ctx, compute.Task{User: user, Class: compute.Background, Cores: 1, Label: label})
	}
}

// Job is one analysis or review of one user.
type Job struct {
	id, kind string
	user     int64
	cancel   context.CancelFunc
	finished chan struct{} // closed when the work has returned
	ticket   *Ticket       // its place in the pool; set before the job is listed

	mu       sync.Mutex
	event    Event
	seq      int
	done     bool
	end      string
	changed  chan struct{} // closed and replaced with each event
	watchers int
	watched  bool
	started  time.Time
	remote   map[string]*remoteRead // readers on other nodes (remote.go), by node
}

// ID is the job's id, unguessable.
func (j *Job) ID() string { return j.id }

// Kind is KindAnalysis or KindReview.
func (j *Job) Kind() string { return j.kind }

// Finished is closed when the job's work has returned.
func (j *Job) Finished() <-chan struct{} { return j.finished }

// Emit makes (name, data) the job's latest event.
func (j *Job) Emit(name string, data any) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.event = Event{name, data}
	j.seq++
	close(j.changed)
	j.changed = make(chan struct{})
}

// finish marks the job over, with the reason its stream gives.
func (j *Job) finish(reason string) {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.done {
		return
	}
	j.done = true
	if j.end == "" { // a stop said why first
		j.end = reason
	}
	close(j.changed)
	j.changed = make(chan struct{})
}

// Stop ends the job's work; its stream then ends with reason.
func (j *Job) Stop(reason string) {
	// The reason first: the work sees the cancel and may end at once, and
	// an end without a reason is "done" (a stopped or yielded analysis
	// said "done" so, now and then).
	j.mu.Lock()
	if j.end == "" {
		j.end = reason
	}
	j.mu.Unlock()
	j.cancel()
}

// State is what a reader of the job sees: its latest event and its number
// (0: none yet), whether it is over and why, and a channel closed at the
// next change.
type State struct {
	Event   Event
	Seq     int
	Done    bool
	End     string
	Changed <-chan struct{}
}

// State is the job as it stands.
func (j *Job) State() State {
	j.mu.Lock()
	defer j.mu.Unlock()
	return State{Event: j.event, Seq: j.seq, Done: j.done, End: j.end, Changed: j.changed}
}

// Watch counts a reader of the job's events until the returned function is
// called: an analysis whose last reader leaves is stopped; a review goes on
// (its result is kept).
func (j *Job) Watch() (leave func()) {
	j.mu.Lock()
	j.watchers++
	j.watched = true
	j.mu.Unlock()
	return func() {
		j.mu.Lock()
		j.watchers--
		j.mu.Unlock()
		j.readerLeft()
	}
}

// readerLeft stops an analysis once its last reader has left.
func (j *Job) readerLeft() {
	j.mu.Lock()
	left := j.watchers
	j.mu.Unlock()
	if left == 0 && j.kind == KindAnalysis {
		j.Stop(EndStopped)
	}
}

// Start admits a job of user and runs work on it once it has a place, for
// at most limit from then; a job the user already has is stopped first
// (and, if it has not ended within StopWait, no longer counts as theirs);
// a user's Starts run one at a time, the later replacing the earlier. An
// analysis (KindAnalysis) gives its place up when the pool asks (its stream
// ends EndYielded, its last report standing); a review runs to its end. A
// job refused is a *BusyError.
func (js *Jobs) Start(user int64, kind string, limit time.Duration, work func(ctx context.Context, j *Job) error) (*Job, error) {
	defer js.startTurn(user)()
	js.mu.Lock()
	old := js.byUser[user]
	js.mu.Unlock()
	if old != nil {
		old.Stop(EndStopped)
		select {
		case <-old.finished:
		case <-time.After(js.cfg.StopWait):
			// On a loaded machine a stopped search can take longer to see
			// its end (its threads run below the people's): the user
			// stepping on to the next position must not be refused for
			// their own search (429, "engine busy"). Its place on the
			// node stays taken until it ends, so the node's bound holds
			// and the new job waits for a place if none is free.
			js.admit.Disown(old.ticket)
		}
	}
	ctx, cancel := context.WithCancel(js.ctx)
	j := &Job{id: js.cfg.IDPrefix + newJobID(), kind: kind, user: user, cancel: cancel, finished: make(chan struct{}), changed: make(chan struct{}), started: time.Now()}
	var yield func()
	if kind == KindAnalysis {
		yield = func() { j.Stop(EndYielded) }
	}
	ticket, err := js.admit.Enter(user, yield)
	switch {
	case errors.Is(err, ErrUserBusy):
		cancel()
		return nil, &BusyError{Err: err, RetryAfter: userBusyRetry}
	case errors.Is(err, ErrNodeBusy):
		cancel()
		return nil, &BusyError{Err: err, RetryAfter: nodeBusyRetry}
	case err != nil:
		cancel()
		return nil, err
	}
	queued := func(n int) {
		if js.cfg.Queued != nil {
			ev := js.cfg.Queued(n)
			j.Emit(ev.Name, ev.Data)
		}
	}
	if n := ticket.Place(); n > 0 {
		queued(n) // the stream's first event, before the client can open it
	}
	j.ticket = ticket
	js.mu.Lock()
	js.jobs[j.id] = j
	js.byUser[user] = j
	js.mu.Unlock()
	go func() {
		defer close(j.finished)
		defer ticket.Release()
		defer cancel()
		err := ticket.Wait(ctx, queued)
		if err == nil {
			// Background work: its threads (this goroutine's, which
			// ends with the job, and its search workers') run below
			// those serving people (compute.LowerPriority).
			compute.LowerPriority()
			wctx, wcancel := context.WithTimeout(ctx, limit)
			err = work(agent.WithWorkerStart(wctx, compute.LowerPriority), j)
			wcancel()
		}
		reason := EndDone
		switch {
		case js.ctx.Err() != nil:
			reason = EndShutdown
		case err != nil && !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled):
			js.cfg.Log.Warn("analysis", "kind", kind, "user", user, "err", err)
			if js.cfg.Failed != nil {
				ev := js.cfg.Failed(err)
				j.Emit(ev.Name, ev.Data)
			}
		}
		// The place first, then the job stops being the user's: in the
		// other order a start in between found no job to stop and the
		// place still taken, and was refused as the user's second.
		ticket.Release()
		j.finish(reason)
		js.mu.Lock()
		if js.byUser[user] == j {
			delete(js.byUser, user)
		}
		js.mu.Unlock()
		time.AfterFunc(js.cfg.KeepFinished, func() {
			js.mu.Lock()
			delete(js.jobs, j.id)
			js.mu.Unlock()
		})
	}()
	// A job nobody reads is stopped.
	time.AfterFunc(js.cfg.UnwatchedGrace, func() {
		j.mu.Lock()
		watched := j.watched
		j.mu.Unlock()
		if !watched {
			j.Stop(EndStopped)
		}
	})
	return j, nil
}

// Of is user's job id, or ErrNoJob.
func (js *Jobs) Of(user int64, id string) (*Job, error) {
	js.mu.Lock()
	defer js.mu.Unlock()
	j := js.jobs[id]
	if j == nil || j.user != user {
		return nil, ErrNoJob
	}
	return j, nil
}

// Review is the kept review of the finished game id, or nil.
func (js *Jobs) Review(id string) *Review {
	js.mu.Lock()
	defer js.mu.Unlock()
	return js.reviews[id]
}

// KeepReview keeps the review of the finished game id, forgetting the
// oldest beyond MaxCachedReviews.
func (js *Jobs) KeepReview(id string, rv *Review) {
	js.mu.Lock()
	defer js.mu.Unlock()
	if _, ok := js.reviews[id]; !ok {
		js.reviewed = append(js.reviewed, id)
	}
	js.reviews[id] = rv
	for len(js.reviewed) > MaxCachedReviews {
		delete(js.reviews, js.reviewed[0])
		js.reviewed = js.reviewed[1:]
	}
}

// newJobID is a random job id of 20 characters, as hard to guess as two of
// the server's game ids.
func newJobID() string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	var b [20]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(fmt.Sprintf("analysis: crypto/rand failed: %v", err)) // crypto/rand does not fail on Linux
	}
	for i := range b {
		b[i] = alphabet[int(b[i])%len(alphabet)]
	}
	return string(b[:])
}
