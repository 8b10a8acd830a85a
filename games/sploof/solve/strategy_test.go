package solve

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// strategyCase extracts the winner's strategy below a position of a random
// game (seeds from seed on, plies from at on) down to depth plies on, the
// first whose strategy has at least 10 winner-to-move positions and 20
// leaves, and returns it with its root and its layers' directory.
func strategyCase(t *testing.T, seed uint64, at, depth int) (*sploof.State, *Strategy, string) {
	t.Helper()
	for ; seed < 1000; seed++ {
		ps := gamePositions(seed)
		for i := at; i < len(ps)-depth-2; i++ {
			root := ps[i]
			dir := t.TempDir()
			sv := NewWinLoss(WinLossOptions{TableBytes: 1 << 22, Workers: 1})
			n, _ := nodeFromBits(root.Bits())
			s, err := sv.ExtractStrategy(context.Background(), root, int(n.ply)+depth, dir)
			if err != nil {
				t.Fatal(err)
			}
			if s.Entries() >= 10 && s.Leaves() >= 20 && len(s.Plies) >= 2 {
				return root, s, dir
			}
		}
	}
	t.Fatal("no position with a strategy worth testing")
	return nil, nil, ""
}

// roundTrip writes and reads a strategy back.
func roundTrip(t *testing.T, s *Strategy) *Strategy {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := ReadStrategy(&buf)
	if err != nil {
		t.Fatal(err)
	}
	return back
}

// layerKeys loads a layer of the build in dir.
func layerKeys(t *testing.T, dir string, ply int) []uint64 {
	t.Helper()
	b := &builder{dir: dir}
	info, ok, err := b.layerInfo(ply)
	if err != nil || !ok {
		t.Fatalf("layer %d: %v", ply, err)
	}
	keys, err := loadKeys(layerPath(dir, ply, "keys"), info.Count)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// losingMove is a legal move of the canonical position key that loses
// (the exact search says so); over says whether it ends the game at once.
func losingMove(t *testing.T, key uint64, wantOver bool) (uint8, bool) {
	t.Helper()
	st, err := sploof.FromBits(bitsOfKey(key))
	if err != nil {
		t.Fatal(err)
	}
	exact := New(1 << 22)
	for _, m := range st.Legal(nil) {
		c := *st
		c.Play(m)
		o := c.Outcome()
		if o.Over() {
			if wantOver && !o.IsWinner(st.ToMove()) {
				return uint8(m), true
			}
			continue
		}
		if wantOver {
			continue
		}
		if winnerOf(t, exact, &c) != st.ToMove() {
			return uint8(m), true
		}
	}
	return 0, false
}

// TestStrategyChecks: the strategy extracted from the solver survives the
// round trip through its file and the checker accepts it, proving every
// leaf with its own search; the checker refuses it with one winner move
// replaced by another legal move that loses, with one winner-to-move
// position left out (a loser's move not followed), with a move that is not
// legal, and with a winner move that leads to a leaf the winner does not
// win.
func TestStrategyChecks(t *testing.T) {
	ctx := context.Background()
	root, strat, dir := strategyCase(t, 31, 20, 4)
	t.Logf("root at ply %d, seat %d wins; %d winner-to-move positions, %d leaves", strat.RootPly, strat.Winner, strat.Entries(), strat.Leaves())
	if strat.Entries() < 10 || strat.Leaves() < 10 {
		t.Fatalf("a strategy of %d positions and %d leaves tests little", strat.Entries(), strat.Leaves())
	}
	if w := winnerOf(t, New(1<<22), root); w != strat.Winner {
		t.Fatalf("the strategy is for seat %d, the exact search says seat %d wins", strat.Winner, w)
	}
	back := roundTrip(t, strat)
	rep, err := CheckStrategy(ctx, back, CheckOptions{})
	if err != nil {
		t.Fatalf("the checker refuses the solver's strategy: %v", err)
	}
	if rep.Leaves != strat.Leaves() || rep.LeavesProved != rep.Leaves || rep.WinnerPositions != strat.Entries() {
		t.Fatalf("checked %+v; the strategy has %d positions, %d leaves", rep, strat.Entries(), strat.Leaves())
	}
	t.Logf("checked: %+v", rep)

	tamper := func(name string, change func(s *Strategy) bool, wantErr string) {
		t.Helper()
		s := roundTrip(t, strat)
		if !change(s) {
			t.Fatalf("%s: found nothing to change", name)
		}
		_, err := CheckStrategy(ctx, roundTrip(t, s), CheckOptions{})
		if err == nil {
			t.Fatalf("%s: the checker accepts it", name)
		}
		if !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("%s: %v, want an error saying %q", name, err, wantErr)
		}
		t.Logf("%s: %v", name, err)
	}
	// The first winner move (at the root or after the loser's first move)
	// replaced by another legal one that loses.
	tamper("winner move replaced", func(s *Strategy) bool {
		p := &s.Plies[0]
		keys := layerKeys(t, dir, p.Ply)
		for i, r := range p.Ranks {
			if m, ok := losingMove(t, keys[r], false); ok && m != p.Moves[i] {
				p.Moves[i] = m
				return true
			}
		}
		return false
	}, "")
	tamper("winner move illegal", func(s *Strategy) bool {
		p := &s.Plies[len(s.Plies)-1]
		st, _ := sploof.FromBits(bitsOfKey(layerKeys(t, dir, p.Ply)[p.Ranks[0]]))
		for m := uint8(0); m < sploof.NumPoints; m++ {
			if !game.IsLegal(st, game.Move(m)) {
				p.Moves[0] = m
				return true
			}
		}
		return false
	}, "not legal")
	tamper("loser move missing", func(s *Strategy) bool {
		p := &s.Plies[len(s.Plies)-1]
		i := len(p.Ranks) / 2
		p.Ranks = append(p.Ranks[:i], p.Ranks[i+1:]...)
		p.Moves = append(p.Moves[:i], p.Moves[i+1:]...)
		return true
	}, "no move")
	// A winner move at the last ply before the leaves that leads to a leaf
	// the winner does not win: only the leaf's search can tell.
	tamper("leaf not won", func(s *Strategy) bool {
		p := &s.Plies[len(s.Plies)-1]
		if p.Ply != s.LeafPly-1 {
			t.Fatalf("the last winner ply is %d, the leaves at %d", p.Ply, s.LeafPly)
		}
		keys := layerKeys(t, dir, p.Ply)
		for i, r := range p.Ranks {
			if m, ok := losingMove(t, keys[r], false); ok {
				p.Moves[i] = m
				return true
			}
		}
		return false
	}, "not won")
}

