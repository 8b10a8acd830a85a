package agent

import (
	"context"
	"sync"
	"testing"

	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/sgolte"
	_ "github.com/tabula-games/tabula/games/sploof/solve"
)

// hardSploof is Sploof's hard level by iterations, its solver cut to a
// node budget a test can afford.
func hardSploof(iters int) MCTSConfig {
	cfg := hardByIters(iters)
	cfg.SolverNodes = 50000
	return cfg
}

// offBook plays two moves from Sploof's start, the second not the book's
// (the start is solved: docs/solving.md), so that the hard bot, which plays
// the book's moves without searching, searches the game's next moves.
func offBook(t *testing.T, s game.State) {
	t.Helper()
	s.Play(s.Legal(nil)[0])
	e, ok := game.LookUpBook(s)
	if !ok || !e.HasMove {
		t.Fatal("after the first move: no book move")
	}
	for _, m := range s.Legal(nil) {
		if m != e.Move {
			s.Play(m)
			break
		}
	}
	if _, ok := game.LookUpBook(s); ok {
		t.Fatal("two moves in, still in the book")
	}
}

// playMoves plays up to n moves of a fresh game of name from seed with a
// (both seats) under ctx, checking each is legal; it returns the moves.
func playMoves(t *testing.T, ctx context.Context, name string, seed uint64, a [2]Agent, n int) []game.Move {
	t.Helper()
	g, err := game.Lookup(name)
	if err != nil {
		t.Error(err)
		return nil
	}
	s, err := g.New(nil, seed)
	if err != nil {
		t.Error(err)
		return nil
	}
	var played []game.Move
	for i := 0; i < n && !s.Outcome().Over(); i++ {
		mv, err := Ask(ctx, a[s.ToMove()], s)
		if err != nil {
			t.Error(err)
			return played
		}
		if !game.IsLegal(s, mv) {
			t.Errorf("%s ply %d: illegal move %v", name, i, mv)
			return played
		}
		s.Play(mv)
		played = append(played, mv)
	}
	return played
}

// TestBudgetBoundsHardBots: six hard bots (two workers, the Sploof solver)
// in three games at once, sharing a node budget of 16 MiB, never reserve
// more than it — each search grows its tree only as far as the budget
// lends, the solvers take smaller tables or none — and play legal moves;
// between moves the six hold no more than the kept share, which the heap
// confirms.
func TestBudgetBoundsHardBots(t *testing.T) {
	const limit = 16 << 20
	mem := compute.NewMemory(limit)
	ctx := WithBudget(context.Background(), mem)
	base := heapInUse()
	iters := 20000
	if testing.Short() {
		// The budget is short whatever the iterations (one solver
		// table is twice it): with a quarter of them the searches
		// still ask for more than it lends (the test fails if nothing
		// is refused).
		iters /= 4
	}
	var agents [3][2]*MCTS
	var wg sync.WaitGroup
	for i := range agents {
		for j := range agents[i] {
			agents[i][j] = NewMCTS(hardSploof(iters), uint64(10*i+j))
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			playMoves(t, ctx, "sploof", uint64(i), [2]Agent{agents[i][0], agents[i][1]}, 4)
		}()
	}
	wg.Wait()
	now := heapInUse()
	held := now - min(base, now)
	// What is kept, plus the agents' own few KiB and the allocator's
	// rounding: no more than the kept share and 2 MiB.
	if held > uint64(compute.KeptShare*limit)+2<<20 {
		t.Fatalf("the waiting games hold %.1f MiB of heap; the budget lends them %.1f MiB", float64(held)/(1<<20), compute.KeptShare*limit/(1<<20))
	}
	st := mem.Stats()
	if st.Peak > limit {
		t.Fatalf("the bots reserved %d bytes at once, beyond the budget's %d", st.Peak, limit)
	}
	if st.Refused == 0 {
		t.Fatal("no reservation was refused: the budget was never short, and the test proves nothing")
	}
	if st.Used != st.Kept || float64(st.Kept) > compute.KeptShare*limit {
		t.Fatalf("between moves: %d bytes reserved, %d kept; want only kept, at most half the budget", st.Used, st.Kept)
	}
	for i := range agents {
		for _, a := range agents[i] {
			a.Close()
		}
	}
	if st := mem.Stats(); st.Used != 0 || st.Kept != 0 {
		t.Fatalf("closed agents still hold %d bytes (%d kept)", st.Used, st.Kept)
	}
}

