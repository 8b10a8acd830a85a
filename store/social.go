package store

import (
	"context"
	"time"
)

// Follow is one user following another: the follower sees, on their own
// Following list, whether the followed player is online and what they
// play, and hears when they start a game.
type Follow struct {
	UserID     int64 // who follows
	FollowedID int64
	Name       string // the followed user's name, when listed
	Created    time.Time
}

// InboxNotice is an inbox item stored as such (the items derived from
// games — invitations, turns, offers — are computed, not stored): a
// tournament's notice, say. Kind is a short word the client may show an
// icon for; Title is the text, Link a site link ("#/tournament/ID").
type InboxNotice struct {
	ID      int64
	UserID  int64
	Kind    string
	Title   string
	Link    string
	Created time.Time
}

// LiveSeat is one live game in which a user holds a seat.
type LiveSeat struct {
	UserID int64
	GameID string
	Game   string
}

// Social is follows and the inbox's stored part: its notices and which
// items each user has read. Read marks are kept by item key (a string the
// server builds: the game and ply of a turn, say), so that an item
// computed afresh on any node is read or unread alike.
type Social interface {
	// AddFollow records that f.UserID follows f.FollowedID; following twice
	// is one follow (the first is kept). It refuses (ErrConflict) a
	// follower who already follows max users.
	AddFollow(ctx context.Context, f Follow, max int) error
	// Unfollow removes a follow; a missing one is ErrNotFound.
	Unfollow(ctx context.Context, userID, followedID int64) error
	// DropFollows removes the follows between a and b, both ways (a block).
	DropFollows(ctx context.Context, a, b int64) error
	// Following lists whom userID follows, newest first, at most limit.
	Following(ctx context.Context, userID int64, limit int) ([]Follow, error)
	// Followers lists the ids of userID's followers, newest first, at most
	// limit.
	Followers(ctx context.Context, userID int64, limit int) ([]int64, error)
	// LiveSeats lists the live games in which any of userIDs holds a seat
	// (a person's seat), newest first, at most limit.
	LiveSeats(ctx context.Context, userIDs []int64, limit int) ([]LiveSeat, error)

	// AddNotice stores n and sets n.ID; a user's notices beyond keep (the
	// oldest) are deleted.
	AddNotice(ctx context.Context, n *InboxNotice, keep int) error
	// Notices lists a user's notices, newest first, at most limit.
	Notices(ctx context.Context, userID int64, limit int) ([]InboxNotice, error)
	// MarkRead records that userID has read the items keys at at; marking
	// twice keeps the first. Marks older than forgetBefore are deleted.
	MarkRead(ctx context.Context, userID int64, keys []string, at, forgetBefore time.Time) error
	// ReadKeys says which of keys userID has read.
	ReadKeys(ctx context.Context, userID int64, keys []string) (map[string]bool, error)
}
