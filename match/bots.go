package match

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// BotTask is one decision of a bot seat, as a BotPool sees it: enough to
// schedule fairly across games and users and to enforce quotas.
type BotTask struct {
	Game    string // the game's id
	Seat    int
	Level   string
	Creator int64 // the user who created the game, who asked for its bots
	// Cores is how many goroutines the decision's search keeps busy
	// (agent.CoresOf, at least 1: decisions too cheap to schedule never
	// reach the pool).
	Cores int
}

// BotPool is where the decisions of a node's bot seats run. Think waits for a
// worker, runs choose on it and returns its answer, or gives up with
// ctx.Err() when ctx ends first. The default (NewBotSemaphore) lets a fixed
// number think at once, first come first served; a pool with fair
// scheduling and per-user quotas implements the same interface (the node's
// compute pool, through package botpool). A pool may also report that it
// is saturated (Saturated() bool) and offer a memory budget (BotMemory()
// BotMemory).
type BotPool interface {
	Think(ctx context.Context, t BotTask, choose func(ctx context.Context) (game.Move, error)) (game.Move, error)
}

// NewBotSemaphore is a BotPool in which at most n decisions think at once:
// one per core keeps a crowd of bot games from starving the goroutines that
// serve people.
func NewBotSemaphore(n int) BotPool { return make(botSemaphore, max(n, 1)) }

type botSemaphore chan struct{}

