package match

import (
	"context"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"sync"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// Journal is the durable record the owner of a game writes through (the
// store implements it). A write that returns nil is on disk; one that
// returns an error did not happen. Every successful write increments the
// game's Version by one (a final move by two: the move and the end), so
// the Version counts the game's events.
type Journal interface {
	// CreateGame stores a new game with Version 1. ErrConflict if the id is
	// taken.
	CreateGame(ctx context.Context, m *Meta) error
	// UpdateGame rewrites the lobby part of a game (status, seats, rated,
	// started, finished, to move, deadline) if its Version is still
	// m.Version, and increments m.Version. ErrConflict otherwise, or if the
	// stored game is finished.
	UpdateGame(ctx context.Context, m *Meta) error
	// AppendMove commits move mv of a live game: mv.Ply must equal the
	// number of moves already stored (ErrConflict otherwise — a stale or
	// duplicated move, or a second writer). turn updates who is to move.
	// If end is non-nil the game finishes in the same transaction.
	AppendMove(ctx context.Context, gameID string, mv Move, turn Turn, end *End) error
	// EndGame finishes a live game without a move (resignation, time).
	// ErrConflict if the game is not live.
	EndGame(ctx context.Context, gameID string, end End) error
	// TakeBack removes the moves from ply keep on of a live game that has
	// had moves, and sets who is to move and by when (turn). ErrConflict
	// if the game is not live or has not exactly had moves.
	TakeBack(ctx context.Context, gameID string, had, keep int, turn Turn) error
	// Moves returns a game's moves in ply order.
	Moves(ctx context.Context, gameID string) ([]Move, error)
}

// Config is what the owners of one node's games share. Journal and
// Publisher are required.
type Config struct {
	Journal   Journal
	Publisher Publisher
	// Time is the clock of every game (default: the system's).
	Time TimeSource
	// Bots runs bot decisions (default: NewBotSemaphore(GOMAXPROCS)).
	Bots BotPool
	// NewAgent makes the bot of a bot seat (default agent.New).
	NewAgent func(level string, g game.Game, seed uint64) (agent.Agent, error)
	// GameSeed decides the chance events of a new game (default RandomSeed:
	// a guessable seed would reveal a Skyjo deck); BotSeed seeds the bots'
	// own randomness (default RandomSeed).
	GameSeed, BotSeed func() uint64
	// Log gets the games' lifecycle and failures (default slog.Default()):
	// ids, seats, plies and errors, never views, positions or seeds.
	Log *slog.Logger
	// BotTimeout caps one bot decision's thinking (default 10s); BotDelay
	// is a pause before each, so people can follow a bot's play.
	BotTimeout time.Duration
	BotDelay   time.Duration
	// ClaimGrace is how long the seat to move must have been away, and to
	// move, before another player may claim the win (presence.go;
	// default DefaultClaimGrace).
	ClaimGrace time.Duration
	// BotRest drops a game's bot agents (and their search trees) once a
	// person has been to move for that long (zero: never).
	BotRest time.Duration
	// BotOnlyDelay is the least pause before each move of a game without a
	// seat for a person, so that bots playing bots cost a node a few
	// writes a second rather than all the store can take.
	BotOnlyDelay time.Duration
	// Quotas bound each user's games (the zero value: no limits).
	Quotas Quotas
	// OpenExpiry aborts an open game nobody has joined or left for that
	// long; IdleExpiry ends a live game in which no person has moved for
	// that long (the seat to move, if a person's, loses as on time). Zero:
	// never. A clock's own deadline, when later, goes first.
	OpenExpiry, IdleExpiry time.Duration
	// Conditionals keeps the players' conditional moves of correspondence
	// games (conditional.go); nil: the games offer none.
	Conditionals Conditionals
}

// Registry holds the owners of the open and live games of this node. With
// one node that is every such game; a cluster gives each node the games it
// holds the lease of.
type Registry struct {
	cfg Config
	// ctx ends with StopAll; bots think under it.
	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	games  map[string]*Match
	// creators serialises each user's creations, for the quotas.
	creators userLocks
	// ended keeps the last answers of the games that ended here lately,
	// oldest first in endedOrder (answers.go).
	ended      map[string]*endedAnswers
	endedOrder []string
}

// NewRegistry returns an empty registry.
func NewRegistry(cfg Config) (*Registry, error) {
	if cfg.Journal == nil || cfg.Publisher == nil {
		return nil, errors.New("match: Config.Journal and Config.Publisher are required")
	}
	if cfg.Time == nil {
		cfg.Time = RealTime{}
	}
	if cfg.Bots == nil {
		cfg.Bots = NewBotSemaphore(runtime.GOMAXPROCS(0))
	}
	if cfg.NewAgent == nil {
		cfg.NewAgent = agent.New
	}
	if cfg.GameSeed == nil {
		cfg.GameSeed = RandomSeed
	}
	if cfg.BotSeed == nil {
		cfg.BotSeed = RandomSeed
	}
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if cfg.BotTimeout <= 0 {
		cfg.BotTimeout = 10 * time.Second
	}
	if cfg.ClaimGrace <= 0 {
		cfg.ClaimGrace = DefaultClaimGrace
	}
	r := &Registry{cfg: cfg, games: map[string]*Match{}}
	r.ctx, r.cancel = context.WithCancel(context.Background())
	return r, nil
}

// RandomSeed is a cryptographically random seed.
func RandomSeed() uint64 {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("match: crypto/rand failed: " + err.Error())
	}
	return binary.LittleEndian.Uint64(b[:])
}

