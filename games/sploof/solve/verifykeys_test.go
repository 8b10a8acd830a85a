package solve

import (
	"context"
	"strings"
	"testing"
)

// TestVerifyDBRederivesKeys: a database whose layers are not valued yet
// (the forward sweep stopped by UpTo) is checked beyond its checksums: a
// key changed in a layer, its checksum forged to match, is refused, and so
// is a layer with a position dropped (count and checksum forged). Before,
// such layers were only checksummed and both passed.
func TestVerifyDBRederivesKeys(t *testing.T) {
	ctx := context.Background()
	root := lateRoot(t, 3, 10)
	n, _ := nodeFromBits(root.Bits())
	dir := t.TempDir()
	res, err := Build(ctx, dir, root, BuildOptions{MemBytes: 1 << 20, UpTo: int(n.ply) + 4})
	if err != nil || res.Complete {
		t.Fatal(res, err)
	}
	rep, err := VerifyDB(ctx, dir, BuildOptions{})
	if err != nil {
		t.Fatalf("the database as built: %v", err)
	}
	if !strings.Contains(rep, "re-derived") {
		t.Fatalf("no layer re-derived: %s", rep)
	}
	ply := int(n.ply) + 3
	forge := func(change func([]uint64) []uint64) string {
		d := copyDir(t, dir)
		b := &builder{dir: d}
		info, _, _ := b.layerInfo(ply)
		keys, err := loadKeys(layerPath(d, ply, "keys"), info.Count)
		if err != nil {
			t.Fatal(err)
		}
		keys = change(keys)
		kw, _ := createKeys(layerPath(d, ply, "keys"))
		for _, k := range keys {
			kw.put(k)
		}
		kw.close()
		info.Count, info.CRC = kw.count, kw.crc
		writeJSON(layerPath(d, ply, "keys.json"), info)
		return d
	}
	changed := forge(func(keys []uint64) []uint64 {
		for i := 1; i+1 < len(keys); i++ {
			if keys[i]+1 < keys[i+1] {
				keys[i]++ // still ascending, another position
				return keys
			}
		}
		t.Fatal("no key to change")
		return nil
	})
	if _, err := VerifyDB(ctx, changed, BuildOptions{}); err == nil || !strings.Contains(err.Error(), "lacks") && !strings.Contains(err.Error(), "not one move after") {
		t.Fatalf("a key changed, its checksum forged: %v", err)
	} else {
		t.Logf("a key changed: %v", err)
	}
	dropped := forge(func(keys []uint64) []uint64 { return append(keys[:len(keys)/2], keys[len(keys)/2+1:]...) })
	if _, err := VerifyDB(ctx, dropped, BuildOptions{}); err == nil || !strings.Contains(err.Error(), "lacks") {
		t.Fatalf("a key dropped, its checksum forged: %v", err)
	} else {
		t.Logf("a key dropped: %v", err)
	}
}
