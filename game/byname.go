package game

import "sync"

// byName holds what packages register for a game (a solver, a book) from
// their init functions, by the game's name.
type byName[T any] struct {
	mu sync.RWMutex
	m  map[string]T
	// register is the registering function's name, for the panic of a
	// second registration for one game (a programming error).
	register string
}

func (r *byName[T]) add(gameName string, v T) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.m[gameName]; dup {
		panic("game: " + r.register + " called twice for " + gameName)
	}
	if r.m == nil {
		r.m = map[string]T{}
	}
	r.m[gameName] = v
}

func (r *byName[T]) get(gameName string) (T, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	v, ok := r.m[gameName]
	return v, ok
}
