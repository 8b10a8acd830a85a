package wire

import "time"

// Follows and the inbox (docs/api.md, "Follows and the inbox").

// TypeNotice is the user channel's notice (Notice): the user's inbox
// changed, or a player they follow started a game.
const TypeNotice = "notice"

// The kinds of Notice.
const (
	NoticeInbox   = "inbox"   // the inbox changed: Unread when the server knows it, else ask GET /api/inbox/unread
	NoticeStarted = "started" // a player the user follows started a game: User, GameID, Game
)

// Notice is a message of the user channel that is about the user rather
// than one of their games.
type Notice struct {
	Type string `json:"type"` // TypeNotice
	Kind string `json:"kind"` // NoticeInbox, NoticeStarted
	// Unread is the number of unread inbox items, when the notice knows it.
	Unread *int   `json:"unread,omitempty"`
	User   string `json:"user,omitempty"`
	GameID string `json:"gameId,omitempty"`
	Game   string `json:"game,omitempty"`
}

// The kinds of inbox item.
const (
	InboxInvitation = "invitation" // a seat of an open game is kept for you (From invites you)
	InboxChallenge  = "challenge"  // an invitation that expires (Expires): a challenge
	InboxTurn       = "turn"       // your move in a correspondence game, or one without a clock
	InboxOffer      = "offer"      // From offers a draw or a takeback (Offer) in a game of yours
	InboxNotice     = "notice"     // a stored notice (a tournament's): Title and Link
)

// InboxItem is one item of the inbox.
type InboxItem struct {
	// ID names the item for POST /api/inbox/read; the same item has the
	// same id on every node and every request.
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Game and GameID are the game's, for the kinds about a game.
	Game   string `json:"game,omitempty"`
	GameID string `json:"gameId,omitempty"`
	// From is the player the item comes from, when there is one.
	From string `json:"from,omitempty"`
	// Offer is the offer's kind: "draw" or "takeback".
	Offer string `json:"offer,omitempty"`
	// Topic is a stored notice's own kind ("tournament", …), Title its text.
	// Expires is when a challenge expires.
	Expires *time.Time `json:"expires,omitempty"`
	Topic   string     `json:"topic,omitempty"`
	Title   string     `json:"title,omitempty"`
	Link    string     `json:"link"`
	Created time.Time  `json:"created"`
	Read    bool       `json:"read"`
}

// Inbox answers GET /api/inbox: one page of the items, newest first.
type Inbox struct {
	Items  []InboxItem `json:"items"`
	Unread int         `json:"unread"`
	Total  int         `json:"total"`
	Offset int         `json:"offset"`
	// Next is the offset of the next page, if there is one.
	Next *int `json:"next,omitempty"`
}

// InboxRead is the body of POST /api/inbox/read: the ids to mark read,
// or All.
type InboxRead struct {
	IDs []string `json:"ids,omitempty"`
	All bool     `json:"all,omitempty"`
}

// InboxUnread answers GET /api/inbox/unread and POST /api/inbox/read.
type InboxUnread struct {
	Unread int `json:"unread"`
	// Marked is how many items POST /api/inbox/read marked (ids that are
	// not among the user's items mark nothing).
	Marked *int `json:"marked,omitempty"`
}

// FollowGame is a live game of a followed player.
type FollowGame struct {
	ID   string `json:"id"`
	Game string `json:"game"`
}

// Follow is one player the user follows.
type Follow struct {
	User    string       `json:"user"`
	Since   time.Time    `json:"since"`
	Online  bool         `json:"online"`
	Playing []FollowGame `json:"playing"`
}

// Follows answers GET /api/follows.
type Follows struct {
	Follows []Follow `json:"follows"`
	// Max is how many players one may follow.
	Max int `json:"max"`
}
