package main

import (
	"encoding/json"
	"testing"
)

// TestReadUserMessage: each message of the user channel is read into its
// wire type by its type — a move request's game is a name, an event's a
// summary, which one struct for all could not hold both.
func TestReadUserMessage(t *testing.T) {
	m, err := readUserMessage([]byte(`{"type":"move","game":"sgolte","seat":1,"view":{},"legal":["a1","b2"],"timeMs":500,"id":"g1","ply":4,"seq":9}`))
	if err != nil || m.Prompt.ID != "g1" || m.Prompt.Ply != 4 || m.Prompt.Game != "sgolte" || len(m.Prompt.Legal) != 2 {
		t.Fatalf("move request: %+v %v", m, err)
	}
	m, err = readUserMessage([]byte(`{"type":"end","seq":30,"game":{"id":"g1","game":"sgolte","status":"finished","result":{"status":"won","winners":[1],"reason":"normal"}}}`))
	if err != nil || m.Event.Game.ID != "g1" || m.Event.Game.Result == nil || m.Event.Game.Result.Winners[0] != 1 {
		t.Fatalf("end: %+v %v", m, err)
	}
	m, err = readUserMessage([]byte(`{"type":"ack","id":"g1","ply":4,"seq":10}`))
	if err != nil || m.Ack.Ply == nil || *m.Ack.Ply != 4 {
		t.Fatalf("ack: %+v %v", m, err)
	}
	m, err = readUserMessage([]byte(`{"type":"error","id":"g1","error":{"code":"stale_ply","message":"no"}}`))
	if err != nil || m.Error.Error.Code != "stale_ply" {
		t.Fatalf("error: %+v %v", m, err)
	}
	if m, err = readUserMessage([]byte(`{"type":"presence","n":3}`)); err != nil || m.Type != "presence" {
		t.Fatalf("another type: %+v %v", m, err)
	}
	if _, err = readUserMessage([]byte(`{"type":"move","ply":"four"}`)); err == nil {
		t.Fatal("a move request with a bad ply was read")
	}
	var back map[string]any
	if err := json.Unmarshal(moveCommand("g1", 4, "a1"), &back); err != nil || back["type"] != "move" || back["id"] != "g1" || back["ply"] != 4.0 || back["move"] != "a1" {
		t.Fatalf("move command %v %v", back, err)
	}
}
