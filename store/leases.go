package store

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/match"
)

// ErrDeposed: a fenced write found that another node owns the game now
// (its ownership epoch moved on). Nothing was written. It is
// match.ErrDeposed, so the game's owner recognises it and stops.
var ErrDeposed = match.ErrDeposed

// Leases is who owns each open or live game when several nodes share the
// database (cluster mode; package cluster is its user).
//
// Every node holds a lease — a row it renews, timed by the database's clock
// so that the nodes' clocks need not agree — and every game row names its
// owner node and an ownership epoch. A game whose owner's lease has expired
// is an orphan, which any node may claim: the claim is a compare-and-set on
// the epoch, so exactly one claimant wins, and it raises the epoch. Every
// write of an owned game is fenced: it succeeds only if the game's epoch is
// still the one the writer holds, checked in the write's own transaction,
// so a node that lost a game (it paused, or lost the database, for longer
// than its lease) can never write it again.
type Leases interface {
	// RenewNode extends node id's lease to ttl from the database's now,
	// creating it for a new node, and records whether the node's bot
	// budget is full. lapsed reports that the lease existed but had
	// expired: other nodes may have claimed some of its games.
	RenewNode(ctx context.Context, id string, ttl time.Duration, botsFull bool) (lapsed bool, err error)
	// LeaveNode ends node id's lease now (a node shutting down): its games
	// are orphans at once, and their clocks stopped when it left.
	LeaveNode(ctx context.Context, id string) error
	// LiveNodes lists the nodes whose lease has not expired.
	LiveNodes(ctx context.Context) ([]Node, error)
	// Orphans lists up to limit open or live games whose owner's lease has
	// expired, or that have no owner, oldest first.
	Orphans(ctx context.Context, limit int) ([]Orphan, error)
	// Claim makes node the owner of the orphan o, if it is still the orphan
	// that was read (same epoch, its owner's lease still expired): in one
	// write the game's epoch and version go up by one, and a live game's
	// deadline moves on by the outage — to the database's now plus the
	// time the seat to move had left at o.DownSince (unchanged when
	// DownSince is unknown). It returns the new epoch; ErrConflict when
	// another node claimed the game first, its owner came back, or it
	// ended.
	Claim(ctx context.Context, o Orphan, node string) (epoch int64, err error)
	// Owned is node's open and live games with their epochs.
	Owned(ctx context.Context, node string) (map[string]int64, error)
	// Owner is who owns game id now.
	Owner(ctx context.Context, id string) (Owner, error)

	// CreateOwnedGame is Journal.CreateGame for node, which owns the new
	// game at epoch 1.
	CreateOwnedGame(ctx context.Context, m *match.Meta, node string) error
	// UpdateGameFenced, AppendMoveFenced, EndGameFenced and TakeBackFenced are the
	// Journal's writes, made only while the game's epoch is still epoch
	// (ErrDeposed otherwise).
	UpdateGameFenced(ctx context.Context, epoch int64, m *match.Meta) error
	AppendMoveFenced(ctx context.Context, epoch int64, gameID string, mv match.Move, turn match.Turn, end *match.End) error
	EndGameFenced(ctx context.Context, epoch int64, gameID string, end match.End) error
	TakeBackFenced(ctx context.Context, epoch int64, gameID string, had, keep int, turn match.Turn) error
}

// Node is one node's lease, in the database's clock.
type Node struct {
	ID       string
	Started  time.Time
	Renewed  time.Time
	Expires  time.Time
	BotsFull bool
}

// Orphan is an open or live game whose owner is gone.
type Orphan struct {
	GameID string
	Owner  string // the node that owned it ("" if none did)
	Epoch  int64
	// DownSince is the owner's last renewal: the last moment it was known
	// to be running the game (zero if unknown).
	DownSince time.Time
	// Bots: a bot holds one of its seats.
	Bots bool
}

// Owner is who owns a game.
type Owner struct {
	Node   string // "" if nobody does
	Epoch  int64
	Status match.Status
}
