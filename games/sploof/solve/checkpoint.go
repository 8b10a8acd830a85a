package solve

// The win/loss search's checkpoint: what it has decided of one layer of the
// database's forward sweep (by default ply 12 from the start: 9,778,214
// positions), two bits a position — decided, and won for the side to move —
// indexed by the position's rank in the layer's sorted keys. The layer is
// rebuilt in seconds by the forward sweep (Build with UpTo), so the
// checkpoint alone (a few MB, less compressed) carries the work of a run
// from one machine or day to the next: a run started again rebuilds the
// layer, loads the checkpoint, and every position it records is decided at
// once.

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"sort"
	"sync/atomic"
	"time"

	"github.com/tabula-games/tabula/games/sploof"
)

// checkpointMagic opens a checkpoint file (inside its gzip stream).
const checkpointMagic = "SPWLCKP1"

// Checkpoint is the decided positions of one layer.
type Checkpoint struct {
	Ply      uint8  // the layer's ply
	RootKey  uint64 // the key of the position the layers were built from
	keys     []uint64
	layerCRC uint32
	words    []uint32 // 16 positions a word: bit 2i decided, bit 2i+1 won for the side to move
	decided  atomic.Int64
	wins     atomic.Int64
}

// newCheckpoint is an empty checkpoint over a layer's keys.
func newCheckpoint(rootKey uint64, ply uint8, keys []uint64) *Checkpoint {
	return &Checkpoint{Ply: ply, RootKey: rootKey, keys: keys, layerCRC: crcOfKeys(keys), words: make([]uint32, (len(keys)+15)/16)}
}

// Len is the number of positions in the layer.
func (c *Checkpoint) Len() int { return len(c.keys) }

// Decided is how many of the layer's positions are decided, and how many of
// those are won for the side to move.
func (c *Checkpoint) Decided() (decided, wins int64) { return c.decided.Load(), c.wins.Load() }

// rank is key's index in the layer, or -1.
func (c *Checkpoint) rank(key uint64) int {
	i := sort.Search(len(c.keys), func(i int) bool { return c.keys[i] >= key })
	if i < len(c.keys) && c.keys[i] == key {
		return i
	}
	return -1
}

// get reads position i.
func (c *Checkpoint) get(i int) (known, win bool) {
	w := atomic.LoadUint32(&c.words[i/16]) >> (2 * (i % 16))
	return w&1 != 0, w&2 != 0
}

// set records position i's result (a second record of it changes nothing:
// a position has one value).
func (c *Checkpoint) set(i int, win bool) {
	bit := uint32(1) << (2 * (i % 16))
	if win {
		bit |= bit << 1
	}
	old := atomic.OrUint32(&c.words[i/16], bit)
	if old&(1<<(2*(i%16))) == 0 {
		c.decided.Add(1)
		if win {
			c.wins.Add(1)
		}
	}
}

// Save writes the checkpoint to path whole or not at all: a temporary file
// beside it, synced, then renamed over it.
func (c *Checkpoint) Save(path string) error {
	if err := saveAtomic(path, c.write); err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return nil
}

