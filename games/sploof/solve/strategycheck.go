package solve

// The strategy's checker. It shares with the solver only the key's
// definition and, to order the leaf search's moves, the count of winning
// points (order.go's threats), which decides how soon a leaf is proved,
// never what: positions are sploof.State (FromBits, Legal, Play, Outcome),
// keys are reduced by permuting points (keyOfBits), the layers that index
// the strategy are rebuilt here with the rules engine, and the leaves are
// proved by an AND-OR search over the rules engine.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/tabula-games/tabula/internal/hugepages"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
)

// CheckOptions tune CheckStrategy.
type CheckOptions struct {
	// Workers prove leaves side by side (0: 2).
	Workers int
	// Sample proves this many leaves drawn at random (seeded by Seed)
	// instead of all of them (0: all).
	Sample int
	Seed   uint64
	// LeafNodes bounds each leaf's search (0: no bound); a leaf not
	// settled within it fails the check.
	LeafNodes int64
	// Log receives progress lines (nil: nothing).
	Log io.Writer
	// ProgressPath, when set (and Sample is not), keeps which leaves are
	// proved in this file: read at the start (those leaves are not proved
	// again), written every ProgressEvery (0: 5 minutes) and when the
	// check ends, stopped or not.
	ProgressPath  string
	ProgressEvery time.Duration
	// MemoBytes bounds the memo of the leaf search, which the workers
	// share (0: 64 MiB); a full check of many leaves goes faster with more
	// (docs/solving.md).
	MemoBytes int64
	// Within, when positive, proves more: that the winner's win comes by
	// ply Within at the latest (the game over by then, whatever the loser
	// does), so a check that passes bounds the length of the game under
	// the strategy (0: any length).
	Within int
	// visit, if set, sees every position of the walk (walkStrategy).
	visit func(key uint64, move int)
	// leafDone, if set, is called by a worker after each leaf it proves
	// (tests stop a check there).
	leafDone func()
}

// CheckReport is what a check walked and proved.
type CheckReport struct {
	WinnerPositions int   // positions with the winner to move the walk reached
	LoserPositions  int   // positions with the loser to move
	Leaves          int   // distinct positions at the leaf ply
	LeavesProved    int   // of them, proved won for the winner (with a progress file, also in earlier runs)
	Nodes           int64 // positions the leaf searches visited
}

// rulesChildren appends the canonical keys of the positions one move after
// the position of key k that a layer keeps, by the rules engine: those in
// which the game goes on, and those it ends in only because the side to
// move has no move (no line on the board), as Build keeps them.
func rulesChildren(k uint64, out []uint64) ([]uint64, error) {
	st, err := sploof.FromBits(bitsOfKey(k))
	if err != nil {
		return out, err
	}
	for _, m := range st.Legal(nil) { // none when the side to move has none
		c := *st
		c.Play(m)
		b := c.Bits()
		if occ := b.White | b.Black | b.Red; !c.Outcome().Over() || !sploof.HasLine(b.White, occ) && !sploof.HasLine(b.Black, occ) {
			out = append(out, keyOfBits(b))
		}
	}
	return out, nil
}

// rulesLayers rebuilds the layers of the positions reachable from root,
// from its ply to upTo, in memory with the rules engine: each the sorted
// unique keys of the positions one move after the last layer's in which
// the game goes on.
func rulesLayers(ctx context.Context, root uint64, upTo, workers int) ([][]uint64, error) {
	layers := [][]uint64{{root}}
	for p := 1; ; p++ {
		if p > upTo-int(bitsPly(root)) {
			return layers, nil
		}
		prev := layers[len(layers)-1]
		parts := make([][]uint64, workers)
		var first firstError
		var wg sync.WaitGroup
		var next atomic.Int64
		for w := 0; w < workers; w++ {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var out []uint64
				for {
					lo := int(next.Add(4096)) - 4096
					if lo >= len(prev) || ctx.Err() != nil {
						break
					}
					for _, k := range prev[lo:min(lo+4096, len(prev))] {
						var err error
						if out, err = rulesChildren(k, out); err != nil {
							first.set(err)
							return
						}
					}
				}
				slices.Sort(out)
				parts[w] = slices.Compact(out)
			}()
		}
		wg.Wait()
		if err := first.get(); err != nil {
			return nil, err
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		var all []uint64
		for _, part := range parts {
			all = append(all, part...)
		}
		slices.Sort(all)
		layers = append(layers, slices.Compact(all))
	}
}

// maxPly is the most plies a game can have: a ply places a ball or
// removes a red, and the 30 points hold at most 30 balls once the 12 reds
// are gone.
const maxPly = 30 + 12

