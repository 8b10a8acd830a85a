package agent

import (
	"testing"
	"unsafe"

	"github.com/tabula-games/tabula/internal/hugepages"
)

// TestSearchPoolsTakeHugePages: the node and edge pools a search grows and
// its transposition table are advised to take 2 MiB pages: the middle of
// each lies in a mapping marked so (whether the kernel then gives huge pages
// depends on its free memory of the moment).
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
	w.edges = w.edges[:cap(w.edges)]
	tt := newTable(DefaultMaxNodes)
	for _, c := range []struct {
		name string
		p    unsafe.Pointer
	}{
		{"nodes", unsafe.Pointer(&w.nodes[len(w.nodes)/2])},
		{"edges", unsafe.Pointer(&w.edges[len(w.edges)/2])},
		{"table keys", unsafe.Pointer(&tt.keys[len(tt.keys)/2])},
		{"table values", unsafe.Pointer(&tt.vals[len(tt.vals)/2])},
	} {
		adv, err := hugepages.Advised(c.p)
		if err != nil {
			t.Fatal(err)
		}
		if !adv {
			t.Errorf("%s: the middle lies in a mapping not marked for huge pages", c.name)
		}
	}
}
