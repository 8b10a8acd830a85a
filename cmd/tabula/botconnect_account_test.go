package main

import (
	"net/http"
	"strings"
	"testing"
)

// TestBotConnectorSaysNotBot: the connector says in one line, at start,
// when its token's account is not a bot account, and not when it is.
func TestBotConnectorSaysNotBot(t *testing.T) {
	s := startSite(t)
	person := s.startBot("easy", botPolicy{}, "")
	person.waitLog(t, `account robot is not a bot account: it plays, but shows as a person`)

	// The same token once the account is a bot account (robot has no
	// games): no such line.
	s.call(s.robot, http.MethodPost, "/api/me/bot", nil, nil)
	bot := s.startBot("easy", botPolicy{}, "")
	bot.waitLog(t, `connected to`)
	if strings.Contains(bot.log.String(), "not a bot account") {
		t.Fatalf("a bot account was told it is not one:\n%s", bot.log)
	}
}

// TestBotConnectorReadToken: a read-only token cannot play; the connector
// says why and stops instead of reconnecting for ever.
func TestBotConnectorReadToken(t *testing.T) {
	s := startSite(t)
	var tok struct{ Token string }
	s.call(s.robot, http.MethodPost, "/api/tokens", map[string]any{"name": "reader", "scopes": []string{"read"}}, &tok)
	s.robot = tok.Token
	r := s.startBot("easy", botPolicy{}, "")
	r.waitLog(t, `read-only token cannot play: make one with the bot:play scope\); the server does not let this token play: stopping`)
	r.waitLog(t, `stopped`)
	if strings.Contains(r.log.String(), "reconnecting") {
		t.Fatalf("the connector tried again:\n%s", r.log)
	}
}
