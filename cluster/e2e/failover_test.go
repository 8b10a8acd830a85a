package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestClusterFailover: twenty live games spread over three nodes — ten
// between two people, ten against a server bot, all on realtime clocks —
// are played through the proxy by clients that reconnect when their
// connection drops, while one node after another is killed with kill -9 at
// a random moment (and started again, as a new node, once its games are
// taken over).
// Every acknowledged move is stored at its ply, no move is stored that its
// player did not send for that ply (none applied twice), every game goes
// on under a surviving node, and the time from each kill to the next move
// stored in each of the dead node's games is reported.
func TestClusterFailover(t *testing.T) {
	s := newSite(t, 3)
	kills := 3
	if testing.Short() {
		kills = 1
	}
	// Skyjo to a target of 10000 points lasts over ten thousand plies:
	// far longer than the test, at the players' pace. (To 1000 points a
	// game may end in 800, which a game against a bot nears here: a game
	// over before its owner's kill takes no move after it.) The games are
	// made on each node in turn (bypassing the proxy), so that each owns
	// some.
	opts := map[string]string{"players": "2", "target": "10000"}
	clock := map[string]any{"kind": "realtime", "initialMs": 600000, "incrementMs": 0}
	var players []*player
	var games []string
	for g := 0; g < 20; g++ {
		a := s.guest()
		var id string
		if g%2 == 0 {
			b := s.guest()
			id = a.createGameOn(g%3, "skyjo", opts, []map[string]string{{"kind": "me"}, {"kind": "invite", "user": b.name}}, clock)
			if _, err := b.call("POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
				t.Fatalf("join: %v", err)
			}
			players = append(players, &player{c: b, game: id})
		} else {
			id = a.createGameOn(g%3, "skyjo", opts, []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}, clock)
		}
		players = append(players, &player{c: a, game: id})
		games = append(games, id)
	}
	owners := map[string]int{}
	for _, id := range games {
		owners[s.owner(id)]++
	}
	if len(owners) < 2 {
		t.Fatalf("the games are not spread over the nodes: %v", owners)
	}
	t.Logf("games per node: %v", owners)

	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	for i, p := range players {
		p.rng, p.pace = rand.New(rand.NewPCG(uint64(i), 7)), 140*time.Millisecond
		wg.Add(1)
		go func() { defer wg.Done(); p.drive(ctx) }()
	}
	defer func() { stop(); wg.Wait() }()

	type kill struct {
		node  string
		at    time.Time
		games []string // live games the node owned when it died
	}
	var done []kill
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 1))
	// Every game under way first; then each kill at a random moment: once
	// another 100 to 400 moves are stored.
	if !until(context.Background(), 2*time.Minute, func() bool { return s.fewestMoves(games) >= 3 }) {
		t.Fatal("the games did not get going")
	}
	for k := 0; k < kills; k++ {
		want := s.storedMoveCount() + 100 + rng.IntN(300)
		if !until(context.Background(), 2*time.Minute, func() bool { return s.storedMoveCount() >= want }) {
			t.Fatalf("fewer than %d moves stored in 2 minutes", want)
		}
		// A node that owns games, at random.
		byNode := map[string][]string{}
		for _, id := range games {
			byNode[s.owner(id)] = append(byNode[s.owner(id)], id)
		}
		var owning []string
		for name := range byNode {
			owning = append(owning, name)
		}
		sort.Strings(owning)
		name := owning[rng.IntN(len(owning))]
		i := nodeIndex(name)
		kl := kill{node: name, games: byNode[name]}
		kl.at = time.Now()
		s.nodes[i].kill()
		done = append(done, kl)
		t.Logf("kill -9 %s, owner of %d games", name, len(kl.games))
		// The dead node's games are taken over; then it comes back, as
		// a new node, for the next round.
		if !until(context.Background(), 2*time.Minute, func() bool { return s.gamesOwnedBy(name) == 0 }) {
			t.Fatalf("%s's games were not taken over in 2 minutes", name)
		}
		s.startNode(i)
	}
	// Until every game a dead node owned has taken a move since.
	if !until(context.Background(), 2*time.Minute, func() bool {
		for _, kl := range done {
			for _, id := range kl.games {
				var n int
				s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".moves WHERE game_id = $1 AND at > $2", id, kl.at.UnixMilli()).Scan(&n)
				if n == 0 {
					return false
				}
			}
		}
		return true
	}) {
		t.Log("a game took no move in 2 minutes after its owner died (below: which)")
	}
	stop()
	wg.Wait()

	// Every acknowledged move is stored at its ply; every stored move of a
	// person is one that person sent for that ply.
	stored := map[string][]storedMove{}
	for _, id := range games {
		stored[id] = s.storedMoves(id)
	}
	acks, reconnects := 0, 0
	for _, p := range players {
		ms := stored[p.game]
		for _, a := range p.acks {
			if a.ply >= len(ms) || ms[a.ply].Text != a.text {
				t.Fatalf("game %s: the move %q acknowledged at ply %d is not stored there", p.game, a.text, a.ply)
			}
		}
		for _, m := range ms {
			if m.Seat == p.seat && !slices.Contains(p.sent[m.Ply], m.Text) {
				t.Fatalf("game %s: %q stored at ply %d for seat %d, which sent %q there", p.game, m.Text, m.Ply, p.seat, p.sent[m.Ply])
			}
		}
		acks += len(p.acks)
		reconnects += p.reconnects
	}
	// Every game went on after each takeover of it; the time from the kill
	// to the next move stored.
	var waits []time.Duration
	for _, kl := range done {
		for _, id := range kl.games {
			var next time.Time
			var nextPly int
			// (A move whose commit the dead node had sent is stored a
			// moment after the kill, with an earlier time: not counted.)
			rows, err := s.admin.Query("SELECT ply, at FROM "+s.schema+".moves WHERE game_id = $1 AND at > $2 ORDER BY ply LIMIT 1", id, kl.at.UnixMilli())
			if err != nil {
				t.Fatal(err)
			}
			for rows.Next() {
				var at int64
				rows.Scan(&nextPly, &at)
				next = time.UnixMilli(at)
			}
			rows.Close()
			if next.IsZero() {
				t.Fatalf("game %s took no move after %s died", id, kl.node)
			}
			waits = append(waits, next.Sub(kl.at))
		}
	}
	s.consistent(games)
	for _, id := range games {
		var status, owner string
		s.admin.QueryRow("SELECT status, owner FROM "+s.schema+".games WHERE id = $1", id).Scan(&status, &owner)
		var live int
		s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".cluster_nodes WHERE id = $1 AND expires > (EXTRACT(EPOCH FROM clock_timestamp()) * 1000)", owner).Scan(&live)
		if status == "live" && live == 0 {
			t.Fatalf("game %s is owned by %s, which is not alive", id, owner)
		}
	}
	s.cleanLogs()
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })
	var list []string
	for _, w := range waits {
		list = append(list, w.Round(10*time.Millisecond).String())
	}
	t.Logf("%d kills, %d games taken over; kill to the next move in each: median %v, max %v (%s)", len(done), len(waits),
		waits[len(waits)/2].Round(time.Millisecond), waits[len(waits)-1].Round(time.Millisecond), strings.Join(list, " "))
	longest := 0
	for _, ms := range stored {
		longest = max(longest, len(ms))
	}
	t.Logf("%d moves acknowledged to players, %d reconnections; the longest game had %d moves", acks, reconnects, longest)
}

