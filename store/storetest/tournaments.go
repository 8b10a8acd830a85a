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

// The tests of store.Tournaments, run for every store that implements it.

func tournaments(t *testing.T, s store.Store) store.Tournaments {
	t.Helper()
	ts, ok := s.(store.Tournaments)
	if !ok {
		t.Skip("the store has no tournaments")
	}
	return ts
}

func newTournament(t *testing.T, ts store.Tournaments, id string, creator int64, start time.Time) store.Tournament {
	t.Helper()
	tr := store.Tournament{ID: id, Name: "Evening " + id, Format: "swiss", Game: "sgolte", Options: map[string]string{"size": "5"},
		Clock: match.Clock{Kind: match.ClockRealtime, InitialMs: 60000}, Rounds: 3, Start: start, Rated: true, MaxPlayers: 3,
		CreatorID: creator, Created: t0}
	must(t, ts.CreateTournament(context.Background(), &tr))
	return tr
}

// testTournaments: a tournament reads back as written; lists filter by
// status, creator and player; joining twice is one player, a full
// tournament refuses more, withdrawing frees a place and rejoining keeps
// the pairing number.
func testTournaments(t *testing.T, s store.Store) {
	ts := tournaments(t, s)
	ctx := context.Background()
	a, b, c, d := newUser(t, s, "ann"), newUser(t, s, "bob"), newUser(t, s, "cy"), newUser(t, s, "di")
	tr := newTournament(t, ts, "t1", a.ID, t0.Add(time.Hour))
	newTournament(t, ts, "t2", b.ID, t0.Add(2*time.Hour))
	wantErr(t, ts.CreateTournament(ctx, &store.Tournament{ID: "t1", Options: map[string]string{}}), store.ErrConflict, "a second t1")
	got, err := ts.Tournament(ctx, "t1")
	must(t, err)
	if got.Name != tr.Name || got.Game != "sgolte" || got.Options["size"] != "5" || got.Clock.InitialMs != 60000 || !got.Start.Equal(tr.Start) ||
		got.Status != store.TournamentUpcoming || got.Rounds != 3 || !got.Rated || got.MaxPlayers != 3 || got.CreatorID != a.ID {
		t.Fatalf("read back %+v, wrote %+v", got, tr)
	}
	_, err = ts.Tournament(ctx, "nope")
	wantErr(t, err, store.ErrNotFound, "a missing tournament")

	for _, u := range []store.User{a, b, c} {
		p, err := ts.JoinTournament(ctx, "t1", u.ID, t0, 3)
		must(t, err)
		if p.UserID != u.ID {
			t.Fatalf("joined %+v", p)
		}
	}
	p, err := ts.JoinTournament(ctx, "t1", b.ID, t0, 3)
	must(t, err)
	if p.Number != 1 {
		t.Fatalf("bob joining again: number %d, want 1", p.Number)
	}
	_, err = ts.JoinTournament(ctx, "t1", d.ID, t0, 3)
	wantErr(t, err, store.ErrConflict, "a fourth player in a tournament of 3")
	must(t, ts.WithdrawTournament(ctx, "t1", b.ID))
	wantErr(t, ts.WithdrawTournament(ctx, "t1", d.ID), store.ErrNotFound, "withdrawing a non-player")
	p, err = ts.JoinTournament(ctx, "t1", d.ID, t0, 3)
	must(t, err)
	if p.Number != 3 {
		t.Fatalf("di's number %d, want 3", p.Number)
	}
	_, err = ts.JoinTournament(ctx, "t1", b.ID, t0, 3)
	wantErr(t, err, store.ErrConflict, "bob back in a full tournament")
	must(t, ts.WithdrawTournament(ctx, "t1", d.ID))
	p, err = ts.JoinTournament(ctx, "t1", b.ID, t0, 3)
	must(t, err)
	if p.Number != 1 {
		t.Fatalf("bob back: number %d, want 1", p.Number)
	}
	players, err := ts.TournamentPlayers(ctx, "t1")
	must(t, err)
	want := []string{"ann false", "bob false", "cy false", "di true"}
	if len(players) != len(want) {
		t.Fatalf("players %+v", players)
	}
	for i, p := range players {
		if got := fmt.Sprintf("%s %v", p.Name, p.Withdrawn); got != want[i] || p.Number != i {
			t.Fatalf("player %d: %s (number %d), want %s", i, got, p.Number, want[i])
		}
	}

	list := func(f store.TournamentFilter) []string {
		t.Helper()
		l, err := ts.ListTournaments(ctx, f)
		must(t, err)
		var ids []string
		for _, x := range l {
			ids = append(ids, x.ID)
		}
		return ids
	}
	if got := fmt.Sprint(list(store.TournamentFilter{})); got != "[t1 t2]" {
		t.Fatalf("all: %s", got)
	}
	if got := fmt.Sprint(list(store.TournamentFilter{Creator: b.ID})); got != "[t2]" {
		t.Fatalf("bob's: %s", got)
	}
	if got := fmt.Sprint(list(store.TournamentFilter{Player: c.ID})); got != "[t1]" {
		t.Fatalf("cy's: %s", got)
	}
	if got := fmt.Sprint(list(store.TournamentFilter{Player: d.ID})); got != "[]" {
		t.Fatalf("di withdrew: %s", got)
	}
	if got := fmt.Sprint(list(store.TournamentFilter{Statuses: []store.TournamentStatus{store.TournamentFinished}})); got != "[]" {
		t.Fatalf("finished: %s", got)
	}
}

