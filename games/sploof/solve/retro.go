package solve

// Layered retrograde analysis: Sploof solved as a graph rather than a tree.
//
// Every move adds one to the ply (a placement one ball on the board, a
// removal one red gone; a drop moves balls down but never changes their
// number), and the ply follows from the position itself. So the positions
// reachable from a root fall into layers by ply, every move leads from one
// layer to the next, and the game is solved in two sweeps:
//
//   - forward, layer by layer: the next layer is the set of the canonical
//     keys (symmetry reduced, see node.key) of every position one move after
//     a position of this layer and not over with that move; kept sorted and
//     unique in a file, built in memory up to a budget and beyond it in
//     sorted runs on disk merged at the end;
//   - backward, from the last layer (whose positions' moves all end the
//     game) to the root: a position's value follows from its moves — those
//     that end the game, and the values of the next layer's positions the
//     others lead to.
//
// A value is one byte: valueWin for a win of the side to move, plus the
// plies the game lasts with best play (the winner hurrying, the loser
// holding out — the solver's measure).
//
// A directory holds one build: root.json (the root's key), and per layer
// layer-PP.keys (the keys, uint64 little-endian, ascending) with
// layer-PP.keys.json (its count and CRC, written last: a layer with it is
// finished and never rebuilt) and, once valued, layer-PP.vals (a byte per
// key, in the keys' order) with layer-PP.vals.json.

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tabula-games/tabula/games/sploof"
)

// valueWin marks a won value; the low 7 bits are the plies left.
const valueWin = 0x80

func packValue(win bool, plies int) byte {
	if win {
		return valueWin | byte(plies)
	}
	return byte(plies)
}

// UnpackValue reads a database value: whether the side to move wins, and
// in how many plies the game ends with best play.
func UnpackValue(v byte) (win bool, plies int) { return v&valueWin != 0, int(v &^ valueWin) }

var crcTable = crc32.MakeTable(crc32.Castagnoli)

// LayerInfo describes a finished layer of keys.
type LayerInfo struct {
	Ply      int     `json:"ply"`
	Count    int64   `json:"count"` // positions in the layer's file: the game goes on
	Over     int64   `json:"over"`  // positions the move into the layer ended the game in (not kept)
	CRC      uint32  `json:"crc32c"`
	Children int64   `json:"children"` // child keys generated from the layer before (with repeats)
	Runs     int     `json:"runs"`     // sorted runs spilled to disk
	Seconds  float64 `json:"seconds"`
	CPU      float64 `json:"cpuSeconds"` // user and system time of the process over the layer, all threads
	PeakMiB  int64   `json:"peakRssMiB"` // the process's peak resident memory so far
	Finished string  `json:"finished"`
}

// ValueInfo describes a valued layer.
type ValueInfo struct {
	Ply      int     `json:"ply"`
	Count    int64   `json:"count"`
	CRC      uint32  `json:"crc32c"`
	Wins     int64   `json:"wins"` // positions won for the side to move
	Seconds  float64 `json:"seconds"`
	CPU      float64 `json:"cpuSeconds"`
	PeakMiB  int64   `json:"peakRssMiB"`
	Finished string  `json:"finished"`
}

type rootInfo struct {
	Key string `json:"key"`
	Ply int    `json:"ply"`
}

// BuildOptions tune a build.
type BuildOptions struct {
	// MemBytes bounds the forward sweep's buffer of child keys (0: 1 GiB);
	// beyond it sorted runs go to disk. The backward sweep holds two
	// layers' keys and values in memory whatever it says.
	MemBytes int64
	// Workers is the number of goroutines expanding or valuing positions
	// (0: GOMAXPROCS).
	Workers int
	// UpTo stops the forward sweep once the layer of this ply is finished
	// (0: go on to the end of the game, then value every layer).
	UpTo int
	// Log receives a line per finished layer (nil: nothing).
	Log io.Writer
}

// BuildResult is where a build stands.
type BuildResult struct {
	RootPly  int
	Layers   []LayerInfo // finished layers, root first
	Valued   []ValueInfo // valued layers, last first
	Complete bool        // the root is valued
	Win      bool        // with Complete: the side to move at the root wins
	Plies    int         // with Complete: in this many plies
}

func layerPath(dir string, ply int, ext string) string {
	return filepath.Join(dir, fmt.Sprintf("layer-%02d.%s", ply, ext))
}

