package solve

// The proof that a seat wins, small enough for git: the winner's strategy
// from the root down to a leaf ply (12 from the start) — one move for each
// position with the winner to move that the strategy reaches, every move of
// the loser followed — indexed by the position's rank in the forward
// layers, which anyone rebuilds. A checker (strategycheck.go) walks it with
// the rules engine and proves every leaf with an independent search.

import (
	"bufio"
	"compress/gzip"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"

	"github.com/tabula-games/tabula/games/sploof"
)

// strategyMagic opens a strategy file (inside its gzip stream).
const strategyMagic = "SPWLSTR1"

// Strategy is a winner's strategy from a root down to a leaf ply.
type Strategy struct {
	RootKey  uint64
	RootPly  int
	LeafPly  int
	Winner   int           // the seat the strategy wins for
	Plies    []StrategyPly // the plies with the winner to move, root first
	leafKeys []uint64      // with extraction: the leaves reached (canonical keys)
}

// StrategyPly is the winner's moves at one ply: for the positions of rank
// Ranks[i] in the layer (ascending), the move Moves[i] in the canonical
// image's frame (a point, or RemoveFlag plus a red's point).
type StrategyPly struct {
	Ply   int
	Ranks []uint32
	Moves []uint8
}

// move returns the strategy's move for the position of the given rank.
func (p *StrategyPly) move(rank int) (uint8, bool) {
	i := sort.Search(len(p.Ranks), func(i int) bool { return int(p.Ranks[i]) >= rank })
	if i < len(p.Ranks) && int(p.Ranks[i]) == rank {
		return p.Moves[i], true
	}
	return 0, false
}

// Entries is the number of winner-to-move positions the strategy holds.
func (s *Strategy) Entries() int {
	n := 0
	for _, p := range s.Plies {
		n += len(p.Ranks)
	}
	return n
}

// Leaves is, for a strategy just extracted, the number of leaf positions
// (distinct, at the leaf ply) it reaches.
func (s *Strategy) Leaves() int { return len(s.leafKeys) }

