package solve

import (
	"context"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

func startState(t *testing.T) *sploof.State {
	t.Helper()
	st, err := sploof.Game{}.New(game.Options{"first": "white"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*sploof.State)
}

// TestForwardCountsFromTheStart: the forward sweep from the start finds
// the known numbers of distinct positions (symmetry reduced) of plies 6–10:
// those the game goes on in, which the layer keeps, and those the move into
// the layer ended it in, which it counts.
func TestForwardCountsFromTheStart(t *testing.T) {
	upTo := 10
	if testing.Short() {
		upTo = 8
	}
	dir := t.TempDir()
	// A small buffer, so that the layers past 7 go through runs on disk.
	res, err := Build(context.Background(), dir, startState(t), BuildOptions{MemBytes: 4 << 20, UpTo: upTo})
	if err != nil {
		t.Fatal(err)
	}
	want := map[int]int64{6: 20314, 7: 76529, 8: 286931, 9: 875047, 10: 2625743}
	for _, l := range res.Layers {
		t.Logf("ply %d: %d + %d over (%d runs)", l.Ply, l.Count, l.Over, l.Runs)
		if w, ok := want[l.Ply]; ok && l.Count+l.Over != w {
			t.Errorf("ply %d: %d positions (%d over), want %d", l.Ply, l.Count+l.Over, l.Over, w)
		}
	}
}

// lateRoot is a position from a random game some plies before its end but
// not before ply 22, whose database is small.
func lateRoot(t *testing.T, seed uint64, back int) *sploof.State {
	t.Helper()
	ps := gamePositions(seed)
	return ps[min(max(len(ps)-back, 22), len(ps)-1)]
}

// TestDatabaseAgreesWithSolver builds the whole database below positions
// from random games (forward, then backward) and compares the root's value
// and positions sampled from every layer with the search's result; the
// independent checker then accepts the database.
func TestDatabaseAgreesWithSolver(t *testing.T) {
	ctx := context.Background()
	sv := New(1 << 24)
	for _, seed := range []uint64{3, 11, 13} {
		root := lateRoot(t, seed, 6)
		dir := t.TempDir()
		res, err := Build(ctx, dir, root, BuildOptions{MemBytes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Complete {
			t.Fatalf("seed %d: not complete: %+v", seed, res)
		}
		sol, err := sv.Solve(ctx, root, 0)
		if err != nil || !sol.Proven {
			t.Fatal(sol, err)
		}
		if (sol.Winner == root.ToMove()) != res.Win || sol.Plies != res.Plies {
			t.Fatalf("seed %d: the database says win %v in %d, the solver seat %d wins in %d", seed, res.Win, res.Plies, sol.Winner, sol.Plies)
		}
		total, sampled := int64(0), 0
		b := &builder{dir: dir}
		for _, l := range res.Layers {
			total += l.Count
			tab, err := b.loadValued(l.Ply)
			if err != nil {
				t.Fatal(err)
			}
			step := max(len(tab.keys)/25, 1)
			for i := 0; i < len(tab.keys); i += step {
				st, err := sploof.FromBits(bitsOfKey(tab.keys[i]))
				if err != nil {
					t.Fatal(err)
				}
				w, pl := UnpackValue(tab.vals[i])
				if st.Outcome().Over() {
					if w || pl != 0 {
						t.Fatalf("a position without moves valued %v %d", w, pl)
					}
					continue
				}
				sol, err := sv.Solve(ctx, st, 0)
				if err != nil || !sol.Proven {
					t.Fatal(sol, err)
				}
				if (sol.Winner == st.ToMove()) != w || sol.Plies != pl {
					t.Fatalf("seed %d ply %d key %016x: database win %v in %d, solver seat %d in %d", seed, l.Ply, tab.keys[i], w, pl, sol.Winner, sol.Plies)
				}
				sampled++
			}
		}
		rep, err := VerifyDB(ctx, dir, BuildOptions{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		t.Logf("seed %d: root ply %d, %d layers, %d positions, win %v in %d; %d sampled agree\n%s",
			seed, res.RootPly, len(res.Layers), total, res.Win, res.Plies, sampled, rep)
	}
}

// copyDir copies a database directory.
func copyDir(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return to
}

// TestVerifyDBDetectsCorruption: the checker accepts a database as built,
// and refuses it with one value changed — whether the file's checksum
// gives it away or was forged to match, when only deriving the value again
// from the next layer shows it — and with a position missing from a layer.
func TestVerifyDBDetectsCorruption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	res, err := Build(ctx, dir, lateRoot(t, 3, 6), BuildOptions{MemBytes: 1 << 20})
	if err != nil || !res.Complete {
		t.Fatal(res, err)
	}
	if _, err := VerifyDB(ctx, dir, BuildOptions{}); err != nil {
		t.Fatalf("the database as built: %v", err)
	}
	mid := res.Layers[len(res.Layers)/2].Ply
	want := func(what, dir, sub string) {
		t.Helper()
		_, err := VerifyDB(ctx, dir, BuildOptions{})
		if err == nil {
			t.Fatalf("%s: accepted", what)
		}
		if !strings.Contains(err.Error(), sub) {
			t.Fatalf("%s: %v, want it to say %q", what, err, sub)
		}
		t.Logf("%s: %v", what, err)
	}
	corruptValue := func(forge bool) string {
		d := copyDir(t, dir)
		path := layerPath(d, mid, "vals")
		vals, _ := os.ReadFile(path)
		vals[len(vals)/2] ^= 1 // one ply more or less
		os.WriteFile(path, vals, 0o644)
		if forge {
			var vi ValueInfo
			readJSON(path+".json", &vi)
			vi.CRC = crc32.Checksum(vals, crcTable)
			writeJSON(path+".json", vi)
		}
		return d
	}
	want("a value changed", corruptValue(false), "checksum")
	want("a value changed, its checksum forged", corruptValue(true), fmt.Sprintf("layer %d, position", mid))

	// A position dropped from a layer, with its value, counts and
	// checksums made to match.
	d := copyDir(t, dir)
	b := &builder{dir: d}
	tab, err := b.loadValued(mid + 1)
	if err != nil {
		t.Fatal(err)
	}
	i := len(tab.keys) / 3
	keys := append(append([]uint64(nil), tab.keys[:i]...), tab.keys[i+1:]...)
	vals := append(append([]byte(nil), tab.vals[:i]...), tab.vals[i+1:]...)
	info, _, _ := b.layerInfo(mid + 1)
	kw, _ := createKeys(layerPath(d, mid+1, "keys"))
	for _, k := range keys {
		kw.put(k)
	}
	kw.close()
	info.Count, info.CRC = kw.count, kw.crc
	writeJSON(layerPath(d, mid+1, "keys.json"), info)
	os.WriteFile(layerPath(d, mid+1, "vals"), vals, 0o644)
	var vi ValueInfo
	readJSON(layerPath(d, mid+1, "vals.json"), &vi)
	vi.Count, vi.CRC = int64(len(vals)), crc32.Checksum(vals, crcTable)
	writeJSON(layerPath(d, mid+1, "vals.json"), vi)
	want("a position missing", d, "lacks")
}

// TestBuildResumes: a build stopped after some layers (by --upto, or by
// cancellation in the middle of a layer, leaving its temporary files) goes
// on from where it stopped without building a finished layer again, and
// ends where a build in one go ends.
func TestBuildResumes(t *testing.T) {
	ctx := context.Background()
	root := lateRoot(t, 11, 6)
	whole := t.TempDir()
	want, err := Build(ctx, whole, root, BuildOptions{MemBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	part, err := Build(ctx, dir, root, BuildOptions{MemBytes: 1 << 20, UpTo: want.RootPly + 4})
	if err != nil || part.Complete || len(part.Layers) != 5 {
		t.Fatalf("%+v %v", part, err)
	}
	// Each finished layer's file is dated an hour back: one built again
	// below would bear the time of the build, however quick.
	stamp := map[int]time.Time{}
	for _, l := range part.Layers {
		old := time.Now().Add(-time.Hour).Truncate(time.Second)
		if err := os.Chtimes(layerPath(dir, l.Ply, "keys"), old, old); err != nil {
			t.Fatal(err)
		}
		stamp[l.Ply] = old
	}
	// Stopped in the middle of the next layer.
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Build(cctx, dir, root, BuildOptions{MemBytes: 1 << 20}); err == nil {
		t.Fatal("a cancelled build reported no error")
	}
	os.WriteFile(layerPath(dir, want.RootPly+5, "keys.tmp"), []byte("half a layer"), 0o644)
	got, err := Build(ctx, dir, root, BuildOptions{MemBytes: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	if !got.Complete || got.Win != want.Win || got.Plies != want.Plies || len(got.Layers) != len(want.Layers) {
		t.Fatalf("resumed %+v, in one go %+v", got, want)
	}
	for i, l := range got.Layers {
		if l.Count != want.Layers[i].Count || l.CRC != want.Layers[i].CRC {
			t.Fatalf("layer %d: %+v, in one go %+v", l.Ply, l, want.Layers[i])
		}
		if ts, ok := stamp[l.Ply]; ok {
			if fi, _ := os.Stat(layerPath(dir, l.Ply, "keys")); !fi.ModTime().Equal(ts) {
				t.Fatalf("layer %d was built again", l.Ply)
			}
		}
	}
	// Another root in the same directory is refused.
	if _, err := Build(ctx, dir, lateRoot(t, 13, 6), BuildOptions{}); err == nil || !strings.Contains(err.Error(), "another position") {
		t.Fatalf("another root: %v", err)
	}
}

// BenchmarkExpand: the forward sweep's work per position (its child keys,
// symmetry reduced), on positions of ply 12 from random games.
func BenchmarkExpand(b *testing.B) {
	var keys []uint64
	for seed := uint64(1); len(keys) < 1000; seed++ {
		ps := gamePositions(seed)
		if len(ps) > 12 {
			n, err := nodeFromBits(ps[12].Bits())
			if err != nil {
				b.Fatal(err)
			}
			k, _ := n.key()
			keys = append(keys, k)
		}
	}
	out := make([]uint64, 0, 64)
	children := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		n := nodeFromKey(keys[i%len(keys)])
		out = childKeys(&n, out[:0])
		children += len(out)
	}
	b.ReportMetric(float64(children)/float64(b.N), "children/op")
}

// BenchmarkRadixSort: sorting child keys, per key.
func BenchmarkRadixSort(b *testing.B) {
	const n = 1 << 22
	a, tmp := make([]uint64, n), make([]uint64, n)
	rng := game.NewRNG(1)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		for j := range a {
			a[j] = rng.Uint64()&(1<<60-1) | 1<<63
		}
		b.StartTimer()
		radixSort(a, tmp)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/n, "ns/key")
}