// Create checks a new game against its game's rules and the creator's
// quotas, stores it and starts its owner; the game starts at once if no
// seat is left open. m carries the creator's request with its ID and
// Created filled in: Options as asked (completed here, with a new seed) or
// a StartPosition with its Origin and KeepDeal (no options: a position
// carries its own; never rated; see startFrom), Seats (nil: the creator's,
// then open ones), Clock and Rated.
func (r *Registry) Create(ctx context.Context, creator User, m Meta) (Ack, error) {
	g, err := game.Lookup(m.Game)
	if err != nil {
		return Ack{}, errorf(CodeBadOption, "unknown game %q (games: %v)", m.Game, game.Names())
	}
	m.Game, m.CreatorID, m.Status, m.ToMove = g.Name(), creator.ID, Open, -1
	var st game.State
	if !m.Origin.Valid() {
		return Ack{}, errorf(CodeBadOption, "origin %q: want position or record", m.Origin)
	}
	if len(m.StartPosition) > 0 {
		if st, err = startFrom(g, &m, r.cfg.GameSeed); err != nil {
			return Ack{}, err
		}
	} else {
		// Rated or not, a new game starts from the server's own deal.
		if m.KeepDeal || m.Origin != OriginServer {
			return Ack{}, errorf(CodeBadOption, "keepDeal and origin need a start position")
		}
		if m.Options, err = game.Complete(g, m.Options); err != nil {
			return Ack{}, errorf(CodeBadOption, "%v", err)
		}
		m.Seed = r.cfg.GameSeed()
		if st, err = g.New(m.Options, m.Seed); err != nil {
			return Ack{}, errorf(CodeBadOption, "%v", err)
		}
	}
	n := st.NumPlayers()
	if m.Seats == nil {
		m.Seats = []Seat{{Kind: SeatHuman, UserID: creator.ID}}
		for len(m.Seats) < n {
			m.Seats = append(m.Seats, Seat{Kind: SeatOpen})
		}
	}
	if err := checkSeats(m.Seats, n, creator, m.Rated, g.Title()); err != nil {
		return Ack{}, err
	}
	unlock := r.creators.lock(creator.ID)
	defer unlock()
	if err := r.checkQuotas(ctx, creator, &m); err != nil {
		return Ack{}, err
	}
	for _, s := range m.Seats {
		if s.Kind != SeatBot {
			continue
		}
		a, err := r.cfg.NewAgent(s.Level, g, 1)
		if err != nil {
			return Ack{}, errorf(CodeBadOption, "bot level %q is not available: %v", s.Level, err)
		}
		agent.Close(a)
	}
	if err := r.checkBotRoom(m.Seats); err != nil {
		return Ack{}, err
	}
	if m.Clock, err = m.Clock.normalized(); err != nil {
		return Ack{}, err
	}
	if err := r.cfg.Journal.CreateGame(ctx, &m); err != nil {
		if errors.Is(err, ErrConflict) {
			return Ack{}, errorf(CodeConflict, "game %s exists already", m.ID)
		}
		r.cfg.Log.Error("create game", "err", err)
		return Ack{}, errUnavailable
	}
	r.cfg.Log.Info("game created", "game", m.ID, "game_name", m.Game, "seats", n, "user", creator.ID)
	owner, _ := r.add(g, m, st, nil)
	var ack Ack
	var startErr error
	// The game is stored: its announcement and start are carried through
	// whatever becomes of the creator's context, or the game would stay
	// stored with an owner that never started it, and the creation be
	// answered with an error although it was applied.
	if err := owner.call(context.WithoutCancel(ctx), func() {
		owner.publish(Event{Kind: EventCreated})
		startErr = owner.startIfFull()
		owner.armExpiry()
		ack = Ack{Meta: owner.meta.Clone(), Names: SeatNames(owner.st)}
	}); err != nil {
		return Ack{}, err
	}
	return ack, startErr
}

