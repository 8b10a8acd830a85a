package match

import (
	"encoding/json"
	"time"

	"github.com/tabula-games/tabula/agent"
)

// EventKind is what happened to a game.
type EventKind string

// The kinds of event, one for each write of a game.
const (
	EventCreated EventKind = "created" // the game exists (Seq 1); invited users hear of it
	EventLobby   EventKind = "lobby"   // a seat was taken or given back
	EventStart   EventKind = "start"   // every seat is filled: the game is live
	EventMove    EventKind = "move"    // a move was committed
	EventEnd     EventKind = "end"     // the game finished or was aborted
	// EventResumed: another node took the game over from an owner that
	// died; the takeover is a write of its own (Registry.Adopt), and every
	// client resynchronises from a snapshot (clocks and deadline moved on).
	EventResumed EventKind = "resumed"
	// EventTakeback: moves were taken back (a write of the game, like a
	// move): Meta.Ply is the number of moves kept, and the event carries
	// what each seat sees then, like EventMove.
	EventTakeback EventKind = "takeback"

	// The room's events (room.go) write nothing: their Seq is the game's
	// version as it stands, and Room.N numbers them instead.
	EventOffer    EventKind = "offer"    // an offer was made, declined or withdrawn (Note says which)
	EventChat     EventKind = "chat"     // a line of the players' chat (Chat): for the players only
	EventPresence EventKind = "presence" // a player went away or came back
)

// RoomEvent reports whether events of kind k are the room's: numbered by
// Room.N, not by a write of the game.
func (k EventKind) RoomEvent() bool {
	return k == EventOffer || k == EventChat || k == EventPresence
}

// Event is one committed change of a game, numbered: Seq is the game's
// Version after the change, so a game's events have the numbers 1, 2, 3, …
// with no gaps, and a listener that sees a gap knows it missed one and
// resynchronises from a snapshot (whose Seq says where it stands).
//
// An event holds everything a transport needs to tell every client about
// it without the game's state — what each seat may see included — so that
// a node that does not own the game can fan it out to its own clients.
type Event struct {
	Game string // the game's id
	Seq  int64
	Kind EventKind
	Meta Meta // the game after the change (its Seed is secret: never show it)
	// Names is how the game's notation names each seat now (SeatNames).
	Names []string
	// Move is the committed move of an EventMove.
	Move *Move
	// Views is what each seat may see after a start, a move or a takeback
	// (EventStart, EventMove, EventTakeback): Views[0] for spectators and Views[s+1] for seat s; for a
	// game that hides nothing, one view for everyone. View picks the right
	// one.
	Views []json.RawMessage
	// Legal is the seat to move's legal moves then (the same events),
	// sorted.
	Legal []string
	// Clocks is the realtime clocks then (the same events).
	Clocks []ClockState
	// Prompt is the bot-protocol request for the human seat to move, if one
	// is (the same events and EventResumed): sent on that user's channel.
	Prompt *Prompt
	// Room is the room after a room event (its offers and absent
	// players; never its chat, which Chat carries line by line).
	Room *Room
	// Note says what happened to an offer (EventOffer).
	Note *OfferNote
	// Chat is the line said (EventChat).
	Chat *ChatLine
	// Answer is what became of a challenge (an EventEnd of an open game
	// with Meta.Expires): declined, cancelled or expired (challenge.go).
	Answer *Answer
}

// View is what seat (or game.Spectator) may see after e.
func (e *Event) View(seat int) json.RawMessage {
	switch {
	case len(e.Views) == 1:
		return e.Views[0]
	case seat+1 >= 0 && seat+1 < len(e.Views):
		return e.Views[seat+1]
	case len(e.Views) > 0:
		return e.Views[0]
	}
	return nil
}

// Prompt is a request to the user in the seat to move: the bot protocol's
// request (agent.Request, the shape exec: bots get), for one game and ply.
type Prompt struct {
	UserID   int64
	Ply      int
	Deadline time.Time // zero: no time limit
	Request  agent.Request
}

// Publisher receives every event of the games this node owns, in order
// within each game. Publish is called on the game's owner goroutine while
// it holds the change, so it must hand the event on without waiting: the
// server's in-process hub queues it for each listening connection; a
// cluster publishes it on the game's subject.
type Publisher interface {
	Publish(e Event)
}
