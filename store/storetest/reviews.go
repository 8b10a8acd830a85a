package storetest

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// Reviews runs the tests of store.Reviews on a store that open makes: no
// review is nil, a kept review is read back, a second one for the same
// game keeps the first, and one game's review is not another's.
func Reviews(t *testing.T, open func(t *testing.T) store.Store) {
	st := open(t)
	defer st.Close()
	r, ok := st.(store.Reviews)
	if !ok {
		t.Skip("the store keeps no reviews")
	}
	ctx := context.Background()
	u := newUser(t, st, "rev")
	newGame(t, st, "rg1", u.ID, match.Finished, t0)
	newGame(t, st, "rg2", u.ID, match.Finished, t0)
	got, err := r.Review(ctx, "rg1")
	must(t, err)
	if got != nil {
		t.Fatalf("the review before any = %q, want nil", got)
	}
	must(t, r.KeepReview(ctx, "rg1", []byte(`{"game":"sploof","points":[1]}`), t0))
	must(t, r.KeepReview(ctx, "rg1", []byte(`{"game":"sploof","points":[2]}`), t0))
	got, err = r.Review(ctx, "rg1")
	must(t, err)
	if string(got) != `{"game":"sploof","points":[1]}` {
		t.Fatalf("the review after two = %q, want the first", got)
	}
	if got, _ := r.Review(ctx, "rg2"); got != nil {
		t.Fatalf("another game's review = %q, want nil", got)
	}
}
