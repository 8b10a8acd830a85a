package sgolte

import (
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/game/gametest"
)

// invariant: stones on the board = placements made (flips change colour,
// not count); colours never overlap; nothing lies off the board; the
// incremental hash equals one computed from scratch.
func invariant(t testing.TB, st game.State) {
	t.Helper()
	s := st.(*State)
	b, w := s.stones[black], s.stones[white]
	if !b.and(w).isEmpty() {
		t.Errorf("a cell holds both colours")
	}
	if !b.or(w).subsetOf(s.geo.all) {
		t.Errorf("stones off the board")
	}
	if n := b.count() + w.count(); n != s.placed {
		t.Errorf("%d stones on the board after %d placements", n, s.placed)
	}
	h := s.hash
	s.rehash()
	if s.hash != h {
		t.Errorf("incremental hash %x, from scratch %x", h, s.hash)
	}
}

var conformanceOptions = []game.Options{
	nil,
	{"pie": "off"},
	{"minflip": "group"},
	{"continue": "mandatory"},
	{"continue": "none", "minflip": "group"},
	{"size": "6"},
	{"size": "7", "continue": "mandatory"},
}

func TestConformance(t *testing.T) {
	games := 60
	if testing.Short() {
		games = 10
	}
	gametest.Run(t, Game, gametest.Config{
		Games:           games,
		Options:         conformanceOptions,
		Invariant:       invariant,
		Garbage:         []string{"d4()", "d4(", "d4(e3,,e4)", "a0", "a01", "z1", "e10", "swap()", "pass(a1)", "a1 a2"},
		DeepChecksEvery: 3,
	})
}

func TestLegalAllocs(t *testing.T) {
	for _, o := range []game.Options{nil, {"size": "7"}} {
		gametest.CheckLegalAllocs(t, Game, o)
	}
}

// TestPlayoutAllocs: whole playouts, uniform and search, allocate nothing.
// One measured run of many playouts, so that even a rare allocation shows
// (AllocsPerRun divides by the number of runs, rounding down). The count
// is the whole process's, so a stray allocation of the runtime's (a
// finalizer run while a loaded machine held the measuring goroutine back)
// can land in it: the same 300 playouts, from the same seed, are measured
// up to three times, and one count of zero passes. An allocation of the
// playouts' own is in every count, as they are the same playouts.
func TestPlayoutAllocs(t *testing.T) {
	kinds := map[string]func(*State, *game.RNG) int{"uniform": (*State).Playout, "search": (*State).SearchPlayout}
	for kind, playout := range kinds {
		for _, size := range []string{"5", "6", "7"} {
			start := newState(t, "size="+size)
			var counts []float64
			for attempt := 0; attempt < 3; attempt++ {
				var s State
				rng := game.NewRNG(1)
				allocs := testing.AllocsPerRun(1, func() {
					for i := 0; i < 300; i++ {
						s = *start
						playout(&s, &rng)
					}
				})
				counts = append(counts, allocs)
				if allocs == 0 {
					break
				}
			}
			if counts[len(counts)-1] != 0 {
				t.Errorf("%s playouts, size %s: %v allocations in the same 300, measured %d times, want 0", kind, size, counts, len(counts))
			}
		}
	}
}

// TestFlipsConserveStones: every legal move adds exactly one stone (or none
// for pass and swap), and a merge moves exactly its flips from one colour
// to the other.
func TestFlipsConserveStones(t *testing.T) {
	for _, o := range conformanceOptions {
		for _, st := range gametest.RandomStates(t, Game, o, 5, 300) {
			s := st.(*State)
			for _, m := range s.Legal(nil) {
				c := *s
				c.Play(m)
				me, op := int(s.toMove), int(s.toMove^1)
				gained := c.stones[me].count() - s.stones[me].count()
				lost := s.stones[op].count() - c.stones[op].count()
				switch m {
				case movePass, moveSwap:
					if c.stones != s.stones {
						t.Fatalf("%s changed the board", s.FormatMove(m))
					}
				default:
					if gained != lost+1 || !c.stones[op].subsetOf(s.stones[op]) {
						t.Fatalf("%s: mover gained %d, opponent lost %d", s.FormatMove(m), gained, lost)
					}
				}
			}
		}
	}
}