// Load starts the owner of a stored open or live game, its state rebuilt by
// replaying its moves through the game's rules. A live game's clocks and bots
// carry on (the time the node was down is not charged); an open game whose
// seats are all taken starts. Loading a game that has an owner returns it.
func (r *Registry) Load(ctx context.Context, m Meta) (*Match, error) {
	return r.load(ctx, m, false)
}

// Adopt starts the owner of a game this node has just taken over from a
// node that died (package cluster). It is Load, except that the stored
// deadline stands — the takeover moved it fairly past the outage — and
// that the takeover, which the store counted as one write of the game
// (m.Version), is published first as EventResumed, so every listener
// resynchronises and the seat to move is prompted again. An owner this
// node still held for the game is stopped first, never reused: this node
// may have lost the game and won it back meanwhile (its old owner's
// picture stopped when it lost it), and the claim itself was a write that
// owner has not seen.
func (r *Registry) Adopt(ctx context.Context, m Meta) (*Match, error) {
	r.Release(m.ID)
	return r.load(ctx, m, true)
}

func (r *Registry) load(ctx context.Context, m Meta, adopted bool) (*Match, error) {
	if owner := r.Get(m.ID); owner != nil {
		return owner, nil
	}
	g, err := game.Lookup(m.Game)
	if err != nil {
		return nil, err
	}
	moves, err := r.cfg.Journal.Moves(ctx, m.ID)
	if err != nil {
		return nil, err
	}
	st, err := Replay(&m, moves, -1)
	if err != nil {
		return nil, fmt.Errorf("replay: %w", err)
	}
	if m.Ply != len(moves) {
		return nil, fmt.Errorf("game row says %d moves, %d stored", m.Ply, len(moves))
	}
	owner, fresh := r.add(g, m, st, moves)
	if !fresh {
		return owner, nil
	}
	switch m.Status {
	case Live:
		owner.post(func() { owner.resume(adopted) })
	case Open:
		// Filling the last seat and starting are two writes; a crash
		// between them leaves a full open game, which starts now.
		owner.post(func() {
			if adopted {
				owner.publish(Event{Kind: EventResumed})
			}
			if owner.expired() {
				owner.expire()
				return
			}
			if err := owner.startIfFull(); err != nil {
				r.cfg.Log.Error("start resumed game", "game", m.ID, "err", err)
			}
			owner.armExpiry()
		})
	}
	return owner, nil
}

// add registers and starts the owner of a game, unless the game has one
// (fresh is false then, and the existing owner is returned).
func (r *Registry) add(g game.Game, m Meta, st game.State, moves []Move) (owner *Match, fresh bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old := r.games[m.ID]; old != nil {
		return old, false
	}
	owner = newMatch(r, g, m, st, moves)
	r.games[m.ID] = owner
	go owner.run()
	return owner, true
}

func (r *Registry) remove(m *Match) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.games[m.id] == m {
		delete(r.games, m.id)
	}
}

// Release stops the owner of game id here, if it has one, without writing
// anything: another node has taken the game over (a cluster found this
// node's lease lapsed), so this owner's picture of it may be stale.
func (r *Registry) Release(id string) {
	if m := r.Get(id); m != nil {
		m.stop()
	}
}

// Get returns the owner of a game, or nil when it has none here.
func (r *Registry) Get(id string) *Match {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.games[id]
}

// Do runs a command in the game id. ErrClosed: the game has no owner here.
// A copy of a command that ended the game here lately (the same Key) gets
// the first copy's answer.
func (r *Registry) Do(ctx context.Context, id string, c Command) (Ack, error) {
	owner := r.Get(id)
	if owner == nil {
		return r.late(ctx, id, c)
	}
	ack, err := owner.Do(ctx, c)
	if errors.Is(err, ErrClosed) {
		return r.late(ctx, id, c)
	}
	return ack, err
}

// Snapshot is the game id as its owner holds it. ErrClosed: the game has no
// owner here.
func (r *Registry) Snapshot(ctx context.Context, id string) (*Snapshot, error) {
	owner := r.Get(id)
	if owner == nil {
		return nil, ErrClosed
	}
	return owner.Snapshot(ctx)
}

// Len is the number of games with an owner here.
func (r *Registry) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.games)
}

// StopAll cancels every bot and stops every owner after the command it is
// running: a move being committed is either committed or never
// acknowledged.
func (r *Registry) StopAll() {
	r.cancel()
	r.mu.Lock()
	owners := make([]*Match, 0, len(r.games))
	for _, m := range r.games {
		owners = append(owners, m)
	}
	r.mu.Unlock()
	var wg sync.WaitGroup
	for _, m := range owners {
		wg.Add(1)
		go func() { defer wg.Done(); m.stop() }()
	}
	wg.Wait()
}
