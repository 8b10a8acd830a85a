package wire

import "time"

// Challenges (docs/api.md, Challenges): an invitation to a game with a
// deadline, sent to one player (or up to seven, for Skyjo), answered by
// accepting or by declining with a reason.

// TypeChallenge is the user channel's news of a challenge (ChallengeNews).
const TypeChallenge = "challenge"

// The news a ChallengeNews carries.
const (
	ChallengeReceived  = "received"  // you are challenged (sent again on connecting while it is open)
	ChallengeAccepted  = "accepted"  // every invited player accepted: the game has started
	ChallengeDeclined  = "declined"  // By declined it, for Reason
	ChallengeCancelled = "cancelled" // By (the challenger) withdrew it
	ChallengeExpired   = "expired"   // nobody answered by Expires
)

// ChallengeRequest creates a challenge (POST /api/challenges).
type ChallengeRequest struct {
	Game    string            `json:"game"`
	Options map[string]string `json:"options,omitempty"`
	// Clock is the time control (absent: none), as for POST /api/games.
	Clock *TimeControlRequest `json:"clock,omitempty"`
	Rated bool                `json:"rated,omitempty"`
	// Players are the names of the challenged players: one, or up to
	// seven for a game of more seats (Skyjo). May be empty with Bot.
	Players []string `json:"players,omitempty"`
	// Bot is one of the server's bots (a level: random, greedy, easy,
	// medium, hard). Alone, it is challenged: the game starts at once
	// against it (every other seat is that bot); with Players, it takes
	// the seats the options leave beside them.
	Bot string `json:"bot,omitempty"`
	// Seat is the challenger's seat (0: the first); absent or -1: drawn
	// at random. The challenged players take the other seats in order.
	Seat *int `json:"seat,omitempty"`
}

// TimeControlRequest is a time control as a request gives it (the shape
// of POST /api/games's clock).
type TimeControlRequest struct {
	Kind        string `json:"kind,omitempty"`
	InitialMs   int64  `json:"initialMs,omitempty"`
	IncrementMs int64  `json:"incrementMs,omitempty"`
	Days        int    `json:"days,omitempty"`
}

// Challenge is a challenge as its players see it.
type Challenge struct {
	ID   string   `json:"id"` // the game's id: accept, decline and cancel name it
	From string   `json:"from"`
	To   []string `json:"to"` // the challenged players, in seat order
	// Expires is when the challenge is withdrawn unless every challenged
	// player has accepted.
	Expires time.Time `json:"expires"`
	Game    Summary   `json:"game"`
}

// Challenges is GET /api/challenges: the open challenges to you and
// yours, newest first.
type Challenges struct {
	Incoming []Challenge `json:"incoming"`
	Outgoing []Challenge `json:"outgoing"`
}

// DeclineRequest declines a challenge (POST /api/challenges/{id}/decline).
type DeclineRequest struct {
	// Reason is one of: generic, later, too_fast, too_slow, rated,
	// casual, game, options, bot (absent: generic).
	Reason string `json:"reason,omitempty"`
}

// ChallengeNews is the user channel's message of a challenge: to the
// challenged players when it arrives, and to everyone in it when it is
// accepted, declined, cancelled or expires.
type ChallengeNews struct {
	Type      string    `json:"type"` // TypeChallenge
	News      string    `json:"news"` // ChallengeReceived, …
	By        string    `json:"by,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	Challenge Challenge `json:"challenge"`
}