// writeJSON writes v to path through a temporary file and a rename, so that
// the file is there whole or not at all.
func writeJSON(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

func readJSON(path string, v any) (bool, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return false, fmt.Errorf("%s: %v", path, err)
	}
	return true, nil
}

// keyWriter writes keys to a file, counting them and summing their CRC.
// With filter set it writes only the keys whose turn bit is turn and
// counts the others in over.
type keyWriter struct {
	f      *os.File
	w      *bufio.Writer
	crc    uint32
	count  int64
	filter bool
	turn   uint64
	over   int64
	buf    [8]byte
}

func createKeys(path string) (*keyWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	return &keyWriter{f: f, w: bufio.NewWriterSize(f, 1<<20)}, nil
}

func (kw *keyWriter) put(k uint64) error {
	if kw.filter && k&overMark != kw.turn {
		kw.over++
		return nil
	}
	binary.LittleEndian.PutUint64(kw.buf[:], k)
	kw.crc = crc32.Update(kw.crc, crcTable, kw.buf[:])
	kw.count++
	_, err := kw.w.Write(kw.buf[:])
	return err
}

func (kw *keyWriter) close() error {
	err := kw.w.Flush()
	if err2 := kw.f.Close(); err == nil {
		err = err2
	}
	return err
}

// keyReader reads keys from a file in order.
type keyReader struct {
	f   *os.File
	r   *bufio.Reader
	buf [8]byte
}

func openKeys(path string) (*keyReader, error) { return openKeysBuffered(path, 1<<20) }

func openKeysBuffered(path string, size int) (*keyReader, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	return &keyReader{f: f, r: bufio.NewReaderSize(f, size)}, nil
}

// next returns the next key; ok is false at the end.
func (kr *keyReader) next() (k uint64, ok bool, err error) {
	if _, err := io.ReadFull(kr.r, kr.buf[:]); err != nil {
		if err == io.EOF {
			return 0, false, nil
		}
		return 0, false, err
	}
	return binary.LittleEndian.Uint64(kr.buf[:]), true, nil
}

func (kr *keyReader) close() { kr.f.Close() }

// loadKeys reads a whole keys file (n keys) into memory.
func loadKeys(path string, n int64) ([]uint64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	keys := make([]uint64, n)
	if n == 0 {
		return keys, nil
	}
	raw := unsafe.Slice((*byte)(unsafe.Pointer(&keys[0])), n*8)
	if _, err := io.ReadFull(f, raw); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if !littleEndian {
		for i, k := range keys {
			keys[i] = binary.LittleEndian.Uint64(unsafe.Slice((*byte)(unsafe.Pointer(&k)), 8))
		}
	}
	return keys, nil
}

var littleEndian = func() bool { x := uint16(1); return *(*byte)(unsafe.Pointer(&x)) == 1 }()

