package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// RunBots runs the tests of store.BotAccounts (bot accounts, token scopes
// and last use) against stores made by open, as Run does.
func RunBots(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, s store.BotAccounts, st store.Store)
	}{
		{"MakeBot", testMakeBot},
		{"MakeBotRace", testMakeBotRace},
		{"ScopedTokens", testScopedTokens},
		{"BotLeaderboard", testBotLeaderboard},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			b, ok := s.(store.BotAccounts)
			if !ok {
				t.Skip("the store has no bot accounts")
			}
			tc.fn(t, b, s)
		})
	}
}

// testMakeBot: only a registered user without games becomes a bot, once.
func testMakeBot(t *testing.T, b store.BotAccounts, s store.Store) {
	ctx := context.Background()
	fresh, played, seated, invited := newUser(t, s, "fresh"), newUser(t, s, "played"), newUser(t, s, "seated"), newUser(t, s, "invited")
	guest := store.User{Name: "guest-x", Guest: true, Created: t0}
	must(t, s.CreateUser(ctx, &guest))
	newGame(t, s, "made", played.ID, match.Open, t0)
	g := match.Meta{ID: "sat", Game: "sgolte", Options: map[string]string{}, Status: match.Live, CreatorID: played.ID, Created: t0, ToMove: -1,
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: played.ID}, {Kind: match.SeatHuman, UserID: seated.ID}}}
	must(t, s.CreateGame(ctx, &g))
	inv := match.Meta{ID: "inv", Game: "sgolte", Options: map[string]string{}, Status: match.Open, CreatorID: played.ID, Created: t0, ToMove: -1,
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: played.ID}, {Kind: match.SeatInvite, UserID: invited.ID}}}
	must(t, s.CreateGame(ctx, &inv))

	for _, u := range []store.User{fresh, invited} {
		if has, err := b.HasGames(ctx, u.ID); err != nil || has {
			t.Fatalf("HasGames(%s) = %v, %v; want false", u.Name, has, err)
		}
	}
	for _, u := range []store.User{played, seated} {
		if has, err := b.HasGames(ctx, u.ID); err != nil || !has {
			t.Fatalf("HasGames(%s) = %v, %v; want true", u.Name, has, err)
		}
	}
	if bot, err := b.IsBot(ctx, fresh.ID); err != nil || bot {
		t.Fatalf("IsBot before = %v, %v", bot, err)
	}
	must(t, b.MakeBot(ctx, fresh.ID))
	if bot, err := b.IsBot(ctx, fresh.ID); err != nil || !bot {
		t.Fatalf("IsBot after = %v, %v", bot, err)
	}
	wantErr(t, b.MakeBot(ctx, fresh.ID), store.ErrConflict, "a bot made a bot again")
	wantErr(t, b.MakeBot(ctx, guest.ID), store.ErrConflict, "a guest made a bot")
	wantErr(t, b.MakeBot(ctx, played.ID), store.ErrConflict, "a creator of a game made a bot")
	wantErr(t, b.MakeBot(ctx, seated.ID), store.ErrConflict, "a seated player made a bot")
	wantErr(t, b.MakeBot(ctx, 999999), store.ErrNotFound, "no such user")
	must(t, b.MakeBot(ctx, invited.ID)) // an invitation is not a game played
	for _, u := range []store.User{played, seated, guest} {
		if bot, err := b.IsBot(ctx, u.ID); err != nil || bot {
			t.Fatalf("IsBot(%s) after refused conversions = %v, %v", u.Name, bot, err)
		}
	}
	if bot, err := b.IsBot(ctx, 999999); err != nil || bot {
		t.Fatalf("IsBot(no user) = %v, %v", bot, err)
	}
	// The rest of the account is as it was.
	if u, err := s.User(ctx, fresh.ID); err != nil || u.Name != "fresh" || u.Guest || u.PasswordHash != "hash-fresh" {
		t.Fatalf("user after MakeBot: %+v, %v", u, err)
	}
}

