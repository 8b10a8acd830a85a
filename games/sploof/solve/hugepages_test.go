package solve

import (
	"testing"
	"unsafe"

	"github.com/tabula-games/tabula/internal/hugepages"
)

// TestTableTakesHugePages: where transparent huge pages are on (always or
// madvise), a win/loss table's memory, once written, is backed by 2 MiB
// pages (the mapping holding it reports AnonHugePages).
func TestTableTakesHugePages(t *testing.T) {
	if on, mode := hugepages.Enabled(); !on {
		t.Skipf("transparent huge pages are off here (%s): nothing to advise", mode)
	}
	tt := newWLTable(64 << 20)
	for i := range tt.e {
		tt.e[i] = 1
	}
	// The advice starts at the first 2 MiB boundary, in a mapping of its own.
	huge, err := hugepages.Backing(unsafe.Pointer(&tt.e[len(tt.e)/2]))
	if err != nil {
		t.Fatal(err)
	}
	if huge < 32<<10 {
		t.Fatalf("the mapping of the table's middle holds %d KiB of huge pages, want most of it", huge)
	}
}
