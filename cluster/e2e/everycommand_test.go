package e2e

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestClusterFailoverEveryCommand (issue 23's acceptance): twenty tables of
// two guests play Skyjo through the proxy on three nodes, each table one
// game after another — moves, chat lines, draw offers declined or
// accepted, resignations, rematches asked by both players, rematches
// declined by an abort and new games joined — while one node after another
// is stopped, alternately with kill -9 and SIGTERM, and started again as a
// new node. Every command's answer is recorded: applied (ack), refused (an
// error with its code, "unavailable: … nothing was changed" included), or
// unknown (the connection died first, or the server said it could not
// tell: "the game is moving to another server; try again"). Then
// PostgreSQL is read:
//
//   - lost: a command answered as applied that is not there (a move not
//     stored at its ply, a resignation, accepted draw, abort, join or
//     rematch whose game does not show it; a chat line no player heard);
//   - duplicated: anything applied that no command asked for (a stored move
//     no player sent for that ply; a chat line heard twice in one room);
//   - refused but applied: a command answered with a refusal whose effect
//     is there, with no other copy of it sent.
//
// All three must be zero. Its size: TABULA_FAILOVER_COMMANDS acknowledged
// commands (default 10,000; 1,500 with -short) and TABULA_FAILOVER_KILLS
// stops (default 10; 3 with -short). The full size, as measured in
// docs/measurements/failover-2026-12-01.md and, on later code, failover-2026-12-04.md:
//
//	TABULA_TEST_CLUSTER=on go test -count=1 -v -timeout 30m -run TestClusterFailoverEveryCommand ./cluster/e2e/
func TestClusterFailoverEveryCommand(t *testing.T) {
	target, kills := 10000, 10
	if testing.Short() {
		target, kills = 1500, 3
	}
	if v, err := strconv.Atoi(os.Getenv("TABULA_FAILOVER_COMMANDS")); err == nil {
		target = v
	}
	if v, err := strconv.Atoi(os.Getenv("TABULA_FAILOVER_KILLS")); err == nil {
		kills = v
	}
	s := newSite(t, 3)
	loadBefore := loadavg()
	began := time.Now()
	rec := &ledger{}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var tables []*table
	for i := 0; i < 20; i++ {
		tb := &table{s: s, rec: rec, a: s.guest(), b: s.guest(), rng: rand.New(rand.NewPCG(uint64(i), 23)), n: i}
		tb.game = tb.a.createGameOn(i%3, "skyjo", tb.opts(), []map[string]string{{"kind": "me"}, {"kind": "invite", "user": tb.b.name}}, nil)
		tables = append(tables, tb)
	}
	for _, tb := range tables {
		wg.Add(1)
		go func() { defer wg.Done(); tb.run(ctx) }()
	}
	defer func() { stop(); wg.Wait() }()

	// The stops, spread over the run: each when another share of the
	// commands has been acknowledged.
	type stopped struct {
		node string
		sig  syscall.Signal
		at   time.Time
		took time.Duration // until no game of ours named it as owner
	}
	var stops []stopped
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 5))
	for k := 0; k < kills; k++ {
		want := int64(target * (k + 1) / (kills + 1))
		if !until(context.Background(), 10*time.Minute, func() bool { return rec.acked.Load() >= want }) {
			t.Fatalf("%d commands acknowledged in 10 minutes, waiting for %d", rec.acked.Load(), want)
		}
		i := rng.IntN(3)
		name := fmt.Sprint("node", i+1)
		sig := []syscall.Signal{syscall.SIGKILL, syscall.SIGTERM}[k%2]
		st := stopped{node: name, sig: sig, at: time.Now()}
		if sig == syscall.SIGKILL {
			s.nodes[i].kill()
		} else {
			s.nodes[i].stop()
		}
		// Its games move to the others (at once after SIGTERM, once its
		// lease lapses after kill -9); then it comes back.
		if !until(context.Background(), 2*time.Minute, func() bool { return s.gamesOwnedBy(name) == 0 }) {
			t.Fatalf("%s's games were not taken over in 2 minutes", name)
		}
		st.took = time.Since(st.at)
		stops = append(stops, st)
		rec.mu.Lock()
		rec.stops = append(rec.stops, st.at)
		rec.mu.Unlock()
		t.Logf("%v %s at %d commands (%s); its games taken over in %v", sig, name, rec.acked.Load(), st.at.Format("15:04:05.000"), st.took.Round(time.Millisecond))
		s.startNode(i)
	}
	if !until(context.Background(), 10*time.Minute, func() bool { return rec.acked.Load() >= int64(target) }) {
		t.Fatalf("only %d commands acknowledged", rec.acked.Load())
	}
	stop()
	wg.Wait()
	duration := time.Since(began)
	loadAfter := loadavg()

	// The verdict, against the database.
	v := rec.verify(t, s)
	var byKind []string
	for _, k := range sortedKeys(v.acked) {
		byKind = append(byKind, fmt.Sprintf("%s %d", k, v.acked[k]))
	}
	var stopList []string
	for _, st := range stops {
		stopList = append(stopList, fmt.Sprintf("%v %s (taken over in %v)", st.sig, st.node, st.took.Round(10*time.Millisecond)))
	}
	games := 0
	for _, tb := range tables {
		games += tb.games
	}
	t.Logf("%d commands acknowledged (%s), %d refused (%v), %d unknown (%v); %d games over 20 tables; %d stops: %s",
		v.total, strings.Join(byKind, ", "), v.refusedN, v.refused, v.unknownN, v.unknown, games, len(stops), strings.Join(stopList, "; "))
	t.Logf("lost %d, duplicated %d, refused but applied %d (chat lines acknowledged as their owner was stopped and heard by nobody: %d); %v, load %s before, %s after",
		len(v.lost), len(v.dup), len(v.refusedApplied), v.roomLost, duration.Round(time.Second), loadBefore, loadAfter)
	for _, list := range [][]string{v.lost, v.dup, v.refusedApplied} {
		for i, e := range list {
			if i == 20 {
				t.Errorf("… %d more", len(list)-20)
				break
			}
			t.Error(e)
		}
	}
	s.consistent(rec.games())
	s.cleanLogs()
}

