package solve

import (
	"testing"
	"unsafe"

	"github.com/tabula-games/tabula/internal/hugepages"
)

// TestTableTakesHugePages: a win/loss table's middle lies in a mapping
// marked for 2 MiB pages (whether the kernel then gives them depends on its
// free memory of the moment).
func TestTableTakesHugePages(t *testing.T) {
	if on, mode := hugepages.Enabled(); !on {
		t.Skipf("transparent huge pages are off here (%s): nothing to advise", mode)
	}
	tt := newWLTable(64 << 20)
	// The advice starts at the first 2 MiB boundary, in a mapping of its own.
	adv, err := hugepages.Advised(unsafe.Pointer(&tt.e[len(tt.e)/2]))
	if err != nil {
		t.Fatal(err)
	}
	if !adv {
		t.Fatal("the table's middle lies in a mapping not marked for huge pages")
	}
}
