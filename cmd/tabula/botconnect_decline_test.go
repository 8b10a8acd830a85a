package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/tabula-games/tabula/server/wire"
)

// TestBotDeclineTellsWhy: a challenge the policy refuses is declined with
// POST /api/challenges/{id}/decline, so the challenger hears on the user
// channel why, as a reason the web client translates ("not this game",
// "too fast", "only casual games"), not the bare "No, thank you" of an
// aborted game.
func TestBotDeclineTellsWhy(t *testing.T) {
	s := startSite(t)
	p := botPolicy{Games: []string{"sgolte"}, MinInitialMs: 60000, Rated: "unrated"}
	bot := s.startBot(connectSpec(t, "sgolte"), p, "")
	bot.waitLog(t, `connected to`)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.base, "http")+"/api/ws", &websocket.DialOptions{
		HTTPHeader: http.Header{"Authorization": {"Bearer " + s.alice}}})
	if err != nil {
		t.Fatalf("alice's user channel: %v", err)
	}
	defer ws.CloseNow()
	ws.SetReadLimit(1 << 20)

	cases := []struct {
		body   map[string]any
		reason string
	}{
		{map[string]any{"game": "sploof"}, "game"},
		{map[string]any{"game": "sgolte", "clock": map[string]any{"kind": "realtime", "initialMs": 30000}}, "too_fast"},
		{map[string]any{"game": "sgolte", "rated": true}, "casual"},
	}
	for _, c := range cases {
		c.body["players"] = []string{"robot"}
		var r wire.Challenge
		s.call(s.alice, http.MethodPost, "/api/challenges", c.body, &r)
		if r.ID == "" {
			t.Fatalf("POST /api/challenges %v: no id", c.body)
		}
		for {
			_, data, err := ws.Read(ctx)
			if err != nil {
				t.Fatalf("challenge %s (%v): no answer on alice's channel: %v\n%s", r.ID, c.body, err, bot.log.String())
			}
			var n wire.ChallengeNews
			if json.Unmarshal(data, &n) != nil || n.Type != wire.TypeChallenge || n.Challenge.ID != r.ID {
				continue
			}
			if n.News != wire.ChallengeDeclined || n.By != "robot" || n.Reason != c.reason {
				t.Fatalf("challenge %s (%v): news %q by %q reason %q, want declined by robot for %q", r.ID, c.body, n.News, n.By, n.Reason, c.reason)
			}
			break
		}
	}
}