// TestWaitingBotHoldsNoSolverTable: a hard Sploof bot gives its solver
// back when it has moved (solvers.go), so while its game waits it holds
// only the subtrees its two workers keep (1 MiB each at most) — reserved
// and on the heap — where it used to hold its 32 MiB table too; and its
// moves used the solver.
func TestWaitingBotHoldsNoSolverTable(t *testing.T) {
	mem := compute.NewMemory(1 << 30)
	ctx := WithBudget(context.Background(), mem)
	base := heapInUse()
	a := NewMCTS(hardSploof(5000), 1)
	g, _ := game.Lookup("sploof")
	s, _ := g.New(nil, 1)
	offBook(t, s)
	var solverNodes int64
	for i := 0; i < 3; i++ {
		mv, err := Ask(ctx, a, s)
		if err != nil {
			t.Fatal(err)
		}
		solverNodes += a.LastStats.SolverNodes
		s.Play(mv)
	}
	if solverNodes == 0 {
		t.Fatal("the bot's moves did not use the solver: the test proves nothing")
	}
	st := mem.Stats()
	if st.Kept == 0 || st.Used != st.Kept {
		t.Fatalf("a waiting hard bot reserves %d bytes, %d of them kept; want its subtrees, kept", st.Used, st.Kept)
	}
	if limit := int64(2 * DefaultKeepBytes); st.Kept > limit {
		t.Fatalf("a waiting hard Sploof bot keeps %.1f MiB reserved; want at most its two subtrees, %.1f MiB", float64(st.Kept)/(1<<20), float64(limit)/(1<<20))
	}
	if now := heapInUse(); now-min(base, now) > 5<<20 {
		t.Fatalf("a waiting hard Sploof bot holds %.1f MiB of heap; want at most 5", float64(now-min(base, now))/(1<<20))
	}
	a.Close()
	if st := mem.Stats(); st.Used != 0 {
		t.Fatalf("a closed bot still reserves %d bytes", st.Used)
	}
}

// TestDegradedSearchesPlayLegalMoves: with a budget that lends nothing,
// every search grows only the small tree it may always grow, keeps nothing
// and has no solver table — and still plays whole games of legal moves,
// in Sploof, Skjuub (bonus plies) and Sgolte, with two workers and with
// progressive bias.
func TestDegradedSearchesPlayLegalMoves(t *testing.T) {
	mem := compute.NewMemory(1)
	ctx := WithBudget(context.Background(), mem)
	for _, tc := range []struct {
		game string
		cfg  MCTSConfig
	}{
		{"sploof", hardSploof(3000)},
		{"skjuub", hardByIters(3000)},
		{"sgolte", MCTSConfig{Iters: 2000, Bias: 1, PlayoutPlies: 4}},
	} {
		if testing.Short() {
			// Whole games still, a quarter of the iterations a move: a
			// degraded search's tree is capped whatever its iterations,
			// and what the test guards (legal moves, nothing lent, in
			// every phase of the game) is the same; under -race the
			// full size took 40 s, this 4.7 s (load 13-20).
			tc.cfg.Iters /= 4
		}
		a := [2]*MCTS{NewMCTS(tc.cfg, 1), NewMCTS(tc.cfg, 2)}
		played := playMoves(t, ctx, tc.game, 3, [2]Agent{a[0], a[1]}, 400)
		if len(played) < 10 {
			t.Fatalf("%s: %d moves", tc.game, len(played))
		}
		if !a[0].LastStats.Degraded && !a[1].LastStats.Degraded {
			t.Fatalf("%s: the searches say they were not degraded", tc.game)
		}
		if st := mem.Stats(); st.Used != 0 || st.Peak != 0 {
			t.Fatalf("%s: a budget of one byte lent %d (peak %d)", tc.game, st.Used, st.Peak)
		}
	}
}

