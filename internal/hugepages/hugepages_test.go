package hugepages

import (
	"strings"
	"testing"
	"unsafe"
)

// TestAdviceTakesHugePages: where transparent huge pages are on, an advised
// slice's memory, once written, is backed by 2 MiB pages — and, where the
// kernel's setting is "madvise", the same slice unadvised is not, so the test
// measures the advice and not the kernel's default. The unadvised slice comes
// first: memory once advised keeps the advice when the heap reuses it.
func TestAdviceTakesHugePages(t *testing.T) {
	on, mode := Enabled()
	if !on {
		t.Skipf("transparent huge pages are off here (%s): nothing to advise", mode)
	}
	const n = 8 << 20 // 64 MiB of uint64
	if !strings.HasPrefix(mode, "[always]") {
		s := make([]uint64, n)
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
	s := Advise(make([]uint64, n))
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
