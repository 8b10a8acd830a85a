// Package wire is the server's protocol, defined once: a typed struct for
// every message of docs/api.md that carries a game — the WebSocket
// channels' messages both ways, and the REST answers built from the same
// values. Nothing about a game is written to a client except through these
// types.
//
// The package imports the standard library only (imports_test.go keeps it
// so): a Go client of the API imports it without the engines. Its values —
// statuses, seat kinds, results, the analysis reports — are its own, and
// the server converts the engines' into them in one place
// (server/wireof.go).
//
// Every message about a game carries its event number, Seq: the game's
// version, which every committed change (a seat taken, the start, a move,
// the end) raises by one. Within one game the numbers have no gaps, so a
// client (or a node relaying the game) that sees a number more than one
// past the last it had has missed something and resynchronises from a
// snapshot, which says the number it stands at.
package wire

import (
	"encoding/json"
	"time"
)

// Message types, the "type" field of every WebSocket message.
const (
	TypeSnapshot = "snapshot" // the whole game, for one seat
	TypeMove     = "move"     // a committed move (game channel); your turn (user channel); a move (client)
	TypeLobby    = "lobby"    // seats changed
	TypeStart    = "start"    // user channel: a game of yours started
	TypeEnd      = "end"      // the game ended (or was aborted, on the game channel)
	TypeInvite   = "invite"   // user channel: you are invited to a seat
	TypeAck      = "ack"      // your command was carried out
	TypeError    = "error"    // your command was refused
	TypeResign   = "resign"   // client: resign
	TypeReplay   = "replay"   // the REST replay answer
)

// Seat is one seat of a game summary.
type Seat struct {
	Seat  int      `json:"seat"`
	Kind  SeatKind `json:"kind"`
	User  string   `json:"user,omitempty"`
	Level string   `json:"level,omitempty"`
	Name  string   `json:"name,omitempty"` // how the game's notation names the seat
	// Bot marks a seat held by (or offered to) a bot account.
	Bot bool `json:"bot,omitempty"`
	// Rating is the user's rating in the game, rounded, if they have one;
	// Provisional while its deviation is above the leaderboard's limit.
	Rating      *int `json:"rating,omitempty"`
	Provisional bool `json:"provisional,omitempty"`
	// RatingChange is the user's rating before and after a finished
	// rated game.
	RatingChange *RatingChange `json:"ratingChange,omitempty"`
}

// Summary describes a game: lobby listings and every message about a game
// carry it.
type Summary struct {
	ID       string            `json:"id"`
	Game     string            `json:"game"`
	Title    string            `json:"title"`
	Options  map[string]string `json:"options"`
	Status   Status            `json:"status"`
	Seats    []Seat            `json:"seats"`
	Clock    TimeControl       `json:"clock"`
	Rated    bool              `json:"rated"`
	Creator  string            `json:"creator,omitempty"`
	Created  time.Time         `json:"created"`
	Started  *time.Time        `json:"started"`
	Finished *time.Time        `json:"finished"`
	Ply      int               `json:"ply"`
	ToMove   int               `json:"toMove"`
	Deadline *time.Time        `json:"deadline"`
	Result   *Result           `json:"result"`
	// Start is set when the game's creator chose its start (a position
	// or a record): such a game is never rated, and this is what everyone
	// is shown of it before joining.
	Start *Start `json:"start,omitempty"`
}

// Start describes a start the game's creator chose.
type Start struct {
	From Origin `json:"from"` // "position" or "record"
	// KeepDeal: the hidden cards are the creator's own, who may know them;
	// joining needs acceptDeal. False: the server dealt them afresh.
	KeepDeal bool `json:"keepDeal"`
	// View is the start position as a spectator sees it (for Skyjo the
	// totals and the face-up cards; nothing hidden).
	View json.RawMessage `json:"view"`
}

// Move is one move of a game's list.
type Move struct {
	Ply  int       `json:"ply"`
	Seat int       `json:"seat"`
	Move string    `json:"move"`
	At   time.Time `json:"at"`
}

// Clock is one seat's realtime clock.
type Clock struct {
	Seat        int   `json:"seat"`
	RemainingMs int64 `json:"remainingMs"`
}

