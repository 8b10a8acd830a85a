package hugepages

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"syscall"
	"unsafe"
)

func advise(p unsafe.Pointer, n uintptr) {
	_ = syscall.Madvise(unsafe.Slice((*byte)(p), n), syscall.MADV_HUGEPAGE)
}

// Backing reports how many KiB of the memory mapping that holds p are
// backed by huge pages (its AnonHugePages in /proc/self/smaps): what the
// tests of the packages that advise check the advice by.
func Backing(p unsafe.Pointer) (int, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return 0, err
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
		var kib int
		if in {
			if n, _ := fmt.Sscanf(line, "AnonHugePages: %d kB", &kib); n == 1 {
				return kib, nil
			}
		}
	}
	if err := sc.Err(); err != nil {
		return 0, err
	}
	return 0, fmt.Errorf("hugepages: no mapping holds %#x", addr)
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
