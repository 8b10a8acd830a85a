package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"testing"
	"time"
)

// TestClusterCommandsOnce (issue 23, finding 3, outside the process): every
// command of the game channel sent twice with the same message id — the
// copy of a message a client sends again when it heard no answer — through
// a node that does not own the game, so that both copies are forwarded to
// the owner over NATS, is applied once and the copy gets the first
// answer: a chat line is said once (and its copies are not rate limited),
// a draw offer, its decline, a refused takeback, a move (again after the
// opponent has moved: not not_your_turn), the acceptance of a draw, both
// rematch asks, a resignation, an abort and a claim of an abandoned game.
// What was applied is checked where it lands: the other player's
// connection, a fresh snapshot, PostgreSQL. The claim waits for the 30 s
// grace, so it runs only without -short.
//
// The rematch is no command of the game's owner: its copy is recognised
// by the connection that sent it (it failed before b8add20: 409 "you have
// offered a rematch already").
func TestClusterCommandsOnce(t *testing.T) {
	s := newSite(t, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	alice, bob := s.guest(), s.guest()
	opts := map[string]string{"players": "2", "target": "10000"}
	invite := []map[string]string{{"kind": "me"}, {"kind": "invite", "user": bob.name}}

	// A game owned by node1; alice plays on node2, bob on node3.
	id := s.create(alice, 0, map[string]any{"game": "skyjo", "options": opts, "seats": invite})
	a, b := s.seatAt(ctx, alice, id, "node2"), s.seatAt(ctx, bob, id, "node3")
	defer a.close()
	defer b.close()
	if _, err := bob.callAt(s.nodeURL(2), "POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
		t.Fatalf("bob joins on node3: %v", err)
	}
	waitLive(ctx, t, a, b)

	t.Run("http", func(t *testing.T) {
		// An HTTP command's copy with its Idempotency-Key, sent to
		// another node than the first (the proxy's resend lands where
		// it may): a creation names the first's game, a join of it is
		// answered as done.
		// (Players of their own: the rematch below counts the games
		// alice and bob share.)
		carol, dave := s.guest(), s.guest()
		key := map[string]string{"Idempotency-Key": "across-nodes-1"}
		req := map[string]any{"game": "skyjo", "options": opts, "seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": dave.name}}}
		var ids []string
		for _, node := range []int{0, 1} {
			var res struct{ Game struct{ ID string } }
			if st, err := carol.callWith(s.nodeURL(node), "POST", "/api/games", req, &res, key); err != nil || st != http.StatusCreated {
				t.Fatalf("the creation on node%d: %d %v", node+1, st, err)
			}
			ids = append(ids, res.Game.ID)
		}
		if ids[0] != ids[1] {
			t.Fatalf("a creation and its copy on another node made %v", ids)
		}
		join := map[string]string{"Idempotency-Key": "across-nodes-2"}
		for _, node := range []int{1, 2} {
			if _, err := dave.callWith(s.nodeURL(node), "POST", "/api/games/"+ids[0]+"/join", struct{}{}, nil, join); err != nil {
				t.Fatalf("the join on node%d: %v", node+1, err)
			}
		}
	})

	t.Run("chat", func(t *testing.T) {
		// Six copies: past the burst of five lines, and each the first
		// answer.
		first := twice(ctx, t, a, map[string]any{"type": "chat", "text": "hello, once"}, 6)
		if first.Type != "ack" {
			t.Fatalf("chat: %+v", first.Error)
		}
		mark(ctx, t, a, b)
		if n := b.count(func(m roomMsg) bool { return m.Type == "chat" && m.Line != nil && m.Line.Text == "hello, once" }); n != 1 {
			t.Fatalf("bob heard the line %d times", n)
		}
		var snap roomMsg
		if _, err := bob.call("GET", "/api/games/"+id, nil, &snap); err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, l := range snap.Room.Chat {
			if l.Text == "hello, once" {
				n++
			}
		}
		if n != 1 {
			t.Fatalf("the room holds the line %d times: %+v", n, snap.Room.Chat)
		}
	})
	t.Run("offers", func(t *testing.T) {
		if first := twice(ctx, t, a, map[string]any{"type": "offer", "offer": "draw"}, 2); first.Type != "ack" {
			t.Fatalf("offer: %+v", first.Error)
		}
		if first := twice(ctx, t, b, map[string]any{"type": "decline", "offer": "draw"}, 2); first.Type != "ack" {
			t.Fatalf("decline: %+v", first.Error)
		}
		// Refused (Skyjo has no takebacks): the copy is refused alike.
		if first := twice(ctx, t, a, map[string]any{"type": "offer", "offer": "takeback"}, 2); first.code() != "conflict" {
			t.Fatalf("takeback: %+v, want conflict", first)
		}
		mark(ctx, t, a, b)
		for _, ss := range []*session{a, b} {
			notes := map[string]int{}
			for _, m := range ss.all() {
				if m.Type == "offer" && m.Note != nil {
					notes[m.Note.Action]++
				}
			}
			if notes["offered"] != 1 || notes["declined"] != 1 || len(notes) != 2 {
				t.Fatalf("%s heard the offers %v: want one offered, one declined", ss.node(), notes)
			}
		}
	})
	t.Run("move", func(t *testing.T) {
		// Bring it to alice's turn.
		for {
			if _, legal, _, _ := a.state(); len(legal) > 0 {
				break
			}
			if err := playPlies(ctx, []*session{a, b}, 1); err != nil {
				t.Fatal(err)
			}
		}
		ply, legal, _, _ := a.state()
		cmd := map[string]any{"type": "move", "ply": ply, "move": legal[0]}
		first := twice(ctx, t, a, cmd, 2)
		if first.Type != "ack" || first.Ply == nil || *first.Ply != ply {
			t.Fatalf("move: %+v", first)
		}
		// Once bob has moved after it, a copy is still the first answer.
		for {
			ms := s.storedMoves(id)
			if len(ms) > ply+1 && slices.ContainsFunc(ms[ply+1:], func(m storedMove) bool { return m.Seat == 1 }) {
				break
			}
			if err := playPlies(ctx, []*session{a, b}, 1); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := a.send(ctx, cmd); err != nil {
			t.Fatal(err)
		}
		again, err := a.answer(ctx, cmd["id"].(string), 3)
		if err != nil {
			t.Fatal(err)
		}
		if again.Type != "ack" || again.Seq != first.Seq || *again.Ply != ply {
			t.Fatalf("the move sent again after bob's move: %s %+v, want the first answer (ack at ply %d, seq %d)", again.Type, again.Error, ply, first.Seq)
		}
		if ms := s.storedMoves(id); ms[ply].Text != legal[0] || ms[ply].Seat != 0 {
			t.Fatalf("stored at %d: %+v", ply, ms[ply:])
		}
		s.consistent([]string{id})
	})
	t.Run("draw", func(t *testing.T) {
		if err := playPlies(ctx, []*session{a, b}, 1); err != nil {
			t.Fatal(err)
		}
		if first := twice(ctx, t, a, map[string]any{"type": "offer", "offer": "draw"}, 1); first.Type != "ack" {
			t.Fatalf("offer: %+v", first.Error)
		}
		if first := twice(ctx, t, b, map[string]any{"type": "accept", "offer": "draw"}, 2); first.Type != "ack" {
			t.Fatalf("accept: %+v", first.Error)
		}
		if r := s.result(id); r.status != "finished" || r.Reason != "agreed" {
			t.Fatalf("after the accepted draw: %+v", r)
		}
	})
	t.Run("rematch", func(t *testing.T) {
		if r := s.result(id); r.status != "finished" {
			t.Skip("the game did not finish")
		}
		// Both ask for the rematch, each twice: one rematch game, live,
		// and every copy answered as its first.
		if first := twice(ctx, t, a, map[string]any{"type": "rematch"}, 2); first.Type != "ack" {
			t.Fatalf("alice's rematch: %+v", first.Error)
		}
		if first := twice(ctx, t, b, map[string]any{"type": "rematch"}, 2); first.Type != "ack" {
			t.Fatalf("bob's rematch: %+v", first.Error)
		}
		// The rematch: the one other game both of them sit in.
		rows, err := s.admin.Query("SELECT game_id FROM "+s.schema+".seats WHERE game_id <> $1 AND user_id IN (SELECT id FROM "+
			s.schema+".users WHERE name = $2 OR name = $3) GROUP BY game_id HAVING COUNT(*) = 2", id, alice.name, bob.name)
		if err != nil {
			t.Fatal(err)
		}
		var games []string
		for rows.Next() {
			var g string
			rows.Scan(&g)
			games = append(games, g)
		}
		rows.Close()
		if len(games) != 1 {
			t.Fatalf("rematches: %v", games)
		}
		if r := s.result(games[0]); r.status != "live" {
			t.Fatalf("the rematch is %s", r.status)
		}
	})
	t.Run("resign", func(t *testing.T) {
		// A game of its own, owned by node1, played on node2 and node3.
		g := s.create(alice, 0, map[string]any{"game": "skyjo", "options": opts, "seats": invite})
		ra, rb := s.seatAt(ctx, alice, g, "node2"), s.seatAt(ctx, bob, g, "node3")
		defer ra.close()
		defer rb.close()
		if _, err := bob.callAt(s.nodeURL(2), "POST", "/api/games/"+g+"/join", struct{}{}, nil); err != nil {
			t.Fatal(err)
		}
		waitLive(ctx, t, ra, rb)
		if first := twice(ctx, t, ra, map[string]any{"type": "resign"}, 3); first.Type != "ack" {
			t.Fatalf("resign: %+v", first.Error)
		}
		if r := s.result(g); r.status != "finished" || r.Reason != "resign" || len(r.Winners) != 1 || r.Winners[0] != 1 {
			t.Fatalf("after alice resigned: %+v", r)
		}
	})
	t.Run("abort", func(t *testing.T) {
		open := s.create(alice, 0, map[string]any{"game": "skyjo", "options": opts, "seats": invite})
		ss := s.seatAt(ctx, alice, open, "node3")
		defer ss.close()
		if first := twice(ctx, t, ss, map[string]any{"type": "abort"}, 2); first.Type != "ack" {
			t.Fatalf("abort: %+v", first.Error)
		}
		if r := s.result(open); r.status != "aborted" {
			t.Fatalf("after the abort: %+v", r)
		}
	})
	t.Run("claim", func(t *testing.T) {
		if testing.Short() {
			t.Skip("a claim waits for the 30 s grace: without -short")
		}
		g := s.create(alice, 0, map[string]any{"game": "skyjo", "options": opts, "seats": invite})
		ga, gb := s.seatAt(ctx, alice, g, "node2"), s.seatAt(ctx, bob, g, "node3")
		defer ga.close()
		if _, err := bob.callAt(s.nodeURL(1), "POST", "/api/games/"+g+"/join", struct{}{}, nil); err != nil {
			t.Fatal(err)
		}
		waitLive(ctx, t, ga, gb)
		// To bob's turn, then bob leaves: after the grace alice claims.
		for {
			if _, legal, _, _ := gb.state(); len(legal) > 0 {
				break
			}
			if err := playPlies(ctx, []*session{ga, gb}, 1); err != nil {
				t.Fatal(err)
			}
		}
		gb.close()
		away, _, err := ga.wait(ctx, 0, func(m roomMsg) bool {
			return m.Type == "presence" && len(m.Away) == 1 && m.Away[0].Seat == 1 && m.Away[0].ClaimInMs > 0
		})
		if err != nil {
			t.Fatal(err)
		}
		// Claims before the grace are refused (conflict); the first
		// accepted one is sent again.
		deadline := time.Now().Add(time.Duration(away.Away[0].ClaimInMs)*time.Millisecond + time.Minute)
		var id string
		for {
			if time.Now().After(deadline) {
				t.Fatal("no claim accepted")
			}
			claim := map[string]any{"type": "claim"}
			ack, err := ga.do(ctx, claim)
			if err != nil {
				t.Fatal(err)
			}
			if ack.Type == "ack" {
				id = claim["id"].(string)
				if _, err := ga.send(ctx, map[string]any{"type": "claim", "id": id}); err != nil {
					t.Fatal(err)
				}
				again, err := ga.answer(ctx, id, 2)
				if err != nil || again.Type != "ack" || again.Seq != ack.Seq {
					t.Fatalf("the claim sent again: %+v %v, want the first answer (seq %d)", again, err, ack.Seq)
				}
				break
			}
			if ack.code() != "conflict" {
				t.Fatalf("claim: %+v", ack.Error)
			}
			// The grace runs on the owner's clock: wait for the next
			// presence news or a little while.
			wctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
			ga.wait(wctx, len(ga.all()), func(m roomMsg) bool { return m.Type == "presence" })
			cancel()
		}
		if r := s.result(g); r.status != "finished" || r.Reason != "abandoned" || len(r.Winners) != 1 || r.Winners[0] != 0 {
			t.Fatalf("after the claim: %+v", r)
		}
	})
	s.cleanLogs()
}

