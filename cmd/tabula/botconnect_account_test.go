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