// TestPlayoutIsUniformLikeLegal: the specialised playout chooses among
// exactly Legal's moves, each equally often. Positions from the corpus with
// merging placements (several flip sets) and a pie answer are sampled; the
// move a ply made is recognised by the position it leads to.
func TestPlayoutIsUniformLikeLegal(t *testing.T) {
	var picks []*State
	for i, l := range loadCorpus(t) {
		if i%50 == 7 {
			st, _ := Game.ParsePosition(l.Position)
			picks = append(picks, st.(*State))
		}
	}
	pie := newState(t)
	game.Play(pie, "e5")
	picks = append(picks, pie)
	rng := game.NewRNG(3)
	var pg playoutGen
	for _, s := range picks {
		if s.over() {
			continue
		}
		after := map[uint64]int{} // hash after a legal move → its count
		for _, m := range s.Legal(nil) {
			c := *s
			c.Play(m)
			after[c.hash] = 0
		}
		const per = 200
		n := per * len(after)
		for i := 0; i < n; i++ {
			c := *s
			pg.book.init(&c)
			c.randomPly(&pg, &rng, nil)
			if _, ok := after[c.hash]; !ok {
				t.Fatalf("%s: the playout made a move Legal does not list", mustJSON(t, s))
			}
			after[c.hash]++
		}
		// Each count is binomial(n, 1/k): mean per, sd about sqrt(per).
		for _, got := range after {
			if got < per-6*14 || got > per+6*14 {
				t.Fatalf("%s: a move chosen %d times, want about %d", mustJSON(t, s), got, per)
			}
		}
	}
	for _, size := range []string{"5", "6", "7"} {
		s := newState(t, "size="+size)
		plies := s.Playout(&rng)
		if !s.over() || plies == 0 {
			t.Fatalf("size %s: playout of %d plies ended over=%v", size, plies, s.over())
		}
		invariant(t, s)
	}
}

func TestPerftEmptyBoard(t *testing.T) {
	for _, pie := range []bool{true, false} {
		opt := "pie=off"
		if pie {
			opt = "pie=on"
		}
		s := newState(t, opt)
		ref := newRefPos(5, pie, "global", "optional")
		for depth := 1; depth <= 3; depth++ {
			want := ref.perft(depth)
			if got := perft(s, depth); got != want {
				t.Errorf("%s perft(%d) = %d, reference %d", opt, depth, got, want)
			}
		}
	}
}

// perft counts move sequences of the given length, copy-make.
func perft(s *State, depth int) int {
	var buf [256]game.Move
	ms := s.Legal(buf[:0])
	if depth == 1 {
		return len(ms)
	}
	n := 0
	for _, m := range ms {
		c := *s
		c.Play(m)
		n += perft(&c, depth-1)
	}
	return n
}

func FuzzMoves(f *testing.F) { gametest.FuzzMoves(f, Game, nil) }

func FuzzPosition(f *testing.F) { gametest.FuzzPosition(f, Game, nil) }

// TestPerftFromCorpusPositions: depth-2 perft from mid-game positions,
// where merges and flips happen, against the reference.
func TestPerftFromCorpusPositions(t *testing.T) {
	lines := loadCorpus(t)
	for _, i := range []int{100, 700, 1500, 2100, 2350} {
		st, _ := Game.ParsePosition(lines[i].Position)
		ref := refFromJSON(t, lines[i].Position)
		if got, want := perft(st.(*State), 2), ref.perft(2); got != want {
			t.Errorf("line %d: perft(2) = %d, reference %d", i+1, got, want)
		}
	}
}

