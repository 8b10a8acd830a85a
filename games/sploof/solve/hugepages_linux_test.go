package solve

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// TestTableTakesHugePages: where transparent huge pages are on (always or
// madvise), a win/loss table's memory, once written, is backed by 2 MiB
// pages (the mapping holding it reports AnonHugePages).
func TestTableTakesHugePages(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skipf("transparent huge pages are off here (%q, %v): nothing to advise", mode, err)
	}
	tt := newWLTable(64 << 20)
	for i := range tt.e {
		tt.e[i] = 1
	}
	addr := uintptr(unsafe.Pointer(&tt.e[len(tt.e)/2])) // the advice starts at the first 2 MiB boundary, in a mapping of its own
	huge := anonHugeKiB(t, addr)
	if huge < 32<<10 {
		t.Fatalf("the mapping of the table's middle holds %d KiB of huge pages, want most of it", huge)
	}
}

// anonHugeKiB is the AnonHugePages of the mapping holding addr, from
// /proc/self/smaps.
func anonHugeKiB(t *testing.T, addr uintptr) int {
	t.Helper()
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		var kib int
		if in {
			if n, _ := fmt.Sscanf(line, "AnonHugePages: %d kB", &kib); n == 1 {
				return kib
			}
		}
	}
	t.Fatalf("no mapping holds %#x", addr)
	return 0
}

// TestAdviseHugePagesOddSlices: small, unaligned and empty slices are
// left alone without a fault.
func TestAdviseHugePagesOddSlices(t *testing.T) {
	for _, n := range []int{0, 1, 1000, 1 << 18, 1<<18 + 3, 3 << 18} {
		e := make([]uint64, n+1)[1:] // unaligned start
		adviseHugePages(e)
		for i := range e {
			e[i] = uint64(i)
		}
	}
}
