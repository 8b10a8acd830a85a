package cluster

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/match/matchtest"
	"github.com/tabula-games/tabula/store"
)

// TestForwarding: a node that does not own a game forwards its commands
// to the owner and answers as if local — acknowledgements and refusals
// alike — and hears the game's events, in order and numbered, from the
// bus; the owner loads no game it does not own.
func TestForwarding(t *testing.T) {
	e := newEnv(t)
	// No failover is tested here: a lease of 5 s, not the harness's 1 s,
	// which a's renewals (every quarter of it) missed once in CI under
	// -race beside the browser tests, and b took g1 over.
	e.lease = 5 * time.Second
	a, b := e.start(), e.start()
	watch(b, "g1")
	a.create("g1", twoHumans(20))
	if e.owner("g1") != a.n.ID() || b.reg.Get("g1") != nil {
		t.Fatalf("g1 owned by %q; on b: %v", e.owner("g1"), b.reg.Get("g1") != nil)
	}
	for ply := 0; ply < 6; ply++ {
		via := []*testNode{a, b}[ply%2]
		ack, err := via.do("g1", move(ply, "1"))
		if err != nil || ack.Move == nil || ack.Move.Ply != ply || ack.Meta.Seed != 0 && via == b {
			t.Fatalf("ply %d through %s: %+v, %v", ply, via.n.ID(), ack.Move, err)
		}
	}
	// A refusal comes back as it was.
	if _, err := b.do("g1", move(2, "1")); codeOf(err) != match.CodeStalePly {
		t.Fatalf("a stale move forwarded: %v", err)
	}
	if _, err := b.do("g1", move(6, "9")); codeOf(err) != match.CodeIllegalMove && codeOf(err) != match.CodeBadMove {
		t.Fatalf("an illegal move forwarded: %v", err)
	}
	// No such game, and a game that is over, are not forwarded.
	if _, err := b.do("nope", move(0, "1")); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("a missing game: %v", err)
	}
	// b's connections heard every event of g1 in order: created, the
	// seat, the start, six moves.
	evs, err := b.events.Wait(func(e match.Event) bool { return e.Kind == match.EventMove && e.Move.Ply == 5 })
	if err != nil {
		t.Fatal(err)
	}
	var seqs []int64
	for _, ev := range evs {
		if ev.Game == "g1" {
			seqs = append(seqs, ev.Seq)
			if ev.Meta.Seed != 0 {
				t.Fatal("the game's seed went on the bus")
			}
		}
	}
	if want := []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(seqs, want) {
		t.Fatalf("b heard g1's events %v, want %v", seqs, want)
	}
	// The owner does not hear its own events twice.
	n := 0
	for _, ev := range a.events.All() {
		if ev.Game == "g1" && ev.Kind == match.EventMove && ev.Move.Ply == 0 {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("the owner's connections got its first move %d times", n)
	}
}