// seatAt opens c's connection to game id's channel on node, waiting for its
// snapshot.
func (s *site) seatAt(ctx context.Context, c *client, id, node string) *session {
	s.t.Helper()
	ss, err := c.open(ctx, id, node)
	if err != nil {
		s.t.Fatal(err)
	}
	if _, _, err := ss.wait(ctx, 0, func(m roomMsg) bool { return m.Type == "snapshot" }); err != nil {
		s.t.Fatal(err)
	}
	return ss
}

// waitLive waits until every connection has heard that the game started.
func waitLive(ctx context.Context, t *testing.T, ss ...*session) {
	t.Helper()
	for _, x := range ss {
		if _, _, err := x.wait(ctx, 0, func(m roomMsg) bool { return m.Type == "snapshot" && m.Game.Status == "live" }); err != nil {
			t.Fatalf("%s: the game did not start: %v", x.node(), err)
		}
	}
}

// twice sends cmd and then copies of it with the same message id, n in
// all, each after the answer to the one before, and requires every copy to
// get the first answer (the same type, event number, ply and error code);
// it returns that answer.
func twice(ctx context.Context, t *testing.T, ss *session, cmd map[string]any, n int) roomMsg {
	t.Helper()
	first, err := ss.do(ctx, cmd)
	if err != nil {
		t.Fatalf("%v: %v", cmd, err)
	}
	for k := 2; k <= n; k++ {
		if _, err := ss.send(ctx, cmd); err != nil {
			t.Fatal(err)
		}
		again, err := ss.answer(ctx, cmd["id"].(string), k)
		if err != nil {
			t.Fatalf("%v sent again: %v", cmd, err)
		}
		if again.Type != first.Type || again.Seq != first.Seq || again.code() != first.code() || (first.Ply == nil) != (again.Ply == nil) ||
			(first.Ply != nil && *first.Ply != *again.Ply) {
			t.Fatalf("%v through %s, copy %d: %s seq %d %+v; the first answer was %s seq %d %+v", cmd, ss.node(), k,
				again.Type, again.Seq, again.Error, first.Type, first.Seq, first.Error)
		}
	}
	return first
}

