package match_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
)

// quotaNode is a node whose quotas count the journal's games; bots are
// bot if given.
func quotaNode(t *testing.T, q match.Quotas, bot ...agent.Agent) *node {
	var n *node
	n = newNode(t, func(c *match.Config) {
		if q.OpenGames != 0 || q.BotGames != 0 || q.BotOnlyGames != 0 {
			q.Games = func(ctx context.Context, uid int64) ([]match.Meta, error) { return n.journal.Created(ctx, uid) }
		}
		c.Quotas = q
		var seed atomic.Uint64 // creations run at once here
		c.GameSeed = func() uint64 { return seed.Add(1) }
		if len(bot) > 0 {
			c.NewAgent = func(string, game.Game, uint64) (agent.Agent, error) { return bot[0], nil }
		}
	})
	return n
}

var gameIDs atomic.Int64

func createAs(n *node, u match.User, seats ...match.Seat) (match.Ack, error) {
	id := fmt.Sprintf("q%d", gameIDs.Add(1))
	return n.reg.Create(context.Background(), u, match.Meta{ID: id, Game: "tnim", Options: map[string]string{"stones": "9"}, Seats: seats})
}

var (
	me      = func(u match.User) match.Seat { return match.Seat{Kind: match.SeatHuman, UserID: u.ID} }
	openS   = match.Seat{Kind: match.SeatOpen}
	randBot = match.Seat{Kind: match.SeatBot, Level: "random"}
	guest   = match.User{ID: 40, Guest: true}
)

// TestQuotas: each user may have at most so many open games, games with
// bots and games of bots only; beyond them creation is refused with the
// quota code (429), and a guest may never start a game without a person's
// seat (403). A game that ends frees its place.
func TestQuotas(t *testing.T) {
	n := quotaNode(t, match.Quotas{OpenGames: 2, BotGames: 3, BotOnlyGames: 1})

	// Open games: two, then refused; other users are not affected.
	var open []string
	for range 2 {
		ack, err := createAs(n, alice, me(alice), openS)
		if err != nil {
			t.Fatal(err)
		}
		open = append(open, ack.Meta.ID)
	}
	if _, err := createAs(n, alice, me(alice), openS); codeOf(err) != match.CodeQuota {
		t.Fatalf("a third open game: %v; want %s", err, match.CodeQuota)
	}
	if _, err := createAs(n, bob, me(bob), openS); err != nil {
		t.Fatalf("another user's open game: %v", err)
	}
	// Aborting one frees its place.
	n.must(open[0], match.Command{Kind: match.CmdAbort, User: alice})
	if _, err := createAs(n, alice, me(alice), openS); err != nil {
		t.Fatalf("an open game after aborting one: %v", err)
	}

	// Games with bots: a game against a bot starts at once and counts,
	// open or live.
	var botGames []string
	for range 3 {
		ack, err := createAs(n, carol, me(carol), randBot)
		if err != nil {
			t.Fatal(err)
		}
		botGames = append(botGames, ack.Meta.ID)
	}
	if _, err := createAs(n, carol, me(carol), randBot); codeOf(err) != match.CodeQuota {
		t.Fatalf("a fourth game with a bot: %v; want %s", err, match.CodeQuota)
	}
	n.must(botGames[0], match.Command{Kind: match.CmdResign, User: carol, Ply: -1})
	ack, err := createAs(n, carol, me(carol), randBot)
	if err != nil {
		t.Fatalf("a game with a bot after resigning one: %v", err)
	}
	n.must(ack.Meta.ID, match.Command{Kind: match.CmdResign, User: carol, Ply: -1})

	// Bots against bots: never for a guest, once for a registered user.
	if _, err := createAs(n, guest, randBot, randBot); codeOf(err) != match.CodeForbidden {
		t.Fatalf("a guest's game of bots: %v; want %s", err, match.CodeForbidden)
	}
	if _, err := createAs(n, carol, randBot, randBot); err != nil {
		t.Fatalf("a registered user's game of bots: %v", err)
	}
}

