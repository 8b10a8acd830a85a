package store

import (
	"context"
	"time"

	"github.com/tabula-games/tabula/match"
)

// Finding people (issue 24): a search of the registered users by name
// prefix, and who is online on the whole site — every node's word, kept
// in the store so that every node reads the same list.

// People is the search of users by name.
type People interface {
	// UsersByPrefix lists the registered users (never guests) whose name
	// begins with prefix, ignoring case, by name; at most limit of them.
	// The prefix is compared as plain text: no character is a wildcard.
	// It reads one range of an index, at most limit entries long.
	UsersByPrefix(ctx context.Context, prefix string, limit int) ([]User, error)
}

// PresenceEntry is a node's word that a user is online there: with a
// game's page open as one of its players (GameID), or not (GameID "").
type PresenceEntry struct {
	UserID int64
	GameID string
}

// PresenceWrite is one node's change to its own presence rows, in one
// transaction.
type PresenceWrite struct {
	Node string
	// At stamps the rows added, and every row of the node with Refresh.
	At time.Time
	// Clear deletes every row of the node first (it starts again from
	// nothing, or is leaving).
	Clear bool
	// Remove deletes these rows of the node; Add writes these (again).
	Remove, Add []PresenceEntry
	// Refresh stamps every row of the node with At.
	Refresh bool
	// ExpireBefore deletes the rows of every node stamped before it: the
	// word of a node that stopped speaking (zero: none).
	ExpireBefore time.Time
}

// OnlineEntry is one row of who is online: a registered user, and one
// game of theirs whose page they have open as a player ("" for none).
type OnlineEntry struct {
	UserID int64
	Name   string
	GameID string
	// Game and Status are the game's, when GameID names a stored game.
	Game   string
	Status match.Status
	// Seen is the newest stamp of this row on any node.
	Seen time.Time
}

// Presence is who is online on the site, as the nodes say.
type Presence interface {
	// WritePresence applies one node's change. With Refresh it says how
	// many of the node's rows it stamped, so that a node whose rows were
	// expired under it (it paused past the expiry) can tell, and write
	// them again.
	WritePresence(ctx context.Context, w PresenceWrite) (refreshed int, err error)
	// OnlineUsers lists the rows of registered users stamped at or after
	// since, by name then game, one per user and game (the newest stamp of
	// any node); at most limit rows.
	OnlineUsers(ctx context.Context, since time.Time, limit int) ([]OnlineEntry, error)
	// OnlineCount counts the users online (rows stamped at or after
	// since): registered users and guests apart.
	OnlineCount(ctx context.Context, since time.Time) (users, guests int, err error)
}
