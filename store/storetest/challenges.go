package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Challenges runs the conformance test of migration 8 (issue 24's
// challenges): a challenge is an open game with Meta.Expires, and that
// time must come back from every read — the owner that loads or takes
// over a game on any node aborts the challenge by it — and survive each
// accept that rewrites the game's seats.
func Challenges(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("expires", func(t *testing.T) {
		s := open(t)
		t.Cleanup(func() { s.Close() })
		testChallengeExpires(t, s)
	})
}

func testChallengeExpires(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, b, c := newUser(t, s, "chall"), newUser(t, s, "chbob"), newUser(t, s, "chcarol")
	// Milliseconds, as stored; not a whole second, so that a store that
	// rounded would be seen.
	expires := t0.Add(10*time.Minute + 123*time.Millisecond)
	ch := match.Meta{ID: "ch1", Game: "skyjo", Options: map[string]string{"players": "3"}, Status: match.Open,
		Seats:   []match.Seat{{Kind: match.SeatHuman, UserID: a.ID}, {Kind: match.SeatInvite, UserID: b.ID}, {Kind: match.SeatInvite, UserID: c.ID}},
		Created: t0, CreatorID: a.ID, ToMove: -1, Expires: expires}
	must(t, s.CreateGame(ctx, &ch))
	plain := newGame(t, s, "plain1", a.ID, match.Open, t0.Add(time.Second))

	got, err := s.Game(ctx, "ch1")
	must(t, err)
	if !got.Expires.Equal(expires) || !got.Challenge() {
		t.Fatalf("Game(ch1).Expires = %v, want %v", got.Expires, expires)
	}
	if p, err := s.Game(ctx, plain.ID); err != nil || !p.Expires.IsZero() || p.Challenge() {
		t.Fatalf("a game that is no challenge: Expires %v (%v)", p.Expires, err)
	}
	list, err := s.Games(ctx, store.GameFilter{Statuses: []match.Status{match.Open}, Creator: a.ID})
	must(t, err)
	seen := 0
	for _, g := range list {
		switch g.ID {
		case "ch1":
			seen++
			if !g.Expires.Equal(expires) {
				t.Fatalf("Games lists ch1 with Expires %v, want %v", g.Expires, expires)
			}
		case plain.ID:
			seen++
			if !g.Expires.IsZero() {
				t.Fatalf("Games lists %s with Expires %v", g.ID, g.Expires)
			}
		}
	}
	if seen != 2 {
		t.Fatalf("Games listed %d of the two open games: %+v", seen, list)
	}

	// One of the two invited accepts: the seats are rewritten, the
	// challenge still expires when it did.
	got.Seats[1] = match.Seat{Kind: match.SeatHuman, UserID: b.ID}
	must(t, s.UpdateGame(ctx, &got))
	again, err := s.Game(ctx, "ch1")
	must(t, err)
	if again.Seats[1].Kind != match.SeatHuman || !again.Expires.Equal(expires) {
		t.Fatalf("after an accept: seats %+v, Expires %v, want %v", again.Seats, again.Expires, expires)
	}
}
