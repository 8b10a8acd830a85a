//go:build !linux

package hugepages

import (
	"errors"
	"unsafe"
)

func advise(unsafe.Pointer, uintptr) {}

// Advised reports the advice on p's mapping: not known without Linux's smaps.
func Advised(unsafe.Pointer) (bool, error) {
	return false, errors.New("hugepages: no /proc/self/smaps here")
}

// Enabled reports that there are no transparent huge pages to advise.
func Enabled() (bool, string) { return false, "not Linux" }