// bitsPly is the ply of the position of key k: balls on the board plus
// reds removed.
func bitsPly(k uint64) int {
	b := bitsOfKey(k)
	return bits.OnesCount32(b.White|b.Black) + 12 - bits.OnesCount32(b.Red)
}

// CheckStrategy checks that s wins for its winner: it rebuilds the layers
// that index s with the rules engine, walks the strategy from the root —
// every legal move of the loser, the strategy's move of the winner, which
// must be legal, and which must exist for every winner-to-move position
// reached — and proves that the winner wins every leaf (position at the
// leaf ply) with an independent search. A game ended on the way must be
// the winner's. It returns the first failure as an error.
func CheckStrategy(ctx context.Context, s *Strategy, opt CheckOptions) (rep CheckReport, err error) {
	if opt.Workers <= 0 {
		opt.Workers = 2
	}
	if opt.Within != 0 && (opt.Within <= s.LeafPly || opt.Within > maxPly) {
		return rep, fmt.Errorf("a win by ply %d: want a ply after the leaves' (%d) and at most %d", opt.Within, s.LeafPly, maxPly)
	}
	logf := func(format string, a ...any) {
		if opt.Log != nil {
			fmt.Fprintf(opt.Log, format, a...)
		}
	}
	rep, leaves, err := walkStrategy(ctx, s, opt.Workers, logf, opt.visit)
	if err != nil {
		return rep, err
	}
	var prog *checkProgress
	if opt.ProgressPath != "" && opt.Sample == 0 {
		if prog, err = openProgress(opt.ProgressPath, s, leaves, opt.Within); err != nil {
			return rep, err
		}
		logf("%d of %d leaves proved before (%s)\n", prog.proved(), len(leaves), opt.ProgressPath)
		every := opt.ProgressEvery
		if every <= 0 {
			every = 5 * time.Minute
		}
		stopSaving := make(chan struct{})
		saved := make(chan error, 1)
		go func() {
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-t.C:
					if err := prog.save(); err != nil {
						logf("progress not saved: %v\n", err)
					} else {
						logf("%d of %d leaves proved (saved)\n", prog.proved(), len(leaves))
					}
				case <-stopSaving:
					saved <- prog.save()
					return
				}
			}
		}()
		defer func() {
			close(stopSaving)
			if serr := <-saved; serr != nil && err == nil {
				err = fmt.Errorf("the progress file: %w", serr)
			}
		}()
	}
	if opt.Sample > 0 && opt.Sample < len(leaves) {
		rng := game.NewRNG(opt.Seed)
		for i := range opt.Sample {
			j := i + rng.IntN(len(leaves)-i)
			leaves[i], leaves[j] = leaves[j], leaves[i]
		}
		leaves = leaves[:opt.Sample]
	}
	var next, proved, nodes atomic.Int64
	var first firstError
	var wg sync.WaitGroup
	// One memo for all workers: they take neighbouring blocks, whose
	// searches meet the same positions.
	memo := newLeafMemo(opt.MemoBytes)
	for w := 0; w < opt.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lp := &leafProver{ctx: ctx, memo: memo, within: opt.Within, winner: s.Winner}
			for {
				// Leaves in blocks of neighbours (sorted keys), so that a worker's
				// memo meets the positions they share.
				lo := (int(next.Add(1)) - 1) * leafBlock
				if lo >= len(leaves) {
					return
				}
				for i := lo; i < min(lo+leafBlock, len(leaves)); i++ {
					if prog != nil && prog.done(i) {
						proved.Add(1)
						continue
					}
					if first.get() != nil {
						return
					}
					// A stopped check stops before its next leaf: a leaf's
					// search looks at the context only every 4,096
					// positions, and most leaves take fewer.
					if err := ctx.Err(); err != nil {
						first.set(err)
						return
					}
					st, err := sploof.FromBits(bitsOfKey(leaves[i]))
					if err == nil {
						lp.nodes, lp.limit = 0, opt.LeafNodes
						var win bool
						win, err = lp.wins(st, 0)
						nodes.Add(lp.nodes)
						if err == nil && win != (st.ToMove() == s.Winner) {
							by := ""
							if opt.Within > 0 {
								by = fmt.Sprintf(" by ply %d", opt.Within)
							}
							err = fmt.Errorf("leaf %016x (ply %d) is not won by seat %d%s", leaves[i], s.LeafPly, s.Winner, by)
						}
					}
					if err != nil {
						first.set(err)
						return
					}
					if prog != nil {
						prog.mark(i)
					}
					if opt.leafDone != nil {
						opt.leafDone()
					}
					if d := proved.Add(1); d%10000 == 0 {
						logf("%d of %d leaves proved (%d nodes)\n", d, len(leaves), nodes.Load())
					}
				}
			}
		}()
	}
	wg.Wait()
	rep.LeavesProved, rep.Nodes = int(proved.Load()), nodes.Load()
	if prog != nil {
		// A stopped run's workers did not reach every leaf proved before.
		rep.LeavesProved = prog.proved()
	}
	if err := first.get(); err != nil {
		return rep, err
	}
	return rep, nil
}

