package e2e

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestClusterNothingHiddenOnTheBus (issue 23, finding 4, outside the
// process): three nodes behind the proxy, two Skyjo games — one from the
// server's deal, one from a position (which the server deals afresh) —
// played by players on the two nodes that do not own them, with chat and
// an offer, their owners killed halfway (kill -9: the next owner reads what
// it needs from PostgreSQL) and played on to a resignation. Every message
// on the site's NATS subjects, from before the first game was made to the
// end, is read: none holds a face-down card's value, a deck's order, a
// generator's state, a seed, or a game's seed written out (as stored in
// PostgreSQL).
func TestClusterNothingHiddenOnTheBus(t *testing.T) {
	s := newSite(t, 3)
	nc, err := nats.Connect(s.nats)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	// The site's subjects, and the replies to its requests (a forwarded
	// command's answer goes to the asking node's inbox).
	var mu sync.Mutex
	var msgs []*nats.Msg
	inboxes := map[string]bool{}
	var replies []*nats.Msg
	if _, err := nc.Subscribe(s.prefix+".>", func(m *nats.Msg) {
		mu.Lock()
		msgs = append(msgs, &nats.Msg{Subject: m.Subject, Data: bytes.Clone(m.Data)})
		if m.Reply != "" {
			inboxes[m.Reply] = true
		}
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if _, err := nc.Subscribe("_INBOX.>", func(m *nats.Msg) {
		mu.Lock()
		replies = append(replies, &nats.Msg{Subject: m.Subject, Data: bytes.Clone(m.Data)})
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()

	// A position of a Skyjo game some moves in, with every card in it.
	var rules struct {
		Position json.RawMessage `json:"position"`
	}
	if _, err := s.anonymous().call("POST", "/api/rules/skyjo", map[string]any{"options": map[string]string{"players": "2"}, "seed": 424242,
		"moves": []string{}}, &rules); err != nil {
		t.Fatalf("a position: %v", err)
	}
	if !bytes.Contains(rules.Position, []byte(`"deck"`)) {
		t.Fatalf("the position holds no hidden card to look for: %s", rules.Position)
	}

	alice, bob := s.guest(), s.guest()
	seats := []map[string]string{{"kind": "me"}, {"kind": "invite", "user": bob.name}}
	dealt := s.create(alice, 0, map[string]any{"game": "skyjo", "options": map[string]string{"players": "2"}, "seats": seats})
	fromPos := s.create(alice, 1, map[string]any{"game": "skyjo", "position": rules.Position, "seats": seats})
	owners := map[string]int{dealt: 0, fromPos: 1}
	for id, o := range owners {
		if _, err := bob.callAt(s.nodeURL((o+2)%3), "POST", "/api/games/"+id+"/join", struct{}{}, nil); err != nil {
			t.Fatalf("bob joins %s: %v", id, err)
		}
	}
	// Each player on a node that does not own the game.
	tables := map[string][]*session{}
	defer func() {
		for _, tb := range tables {
			for _, ss := range tb {
				ss.close()
			}
		}
	}()
	for id, o := range owners {
		for j, c := range []*client{alice, bob} {
			ss, err := c.open(ctx, id, fmt.Sprint("node", (o+1+j)%3+1))
			if err != nil {
				t.Fatal(err)
			}
			tables[id] = append(tables[id], ss)
		}
	}
	for id, tb := range tables {
		if err := playPlies(ctx, tb, 8); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if a, err := tb[0].do(ctx, map[string]any{"type": "chat", "text": "no peeking"}); err != nil || a.Type != "ack" {
			t.Fatalf("chat: %+v %v", a, err)
		}
		if a, err := tb[1].do(ctx, map[string]any{"type": "offer", "offer": "draw"}); err != nil || a.Type != "ack" {
			t.Fatalf("offer: %+v %v", a, err)
		}
	}
	// The owners die one after the other; each game goes on at another.
	for _, id := range []string{dealt, fromPos} {
		o := owners[id]
		s.nodes[o].kill()
		t.Logf("kill -9 node%d, owner of %s", o+1, id)
		for gid, tb := range tables {
			for j, ss := range tb {
				if ss.node() == fmt.Sprint("node", o+1) {
					ss.close()
					if tb[j], err = []*client{alice, bob}[j].open(ctx, gid, ""); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		if err := playPlies(ctx, tables[id], 8); err != nil {
			t.Fatalf("%s after its owner died: %v", id, err)
		}
		if a, err := tables[id][0].do(ctx, map[string]any{"type": "resign"}); err != nil || a.Type != "ack" {
			t.Fatalf("resign: %+v %v", a, err)
		}
		s.startNode(o)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	// What must not be on the bus: the shapes of hidden things, and these
	// games' seeds, as PostgreSQL holds them.
	var seeds []string
	for _, id := range []string{dealt, fromPos} {
		var seed int64
		var status, pos string
		if err := s.admin.QueryRow("SELECT seed, status, start_position FROM "+s.schema+".games WHERE id = $1", id).Scan(&seed, &status, &pos); err != nil {
			t.Fatal(err)
		}
		if status != "finished" {
			t.Fatalf("game %s is %s", id, status)
		}
		seeds = append(seeds, strconv.FormatInt(seed, 10), strconv.FormatUint(uint64(seed), 10))
		if id == fromPos && !strings.Contains(pos, `"deck"`) {
			t.Fatalf("the stored start position holds no deck: %.200s", pos)
		}
	}
	res := []*regexp.Regexp{
		regexp.MustCompile(`"\?-?[0-9]`),
		regexp.MustCompile(`"deck":\s*\[`),
		regexp.MustCompile(`"rng":`),
		regexp.MustCompile(`"seed":`),
	}
	for _, sd := range seeds {
		if len(sd) >= 6 { // a short number is in any message by chance
			res = append(res, regexp.MustCompile(`\b`+sd+`\b`))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	ofGames := map[string]int{}
	subjects := map[string]int{}
	for _, m := range replies {
		if inboxes[m.Subject] {
			m.Subject = s.prefix + ".reply." + m.Subject
			msgs = append(msgs, m)
		}
	}
	for _, m := range msgs {
		for _, id := range []string{dealt, fromPos} {
			if bytes.Contains(m.Data, []byte(id)) || strings.Contains(m.Subject, id) {
				ofGames[id]++
			}
		}
		subjects[strings.SplitN(strings.TrimPrefix(m.Subject, s.prefix+"."), ".", 2)[0]]++
		if found := leaks(m.Data, res); len(found) > 0 {
			t.Errorf("on %s: %v in %.300s", m.Subject, found, m.Data)
		}
	}
	if ofGames[dealt] < 16 || ofGames[fromPos] < 16 {
		t.Fatalf("the sniffer heard too little of the games: %v", ofGames)
	}
	t.Logf("%d messages on the bus read (by kind of subject: %v; of the two games: %v), none holding anything hidden", len(msgs), subjects, ofGames)
	s.cleanLogs()
}

// leaks is what of secrets msg holds, in its text or in any of its strings
// decoded from base64 (how encoding/json writes a []byte, such as a start
// position would be).
func leaks(msg []byte, secrets []*regexp.Regexp) []string {
	texts := [][]byte{msg}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			if b, err := base64.StdEncoding.DecodeString(v); err == nil && len(b) > 0 {
				texts = append(texts, b)
			}
		}
	}
	var v any
	if json.Unmarshal(msg, &v) == nil {
		walk(v)
	}
	var out []string
	for _, t := range texts {
		for _, re := range secrets {
			if re.Match(t) {
				out = append(out, re.String())
			}
		}
	}
	return out
}

// create creates a game from a request body on node i (its owner),
// bypassing the proxy.
func (s *site) create(c *client, i int, body map[string]any) string {
	s.t.Helper()
	var resp struct{ Game struct{ ID string } }
	if _, err := c.callAt(s.nodeURL(i), "POST", "/api/games", body, &resp); err != nil {
		s.t.Fatalf("create a game on node%d: %v", i+1, err)
	}
	return resp.Game.ID
}

// nodeURL is node i's own address.
func (s *site) nodeURL(i int) string { return fmt.Sprint("http://127.0.0.1:", s.ports[i]) }

// playPlies plays n moves of a game whose players' connections are tb (in
// seat order), each the first legal move of the seat to move, each
// acknowledged (a move refused as stale, the connection behind the game,
// is sent again once it has heard more).
func playPlies(ctx context.Context, tb []*session, n int) error {
	stale := 0
	for i := 0; i < n; i++ {
		var ply int
		var legal []string
		var who *session
		// The seat to move, as either connection last heard.
		for who == nil {
			for _, ss := range tb {
				if p, l, _, _ := ss.state(); len(l) > 0 {
					ply, legal, who = p, l, ss
				}
			}
			if who == nil {
				wctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
				_, _, err := tb[0].waitTurn(wctx)
				cancel()
				if ctx.Err() != nil {
					return fmt.Errorf("nobody's turn after %d moves: %v", i, err)
				}
			}
		}
		seen := len(who.all())
		a, err := who.do(ctx, map[string]any{"type": "move", "ply": ply, "move": legal[0]})
		if err != nil {
			return err
		}
		if (a.code() == "stale_ply" || a.code() == "not_your_turn") && stale < 20 {
			// The connection had not heard the game's last move yet (an
			// event lost with a killed owner comes as a snapshot after
			// the takeover): once it hears more, again.
			stale++
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			who.wait(wctx, seen, func(m roomMsg) bool { return m.Type == "move" || m.Type == "snapshot" || m.Type == "end" })
			cancel()
			i--
			continue
		}
		if a.Type != "ack" {
			return fmt.Errorf("move %q at ply %d: %s %+v", legal[0], ply, a.Type, a.Error)
		}
		// Both connections hear it before the next.
		for _, ss := range tb {
			if _, _, err := ss.wait(ctx, 0, func(m roomMsg) bool {
				return (m.Type == "move" && *m.Ply == ply) || (m.Type == "snapshot" && len(m.Moves) > ply)
			}); err != nil {
				return fmt.Errorf("move %d not heard: %w", ply, err)
			}
		}
	}
	return nil
}