// TestRace: two nodes each receive a move for the same game at the same ply
// — the owner directly, the other forwarding it — thousands of times, and
// now and then the owner's lease is made to lapse so that the other node
// takes the game over while moves race: each time exactly one move is
// applied and the other is refused with a clear error (the ply is stale,
// or it is not that seat's turn any more), and the stored game has exactly
// one move per ply.
func TestRace(t *testing.T) {
	rounds := 2000
	if testing.Short() {
		rounds = 300
	}
	e := newEnv(t)
	nodes := []*testNode{e.start(), e.start()}
	const stones = 2000
	games, id, ply, left := 0, "", 0, 0
	applied := map[string]int{}
	lapses, takeovers, deposed := 0, 0, ""
	for round := 0; round < rounds; round++ {
		if left < 3 {
			games++
			id, ply, left = fmt.Sprint("race", games), 0, stones
			nodes[games%2].create(id, twoHumans(stones))
		}
		if round%(rounds/5) == rounds/10 && deposed == "" {
			// The owner's lease lapses (as if it paused), and stays
			// lapsed until the other node claims the game, while the
			// moves of the next plies race.
			deposed = e.owner(id)
			lapses++
		}
		if deposed != "" {
			if owner := e.owner(id); owner != deposed {
				deposed = ""
				takeovers++
			} else if _, err := e.admin.Exec("UPDATE "+e.schema+".cluster_nodes SET expires = 0 WHERE id = $1", owner); err != nil {
				t.Fatal(err)
			}
		}
		var wg sync.WaitGroup
		acks := make([]match.Ack, 2)
		errs := make([]error, 2)
		for i, n := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				acks[i], errs[i] = n.do(id, move(ply, fmt.Sprint(i+1)))
			}()
		}
		wg.Wait()
		won := -1
		for i, err := range errs {
			switch code := codeOf(err); code {
			case "":
				if won >= 0 {
					t.Fatalf("%s ply %d: both moves applied", id, ply)
				}
				won = i
			case match.CodeStalePly, match.CodeNotYourTurn:
			default:
				t.Fatalf("%s ply %d, node %d: %v", id, ply, i+1, err)
			}
		}
		if won < 0 {
			t.Fatalf("%s ply %d: no move applied (%v)", id, ply, errs)
		}
		if acks[won].Move.Ply != ply {
			t.Fatalf("%s ply %d: acknowledged at ply %d", id, ply, acks[won].Move.Ply)
		}
		applied[id]++
		ply++
		left -= won + 1
	}
	for g, n := range applied {
		if moves := e.moves(g); len(moves) != n {
			t.Fatalf("%s: %d moves stored, %d acknowledged", g, len(moves), n)
		}
	}
	var claims int
	e.admin.QueryRow("SELECT SUM(owner_epoch - 1) FROM " + e.schema + ".games").Scan(&claims)
	if takeovers < lapses-1 || claims < takeovers {
		t.Fatalf("%d lapsed leases, %d takeovers seen, %d claims", lapses, takeovers, claims)
	}
	fenced := e.logged("another node owns the game now")
	t.Logf("%d plies raced on two nodes in %d games; %d takeovers while moves raced (%d claims in all: a loaded machine also lets leases lapse), %d writes fenced off a deposed owner",
		rounds, games, takeovers, claims, fenced)
}

// TestStaleOwner: a node that lost a game while it wrote nothing still
// holds its owner, whose picture of the game stopped there. That owner
// refuses nothing on the strength of it — a move at the game's real next
// ply goes to the game's owner and is applied — and when the node wins the
// game back, it serves it from the database, not from that owner (the
// cause of TestRace's failures: both nodes answered a move at the real
// next ply with stale_ply or not_your_turn from a state that stopped at a
// lapse). The nodes here renew, scan and reconcile only when the test says.
func TestStaleOwner(t *testing.T) {
	e := newEnv(t)
	e.lease, e.scan = time.Hour, time.Hour
	a, b := e.start(), e.start()
	for _, id := range []string{"g1", "g2"} {
		a.create(id, twoHumans(20))
		if _, err := a.do(id, move(0, "1")); err != nil {
			t.Fatal(err)
		}
	}
	// a's lease lapses; b takes both games over and plays ply 1 in each.
	e.lapse(a)
	b.n.scan()
	for _, id := range []string{"g1", "g2"} {
		if e.owner(id) != b.n.ID() {
			t.Fatalf("%s owned by %s after b's scan", id, e.owner(id))
		}
		if _, err := b.do(id, move(1, "1")); err != nil {
			t.Fatal(err)
		}
	}
	if a.reg.Get("g1") == nil || a.reg.Get("g2") == nil {
		t.Fatal("a released its owners (this test needs them stale)")
	}
	// a's stale owner of g1 stopped at ply 1, where it is bob's turn:
	// alice's move at ply 2 is the game's next.
	if ack, err := a.do("g1", move(2, "1")); err != nil || ack.Move.Ply != 2 {
		t.Fatalf("alice's move at the real next ply, sent to the node that lost the game: %+v, %v", ack.Move, err)
	}
	if a.reg.Get("g1") != nil {
		t.Fatal("the stale owner of g1 is still held")
	}
	// b's lease lapses in turn, and a wins g2 back.
	e.renew(a)
	e.lapse(b)
	a.n.scan()
	if e.owner("g2") != a.n.ID() {
		t.Fatalf("g2 owned by %s after a's scan", e.owner("g2"))
	}
	if ack, err := a.do("g2", move(2, "1")); err != nil || ack.Move.Ply != 2 {
		t.Fatalf("alice's move at ply 2 on the node that won g2 back: %+v, %v", ack.Move, err)
	}
	// And b, which held g2 until a's claim, forwards bob's next move.
	if ack, err := b.do("g2", move(3, "1")); err != nil || ack.Move.Ply != 3 {
		t.Fatalf("bob's move at ply 3, sent to the node that lost g2: %+v, %v", ack.Move, err)
	}
	for _, id := range []string{"g1", "g2"} {
		if got, want := len(e.moves(id)), map[string]int{"g1": 3, "g2": 4}[id]; got != want {
			t.Fatalf("%s: %d moves stored, want %d", id, got, want)
		}
	}
}