func (s botSemaphore) Think(ctx context.Context, _ BotTask, choose func(context.Context) (game.Move, error)) (game.Move, error) {
	select {
	case s <- struct{}{}:
		defer func() { <-s }()
		return choose(ctx)
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// BotMemory is a node's budget for the memory its bots hold — their search
// trees while they think, and what they keep between moves (compute.Memory
// is one; agent.Budget says how a search uses it). The registry takes it
// from its BotPool when the pool offers one (botpool.New does: the compute
// pool's); without one nothing bounds the bots but their levels.
type BotMemory interface {
	agent.Budget
	// Pressed reports that the budget is nearly spent: the node refuses
	// new games with bots (CodeBotsBusy) until it is not.
	Pressed() bool
}

// WithBotMemory is p with the memory budget mem (tests, and nodes whose
// BotPool has none of its own).
func WithBotMemory(p BotPool, mem BotMemory) BotPool { return memoryBots{p, mem} }

type memoryBots struct {
	BotPool
	mem BotMemory
}

func (b memoryBots) BotMemory() BotMemory { return b.mem }

// botMemory is the registry's bot memory budget, or nil.
func (r *Registry) botMemory() BotMemory {
	if p, ok := r.cfg.Bots.(interface{ BotMemory() BotMemory }); ok {
		return p.BotMemory()
	}
	return nil
}

// CodeBotsBusy refuses a new game with bots on a node whose bots are at
// their memory budget (checkBotRoom); the server answers 503 with a
// Retry-After.
const CodeBotsBusy Code = "bots_busy"

// BotIdle is how long a bot's game may wait — for a person to move, or for
// the node's pool to run the bot's decision — before its bots let go of
// what they keep between moves (agent.Rest: the subtree they would reuse),
// so that a waiting game holds no more than its agents
// (a few KiB) and its state. A bot that moves after that searches from a
// fresh tree, as at its first move: a little weaker at that move.
const BotIdle = 15 * time.Second

// checkBotRoom refuses a new game with bot seats while the node's bot
// memory budget is nearly spent (BotMemory.Pressed): its bots would search
// small trees, and the games already going would too. People's games are
// never refused for it.
func (r *Registry) checkBotRoom(seats []Seat) error {
	mem := r.botMemory()
	if mem == nil || !mem.Pressed() {
		return nil
	}
	for _, s := range seats {
		if s.Kind == SeatBot {
			return errorf(CodeBotsBusy, "this server's bots are using all the memory they may; try again in a minute")
		}
	}
	return nil
}

// botSeats is the state of a game's bot seats: one agent per seat (it may
// keep a search tree between moves), and at most one decision in flight.
type botSeats struct {
	agents map[int]agent.Agent
	busy   bool
	cancel context.CancelFunc
	// gen changes when the decision in flight is to be ignored (a
	// takeback moved the game): its answer is dropped, and its agent,
	// already forgotten, closed when it returns.
	gen  int
	seat int     // the seat whose decision is in flight, while busy
	rest Stopper // drops the agents while a person takes long to move
	idle Stopper // rests the agents (BotIdle) while a person takes long to move
}

func (b *botSeats) release() {
	if b.cancel != nil {
		b.cancel()
	}
	b.stopTimers()
	b.drop()
}

func (b *botSeats) stopTimers() {
	if b.rest != nil {
		b.rest.Stop()
	}
	if b.idle != nil {
		b.idle.Stop()
	}
}

// drop closes the agents; the next decision makes new ones.
func (b *botSeats) drop() {
	for seat, a := range b.agents {
		agent.Close(a)
		delete(b.agents, seat)
	}
}

// armRest makes the bots let go of what they keep between moves — search
// trees, which can be large — once a person has been to
// move for BotIdle, and drops their agents once a person has been to move
// for Config.BotRest: a game waiting for someone who thinks long, or went
// away, should not hold them. A bot that moves after that starts a new
// tree.
func (m *Match) armRest() {
	m.bots.stopTimers()
	if len(m.bots.agents) == 0 || m.bots.busy || m.meta.Status != Live {
		return
	}
	ply := len(m.moves)
	waiting := func(f func()) func() {
		return func() {
			m.post(func() {
				if len(m.moves) == ply && !m.bots.busy && !m.done {
					f()
				}
			})
		}
	}
	m.bots.idle = m.reg.cfg.Time.AfterFunc(BotIdle, waiting(func() {
		for _, a := range m.bots.agents {
			agent.Rest(a)
		}
	}))
	if d := m.reg.cfg.BotRest; d > 0 {
		m.bots.rest = m.reg.cfg.Time.AfterFunc(d, waiting(m.bots.drop))
	}
}

// maybeBot starts the decision of the seat to move if it is a bot. The bot
// thinks on its own goroutine, through the node's BotPool, handed only
// what its seat may know (game.Observe); its answer comes back to the
// owner's goroutine (botMoved).
func (m *Match) maybeBot() {
	if m.meta.Status != Live || m.bots.busy {
		return
	}
	seat := m.st.ToMove()
	if seat < 0 || m.meta.Seats[seat].Kind != SeatBot {
		return
	}
	cfg := &m.reg.cfg
	level := m.meta.Seats[seat].Level
	a := m.bots.agents[seat]
	if a == nil {
		var err error
		if a, err = cfg.NewAgent(level, m.g, cfg.BotSeed()); err != nil {
			m.log.Error("bot", "game", m.id, "seat", seat, "err", err)
			a = agent.NewRandom(cfg.BotSeed())
		}
		m.bots.agents[seat] = a
	}
	delay := cfg.BotDelay
	if _, humanless := hasBot(m.meta.Seats); humanless {
		delay = max(delay, cfg.BotOnlyDelay)
	}
	// The decision may wait for the node's pool as long as it takes —
	// unless the seat has a clock, which it must answer before it runs
	// out; its thinking itself is capped at BotTimeout. Its search
	// reserves its memory from the node's bot memory budget.
	var ctx context.Context
	var cancel context.CancelFunc
	if !m.meta.Deadline.IsZero() {
		// Leave the answer time to arrive before the clock runs out.
		left := max(m.meta.Deadline.Sub(cfg.Time.Now())-50*time.Millisecond, 10*time.Millisecond)
		ctx, cancel = context.WithTimeout(m.reg.ctx, left+delay)
	} else {
		ctx, cancel = context.WithCancel(m.reg.ctx)
	}
	mem := m.reg.botMemory()
	if mem != nil {
		ctx = agent.WithBudget(ctx, mem)
	}
	// A decision that starts on a node short of bot memory, or waits long
	// for the pool (the node is busy), first makes the game's bots let go
	// of what they kept — the one about to think and the others, which
	// wait for it: the game is slow, and the memory is better spent on
	// the searches under way. (A Rest during Choose waits for its end.)
	restAll := func() {
		for _, b := range m.bots.agents {
			agent.Rest(b)
		}
	}
	if mem != nil && mem.Pressed() {
		restAll()
	}
	m.bots.busy, m.bots.cancel, m.bots.seat = true, cancel, seat
	gen := m.bots.gen
	obs, err := game.Observe(m.st, seat)
	ply := len(m.moves)
	task := BotTask{Game: m.id, Seat: seat, Level: level, Creator: m.meta.CreatorID, Cores: agent.CoresOf(a)}
	go func() {
		defer cancel()
		idle := cfg.Time.AfterFunc(BotIdle, func() { m.post(restAll) })
		defer idle.Stop()
		wait(ctx, cfg.Time, delay)
		var mv game.Move
		if err == nil {
			err = ctx.Err()
		}
		choose := func(ctx context.Context) (game.Move, error) {
			idle.Stop()
			ctx, cancel := context.WithTimeout(ctx, cfg.BotTimeout)
			defer cancel()
			return a.Choose(ctx, obs)
		}
		switch {
		case err != nil:
		case task.Cores == 0:
			// A one-ply bot answers at once; making it queue behind
			// searches would only make its players wait.
			mv, err = choose(ctx)
		default:
			mv, err = cfg.Bots.Think(ctx, task, choose)
		}
		m.post(func() {
			if gen != m.bots.gen {
				agent.Close(a) // forgetBots left it to us
				return
			}
			m.bots.busy, m.bots.cancel = false, nil
			if err != nil && m.reg.ctx.Err() != nil {
				return // the node is stopping: the decision was cancelled, not failed
			}
			m.botMoved(seat, ply, mv, err)
		})
	}()
}

// wait returns after d on ts, or when ctx ends.
func wait(ctx context.Context, ts TimeSource, d time.Duration) {
	if d <= 0 {
		return
	}
	done := make(chan struct{})
	t := ts.AfterFunc(d, func() { close(done) })
	defer t.Stop()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// botMoved commits a bot's decision, if the game still waits for it.
func (m *Match) botMoved(seat, ply int, mv game.Move, err error) {
	if m.meta.Status != Live || ply != len(m.moves) || m.st.ToMove() != seat {
		m.maybeBot()
		return
	}
	if err != nil || !game.IsLegal(m.st, mv) {
		// A server bot failing is our bug, not the players' loss: play a
		// random legal move instead and say so.
		m.log.Warn("bot failed; playing a random move", "game", m.id, "seat", seat, "err", err)
		legal := m.st.Legal(nil)
		rng := game.NewRNG(m.reg.cfg.BotSeed())
		mv = legal[rng.IntN(len(legal))]
	}
	if _, err := m.commit(seat, mv); err != nil {
		m.log.Error("bot move", "game", m.id, "seat", seat, "err", err)
		if !m.done {
			m.reg.cfg.Time.AfterFunc(time.Second, func() { m.post(m.maybeBot) })
		}
	}
}
