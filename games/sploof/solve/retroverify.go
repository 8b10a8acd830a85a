package solve

import (
	"context"
	"fmt"
	"hash/crc32"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"

	"github.com/tabula-games/tabula/games/sploof"
)

// VerifyDB checks a database that Build made, by another road than the
// one that built it. Every file must match the count and checksum its
// description records and every layer's keys must ascend; every layer's
// keys are derived again from the layer before with the rules engine (see
// rederiveKeys), valued or not; then each valued
// layer's values are derived again from the next layer's with the rules
// engine — sploof.State's Legal, Play and Outcome, positions rebuilt with
// sploof.FromBits, keys reduced by permuting points rather than by the
// search's incremental keys — and must equal the stored ones. A position
// a move leads to that the next layer lacks is an error too. The root's
// value is reported.
func VerifyDB(ctx context.Context, dir string, opt BuildOptions) (string, error) {
	b := &builder{dir: dir, opt: opt}
	if b.opt.Workers <= 0 {
		b.opt.Workers = 2
	}
	var root rootInfo
	ok, err := readJSON(filepath.Join(dir, "root.json"), &root)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", fmt.Errorf("sploof database: %s has no root.json", dir)
	}
	var out strings.Builder
	// The files first, every layer that has them.
	var layers []LayerInfo
	for p := root.Ply; ; p++ {
		info, ok, err := b.layerInfo(p)
		if err != nil {
			return "", err
		}
		if !ok {
			break
		}
		keys, err := loadKeys(layerPath(dir, p, "keys"), info.Count)
		if err != nil {
			return "", err
		}
		if c := crcOfKeys(keys); c != info.CRC {
			return "", fmt.Errorf("layer %d: the keys' checksum is %08x, the build recorded %08x: the file is corrupt", p, c, info.CRC)
		}
		for i := 1; i < len(keys); i++ {
			if keys[i] <= keys[i-1] {
				return "", fmt.Errorf("layer %d: keys out of order at %d", p, i)
			}
		}
		if p == root.Ply && (len(keys) != 1 || fmt.Sprintf("%016x", keys[0]) != root.Key) {
			return "", fmt.Errorf("layer %d is not the root", p)
		}
		var vi ValueInfo
		if ok, err := readJSON(layerPath(dir, p, "vals.json"), &vi); err != nil {
			return "", err
		} else if ok {
			vals, err := os.ReadFile(layerPath(dir, p, "vals"))
			if err != nil {
				return "", err
			}
			if int64(len(vals)) != info.Count {
				return "", fmt.Errorf("layer %d: %d values for %d positions", p, len(vals), info.Count)
			}
			if c := crc32.Checksum(vals, crcTable); c != vi.CRC {
				return "", fmt.Errorf("layer %d: the values' checksum is %08x, the build recorded %08x: the file is corrupt", p, c, vi.CRC)
			}
		}
		layers = append(layers, info)
		fmt.Fprintf(&out, "layer %2d: %d positions (and %d over), checksum good\n", p, info.Count, info.Over)
		if info.Count == 0 {
			break
		}
	}
	// Then every layer's keys, derived again from the layer before with the
	// rules engine: the checksums only show that a file is the one the
	// build wrote, not that the build was right (or that a changed key's
	// checksum was not forged to match).
	for i := 1; i < len(layers); i++ {
		if err := rederiveKeys(ctx, b, layers[i-1], layers[i], b.opt.Workers); err != nil {
			return "", err
		}
		fmt.Fprintf(&out, "keys %2d: %d positions re-derived from layer %d, the same set\n", layers[i].Ply, layers[i].Count, layers[i-1].Ply)
	}
	// Then the values, from the end back.
	valued := 0
	rootLine := "the root is not valued yet"
	for i := len(layers) - 1; i >= 0; i-- {
		p := layers[i].Ply
		if _, err := os.Stat(layerPath(dir, p, "vals.json")); err != nil {
			continue
		}
		if i+1 >= len(layers) {
			return "", fmt.Errorf("layer %d is valued but layer %d is not built", p, p+1)
		}
		next, err := b.loadValued(p + 1)
		if err != nil {
			return "", err
		}
		this, err := b.loadValued(p)
		if err != nil {
			return "", err
		}
		err = parallelChunks(ctx, len(this.keys), b.opt.Workers, func(lo, hi int) error {
			for j := lo; j < hi; j++ {
				v, err := rederive(this.keys[j], next)
				if err != nil {
					return fmt.Errorf("layer %d, position %016x: %w", p, this.keys[j], err)
				}
				if v != this.vals[j] {
					w1, p1 := UnpackValue(this.vals[j])
					w2, p2 := UnpackValue(v)
					return fmt.Errorf("layer %d, position %016x: stored %s, its moves give %s", p, this.keys[j], valueText(w1, p1), valueText(w2, p2))
				}
			}
			return nil
		})
		if err != nil {
			return "", err
		}
		valued++
		fmt.Fprintf(&out, "values %2d: %d positions re-derived from layer %d, all equal\n", p, len(this.keys), p+1)
		if p == root.Ply {
			w, pl := UnpackValue(this.vals[0])
			rootLine = "root: the side to move " + valueText(w, pl)
		}
	}
	fmt.Fprintf(&out, "verified: %d layers' files and keys, %d layers' values; %s", len(layers), valued, rootLine)
	return out.String(), nil
}

func valueText(win bool, plies int) string {
	if win {
		return fmt.Sprintf("wins in %d", plies)
	}
	return fmt.Sprintf("loses in %d", plies)
}

