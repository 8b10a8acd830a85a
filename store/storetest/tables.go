package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// RunTables runs the tests of store.Tables (the seats of a Skyjo table
// tournament's tables) against stores made by open, as Run does.
func RunTables(t *testing.T, open func(t *testing.T) store.Store) {
	tests := []struct {
		name string
		fn   func(t *testing.T, tb store.Tables, ts store.Tournaments, s store.Store)
	}{
		{"TableSeats", testTableSeats},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			defer s.Close()
			tb, ok := s.(store.Tables)
			if !ok {
				t.Skip("the store has no tables")
			}
			if _, err := tb.TableSeats(context.Background(), "none"); err != nil {
				t.Fatalf("TableSeats of no tournament: %v (the table seats missing?)", err)
			}
			tc.fn(t, tb, tournaments(t, s), s)
		})
	}
}

// testTableSeats: a round of tables is stored with its seats in one
// fenced write (not twice, not by a deposed director, not with a table of
// seats missing); a table's result writes every seat's points and total
// at once, only with as many as it has seats, and only once.
func testTableSeats(t *testing.T, tb store.Tables, ts store.Tournaments, s store.Store) {
	ctx := context.Background()
	a := newUser(t, s, "ann")
	newTournament(t, ts, "k1", a.ID, t0)
	e1, err := ts.ClaimTournament(ctx, "k1", "n1", 0, time.Minute)
	must(t, err)
	r1 := store.TournamentRound{Number: 1, Boards: []store.TournamentBoard{{Board: 0, White: 11, Black: 12, GameID: "g0"}, {Board: 1, White: 15, Black: 16, GameID: "g1"}}}
	seats := [][]int64{{11, 12, 13, 14}, {15, 16, 17}}
	if err := tb.AddTableRoundFenced(ctx, e1, "k1", r1, seats[:1]); err == nil {
		t.Fatal("a round of two tables stored with the seats of one")
	}
	must(t, ts.ReleaseTournament(ctx, "k1", "n1", e1))
	e2, err := ts.ClaimTournament(ctx, "k1", "n2", 0, time.Minute)
	must(t, err)
	wantErr(t, tb.AddTableRoundFenced(ctx, e1, "k1", r1, seats), store.ErrDeposed, "the old director's round")
	if got, err := tb.TableSeats(ctx, "k1"); err != nil || len(got) != 0 {
		t.Fatalf("seats after refused writes: %v, %v", got, err)
	}
	must(t, tb.AddTableRoundFenced(ctx, e2, "k1", r1, seats))
	wantErr(t, tb.AddTableRoundFenced(ctx, e2, "k1", r1, seats), store.ErrConflict, "round 1 again")
	got, err := tb.TableSeats(ctx, "k1")
	must(t, err)
	if fmt.Sprint(got) != "[{1 0 0 11 0 0} {1 0 1 12 0 0} {1 0 2 13 0 0} {1 0 3 14 0 0} {1 1 0 15 0 0} {1 1 1 16 0 0} {1 1 2 17 0 0}]" {
		t.Fatalf("seats %v", got)
	}
	rounds, err := ts.TournamentRounds(ctx, "k1")
	must(t, err)
	if len(rounds) != 1 || fmt.Sprint(rounds[0].Boards) != fmt.Sprint(r1.Boards) {
		t.Fatalf("rounds %+v", rounds)
	}

	if err := tb.SetTableResultFenced(ctx, e2, "k1", 1, 1, store.BoardPlaced, []int{4, 2}, []int{10, 20}); err == nil {
		t.Fatal("a table of three given two seats' points")
	}
	wantErr(t, tb.SetTableResultFenced(ctx, e1, "k1", 1, 1, store.BoardPlaced, []int{3, 3, 0}, []int{0, 0, 0}), store.ErrDeposed, "the old director's result")
	rounds, _ = ts.TournamentRounds(ctx, "k1")
	if rounds[0].Boards[1].Result != store.BoardPending {
		t.Fatalf("a refused result was stored: %+v", rounds[0].Boards[1])
	}
	must(t, tb.SetTableResultFenced(ctx, e2, "k1", 1, 1, store.BoardPlaced, []int{4, 1, 1}, []int{7, 31, 31}))
	wantErr(t, tb.SetTableResultFenced(ctx, e2, "k1", 1, 1, store.BoardPlaced, []int{0, 0, 4}, []int{9, 9, 1}), store.ErrConflict, "a second result")
	wantErr(t, tb.SetTableResultFenced(ctx, e2, "k1", 1, 5, store.BoardPlaced, nil, nil), store.ErrConflict, "a table that does not exist")
	got, err = tb.TableSeats(ctx, "k1")
	must(t, err)
	if fmt.Sprint(got[4:]) != "[{1 1 0 15 4 7} {1 1 1 16 1 31} {1 1 2 17 1 31}]" || fmt.Sprint(got[:1]) != "[{1 0 0 11 0 0}]" {
		t.Fatalf("seats after the result %v", got)
	}
	rounds, _ = ts.TournamentRounds(ctx, "k1")
	if rounds[0].Boards[1].Result != store.BoardPlaced || rounds[0].Boards[0].Result != store.BoardPending {
		t.Fatalf("boards after the result %+v", rounds[0].Boards)
	}
	if other, err := tb.TableSeats(ctx, "nothing"); err != nil || len(other) != 0 {
		t.Fatalf("seats of another tournament: %v, %v", other, err)
	}
}
