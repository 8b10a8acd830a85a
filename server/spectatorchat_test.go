package server_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// spectatorLine is a chat message as a spectator gets it.
type spectatorLine struct {
	Line struct {
		N    int64
		Seat int
		User string
		Text string
	} `json:"line"`
	Room *struct {
		Chat []struct {
			Seat       int
			User, Text string
		}
	} `json:"room"`
}

func decodeLine(t *testing.T, m wsMsg) spectatorLine {
	t.Helper()
	var l spectatorLine
	if err := json.Unmarshal(m.raw, &l); err != nil {
		t.Fatalf("%s: %v", m.raw, err)
	}
	return l
}

// TestSpectatorChatOverWebSocket (issue 27): spectators chat among
// themselves on the game channel with the players' "chat" message; the
// players never get a line of it (nor a spectator one of theirs), a
// spectator who names a seat still speaks as themselves, the checks and the
// flood limit are the players' chat's, a spectator who blocks another no
// longer hears them, and a finished game has no chat.
func TestSpectatorChatOverWebSocket(t *testing.T) {
	e := newEnv(t)
	id, _, bob, aws, bws, sws := liveTnim(t, e, "20")
	carol := e.guest()
	cws := carol.dial("/api/games/" + id + "/ws")
	cws.next("snapshot")

	// Impersonation: the spectator names seat 0; the line is theirs, seatless.
	const evil = `<script>alert("x")</script>`
	wantAsk(t, sws, map[string]any{"type": "chat", "text": evil, "seat": 0}, "")
	l := decodeLine(t, cws.next("chat"))
	if l.Line.Seat != -1 || l.Line.Text != evil || l.Line.User == "" || l.Line.User == bob.name {
		t.Fatalf("carol heard %+v", l.Line)
	}
	heard := l.Line.User
	sws.next("chat") // the spectator hears their own line

	// The checks and the limits of the players' chat.
	wantAsk(t, sws, map[string]any{"type": "chat", "text": strings.Repeat("x", 201)}, "bad_request")
	wantAsk(t, sws, map[string]any{"type": "chat", "text": strings.Repeat("x", 5000)}, "bad_request")
	wantAsk(t, sws, map[string]any{"type": "chat", "text": "one\ntwo"}, "bad_request")
	wantAsk(t, sws, map[string]any{"type": "chat", "text": "ring\u0007"}, "bad_request")
	wantAsk(t, sws, map[string]any{"type": "chat", "text": "abc\u202egpj.exe"}, "bad_request")
	codes := map[string]int{}
	for range 8 {
		m := ask(sws, map[string]any{"type": "chat", "text": "spam"})
		if m.Error != nil {
			codes[m.Error.Code]++
		} else {
			codes["ok"]++
		}
	}
	if codes["rate_limited"] == 0 || codes["ok"] > 4 {
		t.Fatalf("a flood of 8 lines: %v", codes)
	}
	wantAsk(t, cws, map[string]any{"type": "chat", "text": "carol speaks"}, "")
	wantAsk(t, bws, map[string]any{"type": "chat", "text": "players only"}, "")

	// The players heard none of the spectators, the spectators none of the
	// players: a move that follows reaches everyone, and no such line came before it.
	wantAsk(t, aws, map[string]any{"type": "move", "ply": 0, "move": "1"}, "")
	for _, w := range []*wsClient{aws, bws, sws, cws} {
		w.nextMove(0)
	}
	for _, w := range []*wsClient{aws, bws} {
		for _, raw := range w.received() {
			if strings.Contains(string(raw), "alert(") || strings.Contains(string(raw), `"carol speaks"`) || strings.Contains(string(raw), `"spam"`) {
				t.Fatalf("a player got %s", raw)
			}
		}
	}
	for _, raw := range cws.received() {
		if strings.Contains(string(raw), `"players only"`) {
			t.Fatalf("a spectator got %s", raw)
		}
	}
	// Snapshots: a spectator's holds the spectators' lines, a player's not.
	snap := decodeLine(t, e.guest().dial("/api/games/"+id+"/ws").next("snapshot"))
	if snap.Room == nil || len(snap.Room.Chat) < 3 || snap.Room.Chat[0].Text != evil || snap.Room.Chat[0].User != heard || snap.Room.Chat[0].Seat != -1 {
		t.Fatalf("a spectator's snapshot room %+v", snap.Room)
	}
	if raw := bob.dial("/api/games/" + id + "/ws").next("snapshot").raw; strings.Contains(string(raw), "alert(") || strings.Contains(string(raw), `"carol speaks"`) {
		t.Fatalf("a player's snapshot: %s", raw)
	}

	// Carol blocks dave, another spectator: his lines no longer reach her.
	dave := e.guest()
	dws := dave.dial("/api/games/" + id + "/ws")
	dws.next("snapshot")
	carol.must(http.StatusNoContent, "POST", "/api/blocks/"+dave.name, nil, nil)
	wantAsk(t, dws, map[string]any{"type": "chat", "text": "blocked line"}, "")
	wantAsk(t, cws, map[string]any{"type": "chat", "text": "after the block"}, "")
	if l := decodeLine(t, cws.next("chat")); l.Line.Text != "after the block" {
		t.Fatalf("carol heard %q from a user she blocks", l.Line.Text)
	}

	// A finished game has no chat.
	bob.must(http.StatusOK, "POST", "/api/games/"+id+"/resign", nil, nil)
	cws.next("end")
	if m := ask(cws, map[string]any{"type": "chat", "text": "gg"}); m.Error == nil {
		t.Fatalf("a spectator chatted in a finished game: %s", m.raw)
	}
}
