package hugepages

import (
	"strings"
	"testing"
	"unsafe"
)

// TestAdvisedSliceTakesHugePages: where transparent huge pages are on, an
// advised slice's memory, once written, is backed by 2 MiB pages.
func TestAdvisedSliceTakesHugePages(t *testing.T) {
	if on, mode := Enabled(); !on {
		t.Skipf("transparent huge pages are off here (%s): nothing to advise", mode)
	}
	s := Advise(make([]uint64, 8<<20)) // 64 MiB
	for i := range s {
		s[i] = 1
	}
	// The advice starts at the first 2 MiB boundary, in a mapping of its own.
	kib, err := Backing(unsafe.Pointer(&s[len(s)/2]))
	if err != nil {
		t.Fatal(err)
	}
	if kib < 32<<10 {
		t.Fatalf("the mapping of the slice's middle holds %d KiB of huge pages, want most of its 64 MiB", kib)
	}
}

// TestUnadvisedSliceKeepsSmallPages: the same slice without the advice has
// none (the kernel's setting is "madvise"), so the test above measures the
// advice and not the kernel's default.
func TestUnadvisedSliceKeepsSmallPages(t *testing.T) {
	if on, mode := Enabled(); !on || strings.HasPrefix(mode, "[always]") {
		t.Skipf("transparent huge pages are %s: every slice may take them", mode)
	}
	s := make([]uint64, 8<<20)
	for i := range s {
		s[i] = 1
	}
	kib, err := Backing(unsafe.Pointer(&s[len(s)/2]))
	if err != nil {
		t.Fatal(err)
	}
	if kib != 0 {
		t.Fatalf("an unadvised slice holds %d KiB of huge pages", kib)
	}
}

// TestAdviseOddSlices: small, unaligned, empty and zero-sized slices are
// left alone or advised without a fault, and Advise returns its argument.
func TestAdviseOddSlices(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1 << 18, 1<<18 + 3, 3 << 18} {
		e := make([]uint64, n+1)[1:] // unaligned start
		got := Advise(e)
		if len(got) != len(e) || cap(got) != cap(e) || (n > 0 && &got[0] != &e[0]) {
			t.Fatalf("Advise returned another slice for %d entries", n)
		}
		for i := range e {
			e[i] = uint64(i)
		}
	}
	Advise([]struct{}{})
	Advise(make([]struct{}, 1<<30))
	Advise[int](nil)
	Advise(make([]byte, 0, 5<<20)) // capacity counts, not length
}