func crcOfKeys(keys []uint64) uint32 {
	var c uint32
	var b [8]byte
	for _, k := range keys {
		for i := 0; i < 8; i++ {
			b[i] = byte(k >> (8 * i))
		}
		c = crc32.Update(c, crcTable, b[:])
	}
	return c
}

// bitsOfKey decodes a key (see node.go) into the rules engine's bitboards.
func bitsOfKey(k uint64) sploof.Bits {
	lo, hi := uint32(k)&(1<<30-1), uint32(k>>30)&(1<<30-1)
	b := sploof.Bits{White: lo &^ hi, Black: hi &^ lo, Red: lo & hi, ToMove: int(k >> 63)}
	whiteRemovals := int(k >> 60 & 7)
	removals := 12 - bits.OnesCount32(b.Red)
	b.Supply = [2]uint8{uint8(14 - 2*whiteRemovals), uint8(14 - 2*(removals-whiteRemovals))}
	b.Stock = [2]uint8{uint8(16 - int(b.Supply[0]) - bits.OnesCount32(b.White)), uint8(16 - int(b.Supply[1]) - bits.OnesCount32(b.Black))}
	return b
}

// keyOfBits is the canonical key of a position, by permuting its points
// under each symmetry and keeping the smallest board.
func keyOfBits(b sploof.Bits) uint64 {
	k, _ := keySymOfBits(b)
	return k
}

// keySymOfBits is keyOfBits with a symmetry that maps the position onto
// its canonical image. A point holds one ball: white before black before
// red, should the planes overlap.
func keySymOfBits(b sploof.Bits) (uint64, int) {
	white := b.White
	black := b.Black &^ white
	red := b.Red &^ (white | black)
	lo, hi := white|red, black|red
	// The high plane decides the order but where two images tie on it, so
	// the low plane's image is made only for those that could be smallest.
	bestHi, bestLo, bs := mapMask(0, hi), mapMask(0, lo), 0
	for s := 1; s < numSyms; s++ {
		h := mapMask(s, hi)
		if h > bestHi {
			continue
		}
		if l := mapMask(s, lo); h < bestHi || l < bestLo {
			bestHi, bestLo, bs = h, l, s
		}
	}
	best := uint64(bestLo) | uint64(bestHi)<<30
	return best | uint64(14-b.Supply[0])/2<<60 | uint64(b.ToMove)<<63, bs
}

// rederive values a position from the next layer with the rules engine.
func rederive(k uint64, next *layerTable) (byte, error) {
	st, err := sploof.FromBits(bitsOfKey(k))
	if err != nil {
		return 0, err
	}
	mover := st.ToMove()
	if o := st.Outcome(); o.Over() {
		if o.IsWinner(mover) {
			return 0, fmt.Errorf("a finished game in a layer")
		}
		return packValue(false, 0), nil
	}
	bestWin, longestLoss := -1, -1
	for _, m := range st.Legal(nil) {
		c := *st
		c.Play(m)
		var win bool
		var plies int
		if o := c.Outcome(); o.Over() {
			win, plies = o.IsWinner(mover), 1
		} else {
			ck := keyOfBits(c.Bits())
			i := next.find(ck)
			if i < 0 {
				return 0, fmt.Errorf("move %s leads to %016x, which the next layer lacks", st.FormatMove(m), ck)
			}
			cw, cp := UnpackValue(next.vals[i])
			win, plies = !cw, cp+1
		}
		if win && (bestWin < 0 || plies < bestWin) {
			bestWin = plies
		}
		if !win && plies > longestLoss {
			longestLoss = plies
		}
	}
	if bestWin >= 0 {
		return packValue(true, bestWin), nil
	}
	if longestLoss < 0 {
		return packValue(false, 0), nil // no move
	}
	return packValue(false, longestLoss), nil
}

// rederiveKeys checks that layer next holds exactly the positions one move
// after a position of layer prev in which the game goes on: every such
// child (by the rules engine, keys by permutation) is in next, and every
// key of next is such a child. It holds next's keys in memory (8 bytes
// and a bit a position). The count of positions the move into next ended
// the game in is not re-derived.
func rederiveKeys(ctx context.Context, b *builder, prev, next LayerInfo, workers int) error {
	keys, err := loadKeys(layerPath(b.dir, next.Ply, "keys"), next.Count)
	if err != nil {
		return err
	}
	parents, err := loadKeys(layerPath(b.dir, prev.Ply, "keys"), prev.Count)
	if err != nil {
		return err
	}
	t := &layerTable{keys: keys}
	seen := make([]uint32, (len(keys)+31)/32)
	err = parallelChunks(ctx, len(parents), workers, func(lo, hi int) error {
		var kids []uint64
		for _, k := range parents[lo:hi] {
			var err error
			if kids, err = rulesChildren(k, kids[:0]); err != nil {
				return fmt.Errorf("layer %d: %w", prev.Ply, err)
			}
			for _, c := range kids {
				i := t.find(c)
				if i < 0 {
					return fmt.Errorf("layer %d: position %016x leads to %016x, which the layer lacks", next.Ply, k, c)
				}
				atomic.OrUint32(&seen[i/32], 1<<(i%32))
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for i := range keys {
		if seen[i/32]&(1<<(i%32)) == 0 {
			return fmt.Errorf("layer %d: position %016x is not one move after any position of layer %d", next.Ply, keys[i], prev.Ply)
		}
	}
	return nil
}
