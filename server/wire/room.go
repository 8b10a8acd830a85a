package wire

import (
	"encoding/json"
	"time"
)

// The game room's messages (docs/api.md, "The game room"): offers, the
// takeback, the players' chat, presence and claiming victory, the rematch.
// The room's events write nothing, so they carry the game's seq as it
// stands and a number of the room's own, n, which a snapshot's room
// carries too: a client skips room events up to its snapshot's n.

// Message types of the room.
const (
	TypeTakeback = "takeback" // moves were taken back (game channel)
	TypeOffer    = "offer"    // an offer was made, declined or withdrawn; client: make an offer
	TypeAccept   = "accept"   // client: accept the other player's offer
	TypeDecline  = "decline"  // client: decline the other player's offer, or withdraw yours
	TypeChat     = "chat"     // a line of the players' chat; client: say one
	TypePresence = "presence" // a player went away or came back
	TypeClaim    = "claim"    // client: claim the win from a player who has left
	TypeAbort    = "abort"    // client: abort the game
	TypeRematch  = "rematch"  // the rematch of a finished game changed; client: offer or accept one
)

// Offer is a pending offer: seat offers kind (a draw or a takeback),
// made when ply moves had been played; accepted lists the seats that have
// accepted so far where several must.
type Offer struct {
	Kind     OfferKind `json:"kind"`
	Seat     int       `json:"seat"`
	Ply      int       `json:"ply"`
	Accepted []int     `json:"accepted,omitempty"`
}

// Note says what happened to an offer: seat did action (offered,
// accepted, declined, withdrawn) to an offer of kind.
type Note struct {
	Kind   OfferKind  `json:"kind"`
	Seat   int        `json:"seat"`
	Action NoteAction `json:"action"`
}

// ChatLine is one line of the players' chat, or of the spectators' (seat
// -1, user naming who said it): plain text, never markup.
type ChatLine struct {
	N    int64     `json:"n"`
	Seat int       `json:"seat"`
	User string    `json:"user,omitempty"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// Away is a player who has left: since when, and (for the seat to move in
// a game that allows claims) in how many ms the others may claim the win.
type Away struct {
	Seat      int       `json:"seat"`
	Since     time.Time `json:"since"`
	ClaimInMs *int64    `json:"claimInMs,omitempty"`
}

// Room is the room in a snapshot: its number, pending offers, the chat
// (the players' for a player, the spectators' for anyone else) and who is
// away; graceMs is how long the seat to move must be away, and to move,
// before the others may claim.
type Room struct {
	N       int64      `json:"n"`
	Offers  []Offer    `json:"offers"`
	Chat    []ChatLine `json:"chat,omitempty"`
	Away    []Away     `json:"away"`
	GraceMs int64      `json:"graceMs"`
}

// TakebackEvent is moves taken back: the game now has ply moves (the
// client drops the rest), with what the receiving seat may see then.
type TakebackEvent struct {
	Type     string          `json:"type"`
	Seq      int64           `json:"seq"`
	Ply      int             `json:"ply"`
	ToMove   int             `json:"toMove"`
	View     json.RawMessage `json:"view,omitempty"`
	Legal    []string        `json:"legal,omitempty"`
	Clocks   []Clock         `json:"clocks,omitempty"`
	Deadline *time.Time      `json:"deadline,omitempty"`
}

// OfferEvent is an offer made, accepted by one of several, declined or
// withdrawn: the note says which, offers is every offer pending now.
type OfferEvent struct {
	Type   string  `json:"type"`
	Seq    int64   `json:"seq"`
	N      int64   `json:"n"`
	Note   Note    `json:"note"`
	Offers []Offer `json:"offers"`
}

// ChatEvent is a line of the players' chat, sent to the players only, or
// of the spectators' chat, sent to the spectators only.
type ChatEvent struct {
	Type string   `json:"type"`
	Seq  int64    `json:"seq"`
	N    int64    `json:"n"`
	Line ChatLine `json:"line"`
}

// PresenceEvent is who is away now.
type PresenceEvent struct {
	Type    string `json:"type"`
	Seq     int64  `json:"seq"`
	N       int64  `json:"n"`
	Away    []Away `json:"away"`
	GraceMs int64  `json:"graceMs"`
}

// RematchEvent is the rematch of a finished game, on that game's channel,
// whenever it changes: offered (open, the offerer in their seat, the other
// player invited), accepted (live), declined or withdrawn (aborted). Seq
// is the rematch game's own event number.
type RematchEvent struct {
	Type string  `json:"type"`
	Seq  int64   `json:"seq"`
	Game Summary `json:"game"`
}