// gamesOwnedBy counts the open and live games whose owner is an instance
// of the node named name.
func (s *site) gamesOwnedBy(name string) int {
	var n int
	s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".games WHERE status IN ('open', 'live') AND owner LIKE $1", name+"-%").Scan(&n)
	return n
}

func loadavg() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func sortedKeys(m map[string]int) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// outcome is what a command's client was told.
type outcome int

const (
	applied outcome = iota
	refused
	unknown // no answer, or "unavailable": the client cannot tell
)

// sent is one command and its answer.
type sent struct {
	kind    string // move, chat, offer, decline, accept, resign, rematch, abort, join
	game    string
	user    string // the sender's name
	ply     int    // a move's ply
	text    string // a move's or a chat line's text
	outcome outcome
	code    string
	msg     string    // a refusal's words
	at      time.Time // when the answer came
}

// ledger is every command the tables sent, and every chat line heard.
type ledger struct {
	acked atomic.Int64
	mu    sync.Mutex
	cmds  []sent
	heard []heardLine
	stops []time.Time // when a node was stopped
}

// heardLine is a chat line as a connection heard it: the room it was in
// is told apart by the connection's snapshot before it (seg).
type heardLine struct {
	game, text string
	seg        string // connection and snapshot it came after
	n          int64
}

func (l *ledger) add(c sent) {
	c.at = time.Now()
	if c.outcome == applied {
		l.acked.Add(1)
	}
	l.mu.Lock()
	l.cmds = append(l.cmds, c)
	l.mu.Unlock()
}

// history is the commands sent to game id, one a line, for a failure's
// message (the caller holds l.mu).
func (l *ledger) history(id string) string {
	var b strings.Builder
	names := [...]string{applied: "applied", refused: "refused", unknown: "unknown"}
	for _, c := range l.cmds {
		if c.game == id {
			fmt.Fprintf(&b, "\t%s %s %s ply %d %q: %s %s %s\n", c.at.Format("15:04:05.000"), c.user, c.kind, c.ply, c.text, names[c.outcome], c.code, c.msg)
		}
	}
	return b.String()
}

func (l *ledger) games() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	seen := map[string]bool{}
	var out []string
	for _, c := range l.cmds {
		if !seen[c.game] {
			seen[c.game] = true
			out = append(out, c.game)
		}
	}
	return out
}

// table is two players' succession of games.
type table struct {
	s     *site
	rec   *ledger
	a, b  *client
	rng   *rand.Rand
	n     int
	game  string
	games int
	// the players' connections to the current game, and when each last
	// said a line (a player may say one every 2 s after five at once)
	conns    map[*client]*session
	lastChat map[*client]time.Time
	chats    int
	offered  map[string]bool // "user ply": one draw offer per seat per move
	keys     int             // the HTTP commands' idempotency keys so far
}

