package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// History runs the game history's conformance tests (store.History) on the
// stores open gives.
func History(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("filters", func(t *testing.T) { testHistoryFilters(t, open(t)) })
	t.Run("paging", func(t *testing.T) { testHistoryPaging(t, open(t)) })
}

func historyOf(t *testing.T, s store.Store) store.History {
	t.Helper()
	t.Cleanup(func() { s.Close() })
	h, ok := s.(store.History)
	if !ok {
		t.Fatalf("%T does not keep game histories", s)
	}
	return h
}

// finishedGame stores a finished game of the given seats (user ids; 0 a
// bot) with its result.
func finishedGame(t *testing.T, s store.Store, id, game string, seats []int64, res match.Result, rated bool, clock match.Clock, finished time.Time) {
	t.Helper()
	m := match.Meta{ID: id, Game: game, Options: map[string]string{}, Status: match.Finished, Rated: rated, Clock: clock,
		Created: finished.Add(-time.Minute), Started: finished.Add(-time.Minute), Finished: finished, CreatorID: seats[0], ToMove: -1, Result: &res}
	for _, u := range seats {
		if u == 0 {
			m.Seats = append(m.Seats, match.Seat{Kind: match.SeatBot, Level: "easy"})
		} else {
			m.Seats = append(m.Seats, match.Seat{Kind: match.SeatHuman, UserID: u})
		}
	}
	must(t, s.CreateGame(context.Background(), &m))
}

func ids(games []match.Meta) []string {
	out := make([]string, len(games))
	for i, g := range games {
		out[i] = g.ID
	}
	return out
}

func testHistoryFilters(t *testing.T, s store.Store) {
	ctx := context.Background()
	h := historyOf(t, s)
	a, b, c := newUser(t, s, "hanna"), newUser(t, s, "ivo"), newUser(t, s, "jun")
	blitz := match.Clock{Kind: match.ClockRealtime, InitialMs: 300000, IncrementMs: 3000}
	corr := match.Clock{Kind: match.ClockCorrespondence, Days: 3}
	none := match.Clock{Kind: match.ClockNone}
	won := func(seats ...int) match.Result {
		return match.Result{Status: match.Won, Winners: seats, Reason: match.ReasonNormal}
	}
	drawn := match.Result{Status: match.Drawn, Winners: []int{}, Reason: match.ReasonAgreed}
	at := func(h int) time.Time { return t0.Add(time.Duration(h) * time.Hour) }
	// hanna: h1 won vs ivo (seat 0), h2 lost vs ivo (seat 1, ivo seat 0
	// wins), h3 drawn vs jun, h4 won a four-seat Skyjo from seat 2 with
	// ivo and jun, h5 lost to a bot, h6 won by ivo and jun (not hers).
	finishedGame(t, s, "h1", "sgolte", []int64{a.ID, b.ID}, won(0), true, blitz, at(1))
	finishedGame(t, s, "h2", "sgolte", []int64{b.ID, a.ID}, won(0), false, corr, at(2))
	finishedGame(t, s, "h3", "sploof", []int64{a.ID, c.ID}, drawn, true, none, at(3))
	finishedGame(t, s, "h4", "skyjo", []int64{b.ID, c.ID, a.ID, 0}, won(2), false, blitz, at(4))
	finishedGame(t, s, "h5", "sgolte", []int64{a.ID, 0}, won(1), false, match.Clock{}, at(5))
	finishedGame(t, s, "h6", "sgolte", []int64{b.ID, c.ID}, won(1), true, blitz, at(6))
	// Not history: live, open and aborted games, an imported one, an
	// invitation to hanna.
	newGame(t, s, "l1", a.ID, match.Live, at(7))
	newGame(t, s, "o1", a.ID, match.Open, at(8))
	inv := match.Meta{ID: "i1", Game: "sgolte", Options: map[string]string{}, Status: match.Finished, Created: at(9), Finished: at(9), CreatorID: b.ID, ToMove: -1,
		Seats:  []match.Seat{{Kind: match.SeatHuman, UserID: b.ID}, {Kind: match.SeatInvite, UserID: a.ID}},
		Result: &match.Result{Status: match.Won, Winners: []int{0}, Reason: match.ReasonResign}}
	must(t, s.CreateGame(ctx, &inv))

	yes, no := true, false
	for _, tc := range []struct {
		name string
		f    store.HistoryFilter
		want []string
	}{
		{"all", store.HistoryFilter{UserID: a.ID}, []string{"h5", "h4", "h3", "h2", "h1"}},
		{"game", store.HistoryFilter{UserID: a.ID, Game: "sgolte"}, []string{"h5", "h2", "h1"}},
		{"win", store.HistoryFilter{UserID: a.ID, Outcome: store.OutcomeWin}, []string{"h4", "h1"}},
		{"draw", store.HistoryFilter{UserID: a.ID, Outcome: store.OutcomeDraw}, []string{"h3"}},
		{"loss", store.HistoryFilter{UserID: a.ID, Outcome: store.OutcomeLoss}, []string{"h5", "h2"}},
		{"ivo's wins (i1 against an invitation)", store.HistoryFilter{UserID: b.ID, Outcome: store.OutcomeWin}, []string{"i1", "h2"}},
		{"jun's losses", store.HistoryFilter{UserID: c.ID, Outcome: store.OutcomeLoss}, []string{"h4"}},
		{"opponent", store.HistoryFilter{UserID: a.ID, OpponentID: b.ID}, []string{"h4", "h2", "h1"}},
		{"opponent and loss", store.HistoryFilter{UserID: a.ID, OpponentID: b.ID, Outcome: store.OutcomeLoss}, []string{"h2"}},
		{"opponent herself", store.HistoryFilter{UserID: a.ID, OpponentID: a.ID}, nil},
		{"rated", store.HistoryFilter{UserID: a.ID, Rated: &yes}, []string{"h3", "h1"}},
		{"unrated", store.HistoryFilter{UserID: a.ID, Rated: &no}, []string{"h5", "h4", "h2"}},
		{"realtime", store.HistoryFilter{UserID: a.ID, Clock: match.ClockRealtime}, []string{"h4", "h1"}},
		{"correspondence", store.HistoryFilter{UserID: a.ID, Clock: match.ClockCorrespondence}, []string{"h2"}},
		{"no clock", store.HistoryFilter{UserID: a.ID, Clock: match.ClockNone}, []string{"h5", "h3"}},
		{"from", store.HistoryFilter{UserID: a.ID, From: at(3)}, []string{"h5", "h4", "h3"}},
		{"to", store.HistoryFilter{UserID: a.ID, To: at(3)}, []string{"h2", "h1"}},
		{"from and to", store.HistoryFilter{UserID: a.ID, From: at(2), To: at(4)}, []string{"h3", "h2"}},
		{"all of them", store.HistoryFilter{UserID: a.ID, Game: "sgolte", Outcome: store.OutcomeWin, OpponentID: b.ID, Rated: &yes, Clock: match.ClockRealtime, From: at(1), To: at(2)}, []string{"h1"}},
		{"limit", store.HistoryFilter{UserID: a.ID, Limit: 2}, []string{"h5", "h4"}},
		{"after", store.HistoryFilter{UserID: a.ID, After: &store.HistoryPos{Finished: at(4), ID: "h4"}}, []string{"h3", "h2", "h1"}},
		{"nobody", store.HistoryFilter{UserID: 999999}, nil},
	} {
		got, err := h.GameHistory(ctx, tc.f)
		must(t, err)
		if !slices.Equal(ids(got), tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, ids(got), tc.want)
		}
	}
	got, err := h.GameHistory(ctx, store.HistoryFilter{UserID: a.ID, Game: "skyjo"})
	must(t, err)
	if len(got) != 1 || len(got[0].Seats) != 4 || got[0].Seats[2].UserID != a.ID || got[0].Result == nil || !got[0].Finished.Equal(at(4)) || got[0].Clock != blitz {
		t.Fatalf("skyjo game as listed: %+v", got)
	}
	if _, err := h.GameHistory(ctx, store.HistoryFilter{UserID: a.ID, Outcome: "won"}); err == nil {
		t.Fatal("outcome won: no error")
	}
}

