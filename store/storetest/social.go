package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Social runs the tests of store.Social (follows, inbox notices and read
// marks) on stores that open calls make: each test gets a fresh one.
func Social(t *testing.T, open func(t *testing.T) store.Store) {
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s store.Social, st store.Store)
	}{
		{"Follows", testFollows},
		{"FollowCapRace", testFollowCapRace},
		{"LiveSeats", testLiveSeats},
		{"Notices", testNotices},
		{"ReadMarks", testReadMarks},
	} {
		t.Run(tc.name, func(t *testing.T) {
			st := open(t)
			defer st.Close()
			s, ok := st.(store.Social)
			if !ok {
				t.Skip("the store keeps no follows")
			}
			tc.fn(t, s, st)
		})
	}
}

// testFollows: follow, list (newest first, with names), follow twice is
// one, the cap refuses one more (ErrConflict), unfollow, a missing unfollow
// is ErrNotFound, DropFollows removes both directions and nobody else's.
func testFollows(t *testing.T, s store.Social, st store.Store) {
	ctx := context.Background()
	a, b, c, d := newUser(t, st, "fay"), newUser(t, st, "gus"), newUser(t, st, "hal"), newUser(t, st, "ida")
	must(t, s.AddFollow(ctx, store.Follow{UserID: a.ID, FollowedID: b.ID, Created: t0}, 2))
	must(t, s.AddFollow(ctx, store.Follow{UserID: a.ID, FollowedID: c.ID, Created: t0.Add(time.Minute)}, 2))
	must(t, s.AddFollow(ctx, store.Follow{UserID: a.ID, FollowedID: b.ID, Created: t0.Add(time.Hour)}, 2)) // again: at the cap, but no new row
	wantErr(t, s.AddFollow(ctx, store.Follow{UserID: a.ID, FollowedID: d.ID, Created: t0}, 2), store.ErrConflict, "a follow beyond the cap")
	list, err := s.Following(ctx, a.ID, 0)
	must(t, err)
	if len(list) != 2 || list[0].Name != "hal" || list[1].Name != "gus" || !list[1].Created.Equal(t0) {
		t.Fatalf("following = %+v, want hal then gus (the first follow's time kept)", list)
	}
	must(t, s.AddFollow(ctx, store.Follow{UserID: b.ID, FollowedID: a.ID, Created: t0}, 2))
	must(t, s.AddFollow(ctx, store.Follow{UserID: d.ID, FollowedID: b.ID, Created: t0.Add(time.Second)}, 2))
	fs, err := s.Followers(ctx, b.ID, 0)
	must(t, err)
	if fmt.Sprint(fs) != fmt.Sprint([]int64{d.ID, a.ID}) {
		t.Fatalf("followers of gus = %v, want [%d %d]", fs, d.ID, a.ID)
	}
	if fs, _ := s.Followers(ctx, b.ID, 1); len(fs) != 1 {
		t.Fatalf("followers with limit 1 = %v", fs)
	}
	must(t, s.DropFollows(ctx, b.ID, a.ID))
	if l, _ := s.Following(ctx, a.ID, 0); len(l) != 1 || l[0].Name != "hal" {
		t.Fatalf("after a block between fay and gus, fay follows %+v, want hal only", l)
	}
	if l, _ := s.Following(ctx, b.ID, 0); len(l) != 0 {
		t.Fatalf("after a block between fay and gus, gus follows %+v", l)
	}
	if fs, _ := s.Followers(ctx, b.ID, 0); len(fs) != 1 || fs[0] != d.ID {
		t.Fatalf("ida's follow of gus went with the block: %v", fs)
	}
	must(t, s.Unfollow(ctx, a.ID, c.ID))
	wantErr(t, s.Unfollow(ctx, a.ID, c.ID), store.ErrNotFound, "unfollowing twice")
}

// testFollowCapRace: follows sent at once never pass the cap.
func testFollowCapRace(t *testing.T, s store.Social, st store.Store) {
	ctx := context.Background()
	a := newUser(t, st, "max")
	var others []store.User
	for i := 0; i < 8; i++ {
		others = append(others, newUser(t, st, fmt.Sprintf("o%d", i)))
	}
	var wg sync.WaitGroup
	for _, o := range others {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.AddFollow(ctx, store.Follow{UserID: a.ID, FollowedID: o.ID, Created: t0}, 3)
		}()
	}
	wg.Wait()
	if l, _ := s.Following(ctx, a.ID, 0); len(l) != 3 {
		t.Fatalf("%d follows stored at once with a cap of 3", len(l))
	}
}