// TestQuotaBotOnly: the limit on games of bots only counts those games
// while they go; 0 turns them off; a negative limit lifts a quota.
func TestQuotaBotOnly(t *testing.T) {
	// The bots think until the test ends, so the game stays live.
	bot := &scripted{script: []string{"wait", "wait", "wait"}, release: make(chan struct{})}
	defer close(bot.release)
	n := quotaNode(t, match.Quotas{OpenGames: -1, BotGames: -1, BotOnlyGames: 1}, bot)
	if _, err := createAs(n, alice, randBot, randBot); err != nil {
		t.Fatal(err)
	}
	if _, err := createAs(n, alice, randBot, randBot); codeOf(err) != match.CodeQuota {
		t.Fatalf("a second game of bots while the first thinks: %v; want %s", err, match.CodeQuota)
	}
	for range 10 {
		if _, err := createAs(n, alice, me(alice), openS); err != nil {
			t.Fatalf("with no limit on open games: %v", err)
		}
	}
	off := quotaNode(t, match.Quotas{OpenGames: -1, BotGames: -1, BotOnlyGames: 0}, bot)
	if _, err := createAs(off, alice, randBot, randBot); codeOf(err) != match.CodeForbidden {
		t.Fatalf("games of bots turned off: %v; want %s", err, match.CodeForbidden)
	}
	// Without a lister there are no limits, but guests still cannot.
	free := quotaNode(t, match.Quotas{}, bot)
	if _, err := createAs(free, alice, randBot, randBot); err != nil {
		t.Fatalf("no quotas: %v", err)
	}
	if _, err := createAs(free, guest, randBot, randBot); codeOf(err) != match.CodeForbidden {
		t.Fatalf("no quotas, a guest's game of bots: %v; want %s", err, match.CodeForbidden)
	}
}

// TestQuotaRace: twenty creations at once by one user with room for five
// leave exactly five games.
func TestQuotaRace(t *testing.T) {
	n := quotaNode(t, match.Quotas{OpenGames: 5, BotGames: -1, BotOnlyGames: -1})
	var wg sync.WaitGroup
	var mu sync.Mutex
	ok, refused := 0, 0
	for range 20 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := createAs(n, alice, me(alice), openS)
			mu.Lock()
			defer mu.Unlock()
			switch codeOf(err) {
			case "":
				ok++
			case match.CodeQuota:
				refused++
			default:
				t.Errorf("create: %v", err)
			}
		}()
	}
	wg.Wait()
	if ok != 5 || refused != 15 {
		t.Fatalf("%d created, %d refused; want 5 and 15", ok, refused)
	}
}

// TestQuotaAskerGone: a creation whose asker has gone while the quota
// counted their games is not a storage failure — no ERROR line, and the
// answer is the context's own error, not "unavailable".
func TestQuotaAskerGone(t *testing.T) {
	n := quotaNode(t, match.Quotas{OpenGames: 5, BotGames: -1, BotOnlyGames: -1})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := n.reg.Create(ctx, alice, match.Meta{ID: "gone", Game: "tnim", Options: map[string]string{"stones": "9"}, Seats: []match.Seat{me(alice), openS}})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("a creation whose asker left: %v; want context.Canceled", err)
	}
	if logs := n.log(); strings.Contains(logs, "level=ERROR") {
		t.Fatalf("an asker leaving was logged as an error:\n%s", logs)
	}
}

// TestQuotaSiteGames: the site's own games (creator 0: a tournament's
// boards, the ladder's) are not held to a user's quotas — counted for
// "nobody", every tournament and the ladder shared one user's open games,
// and a busy site stopped pairing (seen: "quota: you have 12 open games
// waiting for players" from four tournaments' directors at once) — while
// a user still is.
func TestQuotaSiteGames(t *testing.T) {
	n := quotaNode(t, match.Quotas{OpenGames: 2, BotGames: 1, BotOnlyGames: 1})
	site := match.User{}
	for i := range 5 {
		if _, err := createAs(n, site, match.Seat{Kind: match.SeatInvite, UserID: alice.ID}, match.Seat{Kind: match.SeatInvite, UserID: bob.ID}); err != nil {
			t.Fatalf("the site's open game %d: %v", i+1, err)
		}
	}
	for i := range 3 {
		if _, err := createAs(n, site, match.Seat{Kind: match.SeatInvite, UserID: carol.ID}, randBot); err != nil {
			t.Fatalf("the site's game %d with a bot: %v", i+1, err)
		}
	}
	for range 2 {
		if _, err := createAs(n, alice, me(alice), openS); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := createAs(n, alice, me(alice), openS); codeOf(err) != match.CodeQuota {
		t.Fatalf("a user's third open game beside the site's: %v; want %s", err, match.CodeQuota)
	}
}