// walkStrategy rebuilds the layers of s with the rules engine and walks
// it: every move of the loser, the strategy's move of the winner, each
// checked legal and the games that end on the way won by the winner. It
// returns the leaves reached (sorted canonical keys); visit, if not nil,
// sees each position walked once, by canonical key, with the strategy's
// move in the canonical image's frame, or -1 where the loser moves.
func walkStrategy(ctx context.Context, s *Strategy, workers int, logf func(string, ...any), visit func(key uint64, move int)) (rep CheckReport, leaves []uint64, err error) {
	rootBits := bitsOfKey(s.RootKey)
	root, err := sploof.FromBits(rootBits)
	if err != nil {
		return rep, nil, fmt.Errorf("the strategy's root: %w", err)
	}
	if keyOfBits(rootBits) != s.RootKey || bitsPly(s.RootKey) != s.RootPly {
		return rep, nil, fmt.Errorf("the strategy's root %016x is not a canonical key of ply %d", s.RootKey, s.RootPly)
	}
	if root.Outcome().Over() {
		return rep, nil, errors.New("the strategy's root is a finished game")
	}
	layers, err := rulesLayers(ctx, s.RootKey, s.LeafPly-1, workers)
	if err != nil {
		return rep, nil, err
	}
	logf("layers %d–%d rebuilt with the rules engine: %d positions at ply %d\n", s.RootPly, s.LeafPly-1, len(layers[len(layers)-1]), s.LeafPly-1)
	byPly := map[int]*StrategyPly{}
	for i := range s.Plies {
		p := &s.Plies[i]
		layer := layers[p.Ply-s.RootPly]
		if len(p.Ranks) > 0 && int(p.Ranks[len(p.Ranks)-1]) >= len(layer) {
			return rep, nil, fmt.Errorf("ply %d: rank %d in a layer of %d positions", p.Ply, p.Ranks[len(p.Ranks)-1], len(layer))
		}
		byPly[p.Ply] = p
	}
	seen := map[uint64]bool{}
	leafSet := map[uint64]bool{}
	var walk func(st *sploof.State, path []string) error
	walk = func(st *sploof.State, path []string) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		b := st.Bits()
		key, sym := keySymOfBits(b)
		ply := bitsPly(key)
		if seen[key] {
			return nil
		}
		seen[key] = true
		if ply == s.LeafPly {
			leafSet[key] = true
			return nil
		}
		legal := st.Legal(nil)
		if st.ToMove() == s.Winner {
			rep.WinnerPositions++
			sp := byPly[ply]
			if sp == nil {
				return fmt.Errorf("no moves at ply %d, where the winner moves (after %v)", ply, path)
			}
			layer := layers[ply-s.RootPly]
			rank := sort.Search(len(layer), func(i int) bool { return layer[i] >= key })
			if rank == len(layer) || layer[rank] != key {
				return fmt.Errorf("the position after %v is missing from the rebuilt layer %d", path, ply)
			}
			cm, ok := sp.move(rank)
			if !ok {
				return fmt.Errorf("the strategy has no move for the position after %v (ply %d, rank %d)", path, ply, rank)
			}
			m := game.Move(mapMove(inv[sym], cm))
			if !slices.Contains(legal, m) {
				return fmt.Errorf("the strategy's move %d for the position after %v (ply %d, rank %d) is not legal", cm, path, ply, rank)
			}
			if visit != nil {
				visit(key, int(cm))
			}
			c := *st
			c.Play(m)
			if o := c.Outcome(); o.Over() {
				if !o.IsWinner(s.Winner) {
					return fmt.Errorf("the strategy's move %s after %v loses the game", st.FormatMove(m), path)
				}
				return nil
			}
			return walk(&c, append(path, st.FormatMove(m)))
		}
		rep.LoserPositions++
		if visit != nil {
			visit(key, -1)
		}
		for _, m := range legal {
			c := *st
			c.Play(m)
			if o := c.Outcome(); o.Over() {
				if !o.IsWinner(s.Winner) {
					return fmt.Errorf("the loser wins with %s after %v", st.FormatMove(m), path)
				}
				continue
			}
			if err := walk(&c, append(path, st.FormatMove(m))); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root, nil); err != nil {
		return rep, nil, err
	}
	leaves = make([]uint64, 0, len(leafSet))
	for k := range leafSet {
		leaves = append(leaves, k)
	}
	slices.Sort(leaves)
	rep.Leaves = len(leaves)
	logf("walked: %d positions with the winner to move, %d with the loser, %d leaves at ply %d\n", rep.WinnerPositions, rep.LoserPositions, rep.Leaves, s.LeafPly)
	return rep, leaves, nil
}