// Build builds (or goes on building) the database of the positions
// reachable from st in dir: the forward sweep to the end of the game (or to
// opt.UpTo), then the backward one. Finished layers and values are kept:
// run it again after an interruption and it goes on where it stopped.
func Build(ctx context.Context, dir string, st *sploof.State, opt BuildOptions) (BuildResult, error) {
	if !st.DefaultRules() {
		return BuildResult{}, fmt.Errorf("sploof database: only the default rules (supply=finite, bothlines=mover)")
	}
	if st.Outcome().Over() {
		return BuildResult{}, fmt.Errorf("sploof database: the game is over")
	}
	n, err := nodeFromBits(st.Bits())
	if err != nil {
		return BuildResult{}, fmt.Errorf("sploof database: %w", err)
	}
	if opt.MemBytes <= 0 {
		opt.MemBytes = 1 << 30
	}
	if opt.Workers <= 0 {
		opt.Workers = runtime.GOMAXPROCS(0)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return BuildResult{}, err
	}
	rootKey, _ := n.key()
	root := rootInfo{Key: fmt.Sprintf("%016x", rootKey), Ply: int(n.ply)}
	var had rootInfo
	if ok, err := readJSON(filepath.Join(dir, "root.json"), &had); err != nil {
		return BuildResult{}, err
	} else if ok && had != root {
		return BuildResult{}, fmt.Errorf("sploof database: %s holds the build of another position (root %s at ply %d)", dir, had.Key, had.Ply)
	} else if !ok {
		if err := writeJSON(filepath.Join(dir, "root.json"), root); err != nil {
			return BuildResult{}, err
		}
	}
	b := &builder{dir: dir, opt: opt}
	res := BuildResult{RootPly: root.Ply}

	// Forward.
	last := -1
	for p := root.Ply; ; p++ {
		info, ok, err := b.layerInfo(p)
		if err != nil {
			return res, err
		}
		if !ok {
			if p == root.Ply {
				info, err = b.writeLayer(p, []uint64{rootKey}, rootKey&overMark, 1, time.Now(), cpuSeconds())
			} else {
				info, err = b.expand(ctx, p-1)
			}
			if err != nil {
				return res, err
			}
			b.logf("layer %2d: %13d positions, %d of them over (%d child keys, %d runs on disk) in %s (CPU %s), peak RSS %d MiB\n",
				p, info.Count+info.Over, info.Over, info.Children, info.Runs, fmtSeconds(info.Seconds), fmtSeconds(info.CPU), info.PeakMiB)
		}
		if info.Count == 0 {
			last = p - 1
			break
		}
		res.Layers = append(res.Layers, info)
		if opt.UpTo > 0 && p >= opt.UpTo {
			return res, nil
		}
	}

	// Backward.
	for p := last; p >= root.Ply; p-- {
		vi, ok, err := b.valueInfo(p)
		if err != nil {
			return res, err
		}
		if !ok {
			if vi, err = b.value(ctx, p); err != nil {
				return res, err
			}
			b.logf("values %2d: %13d positions, %d won for the side to move, in %s (CPU %s), peak RSS %d MiB\n",
				p, vi.Count, vi.Wins, fmtSeconds(vi.Seconds), fmtSeconds(vi.CPU), vi.PeakMiB)
		}
		res.Valued = append(res.Valued, vi)
	}
	v, err := b.rootValue(root.Ply)
	if err != nil {
		return res, err
	}
	res.Complete = true
	res.Win, res.Plies = UnpackValue(v)
	return res, nil
}

func fmtSeconds(s float64) string { return (time.Duration(s*10) * time.Second / 10).String() }

type builder struct {
	dir string
	opt BuildOptions
}

func (b *builder) logf(format string, a ...any) {
	if b.opt.Log != nil {
		fmt.Fprintf(b.opt.Log, format, a...)
	}
}

// layerInfo reads a finished layer's description; ok is false when the
// layer is not finished.
func (b *builder) layerInfo(p int) (LayerInfo, bool, error) {
	var info LayerInfo
	ok, err := readJSON(layerPath(b.dir, p, "keys.json"), &info)
	if err != nil || !ok {
		return info, false, err
	}
	fi, err := os.Stat(layerPath(b.dir, p, "keys"))
	if err != nil {
		return info, false, err
	}
	if fi.Size() != info.Count*8 {
		return info, false, fmt.Errorf("layer %d: %d bytes of keys for %d positions", p, fi.Size(), info.Count)
	}
	return info, true, nil
}

func (b *builder) valueInfo(p int) (ValueInfo, bool, error) {
	var info ValueInfo
	ok, err := readJSON(layerPath(b.dir, p, "vals.json"), &info)
	return info, ok, err
}

// writeLayer writes a whole layer from memory (sorted, unique): the keys
// whose turn bit is turn, and counts the others (games over).
func (b *builder) writeLayer(p int, keys []uint64, turn uint64, children int64, t0 time.Time, cpu0 float64) (LayerInfo, error) {
	path := layerPath(b.dir, p, "keys")
	kw, err := createKeys(path + ".tmp")
	if err != nil {
		return LayerInfo{}, err
	}
	kw.filter, kw.turn = true, turn
	for _, k := range keys {
		if err := kw.put(k); err != nil {
			kw.close()
			return LayerInfo{}, err
		}
	}
	return b.finishLayer(p, kw, children, 0, t0, cpu0)
}

func (b *builder) finishLayer(p int, kw *keyWriter, children int64, runs int, t0 time.Time, cpu0 float64) (LayerInfo, error) {
	if err := kw.close(); err != nil {
		return LayerInfo{}, err
	}
	path := layerPath(b.dir, p, "keys")
	if err := os.Rename(path+".tmp", path); err != nil {
		return LayerInfo{}, err
	}
	info := LayerInfo{Ply: p, Count: kw.count, Over: kw.over, CRC: kw.crc, Children: children, Runs: runs,
		Seconds: time.Since(t0).Seconds(), CPU: cpuSeconds() - cpu0, PeakMiB: peakMiB(), Finished: time.Now().UTC().Format(time.RFC3339)}
	return info, writeJSON(layerPath(b.dir, p, "keys.json"), info)
}

