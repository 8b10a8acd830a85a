//go:build !linux

package compute

// LowerPriority does nothing on systems other than Linux, where a thread's
// priority cannot be lowered on its own.
func LowerPriority() {}
