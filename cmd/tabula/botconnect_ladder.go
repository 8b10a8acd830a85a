package main

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server/wire"
)

// This file is `tabula bot --ladder GAME`: the connector puts its bot
// account on the server's ladder of each game named (docs/bots.md, The
// ladder) once it knows the account, and takes it off on a clean stop. The
// ladder's games are created by the server with the bot seated, so they
// reach the connector as a tournament's do: a start on the user channel,
// then its turns — never a challenge to answer.

// maxLadderGames is the most ladder games at once the server lets a bot
// ask for (server/ladder.go).
const maxLadderGames = 4

// ladderFlag collects --ladder, which may be given more than once or as a
// comma-separated list.
type ladderFlag struct{ games *[]string }

func (f ladderFlag) String() string {
	if f.games == nil {
		return ""
	}
	return strings.Join(*f.games, ",")
}

func (f ladderFlag) Set(v string) error {
	for _, name := range strings.Split(v, ",") {
		g, err := game.Lookup(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("no game is named %q (games: %s)", name, strings.Join(game.Names(), ", "))
		}
		if !slices.Contains(*f.games, g.Name()) {
			*f.games = append(*f.games, g.Name())
		}
	}
	return nil
}

// joinLadders puts the account on the ladder of every --ladder game, each
// with the policy's games at once (at most the server's bound). A game the
// engine or the policy does not play is an error, and so is a refusal (an
// account that is not a bot account: 403).
func (c *connector) joinLadders(ctx context.Context) error {
	n := min(max(c.o.policy.MaxGames, 1), maxLadderGames)
	for _, name := range c.o.ladders {
		if !c.plays(name) {
			return fmt.Errorf("--ladder %s: the engine does not play %s", name, name)
		}
		if len(c.o.policy.Games) > 0 && !slices.Contains(c.o.policy.Games, name) {
			return fmt.Errorf("--ladder %s: the policy's games leave %s out", name, name)
		}
		if err := c.api(ctx, http.MethodPost, "/api/ladder/"+name+"/join", map[string]int{"maxGames": n}, nil); err != nil {
			return fmt.Errorf("--ladder %s: joining refused: %w", name, err)
		}
		c.logf("ladder %s: joined (at most %d games at once)", name, n)
	}
	return nil
}

// leaveLadders takes the account off its ladders, as a clean stop begins:
// no new ladder game comes after it.
func (c *connector) leaveLadders(ctx context.Context) {
	for _, name := range c.o.ladders {
		if err := c.api(ctx, http.MethodPost, "/api/ladder/"+name+"/leave", struct{}{}, nil); err != nil {
			c.logf("ladder %s: leaving failed: %v", name, err)
			continue
		}
		c.logf("ladder %s: left", name)
	}
}

// serverMade reports whether an invitation is to a game the server made
// (no creator: a ladder's or a tournament's), which seats the bot itself:
// there is nothing to accept, and declining would abort the game.
func serverMade(g *wire.Summary) bool { return g.Creator == "" }

// ladderGamesPending reports whether a ladder of the account's still
// counts a game of its in progress: one the server may have recorded just
// before the account left, whose game reaches the connector a moment later
// (the server refuses to pair a bot that has left, so no game comes after
// this reads none). A ladder that cannot be read counts as none pending:
// a stop is not held up by a server that does not answer.
func (c *connector) ladderGamesPending(ctx context.Context) bool {
	for _, name := range c.o.ladders {
		var page wire.LadderPage
		if err := c.api(ctx, http.MethodGet, "/api/ladder/"+name, nil, &page); err != nil {
			continue
		}
		for _, e := range page.Entrants {
			if strings.EqualFold(e.Name, c.me) && e.Playing > 0 {
				return true
			}
		}
	}
	return false
}

// ladderSettleWait bounds how long a stop waits on a ladder's page that
// still counts a game of the bot's in progress. A game recorded before the
// leave reaches the connector within moments of being recorded; what the
// page still counts after that is a game that ended and whose result the
// matchmaker has not recorded yet (it looks every 3 s, and a site whose
// matchmaker is down may not record it for long): no reason to stay.
var ladderSettleWait = 10 * time.Second

// stopWhenLaddersSettled ends the connector once no game of its is in
// progress here or on its ladders (these at most ladderSettleWait),
// checking every half second; a game that comes meanwhile is played, and
// its end calls this again.
func (c *connector) stopWhenLaddersSettled() {
	deadline := time.Now().Add(ladderSettleWait)
	for c.hard.Err() == nil {
		c.mu.Lock()
		n := len(c.games)
		c.mu.Unlock()
		if n > 0 {
			return
		}
		if time.Now().After(deadline) || !c.ladderGamesPending(c.hard) {
			c.stopHard()
			return
		}
		select {
		case <-c.hard.Done():
		case <-time.After(500 * time.Millisecond):
		}
	}
}
