package solve

import "sync"

// firstError keeps the first error that goroutines working side by side
// report; the others stop when they see one.
type firstError struct {
	mu  sync.Mutex
	err error
}

// set keeps err unless an error was kept before.
func (f *firstError) set(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

// get returns the error kept, or nil.
func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}