// TestRandomGamesMatchReference plays seeded random games under every
// option set and compares every position's moves with the reference.
func TestRandomGamesMatchReference(t *testing.T) {
	games := 10
	if testing.Short() {
		games = 1
	}
	for _, o := range conformanceOptions {
		for i := 0; i < games; i++ {
			st, err := Game.New(o, 0)
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			rng := game.NewRNG(uint64(i) + 40)
			ref := refFromJSON(t, mustJSON(t, s))
			for ply := 0; ; ply++ {
				got := legalTexts(s)
				want := ref.moves()
				if missing, extra := diff(want, got); len(missing)+len(extra) > 0 {
					t.Fatalf("options %v ply %d %s:\n  missing %v\n  extra   %v", o, ply, mustJSON(t, s), missing, extra)
				}
				if len(got) == 0 {
					break
				}
				mv := got[rng.IntN(len(got))]
				if err := game.Play(s, mv); err != nil {
					t.Fatal(err)
				}
				ref.play(mv)
			}
		}
	}
}

// TestHoleFreeMatchesFloodFill: the Euler-formula hole test agrees with a
// flood fill from the board's edge through the cells outside the group, on
// every group of many random positions of every size.
func TestHoleFreeMatchesFloodFill(t *testing.T) {
	holes, groups := 0, 0
	for _, size := range []string{"5", "6", "7"} {
		for _, st := range gametest.RandomStates(t, Game, game.Options{"size": size}, 9, 400) {
			s := st.(*State)
			g := s.geo
			var edge bitset
			for i := 0; i < g.cells; i++ {
				if g.nbr[i].count() < 6 {
					edge = edge.or(single(i))
				}
			}
			for c := 0; c < 2; c++ {
				for rest := s.stones[c]; !rest.isEmpty(); {
					grp, _ := g.component(rest.first(), s.stones[c])
					rest = rest.andNot(grp)
					outside := g.all.andNot(grp)
					reached := outside.and(edge)
					for {
						next := reached.or(g.dilate(reached).and(outside))
						if next == reached {
							break
						}
						reached = next
					}
					want := reached == outside
					if g.holeFree(grp) != want {
						t.Fatalf("size %s: holeFree = %v, flood fill says %v for %s", size, !want, want, mustJSON(t, s))
					}
					groups++
					if !want {
						holes++
					}
				}
			}
		}
	}
	if holes == 0 {
		t.Fatalf("no group with a hole among %d", groups)
	}
}

// TestCutShortcutAgreesWithFloodFill: with the arc test for hole-free
// groups and the region test for the others turned off, every cut test
// floods, and the moves of every corpus position, under every option, stay
// the same.
func TestCutShortcutAgreesWithFloodFill(t *testing.T) {
	eachCorpusVariant(t, func(line int, v [2]string, s *State) {
		fast := legalTexts(s)
		holeShortcut = false
		slow := legalTexts(s)
		holeShortcut = true
		if missing, extra := diff(slow, fast); len(missing)+len(extra) > 0 {
			t.Fatalf("line %d %v: with the shortcut missing %v, extra %v", line, v, missing, extra)
		}
	})
}

// TestDepthFirstChainsAgree: with deepen keeping at most one chain of a
// length (so that nearly every search goes on depth-first, and from every
// point of a length) or two, the moves of every corpus position, under
// every option, are the same.
func TestDepthFirstChainsAgree(t *testing.T) {
	defer func() { prefixLimit = maxPrefixes }()
	eachCorpusVariant(t, func(line int, v [2]string, s *State) {
		prefixLimit = maxPrefixes
		want := legalTexts(s)
		for _, limit := range []int{1, 2} {
			prefixLimit = limit
			if missing, extra := diff(want, legalTexts(s)); len(missing)+len(extra) > 0 {
				t.Fatalf("line %d %v, at most %d chains kept: missing %v, extra %v", line, v, limit, missing, extra)
			}
		}
	})
}

// eachCorpusVariant calls check with every corpus position (every seventh
// with -short) under the default options and each variant of them, and the
// position's line number.
func eachCorpusVariant(t *testing.T, check func(line int, v [2]string, s *State)) {
	t.Helper()
	lines := loadCorpus(t)
	step := 1
	if testing.Short() {
		step = 7
	}
	variants := append([][2]string{{"global", "optional"}}, optionVariants...)
	for i := 0; i < len(lines); i += step {
		for _, v := range variants {
			st, err := Game.ParsePosition(withOptions(t, lines[i].Position, v[0], v[1]))
			if err != nil {
				t.Fatal(err)
			}
			check(i+1, v, st.(*State))
		}
	}
}