// TestStrategyFormat: the reader refuses damaged files, ranks out of order
// and moves that name no point; a sample of leaves is proved when asked.
func TestStrategyFormat(t *testing.T) {
	_, strat, _ := strategyCase(t, 33, 20, 4)
	var buf bytes.Buffer
	if err := strat.Write(&buf); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	bad := append([]byte(nil), data...)
	bad[len(bad)/2] ^= 0x10
	if _, err := ReadStrategy(bytes.NewReader(bad)); err == nil {
		t.Fatal("a damaged file reads")
	}
	s := roundTrip(t, strat)
	s.Plies[0].Moves[0] = 31 // between the points and the removals
	if _, err := ReadStrategy(bytes.NewReader(mustWrite(t, s))); err == nil {
		t.Fatal("a move naming no point reads")
	}
	s = roundTrip(t, strat)
	s.Winner = 2
	if _, err := ReadStrategy(bytes.NewReader(mustWrite(t, s))); err == nil {
		t.Fatal("a seat 2 reads")
	}
	// A count that lies (2^28 positions, none there) is refused without
	// taking its memory.
	var raw bytes.Buffer
	zw := gzip.NewWriter(&raw)
	zw.Write([]byte(strategyMagic))
	zw.Write([]byte{1, 0, 0, 0, 0, 0, 0, 0, 0, 12, 0, 1, 0, 0, 0, 0, 16})
	zw.Close()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if _, err := ReadStrategy(bytes.NewReader(raw.Bytes())); err == nil {
		t.Fatal("a file that claims 2^28 positions and holds none reads")
	}
	runtime.ReadMemStats(&after)
	if got := after.TotalAlloc - before.TotalAlloc; got > 256<<20 {
		t.Fatalf("reading it allocated %d bytes", got)
	}
	rep, err := CheckStrategy(context.Background(), roundTrip(t, strat), CheckOptions{Sample: 3, Seed: 1})
	if err != nil || rep.LeavesProved != min(3, rep.Leaves) {
		t.Fatalf("a sample of 3 leaves: %+v %v", rep, err)
	}
}

