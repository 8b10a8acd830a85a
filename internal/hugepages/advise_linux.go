package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"unsafe"
)

func advise(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}

// Advised reports whether the memory mapping that holds p carries the
// advice (the "hg" of its VmFlags in /proc/self/smaps). Whether the kernel
// then backs it with huge pages depends on the free memory of the moment
// (under pressure it gives 4 KiB pages), so this, not AnonHugePages, is what
// the tests of the packages that advise check.
func Advised(p unsafe.Pointer) (bool, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false, err
	}
	defer f.Close()
	addr := uintptr(p)
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return slices.Contains(strings.Fields(line)[1:], "hg"), nil
		}
	}
	if err := sc.Err(); err != nil {
		return false, err
	}
	return false, fmt.Errorf("hugepages: no mapping holds %#x", addr)
}

// Enabled reports whether the kernel gives huge pages to memory advised so
// (transparent huge pages "always" or "madvise"), and its setting.
func Enabled() (bool, string) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil {
		return false, err.Error()
	}
	return !strings.Contains(string(mode), "[never]"), strings.TrimSpace(string(mode))
}
