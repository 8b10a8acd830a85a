// Package hugepages asks the kernel to back large, randomly read slices with
// 2 MiB pages. A search's tree, its transposition table and the solver's
// table are tens of megabytes to gigabytes read one entry at a time at
// random; with 4 KiB pages nearly every such read also misses the TLB and
// walks the page tables, and a fresh slice takes a page fault every 4 KiB as
// it fills. Linux honours the advice where transparent huge pages are
// "always" or "madvise" (its usual default); elsewhere it does nothing.
package hugepages

import "unsafe"

// size is a huge page: the advice covers whole 2 MiB pages only.
const size = 2 << 20

// Advise advises the 2 MiB-aligned middle of s's backing array (up to its
// capacity) and returns s, so that it can wrap a make. A slice of less than
// two huge pages is left alone, and the advice is best-effort: an error
// leaves the ordinary pages. Call it before the memory is touched, so that
// the first faults can take huge pages.
func Advise[T any](s []T) []T {
	var zero T
	n := uintptr(cap(s)) * unsafe.Sizeof(zero)
	if n < 2*size {
		return s
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(s)))
	lo, hi := (start+size-1)&^(size-1), (start+n)&^(size-1)
	if hi > lo {
		advise(unsafe.Add(unsafe.Pointer(unsafe.SliceData(s)), lo-start), hi-lo)
	}
	return s
}
