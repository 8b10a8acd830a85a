package account_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/store/sqlite"
)

// clock is a settable clock shared by the test's nodes.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time      { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) { c.mu.Lock(); c.t = c.t.Add(d); c.mu.Unlock() }

// nodes opens one store and n Accounts on it: n nodes of a cluster.
func nodes(t *testing.T, n int) ([]*account.Accounts, *clock) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &clock{t: time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)}
	out := make([]*account.Accounts, n)
	for i := range out {
		out[i] = account.New(account.Config{Store: db, Now: c.now, Cost: account.PasswordCost{MemoryKiB: 64, Time: 1},
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	return out, c
}

func code(err error) account.Code {
	var e *account.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// TestSignInBacksOffAcrossNodes: the back-off is the store's, so five
// wrong passwords spread over three nodes use up the account's free tries
// (not fifteen), the right password then waits too, and the wait ends.
func TestSignInBacksOffAcrossNodes(t *testing.T) {
	ctx := context.Background()
	ns, clk := nodes(t, 3)
	if _, err := ns[0].Register(ctx, nil, "alice", "plum tart at noon"); err != nil {
		t.Fatal(err)
	}
	for i := range account.FreeSignIns {
		if _, err := ns[i%3].SignIn(ctx, "alice", "wrong guess here", "192.0.2.1"); !errors.Is(err, account.ErrBadCredentials) {
			t.Fatalf("try %d: %v, want wrong name or password", i+1, err)
		}
	}
	_, err := ns[2].SignIn(ctx, "alice", "plum tart at noon", "192.0.2.9")
	var e *account.Error
	if !errors.As(err, &e) || e.Code != account.CodeRateLimited || e.RetryAfter <= 0 || e.RetryAfter > time.Second {
		t.Fatalf("after five failures on three nodes: %v, want a back-off of 1 s", err)
	}
	clk.add(time.Second)
	if u, err := ns[1].SignIn(ctx, "alice", "plum tart at noon", "192.0.2.9"); err != nil || u.Name != "alice" {
		t.Fatalf("after the wait: %+v, %v", u, err)
	}
	// A success forgets the failures: five more free tries.
	for i := range account.FreeSignIns {
		if _, err := ns[0].SignIn(ctx, "alice", "wrong again", ""); !errors.Is(err, account.ErrBadCredentials) {
			t.Fatalf("after a success, try %d: %v", i+1, err)
		}
	}
	// Unknown names and guests are wrong credentials, the same words.
	g, err := ns[0].NewGuest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"nobody", g.Name} {
		if _, err := ns[0].SignIn(ctx, name, "whatever at all", ""); !errors.Is(err, account.ErrBadCredentials) {
			t.Errorf("sign-in as %q: %v", name, err)
		}
	}
}

// TestSessionsAndTokens: a session token and an API token each find their
// user on any node; an ended session and a made-up token are
// ErrUnauthorized; an API token is not ended as a session; guests get no
// API tokens.
func TestSessionsAndTokens(t *testing.T) {
	ctx := context.Background()
	ns, _ := nodes(t, 2)
	u, err := ns[0].Register(ctx, nil, "bob_7", "dragon under the bridge")
	if err != nil {
		t.Fatal(err)
	}
	sess, _, err := ns[0].StartSession(ctx, &u)
	if err != nil {
		t.Fatal(err)
	}
	tok, val, err := ns[1].CreateToken(ctx, &u, "my bot")
	if err != nil || !account.IsAPIToken(val) || tok.ID == 0 {
		t.Fatalf("token %+v %q %v", tok, val, err)
	}
	for _, cred := range []string{sess, val} {
		if got, err := ns[1].Authenticate(ctx, cred); err != nil || got.ID != u.ID {
			t.Errorf("authenticate %q: %+v %v", cred[:6], got, err)
		}
	}
	if err := ns[1].EndSession(ctx, val); err != nil {
		t.Fatal(err)
	}
	if _, err := ns[0].Authenticate(ctx, val); err != nil {
		t.Errorf("the API token was ended as a session: %v", err)
	}
	if err := ns[1].EndSession(ctx, sess); err != nil {
		t.Fatal(err)
	}
	for _, cred := range []string{sess, "made-up", account.TokenPrefix + "made-up"} {
		if _, err := ns[0].Authenticate(ctx, cred); !errors.Is(err, account.ErrUnauthorized) {
			t.Errorf("authenticate %q: %v, want ErrUnauthorized", cred, err)
		}
	}
	g, _ := ns[0].NewGuest(ctx)
	if _, _, err := ns[0].CreateToken(ctx, &g, "x"); code(err) != account.CodeForbidden {
		t.Errorf("a guest's token: %v", err)
	}
	if _, _, err := ns[0].CreateToken(ctx, &u, ""); code(err) != account.CodeBadRequest {
		t.Errorf("a token without a name: %v", err)
	}
}

// TestRegister: a guest registering keeps its id (and games) and its name
// changes at once on the node that did it; a name is taken once, ignoring
// case; a registered user cannot register again; the rules come first.
func TestRegister(t *testing.T) {
	ctx := context.Background()
	ns, clk := nodes(t, 2)
	g, err := ns[0].NewGuest(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := ns[1].Name(ctx, g.ID); n != g.Name {
		t.Fatalf("the other node names the guest %q, want %q", n, g.Name)
	}
	u, err := ns[0].Register(ctx, &g, "carol", "plum tart at noon")
	if err != nil || u.ID != g.ID || u.Guest {
		t.Fatalf("guest registering: %+v %v", u, err)
	}
	if n := ns[0].Name(ctx, g.ID); n != "carol" {
		t.Errorf("the registering node names it %q", n)
	}
	clk.add(11 * time.Second) // a guest's cached name lives 10 s
	if n := ns[1].Name(ctx, g.ID); n != "carol" {
		t.Errorf("the other node still names it %q after a guest name's life", n)
	}
	if _, err := ns[1].Register(ctx, nil, "CAROL", "dragon under the bridge"); code(err) != account.CodeConflict {
		t.Errorf("a taken name: %v", err)
	}
	if _, err := ns[1].Register(ctx, &u, "carol2", "dragon under the bridge"); code(err) != account.CodeConflict {
		t.Errorf("registering twice: %v", err)
	}
	if _, err := ns[1].Register(ctx, nil, "guest-me", "dragon under the bridge"); code(err) != account.CodeBadRequest {
		t.Errorf("a guest's name: %v", err)
	}
	if _, err := ns[1].Register(ctx, nil, "dave", "password123"); code(err) != account.CodeWeakPassword {
		t.Errorf("a weak password: %v", err)
	}
}