func mustWrite(t *testing.T, s *Strategy) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := s.Write(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestCommittedCheckpoint: the checkpoint of the run from the start, kept
// in the repository (solving/), is well formed — the layer of ply 12 from
// the start with its 9,778,214 positions, counts that agree with its bits.
// With SPLOOF_LONG=1 the layer is rebuilt (about 25 CPU seconds), the file
// must load against it, and two decided positions drawn at random must
// agree with the exact search (minutes each: run it with -timeout 1h).
func TestCommittedCheckpoint(t *testing.T) {
	path := filepath.Join("..", "..", "..", "solving", "sploof-ply12.wl.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no committed checkpoint: %v", err)
	}
	info, err := InspectCheckpoint(path)
	if err != nil {
		t.Fatal(err)
	}
	start := startState(t)
	n, _ := nodeFromBits(start.Bits())
	if info.RootKey != mustKey(&n) || info.Ply != 12 || info.Count != 9778214 {
		t.Fatalf("the checkpoint is of %016x ply %d with %d positions", info.RootKey, info.Ply, info.Count)
	}
	t.Logf("%d of %d decided, %d won for the side to move", info.Decided, info.Count, info.Wins)
	if !longSolve {
		return
	}
	ck, err := OpenCheckpoint(context.Background(), start, t.TempDir(), path, 12, 0)
	if err != nil {
		t.Fatal(err)
	}
	exact := New(1 << 26)
	rng := game.NewRNG(7)
	for checked := 0; checked < 2 && info.Decided > 0; {
		i := rng.IntN(ck.Len())
		known, win := ck.get(i)
		if !known {
			continue
		}
		st, err := sploof.FromBits(bitsOfKey(ck.keys[i]))
		if err != nil {
			t.Fatal(err)
		}
		if w := winnerOf(t, exact, st); (w == st.ToMove()) != win {
			t.Fatalf("decided position %d: recorded won %v, the exact search says seat %d wins", i, win, w)
		}
		checked++
	}
}

// TestLeafProverOrders: the checker's leaf search looks its children up
// before it searches any and orders its moves (blocks, threats, what
// refuted before), and agrees with the win/loss solver. On 5 positions 16
// plies into seeded random games it visits about 455,000 positions; with
// the moves that refuted before first but no look-ups ahead, blocks or
// threats, 702,000; in the rules engine's order, 3.9 million.
func TestLeafProverOrders(t *testing.T) {
	var nodes int64
	lp := &leafProver{ctx: context.Background(), memo: newLeafMemo(16 << 20)}
	for _, st := range positionsAt(16, 5) {
		lp.nodes = 0
		win, err := lp.wins(st, 0)
		if err != nil {
			t.Fatal(err)
		}
		nodes += lp.nodes
		r, err := NewWinLoss(WinLossOptions{TableBytes: 16 << 20, Workers: 1}).Solve(context.Background(), st)
		if err != nil {
			t.Fatal(err)
		}
		if win != (r.Winner == st.ToMove()) {
			t.Fatalf("the leaf search says the side to move wins: %v; the win/loss solver: seat %d wins", win, r.Winner)
		}
		lp.memo = newLeafMemo(16 << 20) // each position on its own, as the counts above
	}
	t.Logf("5 positions: %d positions visited", nodes)
	if nodes > 600_000 {
		t.Fatalf("5 positions took %d positions, more than 600,000", nodes)
	}
}

