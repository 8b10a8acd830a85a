package e2e

import (
	"net/http"
	"os/exec"
	"testing"
)

// TestModerationAcrossNodes (issue 24 item 9): the moderator role granted
// with `tabula admin` on the cluster's PostgreSQL; the moderator closes an
// account through node 1, and at once node 2 refuses the account's
// session, node 1 its sign-in; the reopen through node 2 lets it in again.
func TestModerationAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	mona, mallory := s.anonymous(), s.anonymous()
	for _, c := range []struct {
		cl   *client
		name string
	}{{mona, "mona"}, {mallory, "mallory"}} {
		var resp struct{ Token string }
		if _, err := c.cl.call("POST", "/api/users", map[string]string{"name": c.name, "password": "plum tart at noon"}, &resp); err != nil {
			t.Fatalf("%s registers: %v", c.name, err)
		}
		c.cl.token, c.cl.name = resp.Token, c.name
	}
	if out, err := exec.Command(binary, "admin", "--db", s.pgURL, "--as", "e2e", "grant", "mona", "--reason", "e2e").CombinedOutput(); err != nil {
		t.Fatalf("tabula admin grant: %v\n%s", err, out)
	}
	if st, err := mona.callAt(s.nodeURL(0), "POST", "/api/moderation/close", map[string]string{"user": "mallory", "reason": "e2e"}, nil); err != nil {
		t.Fatalf("close through node1: %d %v", st, err)
	}
	if st, _ := mallory.callAt(s.nodeURL(1), "GET", "/api/me", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("a closed account's session on node2: %d, want 401", st)
	}
	login := map[string]string{"name": "mallory", "password": "plum tart at noon"}
	if st, _ := s.anonymous().callAt(s.nodeURL(0), "POST", "/api/session", login, nil); st != http.StatusForbidden {
		t.Fatalf("a closed account's sign-in on node1: %d, want 403", st)
	}
	if st, err := mona.callAt(s.nodeURL(1), "POST", "/api/moderation/reopen", map[string]string{"user": "mallory", "reason": "e2e"}, nil); err != nil {
		t.Fatalf("reopen through node2: %d %v", st, err)
	}
	if st, err := mallory.callAt(s.nodeURL(0), "GET", "/api/me", nil, nil); err != nil {
		t.Fatalf("the reopened account's session on node1: %d %v", st, err)
	}
}
