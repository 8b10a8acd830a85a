package agent

import (
	"testing"
	"unsafe"

	"github.com/tabula-games/tabula/internal/hugepages"
)

// TestSearchPoolsTakeHugePages: the node and edge pools a search grows and
// its transposition table are advised to take 2 MiB pages (where the kernel
// gives them), so that, once written, the middle of each is backed by them.
func TestSearchPoolsTakeHugePages(t *testing.T) {
	if on, mode := hugepages.Enabled(); !on {
		t.Skipf("transparent huge pages are off here (%s): nothing to advise", mode)
	}
	cfg := MCTSConfig{MaxNodes: DefaultMaxNodes}
	w := &searcher{cfg: &cfg}
	if !w.room(DefaultMaxNodes, 4*DefaultMaxNodes) {
		t.Fatal("no room for a full tree")
	}
	w.nodes = w.nodes[:cap(w.nodes)]
	for i := range w.nodes {
		w.nodes[i].visits = 1
	}
	w.edges = w.edges[:cap(w.edges)]
	for i := range w.edges {
		w.edges[i].to = 1
	}
	tt := newTable(DefaultMaxNodes)
	for i := range tt.keys {
		tt.keys[i], tt.vals[i] = 1, 1
	}
	for _, c := range []struct {
		name string
		p    unsafe.Pointer
		kib  int // the part of the mapping that must be huge pages
	}{
		{"nodes", unsafe.Pointer(&w.nodes[len(w.nodes)/2]), len(w.nodes) * int(unsafe.Sizeof(node{})) / 2 >> 10},
		{"edges", unsafe.Pointer(&w.edges[len(w.edges)/2]), len(w.edges) * int(unsafe.Sizeof(edge{})) / 2 >> 10},
		{"table keys", unsafe.Pointer(&tt.keys[len(tt.keys)/2]), len(tt.keys) * 8 / 2 >> 10},
	} {
		kib, err := hugepages.Backing(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if kib < c.kib {
			t.Errorf("%s: the mapping of the middle holds %d KiB of huge pages, want at least %d", c.name, kib, c.kib)
		}
	}
}