// TestStrategyCheckResumes: a full check with a progress file, stopped
// after it saved some proved leaves, leaves them in the file (as many as it
// reports); the same check again proves only the others and accepts the
// strategy; once every leaf is in the file a check proves none again. A
// progress file of another strategy, or damaged, is refused.
func TestStrategyCheckResumes(t *testing.T) {
	_, strat, _ := strategyCase(t, 31, 14, 4)
	path := filepath.Join(t.TempDir(), "progress.gz")

	// Stopped after its third leaf, once the periodic save has written some
	// proved leaves: the worker waits there for that save, so a loaded
	// machine on which the saver runs late cannot let the check end first.
	ctx, cancel := context.WithCancel(context.Background())
	saved := make(chan struct{})
	var once sync.Once
	leaves := 0
	stopped, err := CheckStrategy(ctx, strat, CheckOptions{Workers: 1, ProgressPath: path, ProgressEvery: time.Millisecond,
		Log: logFunc(func(s string) {
			if strings.HasSuffix(s, "(saved)\n") && !strings.HasPrefix(s, "0 ") {
				once.Do(func() { close(saved) })
			}
		}),
		leafDone: func() {
			if leaves++; leaves == 3 {
				<-saved
				cancel()
			}
		}})
	cancel()
	if err == nil {
		t.Fatalf("the check of %d leaves ended before it was stopped", stopped.Leaves)
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatal(err)
	}
	resumed, err := CheckStrategy(context.Background(), strat, CheckOptions{Workers: 2, ProgressPath: path,
		Log: logFunc(func(s string) {
			var before, of int
			if n, _ := fmt.Sscanf(s, "%d of %d leaves proved before", &before, &of); n == 2 && before != stopped.LeavesProved {
				t.Errorf("the file holds %d leaves proved, the stopped check had %d", before, stopped.LeavesProved)
			}
		})})
	if err != nil {
		t.Fatal(err)
	}
	// The stop is prompt: the worker proves no leaf after it (a leaf's
	// search alone looks at the context only every 4,096 positions).
	if stopped.LeavesProved != 3 {
		t.Fatalf("stopped after its third leaf, the check reports %d proved", stopped.LeavesProved)
	}
	if stopped.LeavesProved == 0 || stopped.LeavesProved >= resumed.Leaves {
		t.Fatalf("stopped with %d of %d leaves proved", stopped.LeavesProved, resumed.Leaves)
	}
	if resumed.LeavesProved != resumed.Leaves {
		t.Fatalf("resumed: %d of %d leaves proved", resumed.LeavesProved, resumed.Leaves)
	}
	t.Logf("%d leaves: %d proved before the stop (%d positions), the rest in %d positions", resumed.Leaves, stopped.LeavesProved, stopped.Nodes, resumed.Nodes)
	again, err := CheckStrategy(context.Background(), strat, CheckOptions{ProgressPath: path})
	if err != nil || again.Nodes != 0 || again.LeavesProved != again.Leaves {
		t.Fatalf("with every leaf in the file: %v, %d positions searched, %d of %d proved", err, again.Nodes, again.LeavesProved, again.Leaves)
	}

	// One leaf forgotten, and the check stopped on it at once (a budget of
	// one position, which a leaf that needs a search exceeds): it still
	// reports every leaf the file holds.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(zr)
	words := len(progressMagic) + 8 + 1 + 8 + 4
	stoppedOnOne := false
	for i := 0; i < resumed.Leaves && !stoppedOnOne; i++ {
		forgot := slices.Clone(raw)
		forgot[words+i/8] &^= 1 << (i % 8)
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(forgot)
		zw.Close()
		cutPath := filepath.Join(t.TempDir(), "cut.gz")
		os.WriteFile(cutPath, buf.Bytes(), 0o644)
		cut, err := CheckStrategy(context.Background(), strat, CheckOptions{Workers: 1, ProgressPath: cutPath, LeafNodes: 1})
		if err == nil {
			continue // that leaf took one position
		}
		if !errors.Is(err, ErrLeafBudget) || cut.LeavesProved != cut.Leaves-1 {
			t.Fatalf("stopped on leaf %d, the one not proved: %v, %d of %d reported proved", i, err, cut.LeavesProved, cut.Leaves)
		}
		stoppedOnOne = true
	}
	if !stoppedOnOne {
		t.Fatal("every leaf took one position")
	}

	_, other, _ := strategyCase(t, 40, 14, 4)
	if _, err := CheckStrategy(context.Background(), other, CheckOptions{ProgressPath: path}); err == nil || !strings.Contains(err.Error(), "another strategy") {
		t.Fatalf("another strategy's progress: %v", err)
	}
	data, _ = os.ReadFile(path)
	data[len(data)/2] ^= 0x10
	bad := filepath.Join(t.TempDir(), "bad.gz")
	os.WriteFile(bad, data, 0o644)
	if _, err := CheckStrategy(context.Background(), strat, CheckOptions{ProgressPath: bad}); err == nil {
		t.Fatal("a damaged progress file is read")
	}
}

