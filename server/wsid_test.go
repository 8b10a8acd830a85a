package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/coder/websocket"
)

// TestWSErrorCarriesID (issue 23, finding 8): a message refused for its
// text or its JSON is answered with its own id when the id can be read
// cleanly, so the client knows which message failed; an id that is itself
// bad text, or a message whose JSON hides it, is answered with none.
func TestWSErrorCarriesID(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.guest(), e.guest()
	g := alice.create(map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}})
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
	ws := alice.dial("/api/games/" + g.ID + "/ws")
	defer ws.close()
	for _, c := range []struct {
		raw, code, id string
	}{
		{`{"type":"chat","id":"m1","text":"bad \u0000 text"}`, "bad_text", "m1"},
		{"{\"type\":\"move\",\"id\":\"m2\",\"ply\":0,\"move\":\"1\xff\"}", "bad_text", "m2"},
		{`{"type":"move","id":"m3","ply":"zero","move":"1"}`, "bad_json", "m3"},
		{`{"type":"move","id":"m\u00004","ply":0,"move":"1"}`, "bad_text", ""},
		{`{"type":"move","id":"m5",`, "bad_json", ""},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		err := ws.c.Write(ctx, websocket.MessageText, []byte(c.raw))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		m := ws.next("error")
		if m.Error == nil || m.Error.Code != c.code || m.ID != c.id {
			t.Errorf("%q: answered %s, want %s with id %q", c.raw, m.raw, c.code, c.id)
		}
	}
}