// overMark marks the key of a position that the move into it ended the
// game in. All the positions of a layer have one side to move, so the turn
// bit, flipped, tells them apart from the others; they are counted, not
// kept (a position has a line on the board exactly when the game is over,
// so a key is never both).
const overMark = 1 << turnPos

// childKeys appends the keys of the positions one move after n, those where
// the move ended the game with overMark flipped.
func childKeys(n *node, out []uint64) []uint64 {
	occ := n.occ()
	pm, rm := n.moveMasks(occ)
	for m := pm; m != 0; m &= m - 1 {
		c := *n
		over := c.place(trailing(m), occ)
		k, _ := c.key()
		if over {
			k ^= overMark
		}
		out = append(out, k)
	}
	for m := rm; m != 0; m &= m - 1 {
		c := *n
		over := c.play(uint8(sploof.RemoveFlag+trailing(m))) != 0
		k, _ := c.key()
		if over {
			k ^= overMark
		}
		out = append(out, k)
	}
	return out
}

// parentChunk is how many parents a worker expands at a time.
const parentChunk = 1 << 14

// expand builds layer p+1 from layer p.
func (b *builder) expand(ctx context.Context, p int) (LayerInfo, error) {
	t0, cpu0 := time.Now(), cpuSeconds()
	next := p + 1
	runDir := filepath.Join(b.dir, fmt.Sprintf("runs-%02d", next))
	if err := os.RemoveAll(runDir); err != nil {
		return LayerInfo{}, err
	}
	kr, err := openKeys(layerPath(b.dir, p, "keys"))
	if err != nil {
		return LayerInfo{}, err
	}
	defer kr.close()

	// The next layer's side to move is the other one.
	turn := uint64(overMark)
	if first, ok, err := kr.next(); err != nil || !ok {
		return LayerInfo{}, fmt.Errorf("layer %d: no positions to expand (%v)", p, err)
	} else {
		turn = first&overMark ^ overMark
	}
	kr.close()
	if kr, err = openKeys(layerPath(b.dir, p, "keys")); err != nil {
		return LayerInfo{}, err
	}

	// The buffer and the sort's scratch: the memory budget, or less when
	// the layer cannot make that many child keys (a position has at most
	// 30 moves).
	capKeys := int(b.opt.MemBytes / 16)
	if parents, ok, _ := b.layerInfo(p); ok {
		capKeys = min(capKeys, int(min(parents.Count*30, 1<<40)))
	}
	capKeys = max(capKeys, 1<<16)
	buf := make([]uint64, 0, capKeys)
	scratch := make([]uint64, capKeys)

	jobs := make(chan []uint64, b.opt.Workers)
	results := make(chan []uint64, b.opt.Workers)
	free := make(chan []uint64, 4*b.opt.Workers)
	var wg sync.WaitGroup
	for w := 0; w < b.opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for chunk := range jobs {
				var out []uint64
				select {
				case out = <-free:
					out = out[:0]
				default:
					out = make([]uint64, 0, parentChunk*24)
				}
				for _, k := range chunk {
					n := nodeFromKey(k)
					out = childKeys(&n, out)
				}
				results <- out
			}
		}()
	}
	var readErr error
	go func() {
		defer close(jobs)
		for {
			chunk := make([]uint64, 0, parentChunk)
			for len(chunk) < parentChunk {
				k, ok, err := kr.next()
				if err != nil {
					readErr = err
					break
				}
				if !ok {
					break
				}
				chunk = append(chunk, k)
			}
			if len(chunk) == 0 || ctx.Err() != nil {
				return
			}
			jobs <- chunk
			if len(chunk) < parentChunk {
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	var runs []string
	var children int64
	var spillErr error
	spill := func() {
		path := filepath.Join(runDir, fmt.Sprintf("run-%04d", len(runs)))
		if len(runs) == 0 {
			if spillErr = os.MkdirAll(runDir, 0o755); spillErr != nil {
				return
			}
		}
		kw, err := createKeys(path)
		if err != nil {
			spillErr = err
			return
		}
		for _, k := range buf {
			if err := kw.put(k); err != nil {
				spillErr = err
				break
			}
		}
		if err := kw.close(); err != nil && spillErr == nil {
			spillErr = err
		}
		runs = append(runs, path)
		buf = buf[:0]
	}
	for out := range results {
		children += int64(len(out))
		if spillErr != nil {
			continue // drain
		}
		rest := out
		for len(rest) > 0 {
			room := cap(buf) - len(buf)
			if room == 0 {
				// Sort and fold repeats; when that frees less than half
				// the buffer, the keys go to disk as a run.
				radixSort(buf, scratch)
				buf = dedupe(buf)
				if len(buf) > cap(buf)/2 {
					spill()
				}
				continue
			}
			take := min(room, len(rest))
			buf = append(buf, rest[:take]...)
			rest = rest[take:]
		}
		select {
		case free <- out:
		default:
		}
	}
	if readErr != nil {
		return LayerInfo{}, readErr
	}
	if spillErr != nil {
		return LayerInfo{}, spillErr
	}
	if err := ctx.Err(); err != nil {
		return LayerInfo{}, err
	}
	radixSort(buf, scratch)
	buf = dedupe(buf)
	if len(runs) == 0 {
		info, err := b.writeLayer(next, buf, turn, children, t0, cpu0)
		return info, err
	}
	spill()
	if spillErr != nil {
		return LayerInfo{}, spillErr
	}
	buf, scratch = nil, nil // the merge needs little memory
	kw, err := createKeys(layerPath(b.dir, next, "keys") + ".tmp")
	if err != nil {
		return LayerInfo{}, err
	}
	kw.filter, kw.turn = true, turn
	if err := mergeRuns(ctx, runs, kw); err != nil {
		kw.close()
		return LayerInfo{}, err
	}
	info, err := b.finishLayer(next, kw, children, len(runs), t0, cpu0)
	if err != nil {
		return info, err
	}
	return info, os.RemoveAll(runDir)
}

// mergeRuns merges sorted runs into kw, each key once.
func mergeRuns(ctx context.Context, runs []string, kw *keyWriter) error {
	type head struct {
		k uint64
		r *keyReader
	}
	var h []head
	push := func(x head) {
		h = append(h, x)
		for i := len(h) - 1; i > 0; {
			j := (i - 1) / 2
			if h[j].k <= h[i].k {
				break
			}
			h[i], h[j] = h[j], h[i]
			i = j
		}
	}
	down := func() {
		for i := 0; ; {
			l, s := 2*i+1, i
			if l < len(h) && h[l].k < h[s].k {
				s = l
			}
			if l+1 < len(h) && h[l+1].k < h[s].k {
				s = l + 1
			}
			if s == i {
				return
			}
			h[i], h[s] = h[s], h[i]
			i = s
		}
	}
	// Each run's read buffer: 1 MiB, less when there are many.
	size := min(1<<20, max(1<<12, (256<<20)/len(runs)))
	for _, path := range runs {
		r, err := openKeysBuffered(path, size)
		if err != nil {
			return err
		}
		defer r.close()
		k, ok, err := r.next()
		if err != nil {
			return err
		}
		if ok {
			push(head{k, r})
		}
	}
	first, prev := true, uint64(0)
	for n := 0; len(h) > 0; n++ {
		if n&(1<<20-1) == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		top := h[0]
		if first || top.k != prev {
			if err := kw.put(top.k); err != nil {
				return err
			}
			first, prev = false, top.k
		}
		k, ok, err := top.r.next()
		if err != nil {
			return err
		}
		if ok {
			h[0].k = k
		} else {
			h[0] = h[len(h)-1]
			h = h[:len(h)-1]
		}
		down()
	}
	return nil
}

// layerTable is a valued layer in memory, for looking up the positions a
// move leads to.
type layerTable struct {
	keys []uint64
	vals []byte
}

// find returns the index of k, or -1.
func (t *layerTable) find(k uint64) int {
	lo, hi := 0, len(t.keys)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.keys[m] < k {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(t.keys) && t.keys[lo] == k {
		return lo
	}
	return -1
}

// loadValued loads layer p's keys and values (an empty table when the
// layer is empty).
func (b *builder) loadValued(p int) (*layerTable, error) {
	info, ok, err := b.layerInfo(p)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, fmt.Errorf("layer %d is not built", p)
	}
	if info.Count == 0 {
		return &layerTable{}, nil
	}
	keys, err := loadKeys(layerPath(b.dir, p, "keys"), info.Count)
	if err != nil {
		return nil, err
	}
	vals, err := os.ReadFile(layerPath(b.dir, p, "vals"))
	if err != nil {
		return nil, err
	}
	if int64(len(vals)) != info.Count {
		return nil, fmt.Errorf("layer %d: %d values for %d positions", p, len(vals), info.Count)
	}
	return &layerTable{keys: keys, vals: vals}, nil
}

// nodeValue is the value of n from the values of the next layer.
func nodeValue(n *node, next *layerTable) (byte, error) {
	occ := n.occ()
	pm, rm := n.moveMasks(occ)
	if pm|rm == 0 {
		return packValue(false, 0), nil // no move: lost, over
	}
	bestWin, longestLoss := 1<<30, -1
	add := func(win bool, plies int) {
		if win {
			bestWin = min(bestWin, plies)
		} else {
			longestLoss = max(longestLoss, plies)
		}
	}
	child := func(c *node) error {
		k, _ := c.key()
		i := next.find(k)
		if i < 0 {
			return fmt.Errorf("position %016x is missing from layer %d", k, c.ply)
		}
		w, pl := UnpackValue(next.vals[i])
		add(!w, pl+1)
		return nil
	}
	for m := pm; m != 0; m &= m - 1 {
		c := *n
		if c.place(trailing(m), occ) {
			add(true, 1)
			continue
		}
		if err := child(&c); err != nil {
			return 0, err
		}
	}
	for m := rm; m != 0; m &= m - 1 {
		c := *n
		switch c.play(uint8(sploof.RemoveFlag + trailing(m))) {
		case 1:
			add(true, 1)
		case -1:
			add(false, 1)
		default:
			if err := child(&c); err != nil {
				return 0, err
			}
		}
	}
	if bestWin < 1<<30 {
		return packValue(true, bestWin), nil
	}
	return packValue(false, longestLoss), nil
}

// value values layer p from layer p+1.
func (b *builder) value(ctx context.Context, p int) (ValueInfo, error) {
	t0, cpu0 := time.Now(), cpuSeconds()
	info, ok, err := b.layerInfo(p)
	if err != nil || !ok {
		return ValueInfo{}, fmt.Errorf("layer %d is not built (%v)", p, err)
	}
	next, err := b.loadValued(p + 1)
	if err != nil {
		return ValueInfo{}, err
	}
	keys, err := loadKeys(layerPath(b.dir, p, "keys"), info.Count)
	if err != nil {
		return ValueInfo{}, err
	}
	vals := make([]byte, len(keys))
	if err := parallelChunks(ctx, len(keys), b.opt.Workers, func(lo, hi int) error {
		for i := lo; i < hi; i++ {
			n := nodeFromKey(keys[i])
			v, err := nodeValue(&n, next)
			if err != nil {
				return err
			}
			vals[i] = v
		}
		return nil
	}); err != nil {
		return ValueInfo{}, fmt.Errorf("values of layer %d: %w", p, err)
	}
	var wins int64
	for _, v := range vals {
		if v&valueWin != 0 {
			wins++
		}
	}
	path := layerPath(b.dir, p, "vals")
	if err := os.WriteFile(path+".tmp", vals, 0o644); err != nil {
		return ValueInfo{}, err
	}
	if err := os.Rename(path+".tmp", path); err != nil {
		return ValueInfo{}, err
	}
	vi := ValueInfo{Ply: p, Count: int64(len(vals)), CRC: crc32.Checksum(vals, crcTable), Wins: wins,
		Seconds: time.Since(t0).Seconds(), CPU: cpuSeconds() - cpu0, PeakMiB: peakMiB(), Finished: time.Now().UTC().Format(time.RFC3339)}
	return vi, writeJSON(layerPath(b.dir, p, "vals.json"), vi)
}

func (b *builder) rootValue(p int) (byte, error) {
	vals, err := os.ReadFile(layerPath(b.dir, p, "vals"))
	if err != nil {
		return 0, err
	}
	if len(vals) != 1 {
		return 0, fmt.Errorf("the root layer holds %d values", len(vals))
	}
	return vals[0], nil
}

// parallelChunks runs f over [0, n) in chunks on workers goroutines and
// returns the first error.
func parallelChunks(ctx context.Context, n, workers int, f func(lo, hi int) error) error {
	const chunk = 1 << 14
	var first firstError
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				lo := int(next.Add(chunk)) - chunk
				if lo >= n || first.get() != nil {
					return
				}
				err := ctx.Err()
				if err == nil {
					err = f(lo, min(lo+chunk, n))
				}
				if err != nil {
					first.set(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	return first.get()
}
