package hugepages

import (
	"testing"
	"unsafe"
)

// unadvised is allocated when the package starts, before any test advises
// memory: memory once advised keeps the advice when the heap reuses it.
var unadvised = make([]uint64, 8<<20)

// TestAdviceMarksTheMapping: an advised slice's middle lies in a mapping
// marked for huge pages, and a slice as large unadvised does not. Whether
// the kernel then gives huge pages depends on its free memory, so the mark
// is what is checked.
func TestAdviceMarksTheMapping(t *testing.T) {
	if on, mode := Enabled(); !on {
		t.Skipf("transparent huge pages are off here (%s): nothing to advise", mode)
	}
	adv, err := Advised(unsafe.Pointer(&unadvised[len(unadvised)/2]))
	if err != nil {
		t.Fatal(err)
	}
	if adv {
		t.Fatal("an unadvised slice lies in a mapping marked for huge pages")
	}
	s := Advise(make([]uint64, len(unadvised)))
	// The advice starts at the first 2 MiB boundary, in a mapping of its own.
	if adv, err = Advised(unsafe.Pointer(&s[len(s)/2])); err != nil {
		t.Fatal(err)
	}
	if !adv {
		t.Fatal("the advised slice's middle lies in a mapping not marked for huge pages")
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