// ExtractStrategy reads the winner's strategy for st from the solver,
// which must have decided st (its table holds most of what is needed;
// what it lost is searched again), down to leafPly; layersDir holds (or
// gets) the forward layers that index it.
func (s *WinLoss) ExtractStrategy(ctx context.Context, st *sploof.State, leafPly int, layersDir string) (*Strategy, error) {
	root, err := nodeFromBits(st.Bits())
	if err != nil {
		return nil, fmt.Errorf("sploof strategy: %w", err)
	}
	if leafPly <= int(root.ply) {
		return nil, fmt.Errorf("sploof strategy: the leaf ply %d is not after the root's %d", leafPly, root.ply)
	}
	s.stop.Store(false)
	w := &wlWorker{s: s, ctx: ctx, rootPly: root.ply}
	defer w.flush()
	rootWins := w.wins(&root)
	if w.stopped {
		return nil, ErrWinLossStopped
	}
	winner := int(root.turn)
	if !rootWins {
		winner = 1 - winner
	}
	moves := map[uint64]uint8{} // winner-to-move positions: canonical key → canonical move
	seen := map[uint64]bool{}
	var leaves []uint64
	var walk func(n *node) error
	walk = func(n *node) error {
		key, sym := n.key()
		if seen[key] {
			return nil
		}
		seen[key] = true
		if int(n.ply) == leafPly {
			leaves = append(leaves, key)
			return nil
		}
		occ := n.occ()
		pm, rm := n.moveMasks(occ)
		if int(n.turn) == winner {
			m, err := w.winningMove(n)
			if err != nil {
				return err
			}
			moves[key] = mapMove(sym, m)
			c := *n
			if c.play(m) != 0 {
				return nil // the move wins at once
			}
			return walk(&c)
		}
		for mm := pm; mm != 0; mm &= mm - 1 {
			c := *n
			if c.place(trailing(mm), occ) {
				return fmt.Errorf("sploof strategy: the loser wins at ply %d (the solver erred)", n.ply)
			}
			if err := walk(&c); err != nil {
				return err
			}
		}
		for mm := rm; mm != 0; mm &= mm - 1 {
			c := *n
			switch c.play(uint8(sploof.RemoveFlag + trailing(mm))) {
			case 1:
				return fmt.Errorf("sploof strategy: the loser wins at ply %d (the solver erred)", n.ply)
			case -1:
				continue // the loser's removal makes only the winner's line
			}
			if err := walk(&c); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(&root); err != nil {
		return nil, err
	}
	strat := &Strategy{RootKey: mustKey(&root), RootPly: int(root.ply), LeafPly: leafPly, Winner: winner, leafKeys: leaves}
	slices.Sort(strat.leafKeys)
	res, err := Build(ctx, layersDir, st, BuildOptions{UpTo: leafPly})
	if err != nil {
		return nil, err
	}
	for _, l := range res.Layers {
		if l.Count == 0 || l.Ply >= leafPly {
			continue
		}
		keys, err := loadKeys(layerPath(layersDir, l.Ply, "keys"), l.Count)
		if err != nil {
			return nil, err
		}
		if len(keys) == 0 || int(keys[0]>>turnPos) != winner {
			continue // the loser moves at this ply
		}
		sp := StrategyPly{Ply: l.Ply}
		for i, k := range keys {
			if m, ok := moves[k]; ok {
				sp.Ranks = append(sp.Ranks, uint32(i))
				sp.Moves = append(sp.Moves, m)
				delete(moves, k)
			}
		}
		strat.Plies = append(strat.Plies, sp)
	}
	if len(moves) != 0 {
		return nil, fmt.Errorf("sploof strategy: %d positions of the strategy are missing from the layers", len(moves))
	}
	return strat, nil
}

func mustKey(n *node) uint64 { k, _ := n.key(); return k }

// winningMove finds a move that wins n for its side to move (n is won):
// the table's when it has one, else the first child the search proves lost.
func (w *wlWorker) winningMove(n *node) (uint8, error) {
	key, sym := n.key()
	if v, m, ok := w.s.tt.get(key); ok && v && m != noMove {
		return mapMove(inv[sym], m), nil
	}
	occ := n.occ()
	pm, rm := n.moveMasks(occ)
	var cand []uint8
	for m := rm; m != 0; m &= m - 1 {
		cand = append(cand, uint8(sploof.RemoveFlag+trailing(m)))
	}
	for m := pm; m != 0; m &= m - 1 {
		cand = append(cand, uint8(trailing(m)))
	}
	for _, m := range cand {
		c := *n
		switch c.play(m) {
		case 1:
			return m, nil
		case -1:
			continue
		}
		cw := w.wins(&c)
		if w.stopped {
			return 0, ErrWinLossStopped
		}
		if !cw {
			return m, nil
		}
	}
	return 0, fmt.Errorf("sploof strategy: no winning move at ply %d (the solver erred)", n.ply)
}

// Write writes the strategy: a gzip stream of the magic, the root's key
// (8 bytes), its ply, the leaf ply and the winner (a byte each), the number
// of plies that follow (a byte), and for each: its ply (a byte), the count
// of positions (4 bytes), their ranks as ascending uvarint gaps (the first
// from 0), then a move byte each. Little-endian throughout.
func (s *Strategy) Write(w io.Writer) error {
	zw, err := gzip.NewWriterLevel(w, gzip.BestCompression)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(zw)
	bw.WriteString(strategyMagic)
	var h [12]byte
	binary.LittleEndian.PutUint64(h[0:], s.RootKey)
	h[8], h[9], h[10], h[11] = byte(s.RootPly), byte(s.LeafPly), byte(s.Winner), byte(len(s.Plies))
	bw.Write(h[:])
	var vb [binary.MaxVarintLen64]byte
	for _, p := range s.Plies {
		var ph [5]byte
		ph[0] = byte(p.Ply)
		binary.LittleEndian.PutUint32(ph[1:], uint32(len(p.Ranks)))
		bw.Write(ph[:])
		prev := uint32(0)
		for i, r := range p.Ranks {
			gap := r - prev
			if i > 0 {
				gap = r - prev - 1
			}
			bw.Write(vb[:binary.PutUvarint(vb[:], uint64(gap))])
			prev = r
		}
		bw.Write(p.Moves)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	return zw.Close()
}

// Save writes the strategy to path whole or not at all.
func (s *Strategy) Save(path string) error {
	return saveAtomic(path, s.Write)
}

// ReadStrategy reads a strategy written by Write, checking its format: the
// magic, plies between the root's and the leaf ply with the winner to move,
// ascending ranks, moves that name a point or a red's removal, nothing
// after the end.
func ReadStrategy(r io.Reader) (*Strategy, error) {
	zr, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("sploof strategy: %w", err)
	}
	br := bufio.NewReader(zr)
	head := make([]byte, len(strategyMagic)+12)
	if _, err := io.ReadFull(br, head); err != nil {
		return nil, fmt.Errorf("sploof strategy: short header: %w", err)
	}
	if string(head[:len(strategyMagic)]) != strategyMagic {
		return nil, errors.New("sploof strategy: not a strategy file")
	}
	h := head[len(strategyMagic):]
	s := &Strategy{RootKey: binary.LittleEndian.Uint64(h), RootPly: int(h[8]), LeafPly: int(h[9]), Winner: int(h[10])}
	switch {
	case s.Winner > 1:
		return nil, fmt.Errorf("sploof strategy: no seat %d", s.Winner)
	case s.LeafPly <= s.RootPly || s.LeafPly > 60:
		return nil, fmt.Errorf("sploof strategy: leaf ply %d after a root at ply %d", s.LeafPly, s.RootPly)
	case int(h[11]) > s.LeafPly-s.RootPly:
		return nil, fmt.Errorf("sploof strategy: %d plies between ply %d and %d", h[11], s.RootPly, s.LeafPly)
	}
	prevPly := -1
	for range int(h[11]) {
		var ph [5]byte
		if _, err := io.ReadFull(br, ph[:]); err != nil {
			return nil, fmt.Errorf("sploof strategy: short: %w", err)
		}
		p := StrategyPly{Ply: int(ph[0])}
		n := binary.LittleEndian.Uint32(ph[1:])
		if p.Ply < s.RootPly || p.Ply >= s.LeafPly || p.Ply <= prevPly {
			return nil, fmt.Errorf("sploof strategy: a ply %d out of place", p.Ply)
		}
		if n > 1<<28 {
			return nil, fmt.Errorf("sploof strategy: %d positions at ply %d", n, p.Ply)
		}
		prevPly = p.Ply
		// Grown as read, so that a count that lies costs no memory.
		p.Ranks = make([]uint32, 0, min(n, 1<<16))
		var prev uint64
		for i := range int(n) {
			gap, err := binary.ReadUvarint(br)
			if err != nil {
				return nil, fmt.Errorf("sploof strategy: ply %d: %w", p.Ply, err)
			}
			r := prev + gap
			if i > 0 {
				r++
			}
			if r >= 1<<32 {
				return nil, fmt.Errorf("sploof strategy: ply %d: a rank past 2^32", p.Ply)
			}
			p.Ranks = append(p.Ranks, uint32(r))
			prev = r
		}
		p.Moves = make([]uint8, n) // n ranks were read: n is true
		if _, err := io.ReadFull(br, p.Moves); err != nil {
			return nil, fmt.Errorf("sploof strategy: short: %w", err)
		}
		for _, m := range p.Moves {
			if m >= sploof.NumPoints && (m < sploof.RemoveFlag || m >= sploof.RemoveFlag+sploof.NumPoints) {
				return nil, fmt.Errorf("sploof strategy: ply %d: a move %d that is no point", p.Ply, m)
			}
		}
		s.Plies = append(s.Plies, p)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, errors.New("sploof strategy: data after the last ply")
	}
	return s, nil
}
