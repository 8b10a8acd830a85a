//go:build !linux

package hugepages

import (
	"errors"
	"unsafe"
)

func advise(unsafe.Pointer, uintptr) {}

// Backing reports the huge pages behind p: not known without Linux's smaps.
func Backing(unsafe.Pointer) (int, error) {
	return 0, errors.New("hugepages: no /proc/self/smaps here")
}

// Enabled reports that there are no transparent huge pages to advise.
func Enabled() (bool, string) { return false, "not Linux" }
