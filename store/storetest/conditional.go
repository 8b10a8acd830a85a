package storetest

import (
	"context"
	"reflect"
	"testing"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Conditional runs the tests of store.Conditionals on a store that open
// makes: nothing saved is nil, a save is read back whole (ply, lines,
// time), a second save replaces the first, the two seats and two games are
// apart, and a drop deletes only its own entry (dropping none is no error).
func Conditional(t *testing.T, open func(t *testing.T) store.Store) {
	st := open(t)
	defer st.Close()
	book, ok := st.(store.Conditionals)
	if !ok {
		t.Skip("the store keeps no conditional moves")
	}
	ctx := context.Background()
	a := newUser(t, st, "cora")
	newGame(t, st, "c1", a.ID, match.Live, t0)
	newGame(t, st, "c2", a.ID, match.Live, t0)
	got, err := book.Conditional(ctx, "c1", 0)
	must(t, err)
	if got != nil {
		t.Fatalf("before any save: %+v, want nil", got)
	}
	first := match.Conditional{Game: "c1", Seat: 0, Ply: 3, Lines: [][]string{{"a1", "b2"}}, Created: t0}
	want := match.Conditional{Game: "c1", Seat: 0, Ply: 5, Lines: [][]string{{"c3", "d4", "e5", "a2"}, {"b1", "c1"}}, Created: t0}
	must(t, book.SetConditional(ctx, first))
	must(t, book.SetConditional(ctx, want))
	other := match.Conditional{Game: "c1", Seat: 1, Ply: 4, Lines: [][]string{{"x", "y"}}, Created: t0}
	must(t, book.SetConditional(ctx, other))
	must(t, book.SetConditional(ctx, match.Conditional{Game: "c2", Seat: 0, Ply: 1, Lines: [][]string{{"p", "q"}}, Created: t0}))
	got, err = book.Conditional(ctx, "c1", 0)
	must(t, err)
	if got == nil || !reflect.DeepEqual(*got, want) {
		t.Fatalf("after two saves: %+v, want the second %+v", got, want)
	}
	must(t, book.DropConditional(ctx, "c1", 0))
	must(t, book.DropConditional(ctx, "c1", 0))
	if got, err := book.Conditional(ctx, "c1", 0); err != nil || got != nil {
		t.Fatalf("after the drop: %+v, %v; want nil", got, err)
	}
	if got, err := book.Conditional(ctx, "c1", 1); err != nil || got == nil || !reflect.DeepEqual(*got, other) {
		t.Fatalf("the other seat after the drop: %+v, %v; want %+v", got, err, other)
	}
	if got, err := book.Conditional(ctx, "c2", 0); err != nil || got == nil || got.Ply != 1 {
		t.Fatalf("the other game after the drop: %+v, %v", got, err)
	}
}