// player is a person playing one game through the proxy: it thinks a
// moment, plays a random legal move, and when its connection drops it
// connects again (through the proxy, to whichever node) and goes on from
// the snapshot.
type player struct {
	c    *client
	game string
	rng  *rand.Rand
	node string        // the node to connect to ("": any)
	pace time.Duration // how long it thinks before a move, at most

	seat       int
	acks       []acked
	sent       map[int][]string // the moves sent for each ply
	reconnects int
}

type acked struct {
	ply  int
	text string
}

func (p *player) drive(ctx context.Context) {
	p.sent = map[int][]string{}
	for first := true; ctx.Err() == nil; first = false {
		if !first {
			p.reconnects++
			// A pause before connecting again (a client's back-off).
			time.Sleep(100 * time.Millisecond)
		}
		cn, err := p.c.dial(ctx, p.game, p.node)
		if err != nil {
			continue
		}
		// The connection ends when its node dies, or to resynchronise:
		// either way, connect again.
		if over, _ := p.play(ctx, cn); over {
			cn.close()
			return
		}
		cn.close()
	}
}

var errResync = errors.New("resynchronise")

// play follows the game on one connection; over reports that it ended.
func (p *player) play(ctx context.Context, cn *conn) (over bool, err error) {
	ply, pending, pendingPly, pendingText, n := 0, "", 0, "", 0
	var legal []string
	for {
		if len(legal) > 0 && pending == "" {
			// Think, then move.
			select {
			case <-ctx.Done():
				return false, ctx.Err()
			case <-time.After(time.Duration(p.rng.Int64N(int64(p.pace) + 1))):
			}
			n++
			pending, pendingPly, pendingText = fmt.Sprint("m", n), ply, legal[p.rng.IntN(len(legal))]
			p.sent[ply] = append(p.sent[ply], pendingText)
			if err := cn.send(ctx, map[string]any{"type": "move", "id": pending, "ply": ply, "move": pendingText}); err != nil {
				return false, err
			}
			legal = nil
		}
		m, err := cn.read(ctx)
		if err != nil {
			return false, err
		}
		switch m.Type {
		case "snapshot":
			p.seat, ply, legal = m.Seat, len(m.Moves), m.Legal
			if m.Game.Status != "live" && m.Game.Status != "open" {
				return true, nil
			}
		case "move":
			ply = *m.Ply + 1
			legal = nil
			if m.ToMove == p.seat {
				legal = m.Legal
			}
		case "ack":
			if m.ID == pending {
				p.acks = append(p.acks, acked{pendingPly, pendingText})
				pending = ""
			}
		case "error":
			if m.ID == pending {
				pending = ""
				// Stale, not our turn, or the game moving to another
				// node: start again from a fresh snapshot.
				return false, errResync
			}
		case "end":
			return true, nil
		}
	}
}

// storedMoveCount is the number of moves stored in the site's games.
func (s *site) storedMoveCount() int {
	var n int
	s.admin.QueryRow("SELECT COUNT(*) FROM " + s.schema + ".moves").Scan(&n)
	return n
}

// fewestMoves is the least number of moves stored in any of games.
func (s *site) fewestMoves(games []string) int {
	least := -1
	for _, id := range games {
		var n int
		s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".moves WHERE game_id = $1", id).Scan(&n)
		if least < 0 || n < least {
			least = n
		}
	}
	return least
}