// TestPlayoutMemoChangesNothing: a playout that reads merge cells' flip
// sets from its memo plays exactly the game that one searching them afresh
// at every ply plays with the same random numbers, on every size and option
// set.
func TestPlayoutMemoChangesNothing(t *testing.T) {
	n := 40
	if testing.Short() {
		n = 8
	}
	for _, o := range conformanceOptions {
		for i := 0; i < n; i++ {
			st, _ := Game.New(o, 0)
			a := st.(*State)
			b := *a
			ra, rb := game.NewRNG(uint64(i)), game.NewRNG(uint64(i))
			pa := a.playout(&ra)
			var pg playoutGen
			pg.book.init(&b)
			pb := 0
			for ; !b.over(); pb++ {
				b.randomPly(&pg, &rb, nil)
			}
			if pa != pb || a.hash != b.hash || a.stones != b.stones {
				t.Fatalf("options %v seed %d: with the memo %d plies %s, without %d plies %s",
					o, i, pa, mustJSON(t, a), pb, mustJSON(t, &b))
			}
		}
	}
}

// TestGroupBookFromPositions: a book started from a mid-game position holds
// exactly the traced groups after every ply of a playout.
func TestGroupBookFromPositions(t *testing.T) {
	for i, l := range loadCorpus(t) {
		if i%40 != 0 {
			continue
		}
		st, _ := Game.ParsePosition(l.Position)
		s := st.(*State)
		var ug uniformGen
		ug.book.init(s)
		rng := game.NewRNG(uint64(i))
		for !s.over() {
			checkBook(t, s, &ug.book)
			s.randomPly(&ug.playoutGen, &rng, &ug.memo)
		}
		checkBook(t, s, &ug.book)
	}
}

func checkBook(t *testing.T, s *State, b *groupBook) {
	t.Helper()
	for c := 0; c < 2; c++ {
		var union, nearBig bitset
		for ids := b.live[c]; !ids.isEmpty(); {
			i := ids.pop()
			grp, halo := s.geo.component(b.grp[i].set.first(), s.stones[c])
			if grp != b.grp[i].set || halo != b.halo[i] {
				t.Fatalf("colour %d group %d is not a traced group in %s", c, i, mustJSON(t, s))
			}
			for x := grp; !x.isEmpty(); {
				if int(b.id[x.pop()]) != i {
					t.Fatalf("stone of group %d labelled otherwise", i)
				}
			}
			union = union.or(grp)
			switch e := b.grp[i]; {
			case e.hole == 1 && !s.geo.holeFree(grp):
				t.Fatalf("colour %d group %d booked without holes, which it has, in %s", c, i, mustJSON(t, s))
			case e.hole == 2 && (s.geo.holeFree(grp) || e.inner != s.geo.enclosed(grp)):
				t.Fatalf("colour %d group %d booked with holes %v, where it encloses %v, in %s", c, i, e.inner, s.geo.enclosed(grp), mustJSON(t, s))
			}
			if b.big[c].has(i) != (grp.count() >= 3) {
				t.Fatalf("colour %d group %d of %d stones: big %v", c, i, grp.count(), b.big[c].has(i))
			}
			if grp.count() >= 3 {
				nearBig = nearBig.or(halo)
			}
		}
		if union != s.stones[c] {
			t.Fatalf("colour %d: book groups do not cover the stones", c)
		}
		if got, want := b.mergeCells(c, s.empty()), s.geo.mergeCells(s.stones[c], s.empty()); got != want {
			t.Fatalf("colour %d: the book's merge cells %v, traced %v, in %s", c, got, want, mustJSON(t, s))
		}
		if got := b.nearBig(c); got != nearBig {
			t.Fatalf("colour %d: the book's cells next to groups of three %v, traced %v, in %s", c, got, nearBig, mustJSON(t, s))
		}
	}
}
