package server_test

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestGuestNameAcrossNodes: a guest who registers on one node shows under
// the new name on the other node too, once the other node's cached entry
// expires (issue 23, finding 10: the names cache was cleared only on the
// node that registered the guest, so the others showed guest-… for the
// rest of their life); the node that registered the guest shows it at once.
func TestGuestNameAcrossNodes(t *testing.T) {
	a, b, offset := twoNodes(t, 0)
	g := a.guest()
	g.create(map[string]any{"game": "tnim"})
	seatUser := func(e *env) string {
		t.Helper()
		var resp struct{ Games []summary }
		e.anon().must(http.StatusOK, "GET", "/api/games?status=open", nil, &resp)
		if len(resp.Games) != 1 {
			t.Fatalf("open games: %+v", resp.Games)
		}
		return resp.Games[0].Seats[0].User
	}
	for _, e := range []*env{a, b} {
		if u := seatUser(e); !strings.HasPrefix(u, "guest-") {
			t.Fatalf("the guest's seat shows %q", u)
		}
	}
	g.must(http.StatusCreated, "POST", "/api/users", map[string]string{"name": "gina", "password": "plum tart at noon"}, nil)
	if u := seatUser(a); u != "gina" {
		t.Fatalf("on the node that registered her: %q, want gina", u)
	}
	offset.Store(int64(time.Minute))
	if u := seatUser(b); u != "gina" {
		t.Fatalf("on the other node a minute later: %q, want gina", u)
	}
}