// slowJournal holds up the writes its test names, to make an owner answer
// later than a forwarding node waits for one attempt.
type slowJournal struct {
	match.Journal
	mu      sync.Mutex
	slow    map[string]time.Duration // by write: "append", "end"
	started chan string
}

func (j *slowJournal) set(op string, d time.Duration) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.slow[op] = d
}

func (j *slowJournal) wait(op string) {
	j.mu.Lock()
	d := j.slow[op]
	j.mu.Unlock()
	if d > 0 {
		select {
		case j.started <- op:
		default:
		}
		time.Sleep(d)
	}
}

func (j *slowJournal) AppendMove(ctx context.Context, id string, mv match.Move, turn match.Turn, end *match.End) error {
	j.wait("append")
	return j.Journal.AppendMove(ctx, id, mv, turn, end)
}

func (j *slowJournal) EndGame(ctx context.Context, id string, end match.End) error {
	j.wait("end")
	return j.Journal.EndGame(ctx, id, end)
}

func (j *slowJournal) Holds(ctx context.Context, id string) error {
	return j.Journal.(match.Holder).Holds(ctx, id)
}

// TestForwardedCopies: a forwarded command whose owner answers later than
// the forwarding node waits for one attempt is sent again, and the copy
// is applied no second time but answered as the first was: a chat line
// queued behind a slow move is said once; a resignation whose end is slow
// to commit answers what it did — the game ended by it — and not that the
// game is over.
func TestForwardedCopies(t *testing.T) {
	e := newQuietEnv(t)
	slow := &slowJournal{slow: map[string]time.Duration{}, started: make(chan string, 1)}
	a := e.start(func(c *match.Config) { slow.Journal = c.Journal; c.Journal = slow })
	b := e.start()
	watch(b, "g")
	a.create("g", twoHumans(20))
	late := attemptTimeout + 700*time.Millisecond

	slow.set("append", late)
	moved := make(chan error, 1)
	go func() { _, err := a.do("g", move(0, "1")); moved <- err }()
	<-slow.started
	slow.set("append", 0)
	if _, err := b.do("g", match.Command{Kind: match.CmdChat, User: bob, Text: "gl hf"}); err != nil {
		t.Fatalf("a chat line forwarded behind a slow move: %v", err)
	}
	if err := <-moved; err != nil {
		t.Fatal(err)
	}
	// Both attempts have been answered: the owner's own listeners heard
	// every line it said.
	said := 0
	for _, ev := range a.events.All() {
		if ev.Kind == match.EventChat && ev.Chat.Text == "gl hf" {
			said++
		}
	}
	if said != 1 {
		t.Fatalf("the owner said the line %d times, want once", said)
	}

	slow.set("end", late)
	ack, err := b.do("g", match.Command{Kind: match.CmdResign, User: bob, Ply: -1})
	if err != nil || ack.Meta.Status != match.Finished || ack.Meta.Result == nil || ack.Meta.Result.Reason != match.ReasonResign ||
		!slices.Equal(ack.Meta.Result.Winners, []int{0}) {
		t.Fatalf("a resignation forwarded, its end slow to commit: %+v, %v", ack.Meta.Result, err)
	}
	slow.set("end", 0)

	// A client's copy of its resignation (the same key), sent after the
	// game ended on a through a node that never forwarded anything of it,
	// is answered as the resignation was; a new resignation is told the
	// game is over.
	a.create("g2", twoHumans(20))
	resign := match.Command{Kind: match.CmdResign, User: alice, Ply: -1, Key: "conn1/c9"}
	first, err := b.do("g2", resign)
	if err != nil {
		t.Fatal(err)
	}
	c := e.start()
	if again, err := c.do("g2", resign); err != nil || again.Seq() != first.Seq() || again.Meta.Status != match.Finished {
		t.Fatalf("a client's copy of its resignation: seq %d (first %d), %v", again.Seq(), first.Seq(), err)
	}
	resign.Key = "conn1/c10"
	if _, err := c.do("g2", resign); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("a new resignation after the end: %v", err)
	}

	for _, tn := range []*testNode{a, b} {
		evs, err := tn.events.Wait(func(ev match.Event) bool { return ev.Game == "g" && ev.Kind == match.EventEnd })
		if err != nil {
			t.Fatal(err)
		}
		said := 0
		for _, ev := range evs {
			if ev.Kind == match.EventChat && ev.Chat.Text == "gl hf" {
				said++
			}
		}
		if said != 1 {
			t.Fatalf("%s heard the line %d times, want once", tn.n.ID(), said)
		}
	}
}