// logFunc is a Log that hands each line to f.
type logFunc func(string)

func (f logFunc) Write(p []byte) (int, error) { f(string(p)); return len(p), nil }

// TestCommittedStrategy: the committed proof that Black wins Sploof from
// the start (solving/sploof-strategy.gz) is well formed — its root the
// start with first=white, Black the winner, its leaves at ply 12 — and the
// checker, which rebuilds its layers with the rules engine and walks it
// (every move of White, Black's given move), accepts it and proves a few of
// its leaves drawn at random, others every run. Every leaf is the full
// check's work (docs/solving.md).
func TestCommittedStrategy(t *testing.T) {
	strat := committedStrategy(t)
	n, _ := nodeFromBits(startState(t).Bits())
	if strat.RootKey != mustKey(&n) || strat.RootPly != 0 || strat.LeafPly != 12 || strat.Winner != 1 || strat.Entries() != 152750 {
		t.Fatalf("the strategy: root %016x (ply %d), seat %d wins, %d positions, leaves at ply %d", strat.RootKey, strat.RootPly, strat.Winner, strat.Entries(), strat.LeafPly)
	}
	seed := uint64(time.Now().UnixNano())
	walked := map[uint64]int{}
	rep, err := CheckStrategy(context.Background(), strat, CheckOptions{Workers: 2, Sample: committedSample, Seed: seed,
		visit: func(k uint64, m int) { walked[k] = m }})
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	checkCommittedBook(t, strat.Winner, walked)
	if rep.WinnerPositions != 152750 || rep.Leaves != 83003 || rep.LeavesProved != committedSample {
		t.Fatalf("walked %d positions with Black to move, %d leaves; %d proved", rep.WinnerPositions, rep.Leaves, rep.LeavesProved)
	}
	t.Logf("seed %d: %d leaves proved, %d positions searched", seed, rep.LeavesProved, rep.Nodes)
}

// committedStrategy reads solving/sploof-strategy.gz, the committed proof.
func committedStrategy(t *testing.T) *Strategy {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "..", "solving", "sploof-strategy.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	strat, err := ReadStrategy(f)
	if err != nil {
		t.Fatal(err)
	}
	return strat
}

// committedSample is how many of the committed strategy's leaves a test run
// proves.
const committedSample = 2

// TestLeafMemoExact: the memo answers only for the key it was given, though
// it keeps fewer bits of it than a key has: keys that share a slot (here
// 2^16 slots for 200,000 keys) push each other out, never answer for each
// other. Its workers read and write it side by side (run under -race).
func TestLeafMemoExact(t *testing.T) {
	m := newLeafMemo(1)
	if len(m.entries) != 1<<16 {
		t.Fatalf("%d entries, want 2^16", len(m.entries))
	}
	rng := game.NewRNG(9)
	keys := make([]uint64, 200_000)
	for i := range keys {
		keys[i] = rng.Uint64()
	}
	var wg sync.WaitGroup
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i, k := range keys {
				if i%2 == w {
					m.put(k, k&1 == 1)
				}
			}
		}()
	}
	wg.Wait()
	held := 0
	for _, k := range keys {
		win, ok := m.get(k)
		if ok {
			held++
			if win != (k&1 == 1) {
				t.Fatalf("key %016x: won %v, put %v", k, win, k&1 == 1)
			}
		}
		// The same slot, other keys: their h = k·c differ from k's in one
		// of the 48 low bits, which the entry keeps.
		for _, bit := range []uint{0, 20, 47} {
			other := (k*memoMul ^ 1<<bit) * memoInv
			if _, ok := m.get(other); ok {
				t.Fatalf("key %016x answered for %016x", other, k)
			}
		}
	}
	if held < 1<<15 || held > 1<<16 {
		t.Fatalf("%d keys held in 2^16 slots", held)
	}
}

// memoInv is memoMul's inverse modulo 2^64.
const memoInv = 0xf1de83e19937733d
