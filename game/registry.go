package game

import (
	"fmt"
	"sort"
	"strings"
	"sync"
)

var (
	registryMu sync.RWMutex
	registry   = map[string]Game{}
)

// Register makes g available by name. Game packages call it from init; a
// duplicate name is a programming error and panics at start-up.
func Register(g Game) {
	registryMu.Lock()
	defer registryMu.Unlock()
	if _, dup := registry[g.Name()]; dup {
		panic("game: Register called twice for " + g.Name())
	}
	registry[g.Name()] = g
}

// Lookup returns the registered game with the given name.
func Lookup(name string) (Game, error) {
	registryMu.RLock()
	defer registryMu.RUnlock()
	if g, ok := registry[name]; ok {
		return g, nil
	}
	return nil, fmt.Errorf("unknown game %q (games: %s)", name, strings.Join(namesLocked(), ", "))
}

// Names lists the registered games, sorted.
func Names() []string {
	registryMu.RLock()
	defer registryMu.RUnlock()
	return namesLocked()
}

func namesLocked() []string {
	n := make([]string, 0, len(registry))
	for k := range registry {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}