// write is the file's format: a gzip stream (whose CRC guards the rest)
// of the magic, the root's key, the ply, the layer's count and its keys'
// CRC-32C, the decided and won counts (little-endian: 8, 8, 4, 8, 4, 8, 8
// bytes), then the two bits of each position, four a byte, the first in
// the low bits.
func (c *Checkpoint) write(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(checkpointMagic)
	var h [40]byte
	binary.LittleEndian.PutUint64(h[0:], c.RootKey)
	binary.LittleEndian.PutUint32(h[8:], uint32(c.Ply))
	binary.LittleEndian.PutUint64(h[12:], uint64(len(c.keys)))
	binary.LittleEndian.PutUint32(h[20:], c.layerCRC)
	// The counts are taken from the bits written, not the running
	// counters, so that the file agrees with itself while workers go on.
	words := make([]uint32, len(c.words))
	for i := range words {
		words[i] = atomic.LoadUint32(&c.words[i])
	}
	dec, wins := countBits(words)
	binary.LittleEndian.PutUint64(h[24:], uint64(dec))
	binary.LittleEndian.PutUint64(h[32:], uint64(wins))
	bw.Write(h[:])
	nbytes := (len(c.keys) + 3) / 4
	var b [4]byte
	for i, wd := range words {
		binary.LittleEndian.PutUint32(b[:], wd)
		bw.Write(b[:min(4, nbytes-4*i)])
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// countBits counts the decided positions and the won ones.
func countBits(words []uint32) (decided, wins int64) {
	for _, w := range words {
		decided += int64(bits.OnesCount32(w & 0x55555555))
		wins += int64(bits.OnesCount32(w & 0xAAAAAAAA))
	}
	return decided, wins
}

// load reads a checkpoint file into c, which must be of the same layer:
// same root, ply, count and keys' checksum. Its records are added to c's.
func (c *Checkpoint) load(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := c.read(f); err != nil {
		return fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return nil
}

func (c *Checkpoint) read(r io.Reader) error {
	info, words, err := parseCheckpoint(r)
	if err != nil {
		return err
	}
	switch {
	case info.RootKey != c.RootKey:
		return fmt.Errorf("made from the position %016x, not %016x", info.RootKey, c.RootKey)
	case info.Ply != int(c.Ply):
		return fmt.Errorf("of the layer of ply %d, not %d", info.Ply, c.Ply)
	case info.Count != int64(len(c.keys)) || info.LayerCRC != c.layerCRC:
		return fmt.Errorf("of a layer of %d positions (keys' CRC %08x); the rebuilt layer has %d (%08x)", info.Count, info.LayerCRC, len(c.keys), c.layerCRC)
	}
	for i, w := range words {
		for m := w & 0x55555555; m != 0; m &= m - 1 {
			j := bits.TrailingZeros32(m) / 2
			c.set(16*i+j, w>>(2*j)&2 != 0)
		}
	}
	return nil
}

// CheckpointInfo is what a checkpoint file says of itself.
type CheckpointInfo struct {
	RootKey  uint64
	Ply      int
	Count    int64  // positions in the layer
	LayerCRC uint32 // CRC-32C of the layer's keys
	Decided  int64
	Wins     int64 // decided positions won for the side to move
}

// InspectCheckpoint reads a checkpoint file and checks its format without
// the layer: the magic, the gzip stream's CRC, the bits' length, no
// position won but undecided, counts that agree with the bits.
func InspectCheckpoint(path string) (CheckpointInfo, error) {
	f, err := os.Open(path)
	if err != nil {
		return CheckpointInfo{}, err
	}
	defer f.Close()
	info, _, err := parseCheckpoint(f)
	if err != nil {
		return info, fmt.Errorf("checkpoint %s: %w", path, err)
	}
	return info, nil
}

func parseCheckpoint(r io.Reader) (CheckpointInfo, []uint32, error) {
	var info CheckpointInfo
	zr, err := gzip.NewReader(r)
	if err != nil {
		return info, nil, err
	}
	br := bufio.NewReader(zr)
	head := make([]byte, len(checkpointMagic)+40)
	if _, err := io.ReadFull(br, head); err != nil {
		return info, nil, fmt.Errorf("short header: %w", err)
	}
	if string(head[:len(checkpointMagic)]) != checkpointMagic {
		return info, nil, errors.New("not a Sploof win/loss checkpoint")
	}
	h := head[len(checkpointMagic):]
	info.RootKey, info.Ply = binary.LittleEndian.Uint64(h[0:]), int(binary.LittleEndian.Uint32(h[8:]))
	count := binary.LittleEndian.Uint64(h[12:])
	info.LayerCRC = binary.LittleEndian.Uint32(h[20:])
	info.Decided, info.Wins = int64(binary.LittleEndian.Uint64(h[24:])), int64(binary.LittleEndian.Uint64(h[32:]))
	if count > 1<<36 || info.Ply > 60 {
		return info, nil, fmt.Errorf("a layer of %d positions at ply %d", count, info.Ply)
	}
	info.Count = int64(count)
	nwords := (info.Count + 15) / 16
	data := make([]byte, nwords*4)
	nbytes := (info.Count + 3) / 4
	if _, err := io.ReadFull(br, data[:nbytes]); err != nil {
		return info, nil, fmt.Errorf("short: %w", err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return info, nil, errors.New("data after the last position")
	}
	words := make([]uint32, nwords)
	for i := range words {
		words[i] = binary.LittleEndian.Uint32(data[4*i:])
		if words[i]&0xAAAAAAAA&^(words[i]<<1) != 0 {
			return info, nil, fmt.Errorf("a position won but not decided near %d", 16*i)
		}
	}
	if n := info.Count % 16; n != 0 && words[len(words)-1]>>(2*n) != 0 {
		return info, nil, errors.New("bits set past the last position")
	}
	if d, w := countBits(words); d != info.Decided || w != info.Wins {
		return info, nil, fmt.Errorf("says %d decided (%d won) but holds %d (%d)", info.Decided, info.Wins, d, w)
	}
	return info, words, nil
}

// WinLossRunOptions tune a run from a checkpoint.
type WinLossRunOptions struct {
	WinLossOptions
	// LayersDir holds the forward layers (built there when missing).
	LayersDir string
	// CheckpointPath is read when it exists and written every Every and at
	// the end.
	CheckpointPath string
	// Ply is the checkpoint's layer (0: 12, or the root's ply plus 2 when
	// that is later).
	Ply int
	// Every is the time between checkpoints (0: 5 minutes).
	Every time.Duration
	// MemBytes bounds the forward sweep's buffer (0: 1 GiB).
	MemBytes int64
	// Log receives a line per checkpoint (nil: nothing).
	Log io.Writer
}

// WinLossRun is a run's end: the result when decided, and the
// checkpoint's state.
type WinLossRun struct {
	Solved     bool
	Result     WinLossResult
	Checkpoint *Checkpoint
	Nodes      int64
	// Solver is the run's solver, its table and checkpoint still
	// consulted: ExtractStrategy on it finds most of what it needs there.
	Solver *WinLoss
}

// OpenCheckpoint builds (or finds) the forward layers of st up to ply in
// layersDir and returns the checkpoint of that layer, with path's records
// when the file exists.
func OpenCheckpoint(ctx context.Context, st *sploof.State, layersDir, path string, ply int, memBytes int64) (*Checkpoint, error) {
	n, err := nodeFromBits(st.Bits())
	if err != nil {
		return nil, fmt.Errorf("sploof checkpoint: %w", err)
	}
	if ply <= int(n.ply) || ply > 40 {
		return nil, fmt.Errorf("sploof checkpoint: the layer of ply %d is not after the root's (%d)", ply, n.ply)
	}
	res, err := Build(ctx, layersDir, st, BuildOptions{UpTo: ply, MemBytes: memBytes})
	if err != nil {
		return nil, err
	}
	last := res.Layers[len(res.Layers)-1]
	if last.Ply != ply {
		return nil, fmt.Errorf("sploof checkpoint: every game from the root ends before ply %d", ply)
	}
	keys, err := loadKeys(layerPath(layersDir, ply, "keys"), last.Count)
	if err != nil {
		return nil, err
	}
	if crcOfKeys(keys) != last.CRC {
		return nil, fmt.Errorf("sploof checkpoint: layer %d's keys do not match their checksum", ply)
	}
	rootKey, _ := n.key()
	ck := newCheckpoint(rootKey, uint8(ply), keys)
	if path != "" {
		if err := ck.load(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return ck, nil
}

// RunWinLoss decides st with the win/loss solver, keeping its work in a
// checkpoint file: run it again after an interruption (on this machine or
// another) and it goes on from the last checkpoint. The checkpoint is
// written every opt.Every and when the run ends, decided or interrupted.
func RunWinLoss(ctx context.Context, st *sploof.State, opt WinLossRunOptions) (WinLossRun, error) {
	if opt.Every <= 0 {
		opt.Every = 5 * time.Minute
	}
	n, err := nodeFromBits(st.Bits())
	if err != nil {
		return WinLossRun{}, fmt.Errorf("sploof win/loss solver: %w", err)
	}
	if opt.Ply == 0 {
		opt.Ply = max(12, int(n.ply)+2)
	}
	if opt.LayersDir == "" {
		k, _ := n.key()
		opt.LayersDir = filepath.Join(os.TempDir(), fmt.Sprintf("tabula-sploof-layers-%016x", k))
	}
	if opt.CheckpointPath != "" {
		if err := os.MkdirAll(filepath.Dir(opt.CheckpointPath), 0o755); err != nil {
			return WinLossRun{}, err
		}
	}
	ck, err := OpenCheckpoint(ctx, st, opt.LayersDir, opt.CheckpointPath, opt.Ply, opt.MemBytes)
	if err != nil {
		return WinLossRun{}, err
	}
	d0, _ := ck.Decided()
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format, a...)
		}
	}
	logf("%s layer %d: %d positions, %d decided by the checkpoint\n", time.Now().UTC().Format(time.TimeOnly), opt.Ply, ck.Len(), d0)
	wo := opt.WinLossOptions
	wo.Checkpoint = ck
	sv := NewWinLoss(wo)
	save := func() error {
		if opt.CheckpointPath == "" {
			return nil
		}
		return ck.Save(opt.CheckpointPath)
	}
	t0, cpu0 := time.Now(), cpuSeconds()
	report := func(what string) {
		d, w := ck.Decided()
		secs := time.Since(t0).Seconds()
		cpu := cpuSeconds() - cpu0
		logf("%s %s: %d nodes in %.0f s (CPU %.0f s, %.0f nodes per CPU s); layer %d: %d of %d decided (%.3f%%), %d of them won for the side to move, %d this run\n",
			time.Now().UTC().Format(time.TimeOnly), what, sv.Nodes(), secs, cpu, float64(sv.Nodes())/max(cpu, 1e-9),
			opt.Ply, d, ck.Len(), 100*float64(d)/float64(max(ck.Len(), 1)), w, d-d0)
	}
	stopSaver := make(chan struct{})
	saverDone := make(chan error, 1)
	go func() {
		tick := time.NewTicker(opt.Every)
		defer tick.Stop()
		for {
			select {
			case <-stopSaver:
				saverDone <- nil
				return
			case <-tick.C:
				if err := save(); err != nil {
					saverDone <- err
					return
				}
				report("checkpoint")
			}
		}
	}()
	res, err := sv.Solve(ctx, st)
	close(stopSaver)
	serr := <-saverDone
	run := WinLossRun{Result: res, Checkpoint: ck, Nodes: sv.Nodes(), Solver: sv}
	if err2 := save(); serr == nil {
		serr = err2
	}
	if err == nil {
		run.Solved = true
		report("solved")
	} else {
		report("stopped")
	}
	if serr != nil {
		return run, serr
	}
	if err != nil && !errors.Is(err, ErrWinLossStopped) {
		return run, err
	}
	return run, nil
}