// ErrLeafBudget reports a leaf whose search outgrew CheckOptions.LeafNodes.
var ErrLeafBudget = errors.New("a leaf's search outgrew its budget")

// leafProver is the checker's search: AND-OR over the rules engine, the
// results of positions (canonical keys) remembered. It tries first the
// placements that block a line of the other side, then (near the leaf) the
// moves that leave the mover more winning points, then the moves that
// refuted before — a killer and a history weighted by height, as the
// solver's, but its own. The order decides only how soon a proof is found,
// never what is proved, since a position is won only when a move is
// searched to a loss for the other side, and lost only when every move is:
// so it may use the solver's threat count (order.go) while the moves and
// the ends of games are the rules engine's.
type leafProver struct {
	ctx          context.Context
	memo         *leafMemo
	nodes, limit int64
	// within, when positive, bounds the winner's win: a position at that
	// ply with the game going on counts as the loser's. Every result is
	// still "won for the side to move": for the winner, a win by that ply;
	// for the loser, holding out past it (or winning) — so the search's
	// negamax is unchanged, and since a position's ply follows from the
	// position, one memo holds one bound's results consistently.
	within int
	winner int
	hist   [2][64]uint64 // by mover and move: refutations, 2^(40−depth) each
	killer [64]game.Move // by depth: the last refutation there, plus one
}

// leafBlock is how many consecutive leaves a worker of a check takes at a
// time.
const leafBlock = 256

// leafMemo remembers the leaf search's results by canonical key: a
// direct-mapped cache of 2^bits entries of 8 bytes that a check's workers
// share, a newer result taking an older one's place. It is only a cache: a
// result is read back only under its own key. An entry holds the key
// exactly in fewer bits than a key has: h = k·c (c odd) is a one-to-one map
// of 64-bit words, its top bits are the slot, and the entry keeps the other
// bits of h beside the result — one word, so one cache miss (a key and a
// result apart cost two), and read and written whole by one atomic access,
// so a worker never reads half of another's entry.
type leafMemo struct {
	bits    int
	entries []uint64 // h's bits below the slot's, then 2 bits: 0 empty, 1 lost for the side to move, 2 won
}

// memoMul is odd, so multiplying by it is one-to-one on 64-bit words.
const memoMul = 0x9e3779b97f4a7c15

// newLeafMemo returns a memo of the most entries that fit in bytes (0: 64
// MiB), at least 2^16.
func newLeafMemo(bytes int64) *leafMemo {
	if bytes <= 0 {
		bytes = 64 << 20
	}
	b := 16
	for b < 40 && int64(8)<<(b+1) <= bytes {
		b++
	}
	m := &leafMemo{bits: b, entries: hugepages.Advise(make([]uint64, 1<<b))}
	return m
}

// split returns k's slot and the bits of its entry that name k there.
func (m *leafMemo) split(k uint64) (slot int, tag uint64) {
	h := k * memoMul
	return int(h >> (64 - m.bits)), h << m.bits >> m.bits << 2
}

func (m *leafMemo) get(k uint64) (win, ok bool) {
	i, tag := m.split(k)
	e := atomic.LoadUint64(&m.entries[i])
	if e&3 == 0 || e&^3 != tag {
		return false, false
	}
	return e&3 == 2, true
}

func (m *leafMemo) put(k uint64, win bool) {
	i, tag := m.split(k)
	e := tag | 1
	if win {
		e = tag | 2
	}
	atomic.StoreUint64(&m.entries[i], e)
}

// wins reports whether the side to move in st (a game going on) wins;
// depth is its distance from the leaf the search began at.
func (lp *leafProver) wins(st *sploof.State, depth int) (bool, error) {
	k := keyOfBits(st.Bits())
	if v, ok := lp.memo.get(k); ok {
		return v, nil
	}
	return lp.search(st, k, depth)
}