// Snapshot is a game as one seat may see it: the first message on the game
// channel (and again whenever the client must resynchronise), and the
// answer of GET /api/games/{id}.
type Snapshot struct {
	Type   string          `json:"type"`
	Seq    int64           `json:"seq"`
	Game   Summary         `json:"game"`
	Seat   int             `json:"seat"` // yours; -1 for a spectator
	Moves  []Move          `json:"moves"`
	View   json.RawMessage `json:"view,omitempty"`
	Legal  []string        `json:"legal,omitempty"` // only when you are to move
	Clocks []Clock         `json:"clocks,omitempty"`
	// Room is the game room (room.go): offers, the players' chat (for
	// players), who is away; only while the game is open or live.
	Room *Room `json:"room,omitempty"`
	// Rematch is the rematch of a finished game, once one is offered.
	Rematch *Summary `json:"rematch,omitempty"`
}

// MoveEvent is a committed move on the game channel, with what the
// receiving seat may see after it.
type MoveEvent struct {
	Type     string          `json:"type"`
	Seq      int64           `json:"seq"`
	Ply      int             `json:"ply"`
	Seat     int             `json:"seat"`
	Move     string          `json:"move"`
	At       time.Time       `json:"at"`
	ToMove   int             `json:"toMove"`
	View     json.RawMessage `json:"view,omitempty"`
	Legal    []string        `json:"legal,omitempty"`
	Clocks   []Clock         `json:"clocks,omitempty"`
	Deadline *time.Time      `json:"deadline,omitempty"`
}

// GameEvent is a change told by the game's summary: lobby, start, end and
// invite.
type GameEvent struct {
	Type string  `json:"type"`
	Seq  int64   `json:"seq"`
	Game Summary `json:"game"`
}

// Prompt is the user channel's "your turn": the bot protocol's request
// (BotRequest, exactly what exec: bots read) with the game's id, the ply
// to answer and the event number added.
type Prompt struct {
	BotRequest
	ID  string `json:"id"`
	Ply int    `json:"ply"`
	Seq int64  `json:"seq"`
}

// Ack says a command was carried out: for a move, its ply.
type Ack struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	Ply  *int   `json:"ply,omitempty"`
	Seq  int64  `json:"seq"`
}

// ErrorBody is the error of every refusal, over HTTP and WebSocket alike.
type ErrorBody struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// Error is a refused command (or an unreadable message) on a WebSocket
// channel. It carries no event number: nothing happened.
type Error struct {
	Type  string    `json:"type"`
	ID    string    `json:"id"`
	Error ErrorBody `json:"error"`
}

// MoveRequest is a move a client asks for: the body of POST
// /api/games/{id}/moves, and the move of a ClientMessage.
type MoveRequest struct {
	Ply  *int   `json:"ply"`  // the number of moves the client has seen
	Move string `json:"move"` // in the game's notation
	Seat *int   `json:"seat,omitempty"`
}

// ClientMessage is anything a client sends on either channel: a move
// ({"type":"move","id","ply","move"[,"seat"]}) or, on the game channel, a
// resignation ({"type":"resign","id"}) or one of the room's messages
// (offer, accept, decline, chat, claim, abort, rematch). On the user channel id is the
// game's id; on the game channel it is the client's own, echoed in the
// answer.
type ClientMessage struct {
	Type string `json:"type"`
	ID   string `json:"id"`
	MoveRequest
	// Offer is the offer of an offer, accept or decline message ("draw",
	// "takeback"); Text the line of a chat message.
	Offer OfferKind `json:"offer,omitempty"`
	Text  string    `json:"text,omitempty"`
}

// MoveResult answers POST /api/games/{id}/moves.
type MoveResult struct {
	Seq    int64  `json:"seq"`
	Ply    int    `json:"ply"`
	Seat   int    `json:"seat"`
	Move   string `json:"move"`
	ToMove int    `json:"toMove"`
	Status Status `json:"status"`
}

// GameResult answers the lobby's commands (create, join, leave, abort,
// resign, import).
type GameResult struct {
	Seq  int64   `json:"seq"`
	Game Summary `json:"game"`
}

// Replay answers GET /api/games/{id}/replay?ply=N: the game as a spectator
// saw it after its first N moves (Moves holds those), with the full
// position where it may be shown.
type Replay struct {
	Snapshot
	Ply      int             `json:"ply"`
	Status   Status          `json:"status"`
	ToMove   int             `json:"toMove"`
	Position json.RawMessage `json:"position,omitempty"`
}

// ErrorResponse is the body of every HTTP error.
type ErrorResponse struct {
	Error ErrorBody `json:"error"`
}
