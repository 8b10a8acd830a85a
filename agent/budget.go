package agent

import (
	"context"
	"unsafe"

	"github.com/tabula-games/tabula/game"
)

// Budget is the memory a node lends its bots (compute.Memory is one): a
// search reserves the bytes of its tree before growing it and gives them
// back when its move is chosen (an exact solver's table too); what an agent
// keeps between moves (the subtree it may reuse) is reserved as kept and
// given back when the agent lets go of it (Rest, Close). A reservation that
// does not fit is refused, and the search makes do with less: a smaller
// tree, a smaller solver table or none, nothing kept — weaker, never
// illegal.
type Budget interface {
	// Reserve takes n bytes if they fit (kept: to hold between moves).
	Reserve(n int64, kept bool) bool
	// Release gives back n bytes taken with the same kept.
	Release(n int64, kept bool)
}

// WithBudget returns a context in which searches reserve their memory from
// b. Without one (the command line, tests, analysis) nothing bounds them
// but their configuration (MCTSConfig.MaxNodes, SolverTableBytes).
func WithBudget(ctx context.Context, b Budget) context.Context {
	if b == nil {
		return ctx
	}
	return context.WithValue(ctx, budgetKey{}, b)
}

type budgetKey struct{}

// BudgetIn is the budget WithBudget put on ctx (nil: none).
func BudgetIn(ctx context.Context) Budget {
	b, _ := ctx.Value(budgetKey{}).(Budget)
	return b
}

// Rester is implemented by agents that keep memory between moves (search
// trees) and can let go of it while their game waits: the
// next move then searches from nothing, as the first one did.
type Rester interface {
	Rest()
}

// Rest makes a let go of what it keeps between moves, if it keeps
// anything. It must not run while a's Choose does.
func Rest(a Agent) {
	if r, ok := a.(Rester); ok {
		r.Rest()
	}
}

// hold is bytes reserved from a budget, given back once.
type hold struct {
	b    Budget
	n    int64
	kept bool
}

// take reserves n bytes of b into h (which must hold nothing) and reports
// whether they fit; without a budget everything fits.
func (h *hold) take(b Budget, n int64, kept bool) bool {
	if b != nil && !b.Reserve(n, kept) {
		return false
	}
	*h = hold{b: b, n: n, kept: kept}
	return true
}

// grow reserves n more bytes into h, which take made, and reports whether
// they fit.
func (h *hold) grow(n int64) bool {
	if h.b != nil && !h.b.Reserve(n, h.kept) {
		return false
	}
	h.n += n
	return true
}

// release gives h's bytes back.
func (h *hold) release() {
	if h.b != nil && h.n > 0 {
		h.b.Release(h.n, h.kept)
	}
	*h = hold{}
}

// The sizes the budget counts, in bytes.
const (
	nodeBytes  = int64(unsafe.Sizeof(node{}))
	edgeBytes  = int64(unsafe.Sizeof(edge{}))
	priorBytes = 4 // float32
	// scratchBytes: copying a subtree takes two int32 per node of its
	// source (arena.remap, arena.order) and a bool (arena.cut).
	scratchBytes = 9
	entryBytes   = 12 // a transposition table entry: uint64 key, int32 node
	moveBytes    = int64(unsafe.Sizeof(game.Move(0)))
)

// minNodes is the tree every search may grow even when the budget refuses
// it, unreserved (about 0.3 MB): a search on a full node still plays a
// searched move. minGrow is the least a pool grows by.
const (
	minNodes = 1 << 12
	minGrow  = 1 << 10
)

// arenaBytes is the memory of an arena for a tree of maxNodes nodes: the
// node pool with the scratch of copying, four edges a node, the table if
// any and the priors of progressive bias if any.
func arenaBytes(maxNodes int, table, priors bool) int64 {
	n := int64(maxNodes)
	b := n*(nodeBytes+scratchBytes) + 4*n*edgeBytes
	if table {
		b += int64(tableSize(maxNodes)) * entryBytes
	}
	if priors {
		b += 4 * n * priorBytes
	}
	return b
}
