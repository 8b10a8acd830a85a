package wire

import "encoding/json"

// The protocol's own values: the words docs/api.md lists for each field.
// They are defined here, not borrowed from the engines' packages, so that
// a Go client of the API imports this package and the standard library
// only; the server converts its values into these in one place
// (server/wireof.go).

// Status is where a game is in its life.
type Status string

// The statuses, in lifecycle order.
const (
	StatusOpen     Status = "open"     // waiting for players
	StatusLive     Status = "live"     // being played
	StatusFinished Status = "finished" // over; never changes again
	StatusAborted  Status = "aborted"  // cancelled before it started
	StatusImported Status = "imported" // a record imported for replay only
)

// SeatKind is how a seat is held.
type SeatKind string

// The kinds of seat.
const (
	SeatOpen     SeatKind = "open"     // anyone may join
	SeatInvite   SeatKind = "invite"   // only the invited user may join
	SeatHuman    SeatKind = "human"    // taken by a user
	SeatBot      SeatKind = "bot"      // a server-side bot at a level
	SeatImported SeatKind = "imported" // a seat of an imported record: nobody plays it
)

// Origin is who chose a game's start.
type Origin string

// The origins of a start the creator chose.
const (
	OriginPosition Origin = "position" // a position the creator gave
	OriginRecord   Origin = "record"   // the end of a record the creator imported, continued
)

// ClockKind is the kind of a game's time control.
type ClockKind string

// The time controls.
const (
	ClockNone           ClockKind = "none"
	ClockRealtime       ClockKind = "realtime"       // a chess clock per seat
	ClockCorrespondence ClockKind = "correspondence" // days per decision
)

// TimeControl is a game's time control (the "clock" of a summary).
type TimeControl struct {
	Kind        ClockKind `json:"kind"`
	InitialMs   int64     `json:"initialMs,omitempty"`   // realtime: each seat's starting time
	IncrementMs int64     `json:"incrementMs,omitempty"` // realtime: added after each of the seat's moves
	Days        int       `json:"days,omitempty"`        // correspondence: time per decision
	// Berserk has bit s set when seat s berserked in an arena's game: it
	// started with half its time (docs/tournaments.md).
	Berserk uint64 `json:"berserk,omitempty"`
}

// Verdict is whether a finished game was won or drawn.
type Verdict string

// The verdicts.
const (
	Won   Verdict = "won"
	Drawn Verdict = "drawn"
)

// Reason is why a game ended.
type Reason string

// The reasons a game ends.
const (
	ReasonNormal    Reason = "normal"    // the rules ended it
	ReasonResign    Reason = "resign"    // a seat resigned
	ReasonTimeout   Reason = "timeout"   // a seat ran out of time
	ReasonAgreed    Reason = "agreed"    // the players agreed to a draw
	ReasonAbandoned Reason = "abandoned" // claimed from a player who left, or nobody moved for too long
)

// Result is how a game ended: the winning seats (none for a draw) and,
// for games with scores, each seat's score.
type Result struct {
	Status  Verdict `json:"status"`
	Winners []int   `json:"winners"`
	Reason  Reason  `json:"reason"`
	Scores  []int   `json:"scores,omitempty"`
}

// OfferKind is what an offer proposes.
type OfferKind string

// The offers.
const (
	OfferDraw     OfferKind = "draw"     // end the game drawn
	OfferTakeback OfferKind = "takeback" // take back the offerer's last move and all after it
)

// NoteAction is what happened to an offer.
type NoteAction string

// What can happen to an offer.
const (
	NoteOffered   NoteAction = "offered"
	NoteAccepted  NoteAction = "accepted" // by one seat of several that must
	NoteDeclined  NoteAction = "declined"
	NoteWithdrawn NoteAction = "withdrawn"
)

// BotRequest is the bot protocol's request (docs/bots.md): what an
// outside bot reads before each move — its seat's view and the legal
// moves in canonical notation, sorted — and how long it may think.
type BotRequest struct {
	Type   string          `json:"type"`
	Game   string          `json:"game"`
	Seat   int             `json:"seat"`
	View   json.RawMessage `json:"view"`
	Legal  []string        `json:"legal"`
	TimeMs int64           `json:"timeMs"`
}