// mark has a say a line of its own and waits until b hears it: every event
// of what a did before has reached b by then (a game's events come in
// order).
func mark(ctx context.Context, t *testing.T, a, b *session) {
	t.Helper()
	text := fmt.Sprint("mark ", time.Now().UnixNano())
	if ack, err := a.do(ctx, map[string]any{"type": "chat", "text": text}); err != nil || ack.Type != "ack" {
		// (The test says two lines, within the burst of five.)
		t.Fatalf("the mark: %+v %v", ack, err)
	}
	if _, _, err := b.wait(ctx, 0, func(m roomMsg) bool { return m.Type == "chat" && m.Line != nil && m.Line.Text == text }); err != nil {
		t.Fatalf("the mark not heard: %v", err)
	}
}

// storedResult is a game's row: its status and result.
type storedResult struct {
	status  string
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"`
}

func (s *site) result(id string) storedResult {
	s.t.Helper()
	var r storedResult
	var res string
	if err := s.admin.QueryRow("SELECT status, result FROM "+s.schema+".games WHERE id = $1", id).Scan(&r.status, &res); err != nil {
		s.t.Fatal(err)
	}
	json.Unmarshal([]byte(res), &r)
	return r
}

// seatOf is c's seat in game id, from the database.
func (s *site) seatOf(id string, c *client) int {
	s.t.Helper()
	var seat int
	if err := s.admin.QueryRow("SELECT seat FROM "+s.schema+".seats st JOIN "+s.schema+".users u ON u.id = st.user_id WHERE st.game_id = $1 AND u.name = $2",
		id, c.name).Scan(&seat); err != nil {
		s.t.Fatalf("%s's seat in %s: %v", c.name, id, err)
	}
	return seat
}