// testHistoryPaging: games finishing in the same millisecond are ordered by
// id, and paging from each page's last game reads every game once, even
// while newer games finish between the pages.
func testHistoryPaging(t *testing.T, s store.Store) {
	ctx := context.Background()
	h := historyOf(t, s)
	a, b := newUser(t, s, "kim"), newUser(t, s, "lou")
	win := match.Result{Status: match.Won, Winners: []int{0}, Reason: match.ReasonNormal}
	var all []string
	for i := 0; i < 23; i++ {
		id := fmt.Sprintf("p%02d", i)
		finishedGame(t, s, id, "sgolte", []int64{a.ID, b.ID}, win, false, match.Clock{Kind: match.ClockNone}, t0.Add(time.Duration(i/3)*time.Second))
		all = append(all, id)
	}
	var seen []string
	var after *store.HistoryPos
	for page := 0; ; page++ {
		got, err := h.GameHistory(ctx, store.HistoryFilter{UserID: a.ID, Limit: 4, After: after})
		must(t, err)
		seen = append(seen, ids(got)...)
		if len(got) < 4 {
			break
		}
		last := got[len(got)-1]
		after = &store.HistoryPos{Finished: last.Finished, ID: last.ID}
		// A game finishing now goes before every page read.
		finishedGame(t, s, fmt.Sprintf("new%d", page), "sgolte", []int64{a.ID, b.ID}, win, false, match.Clock{}, t0.Add(time.Hour+time.Duration(page)*time.Second))
	}
	slices.Reverse(all)
	if !slices.Equal(seen, all) {
		t.Fatalf("pages read %v, want %v", seen, all)
	}
}
