package e2e

import (
	"net/http"
	"sync"
	"testing"
)

// TestQuickPairingAcrossNodes: two players who ask for the same quick
// pairing at the same moment, on two nodes, meet in one game — one waits in
// a game of their own, the other joins it — instead of each waiting alone
// for the next player (the pairing was one at a time on each node only).
// Twenty rounds of two new guests asking together, one on each node.
func TestQuickPairingAcrossNodes(t *testing.T) {
	s := newSite(t, 2)
	for round := range 20 {
		players := []*client{s.guest(), s.guest()}
		var answers [2]struct {
			Matched bool
			Game    struct{ ID string }
		}
		var errs [2]error
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i, p := range players {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				var status int
				status, errs[i] = p.callAt(s.nodeURL(i), "POST", "/api/pairing", map[string]string{"game": "sploof", "clock": "none"}, &answers[i])
				if errs[i] == nil && status != http.StatusOK {
					errs[i] = &apiError{Status: status}
				}
			}()
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d: player %d's pairing at node %d: %v", round, i+1, i+1, err)
			}
		}
		a, b := answers[0], answers[1]
		if a.Game.ID != b.Game.ID || a.Matched == b.Matched {
			t.Fatalf("round %d: two players asking together on two nodes did not meet: node1 answered game %s (matched %v), node2 game %s (matched %v)",
				round, a.Game.ID, a.Matched, b.Game.ID, b.Matched)
		}
	}
}