// testScopedTokens: scopes are stored, an old-style token has the full
// scope, the cap holds, and the last use is written at most once a minute.
func testScopedTokens(t *testing.T, b store.BotAccounts, s store.Store) {
	ctx := context.Background()
	a, o := newUser(t, s, "tina"), newUser(t, s, "omar")
	old := store.Token{UserID: a.ID, Name: "old", Hash: []byte("old"), Created: t0}
	must(t, s.CreateToken(ctx, &old))
	r := store.Token{UserID: a.ID, Name: "reader", Hash: []byte("rd"), Created: t0, Scopes: store.ScopeRead}
	must(t, b.CreateScopedToken(ctx, &r, 3))
	p := store.Token{UserID: a.ID, Name: "player", Hash: []byte("pl"), Created: t0, Scopes: store.ScopeBotPlay}
	must(t, b.CreateScopedToken(ctx, &p, 3))
	over := store.Token{UserID: a.ID, Name: "one too many", Hash: []byte("over"), Created: t0, Scopes: store.ScopeRead}
	wantErr(t, b.CreateScopedToken(ctx, &over, 3), store.ErrConflict, "a token over the cap")
	if _, err := b.ScopedToken(ctx, []byte("over")); err == nil {
		t.Fatal("the refused token was stored")
	}
	mine := store.Token{UserID: o.ID, Name: "omar's", Hash: []byte("om"), Created: t0, Scopes: store.ScopeFull}
	must(t, b.CreateScopedToken(ctx, &mine, 3)) // the cap is per user

	got, err := b.ScopedToken(ctx, []byte("old"))
	must(t, err)
	if got.Scopes != store.ScopeFull || !got.LastUsed.IsZero() || got.UserID != a.ID {
		t.Fatalf("an old token: %+v; want the full scope, never used", got)
	}
	got, err = b.ScopedToken(ctx, []byte("rd"))
	must(t, err)
	if got.Scopes != store.ScopeRead || got.Name != "reader" || !got.Created.Equal(t0) {
		t.Fatalf("read token: %+v", got)
	}
	_, err = b.ScopedToken(ctx, []byte("nope"))
	wantErr(t, err, store.ErrNotFound, "a missing token")

	at := t0.Add(time.Hour)
	if wrote, err := b.TouchToken(ctx, r.ID, at, time.Minute); err != nil || !wrote {
		t.Fatalf("first use: %v, %v", wrote, err)
	}
	if wrote, err := b.TouchToken(ctx, r.ID, at.Add(59*time.Second), time.Minute); err != nil || wrote {
		t.Fatalf("a use within the minute wrote: %v, %v", wrote, err)
	}
	if wrote, err := b.TouchToken(ctx, r.ID, at.Add(time.Minute), time.Minute); err != nil || !wrote {
		t.Fatalf("a use a minute later: %v, %v", wrote, err)
	}
	list, err := b.ScopedTokens(ctx, a.ID)
	must(t, err)
	if len(list) != 3 || list[0].Name != "old" || list[1].Scopes != store.ScopeRead || !list[1].LastUsed.Equal(at.Add(time.Minute)) || !list[2].LastUsed.IsZero() {
		t.Fatalf("tokens: %+v", list)
	}
	// Revoking goes through Users: the scoped token is gone with it.
	must(t, s.DeleteToken(ctx, a.ID, r.ID))
	_, err = b.ScopedToken(ctx, []byte("rd"))
	wantErr(t, err, store.ErrNotFound, "a revoked token")
}

// testBotLeaderboard: people and bots are ranked apart.
func testBotLeaderboard(t *testing.T, b store.BotAccounts, s store.Store) {
	ctx := context.Background()
	bot, person := newUser(t, s, "robo"), newUser(t, s, "paula")
	must(t, b.MakeBot(ctx, bot.ID))
	g := match.Meta{ID: "rated", Game: "sgolte", Options: map[string]string{}, Status: match.Live, CreatorID: person.ID, Created: t0, ToMove: -1, Rated: true,
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: person.ID}, {Kind: match.SeatHuman, UserID: bot.ID}}}
	must(t, s.CreateGame(ctx, &g))
	must(t, s.EndGame(ctx, "rated", match.End{
		Result: match.Result{Status: match.Won, Winners: []int{1}, Reason: match.ReasonResign}, Finished: t0,
		RatedUsers: []int64{person.ID, bot.ID},
		Rate: func(cur []match.Rating) []match.Rating {
			out := make([]match.Rating, len(cur))
			for j, r := range cur {
				out[j] = match.Rating{UserID: r.UserID, Rating: 1500 + float64(100*j), Deviation: 50, Volatility: 0.06, Games: 1, Updated: t0}
			}
			return out
		},
	}))
	bots, err := b.BotLeaderboard(ctx, "sgolte", 100, 10, true)
	must(t, err)
	people, err := b.BotLeaderboard(ctx, "sgolte", 100, 10, false)
	must(t, err)
	if len(bots) != 1 || bots[0].Name != "robo" || bots[0].Rating.Rating != 1600 {
		t.Fatalf("bots' leaderboard %+v", bots)
	}
	if len(people) != 1 || people[0].Name != "paula" {
		t.Fatalf("people's leaderboard %+v", people)
	}
}

// testMakeBotRace: of many conversions of one account at once, exactly one
// succeeds and the others are ErrConflict.
func testMakeBotRace(t *testing.T, b store.BotAccounts, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "racer")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = b.MakeBot(ctx, u.ID)
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrConflict):
			t.Fatalf("a conversion failed otherwise: %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d conversions succeeded; want 1 (%v)", won, errs)
	}
}
