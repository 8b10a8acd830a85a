package solve

import (
	"syscall"
	"unsafe"
)

// adviseHugePages asks the kernel to back e with 2 MiB pages where
// transparent huge pages are on "madvise" (the common default): the win/loss
// table is gigabytes read at random, one entry a node, and with 4 KiB pages
// nearly every probe also misses the TLB and walks the page tables. Only the
// 2 MiB-aligned middle of the slice is advised; the advice is best-effort
// (an error leaves the ordinary pages). Call it before the memory is
// touched, so that the first faults can take huge pages.
func adviseHugePages(e []uint64) {
	const huge = 2 << 20
	if len(e)*8 < 2*huge {
		return
	}
	start := uintptr(unsafe.Pointer(&e[0]))
	end := start + uintptr(len(e))*8
	lo, hi := (start+huge-1)&^(huge-1), end&^(huge-1)
	if hi <= lo {
		return
	}
	b := unsafe.Slice((*byte)(unsafe.Add(unsafe.Pointer(&e[0]), lo-start)), hi-lo)
	_ = syscall.Madvise(b, syscall.MADV_HUGEPAGE)
}
