package server_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// answersTo is every answer (ack or error) w received to its message id.
func answersTo(w *wsClient, id string) []wsMsg {
	var out []wsMsg
	for _, raw := range w.received() {
		var m wsMsg
		if json.Unmarshal(raw, &m) == nil && m.ID == id && (m.Type == "ack" || m.Type == "error") {
			m.raw = raw
			out = append(out, m)
		}
	}
	return out
}

// TestResentMessageAppliedOnce: a message a client sends again with the
// same id on the same connection is its command's copy (the id is the
// command's idempotency key there): a chat line is said once, a
// resignation answers as it did the first time; each copy is answered.
// The same id on another connection (a reload numbers its messages
// afresh) is a new command.
func TestResentMessageAppliedOnce(t *testing.T) {
	e := newEnv(t)
	id, alice, _, aws, bws, _ := liveTnim(t, e, "20")
	line := map[string]any{"type": "chat", "id": "c1", "text": "gl hf"}
	aws.send(line)
	aws.send(line)
	// Alice's connection after a reload, whose first message is c1 too.
	aws2 := alice.dial("/api/games/" + id + "/ws")
	aws2.next("snapshot")
	aws2.send(line)
	deadline := time.Now().Add(20 * time.Second)
	for len(answersTo(aws2, "c1")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("no answer to c1 on the new connection")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if a := answersTo(aws2, "c1"); a[0].Type != "ack" {
		t.Fatalf("c1 on the new connection: %s", a[0].raw)
	}
	resign := map[string]any{"type": "resign", "id": "c2"}
	aws.send(resign)
	aws.send(resign)
	for len(answersTo(aws, "c1")) < 2 || len(answersTo(aws, "c2")) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("answers: %d to c1, %d to c2", len(answersTo(aws, "c1")), len(answersTo(aws, "c2")))
		}
		time.Sleep(5 * time.Millisecond)
	}
	for _, c := range []string{"c1", "c2"} {
		as := answersTo(aws, c)
		if as[0].Type != "ack" || string(as[0].raw) != string(as[1].raw) {
			t.Fatalf("%s and its copy answered %s and %s", c, as[0].raw, as[1].raw)
		}
	}
	bws.next("end")
	said := 0
	for _, raw := range bws.received() {
		if strings.Contains(string(raw), `"type":"chat"`) && strings.Contains(string(raw), "gl hf") {
			said++
		}
	}
	if said != 2 {
		t.Fatalf("bob heard the line %d times: once for the message and its copy, once for the new connection's", said)
	}
}

// TestResentRematchAnsweredOnce: a rematch request sent again with the
// same message id (a client that lost the answer) gets the first answer —
// not "you have offered a rematch already" — and asks for one rematch.
func TestResentRematchAnsweredOnce(t *testing.T) {
	e := newEnv(t)
	_, _, _, aws, bws, _ := liveTnim(t, e, "20")
	aws.send(map[string]any{"type": "resign", "id": "r0"})
	bws.next("end")
	ask := map[string]any{"type": "rematch", "id": "r1"}
	aws.send(ask)
	aws.send(ask)
	deadline := time.Now().Add(20 * time.Second)
	for len(answersTo(aws, "r1")) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("answers to r1: %d", len(answersTo(aws, "r1")))
		}
		time.Sleep(5 * time.Millisecond)
	}
	as := answersTo(aws, "r1")
	if as[0].Type != "ack" || string(as[0].raw) != string(as[1].raw) {
		t.Fatalf("the rematch and its copy answered %s and %s", as[0].raw, as[1].raw)
	}
}