// testTournamentDirector: exactly one director holds a tournament's lease;
// a renewal keeps the epoch, a released lease is claimed at a new epoch,
// and the old director's writes are refused then. Rounds are added only in
// order and each board's result is written once.
func testTournamentDirector(t *testing.T, s store.Store) {
	ts := tournaments(t, s)
	ctx := context.Background()
	a := newUser(t, s, "ann")
	newTournament(t, ts, "t1", a.ID, t0)
	newTournament(t, ts, "later", a.ID, t0.Add(time.Hour))
	ids, err := ts.UndirectedTournaments(ctx, t0.Add(time.Minute), 10)
	must(t, err)
	if fmt.Sprint(ids) != "[t1]" {
		t.Fatalf("undirected, starting in the next minute: %v", ids)
	}
	e1, err := ts.ClaimTournament(ctx, "t1", "n1", 0, time.Minute)
	must(t, err)
	if e1 != 1 {
		t.Fatalf("first epoch %d", e1)
	}
	_, err = ts.ClaimTournament(ctx, "t1", "n2", 0, time.Minute)
	wantErr(t, err, store.ErrConflict, "a claim of a held lease")
	if e, err := ts.ClaimTournament(ctx, "t1", "n1", e1, time.Minute); err != nil || e != e1 {
		t.Fatalf("renewal: %d, %v", e, err)
	}
	ids, err = ts.UndirectedTournaments(ctx, t0.Add(time.Minute), 10)
	must(t, err)
	if len(ids) != 0 {
		t.Fatalf("undirected while held: %v", ids)
	}
	r1 := store.TournamentRound{Number: 1, Boards: []store.TournamentBoard{{Board: 0, White: 1, Black: 2, GameID: "g1"}, {Board: 1, White: 3}}}
	wantErr(t, ts.AddRoundFenced(ctx, e1, "t1", store.TournamentRound{Number: 2}), store.ErrConflict, "round 2 first")
	must(t, ts.AddRoundFenced(ctx, e1, "t1", r1))
	wantErr(t, ts.AddRoundFenced(ctx, e1, "t1", r1), store.ErrConflict, "round 1 again")
	must(t, ts.SetBoardResultFenced(ctx, e1, "t1", 1, 1, store.BoardBye))

	must(t, ts.ReleaseTournament(ctx, "t1", "n1", e1))
	e2, err := ts.ClaimTournament(ctx, "t1", "n2", 0, time.Minute)
	must(t, err)
	if e2 != 2 {
		t.Fatalf("second epoch %d", e2)
	}
	_, err = ts.ClaimTournament(ctx, "t1", "n1", e1, time.Minute)
	wantErr(t, err, store.ErrDeposed, "the old director renewing")
	wantErr(t, ts.SetBoardResultFenced(ctx, e1, "t1", 1, 0, store.BoardDraw), store.ErrDeposed, "the old director's result")
	tr, err := ts.Tournament(ctx, "t1")
	must(t, err)
	tr.Status = store.TournamentRunning
	wantErr(t, ts.UpdateTournamentFenced(ctx, e1, &tr), store.ErrDeposed, "the old director's update")
	must(t, ts.UpdateTournamentFenced(ctx, e2, &tr))
	must(t, ts.SetBoardResultFenced(ctx, e2, "t1", 1, 0, store.BoardWhiteWins))
	wantErr(t, ts.SetBoardResultFenced(ctx, e2, "t1", 1, 0, store.BoardDraw), store.ErrConflict, "a second result")
	rounds, err := ts.TournamentRounds(ctx, "t1")
	must(t, err)
	if len(rounds) != 1 || len(rounds[0].Boards) != 2 || rounds[0].Boards[0].Result != store.BoardWhiteWins ||
		rounds[0].Boards[1].Result != store.BoardBye || rounds[0].Boards[0].GameID != "g1" || rounds[0].Boards[0].Black != 2 {
		t.Fatalf("rounds %+v", rounds)
	}
	got, err := ts.Tournament(ctx, "t1")
	must(t, err)
	if got.Status != store.TournamentRunning || got.Owner != "n2" || got.Epoch != 2 {
		t.Fatalf("after the update: %+v", got)
	}
}

// testTournamentClaimRace: of many nodes claiming an undirected
// tournament at once, exactly one wins.
func testTournamentClaimRace(t *testing.T, s store.Store) {
	ts := tournaments(t, s)
	a := newUser(t, s, "ann")
	newTournament(t, ts, "t1", a.ID, t0)
	var wg sync.WaitGroup
	wins := make([]bool, 8)
	for i := range wins {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, err := ts.ClaimTournament(context.Background(), "t1", fmt.Sprintf("n%d", i), 0, time.Minute)
			wins[i] = err == nil
		}()
	}
	wg.Wait()
	n := 0
	for _, w := range wins {
		if w {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("%d claims won, want 1", n)
	}
}
