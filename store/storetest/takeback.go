package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// testTakeBack: taking moves back removes them and sets who is to move, as
// one write (one event number); the moves played again take the freed plies;
// a takeback from a stale count, past the start, or of a game that is not
// live changes nothing; a fenced takeback by an owner that lost the game is
// refused.
func testTakeBack(t *testing.T, s store.Store) {
	ctx := context.Background()
	u := newUser(t, s, "undo")
	newGame(t, s, "open", u.ID, match.Open, t0)
	newGame(t, s, "tb", u.ID, match.Live, t0)
	mv := func(ply int, text string) match.Move {
		return match.Move{Ply: ply, Seat: ply % 2, Text: text, At: t0.Add(time.Duration(ply) * time.Second), ClockMs: int64(1000 * ply)}
	}
	for ply := 0; ply < 4; ply++ {
		must(t, s.AppendMove(ctx, "tb", mv(ply, fmt.Sprint("m", ply)), match.Turn{ToMove: (ply + 1) % 2}, nil))
	}
	turn := match.Turn{ToMove: 0, Deadline: t0.Add(time.Minute)}
	wantErr(t, s.TakeBack(ctx, "tb", 3, 2, turn), store.ErrConflict, "a takeback from a stale count")
	wantErr(t, s.TakeBack(ctx, "tb", 4, 5, turn), store.ErrConflict, "a takeback past the end")
	wantErr(t, s.TakeBack(ctx, "tb", 4, -1, turn), store.ErrConflict, "a takeback past the start")
	wantErr(t, s.TakeBack(ctx, "open", 0, 0, turn), store.ErrConflict, "a takeback in an open game")
	wantErr(t, s.TakeBack(ctx, "none", 4, 2, turn), store.ErrNotFound, "a takeback in a missing game")
	g, err := s.Game(ctx, "tb")
	must(t, err)
	if g.Version != 5 || g.Ply != 4 {
		t.Fatalf("refused takebacks changed the game: version %d, ply %d", g.Version, g.Ply)
	}

	must(t, s.TakeBack(ctx, "tb", 4, 2, turn))
	g, err = s.Game(ctx, "tb")
	must(t, err)
	if g.Version != 6 || g.Ply != 2 || g.ToMove != 0 || !g.Deadline.Equal(turn.Deadline) || g.Status != match.Live {
		t.Fatalf("after the takeback: version %d ply %d toMove %d deadline %v status %s", g.Version, g.Ply, g.ToMove, g.Deadline, g.Status)
	}
	moves, err := s.Moves(ctx, "tb")
	must(t, err)
	if len(moves) != 2 || moves[0] != mv(0, "m0") || moves[1] != mv(1, "m1") {
		t.Fatalf("moves after the takeback: %+v", moves)
	}
	wantErr(t, s.AppendMove(ctx, "tb", mv(4, "x"), match.Turn{ToMove: 1}, nil), store.ErrConflict, "a move at the old next ply")
	must(t, s.AppendMove(ctx, "tb", mv(2, "again"), match.Turn{ToMove: 1}, nil))
	moves, err = s.Moves(ctx, "tb")
	must(t, err)
	if len(moves) != 3 || moves[2].Text != "again" {
		t.Fatalf("moves played again: %+v", moves)
	}

	l, ok := s.(store.Leases)
	if !ok {
		return
	}
	_, err = l.RenewNode(ctx, "a", time.Minute, false)
	must(t, err)
	ownedGame(t, s, "tbf", "a", u.ID, match.Seat{Kind: match.SeatHuman, UserID: u.ID + 1})
	must(t, l.AppendMoveFenced(ctx, 1, "tbf", mv(0, "m0"), match.Turn{ToMove: 1}, nil))
	wantErr(t, l.TakeBackFenced(ctx, 2, "tbf", 1, 0, turn), store.ErrDeposed, "a takeback by an owner at another epoch")
	must(t, l.TakeBackFenced(ctx, 1, "tbf", 1, 0, turn))
	if moves, _ := s.Moves(ctx, "tbf"); len(moves) != 0 {
		t.Fatalf("moves after a fenced takeback: %+v", moves)
	}
}
