package e2e

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"
)

// TestClusterKillDuringCommits is the PostgreSQL restart race: a node is
// killed while it commits moves as fast as its games' players send them
// (through another node, which forwards them), and is started again at
// once. No game may be left answering 503 ("game row says 146 moves, 147
// stored", "move conflict: game changed outside its owner"): every game's
// row agrees with its moves, every game is taken over and accepts moves
// again through either node, and every acknowledged move is stored.
func TestClusterKillDuringCommits(t *testing.T) {
	s := newSite(t, 2)
	// Skyjo to 10000 points: random play takes over ten thousand moves to
	// finish it, far more than any machine plays here. (To 1000 points, a
	// game could end in 800 moves, which a quiet machine plays within the
	// test: then it "accepts no move" for being over.)
	opts := map[string]string{"players": "2", "target": "10000"}
	var games []string
	var players []*player
	for g := 0; g < 10; g++ {
		a, b := s.guest(), s.guest()
		id := a.createGameOn(0, "skyjo", opts, []map[string]string{{"kind": "me"}, {"kind": "invite", "user": b.name}}, nil)
		if _, err := b.call("POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
			t.Fatal(err)
		}
		games = append(games, id)
		// The players sit on node2; node1 owns the games and commits
		// every move, with no pause between them.
		players = append(players, &player{c: a, game: id, node: "node2"}, &player{c: b, game: id, node: "node2"})
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, p := range players {
		p.rng = rand.New(rand.NewPCG(uint64(i), 3))
		wg.Add(1)
		go func() { defer wg.Done(); p.drive(ctx) }()
	}
	defer func() { stop(); wg.Wait() }()
	// Every game under way, node1 committing their moves.
	if !until(context.Background(), 2*time.Minute, func() bool { return s.fewestMoves(games) >= 5 }) {
		t.Fatal("the games did not get going")
	}
	var rate int // moves node1 committed in the last second
	s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".moves WHERE at > $1", time.Now().Add(-time.Second).UnixMilli()).Scan(&rate)
	killed := time.Now()
	s.nodes[0].kill()
	s.startNode(0) // at once, as a supervisor would
	// Until every game has taken a move since (checked below).
	until(context.Background(), 2*time.Minute, func() bool {
		for _, id := range games {
			var n int
			s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".moves WHERE game_id = $1 AND at > $2", id, killed.UnixMilli()).Scan(&n)
			if n == 0 {
				return false
			}
		}
		return true
	})
	stop()
	wg.Wait()

	s.consistent(games)
	s.cleanLogs()
	for _, p := range players {
		ms := s.storedMoves(p.game)
		for _, a := range p.acks {
			if a.ply >= len(ms) || ms[a.ply].Text != a.text {
				t.Fatalf("game %s: the move %q acknowledged at ply %d is not stored there", p.game, a.text, a.ply)
			}
		}
	}
	// Every game took moves after the kill, and answers on both nodes.
	for _, id := range games {
		var after int
		s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".moves WHERE game_id = $1 AND at > $2", id, killed.UnixMilli()).Scan(&after)
		if after == 0 {
			t.Fatalf("game %s took no move after the kill", id)
		}
		for i := range s.nodes {
			resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/api/games/%s", s.ports[i], id))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Fatalf("GET game %s on node%d: %d", id, i+1, resp.StatusCode)
			}
		}
	}
	// And one more move in each, now, through the proxy.
	longest := 0
	for i, id := range games {
		a, b := players[2*i], players[2*i+1]
		var status string
		var ply int
		s.admin.QueryRow("SELECT status, ply FROM "+s.schema+".games WHERE id = $1", id).Scan(&status, &ply)
		longest = max(longest, ply)
		if !moveOnce(t, s, id, a.c, b.c) {
			t.Fatalf("game %s accepts no move (%s after %d moves)", id, status, ply)
		}
	}
	t.Logf("node1 killed while committing %d moves a second; every game resumed (the longest had %d moves)", rate, longest)
}

// moveOnce plays one legal move in game id for whichever of the two is to
// move, through the proxy. (A move its players sent just before they
// stopped may still land meanwhile: then it tries again.)
func moveOnce(t *testing.T, s *site, id string, a, b *client) bool {
	for try := 0; try < 10; try++ {
		for _, c := range []*client{a, b} {
			var snap struct {
				Moves []struct{} `json:"moves"`
				Legal []string   `json:"legal"`
			}
			if _, err := c.call("GET", "/api/games/"+id, nil, &snap); err != nil {
				t.Fatalf("GET %s: %v", id, err)
			}
			if len(snap.Legal) == 0 {
				continue
			}
			_, err := c.call("POST", "/api/games/"+id+"/moves", map[string]any{"ply": len(snap.Moves), "move": snap.Legal[0]}, nil)
			switch codeOf(err) {
			case "":
				if err != nil {
					t.Fatalf("a move in %s: %v", id, err)
				}
				return true
			case "stale_ply", "not_your_turn":
			default:
				t.Fatalf("a move in %s: %v", id, err)
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	return false
}