// TestBudgetKeepsTheMoves: under a budget large enough, a bot plays the
// same moves, reusing the same visits and growing trees of the same size,
// as without one — the budget changes nothing until it is short.
func TestBudgetKeepsTheMoves(t *testing.T) {
	mem := compute.NewMemory(1 << 30)
	for _, tc := range []struct {
		game string
		cfg  MCTSConfig
	}{
		{"skjuub", MCTSConfig{Iters: 2000, Workers: 2}},
		{"sploof", hardSploof(2000)},
		{"sgolte", MCTSConfig{Iters: 1000, Bias: 1, PlayoutPlies: 4}},
	} {
		if testing.Short() {
			tc.cfg.Iters /= 4 // as in TestIdleKeepsTheSearchTheSame
		}
		with := [2]*MCTS{NewMCTS(tc.cfg, 5), NewMCTS(tc.cfg, 6)}
		without := [2]*MCTS{NewMCTS(tc.cfg, 5), NewMCTS(tc.cfg, 6)}
		g, _ := game.Lookup(tc.game)
		s, _ := g.New(nil, 3)
		ctx := WithBudget(context.Background(), mem)
		for ply := 0; ply < 30 && !s.Outcome().Over(); ply++ {
			a, b := with[s.ToMove()], without[s.ToMove()]
			m1, err1 := Ask(ctx, a, s)
			m2, err2 := Ask(context.Background(), b, s)
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			if m1 != m2 || a.LastStats.Reused != b.LastStats.Reused || a.LastStats.Nodes != b.LastStats.Nodes || a.LastStats.Degraded {
				t.Fatalf("%s ply %d: with the budget %v (reused %d, %d nodes, degraded %v), without %v (reused %d, %d nodes)", tc.game, ply,
					m1, a.LastStats.Reused, a.LastStats.Nodes, a.LastStats.Degraded, m2, b.LastStats.Reused, b.LastStats.Nodes)
			}
			s.Play(m1)
		}
		with[0].Close()
		with[1].Close()
	}
	if st := mem.Stats(); st.Used != 0 || st.Refused != 0 {
		t.Fatalf("after the games: %d bytes still reserved, %d refusals", st.Used, st.Refused)
	}
}

// TestRestLetsGo: a hard bot waiting for its next move holds its kept
// subtree and, with KeepSolver, its solver's table, reserved; Rest gives
// both back and the heap follows, and its next move is searched from a
// fresh tree. A Rest asked for during Choose (a server ending a game while
// its bot thinks) happens when Choose returns.
func TestRestLetsGo(t *testing.T) {
	mem := compute.NewMemory(1 << 30)
	ctx := WithBudget(context.Background(), mem)
	base := heapInUse()
	iters := 20000
	if testing.Short() {
		// What Rest lets go of is the subtree and the solver's table,
		// whose size does not depend on the iterations: a quarter of
		// them still keeps both (under -race the full size took a
		// seventh of agent's race run).
		iters /= 4
	}
	cfg := hardSploof(iters)
	cfg.KeepSolver = true
	a := NewMCTS(cfg, 1)
	g, _ := game.Lookup("sploof")
	s, _ := g.New(nil, 1)
	offBook(t, s)
	for i := 0; i < 3; i++ {
		if _, in := game.LookUpBook(s); in {
			t.Fatalf("move %d: a position of the book, played without the solver", i)
		}
		mv, err := Ask(ctx, a, s)
		if err != nil {
			t.Fatal(err)
		}
		s.Play(mv)
	}
	kept := mem.Stats().Kept
	if kept < SolverTableBytes {
		t.Fatalf("a waiting hard Sploof bot keeps %d bytes reserved; want its solver table and subtree", kept)
	}
	a.Rest()
	if st := mem.Stats(); st.Used != 0 {
		t.Fatalf("after Rest %d bytes are still reserved", st.Used)
	}
	if now := heapInUse(); now-min(base, now) > 1<<20 {
		t.Fatalf("a rested bot holds %.1f MiB of heap", float64(now-min(base, now))/(1<<20))
	}
	if _, err := Ask(ctx, a, s); err != nil || a.LastStats.Reused != 0 {
		t.Fatalf("the move after Rest: %v, reused %d visits", err, a.LastStats.Reused)
	}

	// Rest while Choose runs: it waits for Choose's end.
	started := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		<-started
		a.Rest()
	}()
	a.mu.Lock()
	a.choosing = true // as if Choose had begun
	a.mu.Unlock()
	close(started)
	<-done
	if st := mem.Stats(); st.Used == 0 {
		t.Fatal("Rest during Choose let go of what Choose was using")
	}
	a.mu.Lock()
	a.choosing = false
	later := a.restLater
	a.mu.Unlock()
	if !later {
		t.Fatal("Rest during Choose was forgotten")
	}
	if _, err := Ask(ctx, a, s); err != nil {
		t.Fatal(err)
	}
	if st := mem.Stats(); st.Used != 0 {
		t.Fatalf("the Rest asked for during Choose did not happen when it returned: %d bytes reserved", st.Used)
	}
}
