package storetest

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/store"
)

// Prefs runs the tests of store.UserPrefs on a store that open makes:
// nothing saved is nil, a save is read back, a second save replaces the
// first, and one user's save is not another's.
func Prefs(t *testing.T, open func(t *testing.T) store.Store) {
	st := open(t)
	defer st.Close()
	p, ok := st.(store.UserPrefs)
	if !ok {
		t.Skip("the store keeps no preferences")
	}
	ctx := context.Background()
	a, b := newUser(t, st, "pia"), newUser(t, st, "quin")
	got, err := p.Prefs(ctx, a.ID)
	must(t, err)
	if got != nil {
		t.Fatalf("prefs before any save = %q, want nil", got)
	}
	must(t, p.SetPrefs(ctx, a.ID, []byte(`{"zen":true}`), t0))
	must(t, p.SetPrefs(ctx, a.ID, []byte(`{"boardSize":"small"}`), t0))
	got, err = p.Prefs(ctx, a.ID)
	must(t, err)
	if string(got) != `{"boardSize":"small"}` {
		t.Fatalf("prefs after two saves = %q, want the second", got)
	}
	if got, _ := p.Prefs(ctx, b.ID); got != nil {
		t.Fatalf("another user's prefs = %q, want nil", got)
	}
}