// testLiveSeats: the live games of the users asked for, people's seats only.
func testLiveSeats(t *testing.T, s store.Social, st store.Store) {
	ctx := context.Background()
	a, b := newUser(t, st, "liv"), newUser(t, st, "opa")
	newGame(t, st, "open1", a.ID, match.Open, t0)
	g := newGame(t, st, "live1", b.ID, match.Open, t0)
	g.Seats[1] = match.Seat{Kind: match.SeatHuman, UserID: a.ID}
	g.Status, g.Started, g.ToMove = match.Live, t0.Add(time.Minute), 0
	must(t, st.UpdateGame(ctx, &g))
	got, err := s.LiveSeats(ctx, []int64{a.ID}, 0)
	must(t, err)
	if len(got) != 1 || got[0].GameID != "live1" || got[0].UserID != a.ID || got[0].Game != "sgolte" {
		t.Fatalf("live seats of liv = %+v, want live1 only", got)
	}
	if got, _ := s.LiveSeats(ctx, []int64{a.ID, b.ID}, 0); len(got) != 2 {
		t.Fatalf("live seats of both = %+v, want two rows", got)
	}
	if got, _ := s.LiveSeats(ctx, nil, 0); len(got) != 0 {
		t.Fatalf("live seats of nobody = %+v", got)
	}
}

// testNotices: notices newest first; beyond keep the oldest go; one user's
// are not another's.
func testNotices(t *testing.T, s store.Social, st store.Store) {
	ctx := context.Background()
	a, b := newUser(t, st, "nia"), newUser(t, st, "ned")
	for i := 0; i < 5; i++ {
		n := store.InboxNotice{UserID: a.ID, Kind: "tournament", Title: fmt.Sprint("t", i), Link: "#/tournament/x", Created: t0.Add(time.Duration(i) * time.Minute)}
		must(t, s.AddNotice(ctx, &n, 3))
		if n.ID == 0 {
			t.Fatal("AddNotice set no id")
		}
	}
	must(t, s.AddNotice(ctx, &store.InboxNotice{UserID: b.ID, Kind: "k", Title: "other", Created: t0}, 3))
	got, err := s.Notices(ctx, a.ID, 0)
	must(t, err)
	if len(got) != 3 || got[0].Title != "t4" || got[2].Title != "t2" || got[0].Link != "#/tournament/x" || !got[0].Created.Equal(t0.Add(4*time.Minute)) {
		t.Fatalf("notices = %+v, want t4, t3, t2", got)
	}
	if got, _ := s.Notices(ctx, b.ID, 0); len(got) != 1 || got[0].Title != "other" {
		t.Fatalf("ned's notices = %+v", got)
	}
}

// testReadMarks: marks by key, per user; marking twice is one; old marks
// are forgotten.
func testReadMarks(t *testing.T, s store.Social, st store.Store) {
	ctx := context.Background()
	a, b := newUser(t, st, "rae"), newUser(t, st, "rex")
	must(t, s.MarkRead(ctx, a.ID, []string{"invite:g1", "turn:g2:4"}, t0, time.Time{}))
	must(t, s.MarkRead(ctx, a.ID, []string{"invite:g1"}, t0.Add(time.Hour), time.Time{}))
	got, err := s.ReadKeys(ctx, a.ID, []string{"invite:g1", "turn:g2:4", "turn:g2:6"})
	must(t, err)
	if len(got) != 2 || !got["invite:g1"] || !got["turn:g2:4"] {
		t.Fatalf("read = %v", got)
	}
	if got, _ := s.ReadKeys(ctx, b.ID, []string{"invite:g1"}); len(got) != 0 {
		t.Fatalf("rex has read rae's items: %v", got)
	}
	// The first mark (t0) is older than the cut: it goes, the new one stays.
	must(t, s.MarkRead(ctx, a.ID, []string{"n:9"}, t0.Add(2*time.Hour), t0.Add(time.Minute)))
	if got, _ := s.ReadKeys(ctx, a.ID, []string{"invite:g1", "turn:g2:4", "n:9"}); len(got) != 1 || !got["n:9"] {
		t.Fatalf("after forgetting marks before t0+1m: %v", got)
	}
	many := make([]string, 450)
	for i := range many {
		many[i] = fmt.Sprint("k", i)
	}
	must(t, s.MarkRead(ctx, b.ID, many, t0, time.Time{}))
	if got, _ := s.ReadKeys(ctx, b.ID, many); len(got) != 450 {
		t.Fatalf("%d of 450 keys read back", len(got))
	}
}
