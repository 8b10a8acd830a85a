package main

import (
	"encoding/json"
	"fmt"

	"github.com/tabula-games/tabula/server/wire"
)

// The load tests are clients of the API like any other: they read and
// write its messages through package wire, which is all a Go client needs.

// userMessage is one message of the user channel, decoded by its type
// into the wire type of that type: a move request, an acknowledgement, a
// game's event (start, end, invite) or a refusal. Types the load tests do
// not answer are left with Type only.
type userMessage struct {
	Type   string
	Prompt wire.Prompt
	Ack    wire.Ack
	Event  wire.GameEvent
	Error  wire.Error
}

// readUserMessage decodes one message of the user channel.
func readUserMessage(data []byte) (userMessage, error) {
	var head struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return userMessage{}, err
	}
	m := userMessage{Type: head.Type}
	var into any
	switch head.Type {
	case wire.TypeMove:
		into = &m.Prompt
	case wire.TypeAck:
		into = &m.Ack
	case wire.TypeStart, wire.TypeEnd, wire.TypeInvite:
		into = &m.Event
	case wire.TypeError:
		into = &m.Error
	default:
		return m, nil
	}
	if err := json.Unmarshal(data, into); err != nil {
		return m, fmt.Errorf("%s message: %w", head.Type, err)
	}
	return m, nil
}

// moveCommand is the user channel's move: game id, at ply, move.
func moveCommand(id string, ply int, move string) []byte {
	b, _ := json.Marshal(wire.ClientMessage{Type: wire.TypeMove, ID: id, MoveRequest: wire.MoveRequest{Ply: &ply, Move: move}})
	return b
}