// search is wins for a position of key k that the memo does not hold.
// It looks every child up in the memo before it searches any: a child
// known lost wins at once, a child known won is no refutation to try, and
// the look-ups, independent of each other, overlap their misses of the
// cache where one at the start of each child's search waits for each.
func (lp *leafProver) search(st *sploof.State, k uint64, depth int) (bool, error) {
	lp.nodes++
	if lp.limit > 0 && lp.nodes > lp.limit {
		return false, ErrLeafBudget
	}
	if lp.within > 0 && bitsPly(k) >= lp.within {
		held := st.ToMove() != lp.winner
		lp.remember(k, held)
		return held, nil
	}
	if lp.nodes&4095 == 0 && lp.ctx.Err() != nil {
		return false, lp.ctx.Err()
	}
	mover := st.ToMove()
	// On the stack: a position has at most 30 placements and 12 removals.
	var legalBuf, moveBuf [48]game.Move
	var kidBuf [48]sploof.State
	var keyBuf [48]uint64
	legal := st.Legal(legalBuf[:0])
	kids, moves, keys := kidBuf[:0], moveBuf[:0], keyBuf[:0]
	for _, m := range legal {
		c := *st
		c.Play(m)
		if o := c.Outcome(); o.Over() {
			if o.IsWinner(mover) {
				lp.remember(k, true)
				return true, nil
			}
			continue
		}
		kids = append(kids, c)
		moves = append(moves, m)
		keys = append(keys, keyOfBits(c.Bits()))
	}
	n := 0
	for i := range kids {
		w, ok := lp.memo.get(keys[i])
		if !ok {
			kids[n], moves[n], keys[n] = kids[i], moves[i], keys[i]
			n++
			continue
		}
		if !w {
			lp.remember(k, true)
			return true, nil
		}
	}
	kids, moves, keys = kids[:n], moves[:n], keys[:n]
	d := min(depth, 63)
	var prioBuf [48]uint64
	prio := prioBuf[:len(kids)]
	var block uint32
	if len(kids) > 1 {
		b := st.Bits()
		occ := b.White | b.Black | b.Red
		opp := b.White
		if mover == sploof.White {
			opp = b.Black
		}
		for m := sploof.Supported(occ) &^ occ; m != 0; m &= m - 1 {
			q := m & -m
			if sploof.HasLine(opp|q, occ|q) {
				block |= q
			}
		}
	}
	for i, m := range moves {
		pr := min(lp.hist[mover][m&63], prioKiller-1)
		if lp.killer[d] == m+1 {
			pr |= prioKiller
		}
		if m < sploof.RemoveFlag && block&(1<<m) != 0 {
			pr |= prioBlock
		} else if depth < leafThreatDepth && len(kids) > 1 {
			cb := kids[i].Bits()
			if cb.Stock[mover] > 0 {
				own := cb.White
				if mover == sploof.Black {
					own = cb.Black
				}
				pr |= threatPrio(threats(own, cb.White|cb.Black|cb.Red))
			}
		}
		prio[i] = pr
	}
	for i := range kids {
		j := i // selection sort, a step per move tried
		for k := i + 1; k < len(kids); k++ {
			if prio[k] > prio[j] {
				j = k
			}
		}
		kids[i], kids[j] = kids[j], kids[i]
		moves[i], moves[j] = moves[j], moves[i]
		keys[i], keys[j] = keys[j], keys[i]
		prio[i], prio[j] = prio[j], prio[i]
		// Searched after the look-ups above, a child may have been decided
		// since, by a transposition in an earlier sibling's search.
		w, ok := lp.memo.get(keys[i])
		var err error
		if !ok {
			w, err = lp.search(&kids[i], keys[i], depth+1)
		}
		if err != nil {
			return false, err
		}
		if !w {
			lp.killer[d] = moves[i] + 1
			if h := &lp.hist[mover][moves[i]&63]; *h < 1<<60 {
				*h += 1 << max(40-depth, 0)
			}
			lp.remember(k, true)
			return true, nil
		}
	}
	lp.remember(k, false)
	return false, nil
}

// leafThreatDepth is how deep below a leaf the leaf search counts the
// winning points each move leaves the mover, to try those with more first:
// deeper, that costs more than the positions it saves (on 40 leaves of the
// committed strategy: 88.7 million positions with no counts and no blocks
// first, 81.0 with both counted above this depth, 78.4 at every depth
// but no sooner done).
const leafThreatDepth = 8

func (lp *leafProver) remember(k uint64, v bool) { lp.memo.put(k, v) }
