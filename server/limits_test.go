package server_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// twoNodes is two servers sharing one PostgreSQL store, as the nodes of a
// cluster do, on one stopped clock moved by hand.
func twoNodes(t *testing.T, signupRate float64, opts ...envOption) (a, b *env, offset *atomic.Int64) {
	t.Helper()
	open := postgresStore(t)
	offset = new(atomic.Int64)
	base := time.Now()
	opt := func(c *serverConfig) {
		c.SignupRate = signupRate
		c.Now = func() time.Time { return base.Add(time.Duration(offset.Load())) }
	}
	opts = append(opts, opt)
	return newEnvWith(t, open, opts...), newEnvWith(t, open, opts...), offset
}

// TestSignInBackoffAcrossNodes: an account's five free guesses are five on
// the whole site, not five per node (issue 23, finding 1: with three nodes
// an attacker had fifteen) — the sixth wrong password is refused whichever
// node gets it, and after the first wait one more guess is allowed on the
// site, not one per node.
func TestSignInBackoffAcrossNodes(t *testing.T) {
	a, b, offset := twoNodes(t, 0)
	a.register("alice")
	nodes := []*env{a, b}
	for i := range 5 {
		if status, _ := nodes[i%2].loginFrom(byte(10+i), "alice", fmt.Sprintf("guess-%d-xyz", i), nil); status != http.StatusUnauthorized {
			t.Fatalf("guess %d: %d, want 401", i+1, status)
		}
	}
	for i, n := range nodes {
		status, retry := n.loginFrom(byte(20+i), "alice", "guess-6-xyz", nil)
		if status != http.StatusTooManyRequests || retry == "" {
			t.Fatalf("a sixth guess on node %d: %d (Retry-After %q), want 429", i+1, status, retry)
		}
	}
	// The first wait (1 s) over, the site allows one guess, then waits 2 s.
	offset.Store(int64(1500 * time.Millisecond))
	if status, _ := b.loginFrom(30, "alice", "guess-7-xyz", nil); status != http.StatusUnauthorized {
		t.Fatalf("after the first wait: %d, want 401", status)
	}
	if status, _ := a.loginFrom(31, "alice", "password-alice", nil); status != http.StatusTooManyRequests {
		t.Fatalf("the other node right after: %d, want 429", status)
	}
	// A success on one node clears the count on both.
	offset.Store(int64(4 * time.Second))
	if status, _ := a.loginFrom(32, "alice", "password-alice", nil); status != http.StatusOK {
		t.Fatalf("after the second wait, the right password: %d", status)
	}
	for i := range 5 {
		if status, _ := nodes[i%2].loginFrom(byte(40+i), "alice", "wrong-again", nil); status != http.StatusUnauthorized {
			t.Fatalf("after a success, wrong guess %d: %d, want 401", i+1, status)
		}
	}
}

// TestAddressLimitsAcrossNodes: an address's budget of new accounts and
// sign-ins (10 a minute, bursts of 5) is one budget on the whole site:
// guests made on two nodes from one address count together.
func TestAddressLimitsAcrossNodes(t *testing.T) {
	a, b, offset := twoNodes(t, 10)
	nodes := []*env{a, b}
	for i := range 5 {
		if status, _ := nodes[i%2].postFrom(77, "/api/guest", map[string]any{}, nil); status != http.StatusCreated {
			t.Fatalf("guest %d: %d, want 201", i+1, status)
		}
	}
	for i, n := range nodes {
		if status, _ := n.postFrom(77, "/api/guest", map[string]any{}, nil); status != http.StatusTooManyRequests {
			t.Fatalf("a sixth guest from the address on node %d: %d, want 429", i+1, status)
		}
		if status, _ := n.postFrom(77, "/api/users", map[string]string{"name": fmt.Sprint("carol", i), "password": "plum tart at noon"}, nil); status != http.StatusTooManyRequests {
			t.Fatalf("a registration from the address on node %d: %d, want 429", i+1, status)
		}
		if status, _ := n.loginFrom(77, "nobody", "plum tart at noon", nil); status != http.StatusTooManyRequests {
			t.Fatalf("a sign-in from the address on node %d: %d, want 429", i+1, status)
		}
	}
	// Another address has its own budget; this one refills at 10 a minute.
	if status, _ := b.postFrom(78, "/api/guest", map[string]any{}, nil); status != http.StatusCreated {
		t.Fatalf("a guest from another address: %d", status)
	}
	offset.Store(int64(6 * time.Second))
	if status, _ := b.postFrom(77, "/api/guest", map[string]any{}, nil); status != http.StatusCreated {
		t.Fatalf("after 6 s: %d, want one more guest", status)
	}
	if status, _ := a.postFrom(77, "/api/guest", map[string]any{}, nil); status != http.StatusTooManyRequests {
		t.Fatalf("and only one: %d", status)
	}
}

// TestQuotaAcrossNodes: a user with one place left gets one game however
// many nodes their creations reach at once — each node counted the user's
// games in the store but serialised the count and the creation only among
// its own requests, so two nodes could each let one through.
func TestQuotaAcrossNodes(t *testing.T) {
	a, b, _ := twoNodes(t, 0, func(c *serverConfig) {
		c.Quotas = &match.Quotas{OpenGames: 1, BotGames: 1, BotOnlyGames: 1}
	})
	alice := a.register("alice")
	on := map[*env]*client{a: alice, b: {e: b, name: alice.name, token: alice.token, id: alice.id}}
	open := map[string]any{"game": "tnim", "seats": []map[string]string{{"kind": "me"}, {"kind": "open"}}}
	for round := range 4 {
		var mu sync.Mutex
		made := map[string]*client{}
		codes := map[int]int{}
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := range 12 {
			c := on[[]*env{a, b}[i%2]]
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				code, data := c.do("POST", "/api/games", open)
				mu.Lock()
				defer mu.Unlock()
				codes[code]++
				if code == http.StatusCreated {
					var resp struct{ Game summary }
					if err := json.Unmarshal(data, &resp); err != nil {
						t.Error(err)
					}
					made[resp.Game.ID] = c
				}
			}()
		}
		close(start)
		wg.Wait()
		if len(made) != 1 || codes[http.StatusTooManyRequests] != 11 {
			t.Fatalf("round %d: 12 creations at once on two nodes with one place: %v (made %d games)", round+1, codes, len(made))
		}
		for id, c := range made {
			c.must(http.StatusOK, "POST", "/api/games/"+id+"/abort", nil, nil)
		}
	}
}
