package solve

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// longSolve is set (SPLOOF_LONG=1) for the full-size runs of the slow tests.
var longSolve = os.Getenv("SPLOOF_LONG") != ""

// botGamePositions plays a game between two bots (the easy MCTS bot and the
// greedy one, seats by seed) and returns every position before its end.
func botGamePositions(t *testing.T, seed uint64) []*sploof.State {
	t.Helper()
	g := sploof.Game{}
	st, _ := g.New(game.Options{"first": "white"}, seed)
	s := st.(*sploof.State)
	easy, err := agent.New("mcts:iters=200", g, seed)
	if err != nil {
		t.Fatal(err)
	}
	bots := [2]agent.Agent{easy, agent.NewGreedy(seed)}
	if seed%2 == 1 {
		bots[0], bots[1] = bots[1], bots[0]
	}
	var out []*sploof.State
	for !s.Outcome().Over() {
		c := *s
		out = append(out, &c)
		obs, err := game.Observe(s, s.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		m, err := bots[s.ToMove()].Choose(context.Background(), obs)
		if err != nil {
			t.Fatal(err)
		}
		if !game.IsLegal(s, m) {
			t.Fatalf("bot move %v is not legal", m)
		}
		s.Play(m)
	}
	return out
}

// winnerOf is the seat that wins st by the exact search.
func winnerOf(t *testing.T, sv *Solver, st *sploof.State) int {
	t.Helper()
	sol, err := sv.Solve(context.Background(), st, 0)
	if err != nil || !sol.Proven {
		t.Fatalf("the exact search: %v (proven %v)", err, sol.Proven)
	}
	return sol.Winner
}

// checkWinningMove: the move the win/loss solver gives for a won position
// is legal and leads to a position the exact search says the same seat
// wins.
func checkWinningMove(t *testing.T, sv *Solver, st *sploof.State, r WinLossResult) {
	t.Helper()
	if r.Winner != st.ToMove() {
		return
	}
	if r.Move == noMove || !game.IsLegal(st, game.Move(r.Move)) {
		t.Fatalf("no legal winning move given (%d)", r.Move)
	}
	c := *st
	c.Play(game.Move(r.Move))
	if o := c.Outcome(); o.Over() {
		if !o.IsWinner(r.Winner) {
			t.Fatalf("the winning move %s loses at once", st.FormatMove(game.Move(r.Move)))
		}
		return
	}
	if w := winnerOf(t, sv, &c); w != r.Winner {
		t.Fatalf("after the winning move %s the exact search says seat %d wins", st.FormatMove(game.Move(r.Move)), w)
	}
}

// TestWinLossAgreesWithSolver: the win/loss solver names the same winner as
// the exact search (`tabula solve`) on 1,000 positions from random games
// and games between bots, and its winning moves win. The positions are
// taken from ply 20 on (from ply 14 with SPLOOF_LONG=1), where both are
// quick; a small table shared by all, a fresh one now and then, and two
// workers on a quarter of them.
func TestWinLossAgreesWithSolver(t *testing.T) {
	want, from := 1000, 20
	if longSolve {
		from = 14
	}
	if testing.Short() {
		want = 200
	}
	exact := New(1 << 24)
	shared := NewWinLoss(WinLossOptions{TableBytes: 1 << 20, Workers: 1})
	checked, wins, fromBots := 0, 0, 0
	for seed := uint64(1); checked < want; seed++ {
		var ps []*sploof.State
		bots := seed%2 == 0
		if bots {
			ps = botGamePositions(t, seed)
		} else {
			ps = gamePositions(seed)
		}
		for i := from; i < len(ps) && checked < want; i += 2 {
			st := ps[i]
			sv := shared
			switch checked % 8 {
			case 0:
				sv = NewWinLoss(WinLossOptions{TableBytes: 1 << 16, Workers: 1})
			case 3:
				sv = NewWinLoss(WinLossOptions{TableBytes: 1 << 18, Workers: 2, ETCPly: 40})
			}
			r, err := sv.Solve(context.Background(), st)
			if err != nil {
				t.Fatal(err)
			}
			w := winnerOf(t, exact, st)
			if r.Winner != w {
				t.Fatalf("seed %d ply %d (bots %v): win/loss says seat %d wins, the exact search seat %d", seed, i, bots, r.Winner, w)
			}
			checkWinningMove(t, exact, st, r)
			checked++
			if w == st.ToMove() {
				wins++
			}
			if bots {
				fromBots++
			}
		}
	}
	if wins < checked/5 || wins > checked*4/5 || fromBots < checked/4 {
		t.Fatalf("%d positions, %d won for the side to move, %d from bot games: a lopsided test set", checked, wins, fromBots)
	}
	t.Logf("%d positions agree (%d won for the side to move, %d from bot games)", checked, wins, fromBots)
}

// TestWinLossStops: a budget or a cancelled context stops the search with
// ErrWinLossStopped, not a made-up answer.
func TestWinLossStops(t *testing.T) {
	st := gamePositions(5)[10]
	sv := NewWinLoss(WinLossOptions{TableBytes: 1 << 20, Workers: 2, MaxNodes: 20000})
	if _, err := sv.Solve(context.Background(), st); !errors.Is(err, ErrWinLossStopped) {
		t.Fatalf("with a budget of 20,000 nodes at ply 10: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	sv = NewWinLoss(WinLossOptions{TableBytes: 1 << 20, Workers: 1})
	if _, err := sv.Solve(ctx, st); !errors.Is(err, ErrWinLossStopped) {
		t.Fatalf("cancelled: %v", err)
	}
}

// TestTableKeepsKeysExact: the table's entries carry no key, yet a lookup
// never answers for another position: keys that share a bucket are told
// apart, and the expensive entry of a bucket outlives cheap ones.
func TestTableKeepsKeysExact(t *testing.T) {
	tt := newWLTable(1 << 16) // 4,096 buckets
	if tt.entries() != 8192 {
		t.Fatalf("%d entries", tt.entries())
	}
	// Keys in one bucket: h = k·C with the same top 12 bits.
	var same []uint64
	i0, _ := tt.slot(12345)
	for k := uint64(1); len(same) < 4; k++ {
		if i, _ := tt.slot(k); i == i0 {
			same = append(same, k)
		}
	}
	tt.put(same[0], true, 7, 1<<20) // expensive
	tt.put(same[1], false, noMove, 1)
	tt.put(same[2], true, 3, 1) // replaces same[1]
	if w, m, ok := tt.get(same[0]); !ok || !w || m != 7 {
		t.Fatalf("the expensive entry: %v %v %v", w, m, ok)
	}
	if _, _, ok := tt.get(same[1]); ok {
		t.Fatal("a replaced entry is still found")
	}
	if w, m, ok := tt.get(same[2]); !ok || !w || m != 3 {
		t.Fatalf("the cheap entry: %v %v %v", w, m, ok)
	}
	if _, _, ok := tt.get(same[3]); ok {
		t.Fatal("a key never stored is found")
	}
	tt.put(same[3], false, noMove, 1<<30) // more expensive: takes the first slot
	if _, _, ok := tt.get(same[0]); !ok {
		t.Fatal("the displaced expensive entry went instead of the cheap one")
	}
	if w, _, ok := tt.get(same[3]); !ok || w {
		t.Fatal("the new expensive entry is missing")
	}
}

// checkpointRoot is a position from a random game whose checkpoint layer
// (4 plies on) has some thousands of positions and which the solver
// decides in about a second.
func checkpointRoot(t *testing.T) *sploof.State {
	t.Helper()
	return gamePositions(1001)[14]
}

// TestCheckpointRoundTrip: a run stopped by its budget writes its
// checkpoint; a run started again in a fresh directory rebuilds the layers,
// loads every decision made before the stop (none lost), and finishes with
// the answer of a run in one go, in fewer nodes. Every decision recorded is
// the exact search's.
func TestCheckpointRoundTrip(t *testing.T) {
	ctx := context.Background()
	root := checkpointRoot(t)
	n, _ := nodeFromBits(root.Bits())
	ply := int(n.ply) + 4
	path := filepath.Join(t.TempDir(), "ck", "ply.ckpt")

	whole, err := RunWinLoss(ctx, root, WinLossRunOptions{WinLossOptions: WinLossOptions{TableBytes: 1 << 22, Workers: 1},
		LayersDir: t.TempDir(), Ply: ply})
	if err != nil || !whole.Solved {
		t.Fatalf("in one go: %v %+v", err, whole)
	}
	t.Logf("in one go: %d nodes, layer %d has %d positions", whole.Nodes, ply, whole.Checkpoint.Len())
	if whole.Checkpoint.Len() < 1000 {
		t.Fatalf("a layer of %d positions tests little", whole.Checkpoint.Len())
	}

	// One worker, so that the stop and what is decided by then do not
	// depend on timing, and the resumed run follows the same order.
	stopped, err := RunWinLoss(ctx, root, WinLossRunOptions{WinLossOptions: WinLossOptions{TableBytes: 1 << 22, Workers: 1, MaxNodes: whole.Nodes / 2},
		LayersDir: t.TempDir(), CheckpointPath: path, Ply: ply})
	if err != nil || stopped.Solved {
		t.Fatalf("stopped: %v solved %v", err, stopped.Solved)
	}
	d1, w1 := stopped.Checkpoint.Decided()
	if d1 == 0 {
		t.Fatal("nothing decided before the stop")
	}

	// Started again elsewhere: the layers rebuilt, the file loaded.
	ck, err := OpenCheckpoint(ctx, root, t.TempDir(), path, ply, 0)
	if err != nil {
		t.Fatal(err)
	}
	if d, w := ck.Decided(); d != d1 || w != w1 {
		t.Fatalf("the checkpoint reloads %d decided (%d won), the run had %d (%d)", d, w, d1, w1)
	}
	for i := range ck.words {
		if ck.words[i] != stopped.Checkpoint.words[i] {
			t.Fatalf("word %d differs after the round trip", i)
		}
	}
	// Every decision is right.
	exact := New(1 << 22)
	checked := 0
	for i := 0; i < ck.Len() && checked < 60; i++ {
		known, win := ck.get(i)
		if !known {
			continue
		}
		st, err := sploof.FromBits(bitsOfKey(ck.keys[i]))
		if err != nil {
			t.Fatal(err)
		}
		if w := winnerOf(t, exact, st); (w == st.ToMove()) != win {
			t.Fatalf("position %d of the layer: recorded won %v, the exact search says seat %d wins", i, win, w)
		}
		checked++
	}

	resumed, err := RunWinLoss(ctx, root, WinLossRunOptions{WinLossOptions: WinLossOptions{TableBytes: 1 << 22, Workers: 1},
		LayersDir: t.TempDir(), CheckpointPath: path, Ply: ply})
	if err != nil || !resumed.Solved {
		t.Fatalf("resumed: %v %+v", err, resumed)
	}
	if resumed.Result.Winner != whole.Result.Winner {
		t.Fatalf("resumed: seat %d wins, in one go seat %d", resumed.Result.Winner, whole.Result.Winner)
	}
	if resumed.Nodes >= whole.Nodes {
		t.Fatalf("resumed in %d nodes, no fewer than %d in one go: the checkpoint saved nothing", resumed.Nodes, whole.Nodes)
	}
	if d, _ := resumed.Checkpoint.Decided(); d < d1 {
		t.Fatalf("the resumed run ends with %d decided, fewer than the %d loaded", d, d1)
	}
	if w := winnerOf(t, exact, root); w != whole.Result.Winner {
		t.Fatalf("the exact search says seat %d wins the root", w)
	}
	t.Logf("stopped after %d nodes with %d decided (%d checked); resumed in %d nodes", stopped.Nodes, d1, checked, resumed.Nodes)
}

// TestCheckpointRefusesOthers: a checkpoint file of another root, another
// layer or damaged is refused with an error, never half loaded.
func TestCheckpointRefusesOthers(t *testing.T) {
	ctx := context.Background()
	root := checkpointRoot(t)
	n, _ := nodeFromBits(root.Bits())
	ply := int(n.ply) + 2
	dir := t.TempDir()
	path := filepath.Join(dir, "a.ckpt")
	ck, err := OpenCheckpoint(ctx, root, t.TempDir(), path, ply, 0)
	if err != nil {
		t.Fatal(err)
	}
	ck.set(3, true)
	ck.set(5, false)
	if err := ck.Save(path); err != nil {
		t.Fatal(err)
	}
	if _, err := OpenCheckpoint(ctx, root, t.TempDir(), path, ply+1, 0); err == nil {
		t.Fatal("a checkpoint of another layer loads")
	}
	other := gamePositions(22)[16]
	if _, err := OpenCheckpoint(ctx, other, t.TempDir(), path, ply, 0); err == nil {
		t.Fatal("a checkpoint of another root loads")
	}
	data, _ := os.ReadFile(path)
	data[len(data)/2] ^= 0x40
	bad := filepath.Join(dir, "bad.ckpt")
	os.WriteFile(bad, data, 0o644)
	if _, err := OpenCheckpoint(ctx, root, t.TempDir(), bad, ply, 0); err == nil {
		t.Fatal("a damaged checkpoint loads")
	}
	back, err := OpenCheckpoint(ctx, root, t.TempDir(), path, ply, 0)
	if err != nil {
		t.Fatal(err)
	}
	if k, w := back.get(3); !k || !w {
		t.Fatal("position 3 lost")
	}
	if k, w := back.get(5); !k || w {
		t.Fatal("position 5 lost")
	}
	if d, w := back.Decided(); d != 2 || w != 1 {
		t.Fatalf("%d decided, %d won", d, w)
	}
}

// TestRunSavesWhenInterrupted: a run whose context ends (Ctrl-C, SIGTERM in
// the command) writes its checkpoint before it returns, with everything it
// had decided. The interruption comes later and later until a run has
// decided something by then.
func TestRunSavesWhenInterrupted(t *testing.T) {
	root := gamePositions(21)[12]
	n, _ := nodeFromBits(root.Bits())
	layers := t.TempDir()
	for wait := 250 * time.Millisecond; wait < time.Minute; wait *= 2 {
		path := filepath.Join(t.TempDir(), "ck.gz")
		ctx, cancel := context.WithTimeout(context.Background(), wait)
		run, err := RunWinLoss(ctx, root, WinLossRunOptions{WinLossOptions: WinLossOptions{TableBytes: 1 << 20, Workers: 1},
			LayersDir: layers, CheckpointPath: path, Ply: int(n.ply) + 2})
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			// Interrupted while the layers were being built (each is
			// written whole or not at all), before any search: on a loaded
			// machine 250 ms may not reach the search. Wait longer.
			if _, serr := os.Stat(path); serr == nil {
				t.Fatalf("interrupted with an error (%v), yet a checkpoint was written", err)
			}
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if run.Solved {
			t.Fatal("decided: the position is too easy for the test")
		}
		info, err := InspectCheckpoint(path)
		if err != nil {
			t.Fatal(err)
		}
		d, w := run.Checkpoint.Decided()
		if info.Decided != d || info.Wins != w {
			t.Fatalf("the file holds %d decided (%d won), the run had %d (%d)", info.Decided, info.Wins, d, w)
		}
		if d > 0 {
			t.Logf("interrupted after %v, %d nodes: %d decided, all in the file", wait, run.Nodes, d)
			return
		}
	}
	t.Fatal("nothing decided in a minute")
}

// TestWinLossDoesNotAllocate: the win/loss search allocates nothing per
// node — a child passed down the recursion stays on the stack. A worker's
// search of a position of 10^4–10^5 nodes, its table cleared each time.
func TestWinLossDoesNotAllocate(t *testing.T) {
	ps := gamePositions(7)
	n, err := nodeFromBits(ps[len(ps)-14].Bits())
	if err != nil {
		t.Fatal(err)
	}
	sv := NewWinLoss(WinLossOptions{TableBytes: 1 << 20, Workers: 1})
	w := &wlWorker{s: sv, ctx: context.Background(), rootPly: n.ply}
	allocs := testing.AllocsPerRun(10, func() {
		clear(sv.tt.e)
		root := n
		w.root(&root)
	})
	if w.nodes < 10000 {
		t.Fatalf("only %d nodes searched: the position proves nothing", w.nodes)
	}
	if allocs != 0 {
		t.Fatalf("%v allocations per search of %d nodes", allocs, w.nodes/11)
	}
}

// BenchmarkWinLoss decides the positions 16 plies into four seeded games
// (about 925,000 nodes in all), each from an empty 64 MiB table, on one
// worker: nodes/s is the search's speed.
func BenchmarkWinLoss(b *testing.B) {
	var roots []*sploof.State
	for seed := uint64(21); seed <= 24; seed++ {
		if ps := gamePositions(seed); len(ps) > 16 {
			roots = append(roots, ps[16])
		}
	}
	sv := NewWinLoss(WinLossOptions{TableBytes: 1 << 26, Workers: 1})
	var nodes int64
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for _, st := range roots {
			clear(sv.tt.e)
			n0 := sv.Nodes()
			if _, err := sv.Solve(context.Background(), st); err != nil {
				b.Fatal(err)
			}
			nodes += sv.Nodes() - n0
		}
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes/op")
}

// TestCheckpointLayerAboveLooksChildrenUp: a position just above the
// checkpoint's layer is won as soon as the checkpoint knows one of its
// children lost for the side to move there, before any child is searched —
// so a run that orders moves otherwise than the runs that filled the
// checkpoint still finds what they decided.
func TestCheckpointLayerAboveLooksChildrenUp(t *testing.T) {
	ctx := context.Background()
	for seed := uint64(1); seed < 50; seed++ {
		ps := gamePositions(seed)
		if len(ps) < 24 {
			continue
		}
		root := ps[20]
		r, err := NewWinLoss(WinLossOptions{TableBytes: 1 << 20, Workers: 1}).Solve(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if r.Winner != root.ToMove() || r.Move >= sploof.RemoveFlag || r.Nodes < 100 {
			continue // wanted: won by a placement, after a search of some size
		}
		n, _ := nodeFromBits(root.Bits())
		ply := int(n.ply) + 1
		child := root.Clone().(*sploof.State)
		child.Play(game.Move(r.Move))
		c, err := nodeFromBits(child.Bits())
		if err != nil || int(c.ply) != ply {
			t.Fatalf("the child: %v, ply %d", err, c.ply)
		}
		layers, path := t.TempDir(), filepath.Join(t.TempDir(), "ck.gz")
		ck, err := OpenCheckpoint(ctx, root, layers, path, ply, 0)
		if err != nil {
			t.Fatal(err)
		}
		key, _ := c.key()
		i := ck.rank(key)
		if i < 0 {
			t.Fatal("the child is not in the layer")
		}
		ck.set(i, false)
		if err := ck.Save(path); err != nil {
			t.Fatal(err)
		}
		run, err := RunWinLoss(ctx, root, WinLossRunOptions{WinLossOptions: WinLossOptions{TableBytes: 1 << 20, Workers: 1},
			LayersDir: layers, CheckpointPath: path, Ply: ply})
		if err != nil || !run.Solved || run.Result.Winner != root.ToMove() {
			t.Fatalf("%v %+v", err, run)
		}
		if run.Nodes != 1 {
			t.Fatalf("the root took %d nodes; the checkpoint knew its winning move's child lost", run.Nodes)
		}
		return
	}
	t.Fatal("no position won by a placement found")
}

// TestWinLossOrderingNodes: the order of moves is what the win/loss search's
// size mostly depends on. On 20 positions 16 plies into seeded random games
// (one worker, so the count is exact) the order by threats counted, killer
// and depth-weighted history searches about 1.9 million nodes; the order
// before it (a placement's threat or not, history counted alike at every
// depth), 7.0 million. The bound sits between them.
func TestWinLossOrderingNodes(t *testing.T) {
	var nodes int64
	for _, st := range positionsAt(16, 20) {
		r, err := NewWinLoss(WinLossOptions{TableBytes: 16 << 20, Workers: 1}).Solve(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		nodes += r.Nodes
	}
	t.Logf("20 positions: %d nodes", nodes)
	if nodes > 4_000_000 {
		t.Fatalf("20 positions searched in %d nodes, more than 4 million", nodes)
	}
}