// TestFailover: a node that dies stops renewing; once its lease has
// expired, a survivor takes its games over — a realtime game resumes with
// the seat to move charged for the time it used while its old owner was
// alive and not for the outage, a bot seat to move plays — and commands
// sent to the survivor meanwhile wait for the new owner instead of
// failing.
func TestFailover(t *testing.T) {
	e := newEnv(t)
	// Three seconds, not the harness's one: the test needs the owner alive
	// and renewing until the crash, and under -race beside the browser
	// tests (a clean-clone .ci/run, load 25) a renewal came more than a
	// second late and the survivor took the games before the crash.
	e.lease = 3 * time.Second
	bots := func(c *match.Config) { c.NewAgent = matchtest.FirstLegal }
	a, b := e.start(bots), e.start(bots)
	clocked := twoHumans(30)
	clocked.Clock = match.Clock{Kind: match.ClockRealtime, InitialMs: 60000}
	a.create("clocked", clocked)
	a.create("bot", match.Meta{Options: map[string]string{"stones": "30"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
	if _, err := b.do("clocked", move(0, "1")); err != nil {
		t.Fatal(err)
	}
	// Bob's turn began when alice's move was committed, on the owner's
	// clock: his deadline then, less his 60 s.
	var deadlineMs int64
	if err := e.admin.QueryRow("SELECT deadline FROM " + e.schema + ".games WHERE id = 'clocked'").Scan(&deadlineMs); err != nil {
		t.Fatal(err)
	}
	turnStart := time.UnixMilli(deadlineMs).Add(-60 * time.Second)
	if _, err := b.do("bot", move(0, "1")); err != nil {
		t.Fatal(err)
	}
	e.waitFor(5*time.Second, "the bot's first move", func() bool { return len(e.moves("bot")) == 2 })
	// Bob thinks a while — until his owner has renewed its lease twice in
	// his turn, so that time he used is on record — then his game's owner
	// dies.
	e.waitFor(5*time.Second, "two renewals of the owner's lease in Bob's turn", func() bool {
		var renewedMs int64
		err := e.admin.QueryRow("SELECT renewed FROM "+e.schema+".cluster_nodes WHERE id = $1", a.n.ID()).Scan(&renewedMs)
		return err == nil && time.UnixMilli(renewedMs).Sub(turnStart) >= 2*e.lease/4
	})
	if e.owner("clocked") != a.n.ID() || e.owner("bot") != a.n.ID() {
		t.Fatalf("before the crash, the games are owned by %s and %s, not %s (its lease lapsed)", e.owner("clocked"), e.owner("bot"), a.n.ID())
	}
	crashed := time.Now()
	a.crash()

	// A move sent to the survivor meanwhile waits for the takeover.
	if _, err := b.do("bot", move(2, "1")); err != nil {
		t.Fatalf("a move during the takeover: %v", err)
	}
	t.Logf("kill to the next accepted move: %v", time.Since(crashed).Round(time.Millisecond))
	if e.owner("bot") != b.n.ID() || e.owner("clocked") != b.n.ID() {
		t.Fatalf("owners after the crash: %s, %s", e.owner("bot"), e.owner("clocked"))
	}
	// The bot seat plays on under its new owner.
	e.waitFor(5*time.Second, "the bot's move after the takeover", func() bool { return len(e.moves("bot")) == 4 })

	// Bob's clock when his game resumed: 60 s less the time he used while
	// its owner was alive — up to the owner's last renewal, as recorded in
	// its lease — and nothing for the outage after: his clock ran again
	// only from the claim, which came after the lease had expired and
	// before the game resumed. (Not from this test's own clock: on a
	// loaded machine the last renewal may come well before the crash, and
	// the acknowledgement of alice's move well after its commit.)
	evs, err := b.events.Wait(func(ev match.Event) bool {
		return ev.Game == "clocked" && ev.Kind == match.EventResumed && ev.Meta.Ply == 1
	})
	if err != nil {
		t.Fatal(err)
	}
	var resumed match.Event
	for _, ev := range evs {
		if ev.Game == "clocked" && ev.Kind == match.EventResumed && ev.Meta.Ply == 1 {
			resumed = ev
		}
	}
	if len(resumed.Clocks) != 2 || resumed.Prompt == nil || resumed.Prompt.UserID != bob.ID {
		t.Fatalf("resumed: clocks %+v, prompt %+v", resumed.Clocks, resumed.Prompt)
	}
	var renewedMs, expiresMs int64
	if err := e.admin.QueryRow("SELECT renewed, expires FROM "+e.schema+".cluster_nodes WHERE id = $1", a.n.ID()).Scan(&renewedMs, &expiresMs); err != nil {
		t.Fatal(err)
	}
	lastRenewal, expired := time.UnixMilli(renewedMs), time.UnixMilli(expiresMs)
	remaining := time.Duration(resumed.Clocks[1].RemainingMs) * time.Millisecond
	resumedAt := resumed.Meta.Deadline.Add(-remaining)
	charged := 60*time.Second - remaining
	used := lastRenewal.Sub(turnStart)
	const ms = 3 * time.Millisecond // times in whole milliseconds
	if lo, hi := used-ms, used+resumedAt.Sub(expired)+ms; charged < lo || charged > hi {
		t.Fatalf("bob used %v up to his owner's last renewal and was charged %v (want %v…%v: the claim came after the lease expired at %v and before the game resumed at %v)",
			used, charged, lo, hi, expired.Format(time.StampMilli), resumedAt.Format(time.StampMilli))
	}
	t.Logf("bob thought %v before the crash (his owner last renewed %v before it), was charged %v; the takeover came %v after the crash",
		crashed.Sub(turnStart).Round(time.Millisecond), crashed.Sub(lastRenewal).Round(time.Millisecond),
		charged.Round(time.Millisecond), resumedAt.Sub(crashed).Round(time.Millisecond))
	var aliceMs int64
	e.admin.QueryRow("SELECT clock_ms FROM " + e.schema + ".moves WHERE game_id = 'clocked' AND ply = 0").Scan(&aliceMs)
	if resumed.Clocks[0].RemainingMs != aliceMs {
		t.Fatalf("alice's clock %d ms, want what her move left her, %d", resumed.Clocks[0].RemainingMs, aliceMs)
	}
}

// TestBotBudget: a node whose bot budget is full takes over no game with a
// bot seat (it stays an orphan until a node with room claims it), and
// still takes over games between people.
func TestBotBudget(t *testing.T) {
	// Long leases, the crashed node's lapsed by hand: with the 1 s default
	// the test failed once in CI's loaded race step, most likely because a
	// live node's renewals starved and its lease, gone for a moment, looked
	// like no node with room (not reproduced here).
	e := newQuietEnv(t)
	bots := func(c *match.Config) { c.NewAgent = matchtest.FirstLegal }
	a := e.start(bots)
	a.create("people", twoHumans(10))
	a.create("bot", match.Meta{Options: map[string]string{"stones": "10"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}})
	full := e.start(bots)
	full.setFull(true)
	a.crash()
	e.lapse(a)
	e.waitFor(5*time.Second, "the people's game taken over", func() bool { return e.owner("people") == full.n.ID() })
	// Two more of the full node's scans: the second began after the
	// takeover, with the bot game still an orphan.
	from := full.n.scans.Load()
	e.waitFor(5*time.Second, "two more scans of the full node", func() bool { return full.n.scans.Load() >= from+2 })
	if owner := e.owner("bot"); owner != a.n.ID() {
		t.Fatalf("a full node took the bot game over (owner %s)", owner)
	}
	roomy := e.start(bots)
	e.waitFor(5*time.Second, "the bot game taken over by the node with room", func() bool { return e.owner("bot") == roomy.n.ID() })
	if _, err := full.do("bot", move(0, "1")); err != nil {
		t.Fatalf("a move in the bot game, forwarded: %v", err)
	}

	// A new bot game asked of the full node is made by one with room.
	e.waitFor(5*time.Second, "the full node's lease saying so", func() bool {
		nodes, _ := full.db.LiveNodes(context.Background())
		return slices.ContainsFunc(nodes, func(n store.Node) bool { return n.ID == full.n.ID() && n.BotsFull })
	})
	botGame := match.Meta{ID: "bot2", Game: "tnim", Options: map[string]string{"stones": "10"},
		Seats: []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatBot, Level: "easy"}}}
	ack, err := full.n.CreateElsewhere(context.Background(), alice, botGame)
	if err != nil || ack.Meta.ID != "bot2" {
		t.Fatalf("created elsewhere: %q, %v", ack.Meta.ID, err)
	}
	if owner := e.owner("bot2"); owner != roomy.n.ID() {
		t.Fatalf("bot2 made by %s, not by the node with room", owner)
	}
	// Every node full: a clear refusal.
	roomy.setFull(true)
	e.waitFor(5*time.Second, "every lease saying it is full", func() bool {
		nodes, _ := full.db.LiveNodes(context.Background())
		return !slices.ContainsFunc(nodes, func(n store.Node) bool { return !n.BotsFull })
	})
	botGame.ID = "bot3"
	if _, err := full.n.CreateElsewhere(context.Background(), alice, botGame); codeOf(err) != match.CodeUnavailable || !strings.Contains(err.Error(), "bot budget") {
		t.Fatalf("every node full: %v", err)
	}
}

// TestLapse: a node whose lease lapsed (it paused, or lost the database,
// for longer than its term) while another claimed its game learns so at
// its next renewal and releases the game; its writes were refused anyway
// (fenced), and commands it receives go to the new owner.
func TestLapse(t *testing.T) {
	e := newEnv(t)
	a, b := e.start(), e.start()
	a.create("g", twoHumans(10))
	e.depose("g")
	if e.owner("g") != b.n.ID() {
		t.Fatalf("owner %s", e.owner("g"))
	}
	e.waitFor(5*time.Second, "the old owner releasing the game", func() bool { return a.reg.Get("g") == nil })
	if _, err := a.do("g", move(0, "1")); err != nil {
		t.Fatalf("a move at the old owner: %v", err)
	}
	if got := e.moves("g"); len(got) != 1 {
		t.Fatalf("moves %v", got)
	}
}

// TestLeave: a node that shuts down ends its lease at once; its games are
// taken over without waiting for the lease to expire, and a retried move
// that its old owner applied is answered as done, not applied again.
func TestLeave(t *testing.T) {
	e := newEnv(t)
	e.lease = 30 * time.Second // a takeover that waited for expiry would time out
	a, b := e.start(), e.start()
	a.create("g", twoHumans(10))
	if _, err := a.do("g", move(0, "1")); err != nil {
		t.Fatal(err)
	}
	a.stop()
	e.waitFor(5*time.Second, "the takeover", func() bool { return e.owner("g") == b.n.ID() })
	retry := move(0, "1")
	retry.Retry = true
	if ack, err := b.do("g", retry); err != nil || ack.Move.Ply != 0 {
		t.Fatalf("a retry of an applied move: %+v, %v", ack.Move, err)
	}
	if _, err := b.do("g", move(1, "1")); err != nil {
		t.Fatal(err)
	}
	if got := e.moves("g"); !slices.Equal(got, []string{"1", "1"}) {
		t.Fatalf("moves %v", got)
	}
}

// TestConfig: what New refuses.
func TestConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{}, "required"},
		{Config{Store: fakeStore{}, NATS: "nats://127.0.0.1:1", Name: "a b"}, "node name"},
		{Config{Store: fakeStore{}, NATS: "nats://127.0.0.1:1", Prefix: "a b"}, "prefix"},
		{Config{Store: fakeStore{}, NATS: "nats://127.0.0.1:1", LeaseTTL: time.Second, Renew: 2 * time.Second}, "cannot keep"},
		{Config{Store: fakeStore{}, NATS: "nats://127.0.0.1:1"}, "NATS at"},
		{Config{Store: fakeStore{}, NATS: "nats://user:secret@127.0.0.1:1"}, "NATS at nats://127.0.0.1:1:"},
	} {
		if _, err := New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("New(%+v) = %v, want an error about %q (and no password)", tc.cfg, err, tc.want)
		}
	}
}