func (tb *table) opts() map[string]string {
	return map[string]string{"players": "2", "target": "10000"}
}

// conn is c's connection to the current game, opened again if it died.
func (tb *table) conn(ctx context.Context, c *client) (*session, error) {
	if ss := tb.conns[c]; ss != nil {
		ss.mu.Lock()
		dead := ss.err != nil
		ss.mu.Unlock()
		if !dead {
			return ss, nil
		}
		tb.harvest(ss)
		delete(tb.conns, c)
	}
	ss, err := c.open(ctx, tb.game, "")
	if err != nil {
		return nil, err
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, _, err := ss.wait(wctx, 0, func(m roomMsg) bool { return m.Type == "snapshot" }); err != nil {
		ss.close()
		return nil, err
	}
	tb.conns[c] = ss
	return ss, nil
}

// harvest records the chat lines a connection heard, by room.
func (tb *table) harvest(ss *session) {
	seg := ""
	var lines []heardLine
	for i, m := range ss.all() {
		switch m.Type {
		case "snapshot":
			seg = fmt.Sprintf("%p/%d", ss, i)
			if m.Room != nil {
				for _, l := range m.Room.Chat {
					lines = append(lines, heardLine{game: m.Game.ID, text: l.Text, seg: seg, n: l.N})
				}
			}
		case "chat":
			if m.Line != nil {
				lines = append(lines, heardLine{game: tb.game, text: m.Line.Text, seg: seg, n: m.Line.N})
			}
		}
	}
	tb.rec.mu.Lock()
	tb.rec.heard = append(tb.rec.heard, lines...)
	tb.rec.mu.Unlock()
}

// closeAll closes the connections to the current game.
func (tb *table) closeAll() {
	for c, ss := range tb.conns {
		ss.close()
		ss.wait(context.Background(), 0, func(roomMsg) bool { return false }) // until its reader stops
		tb.harvest(ss)
		delete(tb.conns, c)
	}
}

// command sends cmd on c's connection and records its answer.
func (tb *table) command(ctx context.Context, c *client, cmd map[string]any, rec sent) roomMsg {
	rec.game, rec.user = tb.game, c.name
	ss, err := tb.conn(ctx, c)
	if err != nil {
		rec.outcome = unknown
		tb.rec.add(rec)
		return roomMsg{}
	}
	id, err := ss.send(ctx, cmd)
	var m roomMsg
	if err == nil {
		actx, cancel := context.WithTimeout(ctx, 30*time.Second)
		m, err = ss.answer(actx, id, 1)
		cancel()
	}
	switch {
	case err != nil:
		rec.outcome = unknown
		ss.close() // a connection that does not answer is dropped
	case m.Type == "ack":
		rec.outcome = applied
	case (m.code() == "unavailable" || m.code() == "internal") && !strings.Contains(m.Error.Message, "nothing was changed"):
		// "Try again in a moment": the server cannot tell either.
		rec.outcome, rec.code = unknown, m.code()
	default:
		rec.outcome, rec.code = refused, m.code()
		if m.Error != nil {
			rec.msg = m.Error.Message
		}
	}
	// (A command cut short by the test's end is recorded too, as
	// unknown: it may have been applied.)
	tb.rec.add(rec)
	return m
}

// httpCommand is a command over HTTP through the proxy, recorded.
func (tb *table) httpCommand(c *client, path string, rec sent) int {
	rec.game, rec.user = tb.game, c.name
	// With its key: the proxy has the client send a command again when
	// the node it went to dies before answering
	// (TestProxyResendsARequestItsNodeDropped).
	tb.keys++
	key := fmt.Sprintf("t%d-%d", tb.n, tb.keys)
	status, err := c.callWith(c.s.https, "POST", path, struct{}{}, nil, map[string]string{"Idempotency-Key": key})
	switch {
	case err == nil:
		rec.outcome = applied
	case status == 0 || status >= 500 && !strings.Contains(err.Error(), "nothing was changed"):
		rec.outcome, rec.code = unknown, fmt.Sprint(status)
	default:
		rec.outcome, rec.code, rec.msg = refused, codeOf(err), err.Error()
	}
	tb.rec.add(rec)
	return status
}

// run plays games until ctx ends.
func (tb *table) run(ctx context.Context) {
	tb.conns, tb.lastChat, tb.offered = map[*client]*session{}, map[*client]time.Time{}, map[string]bool{}
	defer tb.closeAll()
	players := []*client{tb.a, tb.b}
	resignAt := 20 + tb.rng.IntN(80)
	// The game starts with bob's join.
	tb.httpCommand(tb.b, "/api/games/"+tb.game+"/join", sent{kind: "join"})
	for ctx.Err() == nil {
		// Where the game stands, as the first player's connection has it.
		ss, err := tb.conn(ctx, tb.a)
		if err != nil {
			continue
		}
		ply, _, _, status := ss.state()
		switch status {
		case "open":
			// Waiting for a player (a join's answer was lost, or a
			// rematch waits for its second ask): the one not seated
			// joins.
			wctx, cancel := context.WithTimeout(ctx, 2*time.Second)
			_, _, err := ss.wait(wctx, 0, func(m roomMsg) bool { return m.Game.Status != "" && m.Game.Status != "open" })
			cancel()
			if err != nil && ctx.Err() == nil {
				joiner := tb.b
				if _, _, seat, _ := ss.state(); seat < 0 {
					joiner = tb.a
				}
				tb.httpCommand(joiner, "/api/games/"+tb.game+"/join", sent{kind: "join"})
			}
			continue
		case "finished", "aborted":
			tb.next(ctx, status)
			resignAt = 20 + tb.rng.IntN(80)
			continue
		}
		r := tb.rng.Float64()
		who := players[tb.rng.IntN(2)]
		other := players[0]
		if other == who {
			other = players[1]
		}
		switch {
		case r < 0.08 && time.Since(tb.lastChat[who]) > 2200*time.Millisecond:
			tb.lastChat[who] = time.Now()
			tb.chats++
			text := fmt.Sprintf("t%d line %d", tb.n, tb.chats)
			tb.command(ctx, who, map[string]any{"type": "chat", "text": text}, sent{kind: "chat", text: text})
		case r < 0.11 && !tb.offered[fmt.Sprint(who.name, ply)]:
			tb.offered[fmt.Sprint(who.name, ply)] = true
			if m := tb.command(ctx, who, map[string]any{"type": "offer", "offer": "draw"}, sent{kind: "offer", ply: ply}); m.Type != "ack" {
				continue
			}
			// The other player hears it, and declines (or, now and then,
			// accepts: the game ends drawn).
			os, err := tb.conn(ctx, other)
			if err != nil {
				continue
			}
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			_, _, err = os.wait(wctx, 0, func(m roomMsg) bool { return m.Type == "offer" && m.Note != nil && m.Note.Action == "offered" })
			cancel()
			if err != nil {
				continue
			}
			if tb.rng.IntN(6) == 0 {
				tb.command(ctx, other, map[string]any{"type": "accept", "offer": "draw"}, sent{kind: "accept"})
			} else {
				tb.command(ctx, other, map[string]any{"type": "decline", "offer": "draw"}, sent{kind: "decline"})
			}
		case ply >= resignAt:
			tb.command(ctx, who, map[string]any{"type": "resign"}, sent{kind: "resign"})
		default:
			tb.move(ctx)
		}
	}
}

// move plays a random legal move for the seat to move, once its
// connection has heard the game's last move.
func (tb *table) move(ctx context.Context) {
	for _, c := range []*client{tb.a, tb.b} {
		ss, err := tb.conn(ctx, c)
		if err != nil {
			return
		}
		if ply, legal, _, _ := ss.state(); len(legal) > 0 {
			text := legal[tb.rng.IntN(len(legal))]
			m := tb.command(ctx, c, map[string]any{"type": "move", "ply": ply, "move": text}, sent{kind: "move", ply: ply, text: text})
			if m.Type == "error" {
				// Stale (a move of the other's not heard yet): start
				// again from a fresh snapshot.
				ss.close()
			}
			return
		}
	}
	// Nobody's turn as the connections stand: wait for news.
	ss := tb.conns[tb.a]
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if _, _, err := ss.wait(wctx, len(ss.all()), func(roomMsg) bool { return true }); errors.Is(err, context.DeadlineExceeded) {
		for _, ss := range tb.conns {
			ss.close()
		}
	}
}

// next goes on to the next game after the current one ended: mostly the
// rematch, asked by both; otherwise the rematch declined by an abort and a
// new game joined.
func (tb *table) next(ctx context.Context, status string) {
	tb.games++
	old := tb.game
	if status == "finished" {
		first, second := tb.a, tb.b
		if tb.rng.IntN(2) == 0 {
			first, second = second, first
		}
		m := tb.command(ctx, first, map[string]any{"type": "rematch"}, sent{kind: "rematch"})
		ss := tb.conns[first]
		if m.Type == "ack" && ss != nil {
			wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			ev, _, err := ss.wait(wctx, 0, func(m roomMsg) bool { return m.Type == "rematch" && m.Game.ID != "" })
			cancel()
			if err == nil {
				rid := ev.Game.ID
				if tb.rng.IntN(5) == 0 {
					// Declined: the invited player aborts it.
					tb.game = rid
					tb.httpCommand(second, "/api/games/"+rid+"/abort", sent{kind: "abort"})
				} else {
					tb.command(ctx, second, map[string]any{"type": "rematch"}, sent{kind: "rematch"})
					tb.game = rid
					tb.closeAll()
					return
				}
			}
		}
	}
	// A new game, which bob joins.
	tb.closeAll()
	var resp struct{ Game struct{ ID string } }
	if _, err := tb.a.call("POST", "/api/games", map[string]any{"game": "skyjo", "options": tb.opts(),
		"seats": []map[string]string{{"kind": "me"}, {"kind": "invite", "user": tb.b.name}}}, &resp); err != nil {
		tb.game = old // try again from the ended game
		return
	}
	tb.game = resp.Game.ID
	tb.httpCommand(tb.b, "/api/games/"+tb.game+"/join", sent{kind: "join"})
}

// verdict is what the database says of the ledger.
type verdict struct {
	total                     int
	acked                     map[string]int
	refused, unknown          map[string]int
	refusedN, unknownN        int
	lost, dup, refusedApplied []string
	roomLost                  int // chat lines unheard, their room gone with its stopped owner
}

func (l *ledger) verify(t *testing.T, s *site) verdict {
	l.mu.Lock()
	defer l.mu.Unlock()
	v := verdict{acked: map[string]int{}, refused: map[string]int{}, unknown: map[string]int{}}
	type key struct{ game, user, kind string }
	byKey := map[key][]sent{}
	for _, c := range l.cmds {
		byKey[key{c.game, c.user, c.kind}] = append(byKey[key{c.game, c.user, c.kind}], c)
		switch c.outcome {
		case applied:
			v.total++
			v.acked[c.kind]++
		case refused:
			v.refusedN++
			v.refused[c.kind+" "+c.code]++
		default:
			v.unknownN++
			v.unknown[strings.TrimSpace(c.kind+" "+c.code)]++
		}
	}
	// What PostgreSQL holds of every game.
	type gameRow struct {
		status string
		r      storedResult
		seats  map[string]int
		moves  []storedMove
	}
	rows := map[string]*gameRow{}
	ids := map[string]bool{}
	for _, c := range l.cmds {
		ids[c.game] = true
		if c.kind == "rematch" {
			ids[match.RematchID(c.game)] = true
		}
	}
	for id := range ids {
		g := &gameRow{seats: map[string]int{}}
		var n int
		if s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".games WHERE id = $1", id).Scan(&n); n == 0 {
			rows[id] = g // a rematch never made
			continue
		}
		g.r = s.result(id)
		g.status = g.r.status
		g.moves = s.storedMoves(id)
		rs, err := s.admin.Query("SELECT u.name, st.seat, st.kind FROM "+s.schema+".seats st JOIN "+s.schema+".users u ON u.id = st.user_id WHERE st.game_id = $1", id)
		if err != nil {
			t.Fatal(err)
		}
		for rs.Next() {
			var name, kind string
			var seat int
			rs.Scan(&name, &seat, &kind)
			if kind == "human" {
				g.seats[name] = seat
			}
		}
		rs.Close()
		rows[id] = g
	}
	byGame := map[string][]sent{}
	for _, c := range l.cmds {
		byGame[c.game] = append(byGame[c.game], c)
	}
	// others: whether another copy of c (same game, user, kind and, for a
	// move, ply and text) was applied or may have been, or, for an accept,
	// other commands that agreed the draw.
	others := func(c sent) bool {
		for _, o := range byKey[key{c.game, c.user, c.kind}] {
			if o.outcome != refused && o.ply == c.ply && o.text == c.text {
				return true
			}
		}
		if c.kind == "accept" {
			// A draw is agreed by an offer and its accept, or by two
			// offers crossing at one ply: a refused accept of a game
			// that ended agreed is no fault when the other player's
			// accept was (or may have been) applied, or both offered
			// at one ply.
			offered := map[int]map[string]bool{}
			for _, o := range byGame[c.game] {
				switch {
				case o.outcome == refused:
				case o.kind == "accept" && o.user != c.user:
					return true
				case o.kind == "offer":
					if offered[o.ply] == nil {
						offered[o.ply] = map[string]bool{}
					}
					offered[o.ply][o.user] = true
				}
			}
			for _, by := range offered {
				if len(by) == 2 {
					return true
				}
			}
		}
		return false
	}
	sentMove := map[string]bool{}
	for _, c := range l.cmds {
		if c.kind == "move" {
			sentMove[fmt.Sprint(c.game, c.user, c.ply, c.text)] = true
		}
	}
	for _, c := range l.cmds {
		g := rows[c.game]
		seat, seated := g.seats[c.user]
		var there bool // the command's effect is in the database
		switch c.kind {
		case "move":
			there = c.ply < len(g.moves) && seated && g.moves[c.ply].Seat == seat && g.moves[c.ply].Text == c.text
		case "resign":
			there = g.status == "finished" && g.r.Reason == "resign" && seated && !contains(g.r.Winners, seat)
		case "accept":
			there = g.status == "finished" && g.r.Reason == "agreed"
		case "abort":
			there = g.status == "aborted"
		case "join":
			there = seated
		case "rematch":
			// Seated in the rematch (the asker who offers it, the other
			// who accepts it).
			_, there = rows[match.RematchID(c.game)].seats[c.user]
		default:
			continue // the room's: below
		}
		switch {
		case c.outcome == applied && !there:
			v.lost = append(v.lost, fmt.Sprintf("lost: %s by %s in %s (ply %d %q): answered applied; stored %s %+v", c.kind, c.user, c.game, c.ply, c.text, g.status, g.r))
		case c.outcome == refused && there && !others(c):
			v.refusedApplied = append(v.refusedApplied, fmt.Sprintf("refused but applied: %s by %s in %s (ply %d %q) at %s: %s (%s); the game's commands:\n%s",
				c.kind, c.user, c.game, c.ply, c.text, c.at.Format("15:04:05.000"), c.code, c.msg, l.history(c.game)))
		}
	}
	// Every stored move was sent by its player for its ply.
	for id, g := range rows {
		names := map[int]string{}
		for n, seat := range g.seats {
			names[seat] = n
		}
		for _, m := range g.moves {
			if !sentMove[fmt.Sprint(id, names[m.Seat], m.Ply, m.Text)] {
				v.dup = append(v.dup, fmt.Sprintf("applied unasked: %q stored at ply %d of %s for seat %d", m.Text, m.Ply, id, m.Seat))
			}
		}
	}
	// Chat: no line twice in one room as one connection heard it; every
	// acknowledged line heard by some connection of its table (a room's
	// lines are lost with it when its owner dies: such a line, heard by
	// nobody, is counted apart).
	inRoom := map[string]map[string]int64{}
	heard := map[string]bool{}
	for _, h := range l.heard {
		heard[h.text] = true
		if inRoom[h.seg] == nil {
			inRoom[h.seg] = map[string]int64{}
		}
		if n, ok := inRoom[h.seg][h.text]; ok && n != h.n {
			v.dup = append(v.dup, fmt.Sprintf("chat line %q said twice in one room of %s (lines %d and %d)", h.text, h.game, n, h.n))
		}
		inRoom[h.seg][h.text] = h.n
	}
	for _, c := range l.cmds {
		if c.kind == "chat" && c.outcome == applied && !heard[c.text] {
			// Said in a room that died with its owner a moment later,
			// before any connection of the table heard it: gone with the
			// room, as docs/api.md says of the room. Counted apart.
			if slices.ContainsFunc(l.stops, func(at time.Time) bool { return c.at.After(at.Add(-2*time.Second)) && c.at.Before(at.Add(time.Second)) }) {
				v.roomLost++
				continue
			}
			v.lost = append(v.lost, fmt.Sprintf("lost: chat line %q in %s, answered applied, heard by nobody", c.text, c.game))
		}
		if c.kind == "chat" && c.outcome == refused && heard[c.text] {
			v.refusedApplied = append(v.refusedApplied, fmt.Sprintf("refused but applied: chat line %q in %s: %s", c.text, c.game, c.code))
		}
	}
	return v
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}
