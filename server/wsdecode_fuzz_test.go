package server

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	_ "github.com/tabula-games/tabula/match/matchtest" // the test game tnim
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// FuzzClientMessage: whatever a client sends on a WebSocket channel, the
// server decodes it without panicking, refuses unclean text (bad_text) and
// malformed JSON with a 400, and otherwise hands it to both channels'
// handlers — a player of a live game, the other player, a spectator — each
// of which answers exactly once: an ack for the message's id, or a client
// error with words, never the 503 of a failure inside the server.
func FuzzClientMessage(f *testing.F) {
	for _, s := range []string{
		`{"type":"move","id":"c1","ply":0,"move":"1"}`, `{"type":"move","id":"c2","ply":0,"move":"9"}`,
		`{"type":"move","ply":-1,"move":"1"}`, `{"type":"move","ply":99999999999,"move":"1"}`, `{"type":"move","ply":0,"move":"1","seat":-5}`,
		`{"type":"move","ply":0,"move":"1","seat":1}`, `{"type":"move","ply":1.5,"move":"1"}`, `{"type":"move","ply":0}`,
		`{"type":"resign","id":"r"}`, `{"type":"resign","id":"r","ply":3}`, `{"type":"chat"}`, `{"type":1}`, `{}`, `[]`, `null`, ``,
		`{"type":"move","id":"a\u0000b","ply":0,"move":"1"}`, "{\"type\":\"move\",\"id\":\"\xff\"}", `{"type":"move","move":"` + string(make([]byte, 300)) + `"}`,
		`{"type":"move","id":"x","ply":0,"move":"1"} {"type":"resign"}`, `{"type":"move","id":"%00","ply":0,"move":"1"}`,
		`{"0":"C\u00001","0":"0"}`, // a NUL in a repeated key's first value
	} {
		f.Add([]byte(s), uint8(1))
	}
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(f.TempDir(), "fuzz.db"), sqlite.Options{NoSync: true})
	if err != nil {
		f.Fatal(err)
	}
	s, err := New(Config{Store: st, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), PasswordCost: PasswordCost{MemoryKiB: 64, Time: 1}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() {
		c, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		s.Shutdown(c)
		st.Close()
	})
	var users [2]*store.User
	for i, name := range []string{"alice", "bob"} {
		u := &store.User{Name: name, Created: time.Now()}
		if err := st.CreateUser(ctx, u); err != nil {
			f.Fatal(err)
		}
		users[i] = u
	}
	var gameID string
	newGame := func(t testing.TB) {
		gameID = newID()
		_, err := s.games.Create(ctx, actor(users[0]), match.Meta{ID: gameID, Game: "tnim", Created: s.createdNow(),
			Options: map[string]string{"stones": "40"},
			Seats:   []match.Seat{{Kind: match.SeatHuman, UserID: users[0].ID}, {Kind: match.SeatInvite, UserID: users[1].ID}}})
		if err == nil {
			_, err = s.games.Do(ctx, gameID, match.Command{Kind: match.CmdJoin, User: actor(users[1]), Seat: -1})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	newGame(f)

	f.Fuzz(func(t *testing.T, data []byte, who uint8) {
		m, err := decodeClientMessage(data)
		if err != nil {
			var ae *apiError
			if !errors.As(err, &ae) || ae.Status != 400 || (ae.Code != "bad_text" && ae.Code != "bad_json") || ae.Message == "" {
				t.Fatalf("decode(%q): %v is not a 400 bad_text or bad_json", data, err)
			}
			// Malformed JSON may be reported either way; otherwise the
			// code says exactly whether the text was unclean.
			if (dirty(data) || json.Valid(data)) && (ae.Code == "bad_text") != dirty(data) {
				t.Fatalf("decode(%q): %s, but dirty = %v", data, ae.Code, dirty(data))
			}
			return
		}
		for _, x := range []string{m.Type, m.ID, m.Move} {
			if !cleanText(x) {
				t.Fatalf("decode(%q) let %q through", data, x)
			}
		}
		if s.games.Get(gameID) == nil {
			newGame(t) // resigned or played out
		}
		var u *store.User
		if who%3 < 2 {
			u = users[who%3]
		}
		gc := &gameConn{wsConn: s.newWSConn(), id: gameID, seq: -1}
		defer gc.cancel()
		gc.handle(u, m)
		checkReply(t, data, m, gc.sub)
		if u != nil {
			uc := &userConn{wsConn: s.newWSConn(), uid: u.ID}
			defer uc.cancel()
			if m.ID == "" {
				m.ID = gameID // the user channel names the game
			}
			uc.handle(u, m)
			checkReply(t, data, m, uc.sub)
		}
	})
}

// checkReply checks that a handler answered message m exactly once, with an
// ack of m's id or an error a client can act on.
func checkReply(t *testing.T, data []byte, m wire.ClientMessage, q *sub) {
	t.Helper()
	var replies [][]byte
	for done := false; !done; {
		select {
		case o := <-q.ch:
			replies = append(replies, o.msg)
		default:
			done = true
		}
	}
	if len(replies) != 1 {
		t.Fatalf("%q: %d replies %q; want one", data, len(replies), replies)
	}
	var r struct {
		Type  string
		ID    string
		Error *wire.ErrorBody
	}
	if err := json.Unmarshal(replies[0], &r); err != nil {
		t.Fatalf("%q: reply %q: %v", data, replies[0], err)
	}
	switch {
	case r.ID != m.ID:
		t.Fatalf("%q: the reply %s is for id %q", data, replies[0], r.ID)
	case r.Type == wire.TypeAck && r.Error == nil:
	case r.Type == wire.TypeError && r.Error != nil && r.Error.Message != "" && r.Error.Code != "unavailable" && r.Error.Code != "":
	default:
		t.Fatalf("%q: reply %s is neither an ack nor a client error", data, replies[0])
	}
}