type fakeStore struct{ Store }

var _ store.Leases = fakeStore{}

// TestRetriedFinalMove: a copy of the move that ended a game, sent again
// after the owner that ended it died (its answers gone with it), is
// answered as the move it was, not "the game is over"; another move is
// told the game is over.
func TestRetriedFinalMove(t *testing.T) {
	e := newQuietEnv(t)
	a, b := e.start(), e.start()
	a.create("f", twoHumans(2))
	if _, err := a.do("f", move(0, "1")); err != nil {
		t.Fatal(err)
	}
	final := move(1, "1")
	final.Key = "conn1/c2"
	first, err := a.do("f", final)
	if err != nil || first.Meta.Status != match.Finished {
		t.Fatalf("the last stone: %v (%s)", err, first.Meta.Status)
	}
	a.crash()
	final.Retry = true
	if ack, err := b.do("f", final); err != nil || ack.Move == nil || ack.Move.Ply != 1 || ack.Move.Text != "1" || ack.Meta.Status != match.Finished {
		t.Fatalf("a copy of the final move after its owner died: %+v, %v", ack.Move, err)
	}
	other := move(1, "2")
	other.Key, other.Retry = "conn1/c3", true
	if _, err := b.do("f", other); !errors.Is(err, match.ErrClosed) {
		t.Fatalf("another move after the end: %v", err)
	}
}
