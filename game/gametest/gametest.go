// Package gametest is the conformance suite every Tabula game runs, in the
// spirit of OpenSpiel's basic_tests: seeded random games that check, after
// every ply, that the game keeps the promises of the game.State contract.
//
// A game's test calls Run with its own invariants; fuzz targets call
// FuzzMoves and FuzzPosition.
package gametest

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// Config tunes Run for one game.
type Config struct {
	// Games is the number of seeded random games (default 200; 20 with -short).
	Games int
	// Seed is the first seed; game i uses Seed+i.
	Seed uint64
	// Options are the option sets to play under (default: the defaults only).
	// Each set runs Games games.
	Options []game.Options
	// MaxPlies bounds a game; a longer one fails the termination check
	// (default 10,000).
	MaxPlies int
	// Invariant checks game-specific facts about a state (conservation of
	// pieces and cards, …). It is called on every state reached; it reports
	// through t.
	Invariant func(t testing.TB, s game.State)
	// Garbage are move texts that must never parse in any state.
	Garbage []string
	// DeepChecksEvery runs the expensive checks (position round trip, clone
	// independence) on every n-th ply only (default 1: every ply).
	DeepChecksEvery int
}

func (c *Config) fill() {
	if c.Games == 0 {
		c.Games = 200
		if testing.Short() {
			c.Games = 20
		}
	}
	if len(c.Options) == 0 {
		c.Options = []game.Options{nil}
	}
	if c.MaxPlies == 0 {
		c.MaxPlies = 10000
	}
	if c.DeepChecksEvery == 0 {
		c.DeepChecksEvery = 1
	}
}

// defaultGarbage is text no game accepts as a move.
var defaultGarbage = []string{"", " ", "zz99", "nonsense", "\x00", "(", ")", "((", "-", "~~", "🙂", "a1(", "1000000000000000000000"}

// Run plays cfg.Games seeded random games of g under every option set and
// checks the contract after every ply.
func Run(t *testing.T, g game.Game, cfg Config) {
	t.Helper()
	cfg.fill()
	for oi, opts := range cfg.Options {
		full, err := game.Complete(g, opts)
		if err != nil {
			t.Fatalf("options %v: %v", opts, err)
		}
		t.Run(fmt.Sprintf("options%d[%s]", oi, full), func(t *testing.T) {
			checkFacts(t, g, full, cfg.Seed)
			hashes := map[string]uint64{} // position JSON → hash, across games
			for i := 0; i < cfg.Games; i++ {
				seed := cfg.Seed + uint64(i)
				if !playOne(t, g, full, seed, &cfg, hashes) {
					return
				}
			}
		})
	}
}

// playOne plays one random game; it returns false after a failure so that
// one bug does not print a thousand times.
func playOne(t *testing.T, g game.Game, opts game.Options, seed uint64, cfg *Config, hashes map[string]uint64) bool {
	t.Helper()
	s, err := g.New(opts, seed)
	if err != nil {
		t.Errorf("seed %d: New: %v", seed, err)
		return false
	}
	rng := game.NewRNG(seed ^ 0x5eed)
	var buf []game.Move
	var prevTexts []string
	history := []string{}
	fail := func(format string, args ...any) bool {
		t.Helper()
		t.Errorf("seed %d after %q: %s", seed, strings.Join(history, " "), fmt.Sprintf(format, args...))
		return false
	}
	for ply := 0; ; ply++ {
		if cfg.Invariant != nil {
			cfg.Invariant(t, s)
			if t.Failed() {
				return fail("invariant failed")
			}
		}
		buf = s.Legal(buf[:0])
		out := s.Outcome()
		if out.Over() {
			if len(buf) != 0 {
				return fail("game over (%v) but %d legal moves", out.Status, len(buf))
			}
			if s.ToMove() != -1 {
				return fail("game over but ToMove = %d, want -1", s.ToMove())
			}
			if out.Status == game.Won && out.Winners == 0 {
				return fail("won with no winner")
			}
		} else {
			if len(buf) == 0 {
				return fail("game not over but no legal moves")
			}
			if tm := s.ToMove(); tm < 0 || tm >= s.NumPlayers() {
				return fail("ToMove = %d out of range [0,%d)", tm, s.NumPlayers())
			}
		}
		texts, ok := checkMoves(t, s, buf, fail)
		if !ok {
			return false
		}
		if !checkGarbage(s, cfg.Garbage, prevTexts, texts, fail) {
			return false
		}
		if ply%cfg.DeepChecksEvery == 0 || out.Over() {
			if !checkRoundTrip(g, s, texts, hashes, fail) {
				return false
			}
			if !out.Over() && !checkClone(s, buf, &rng, fail) {
				return false
			}
			if !checkHidden(s, &rng, fail) {
				return false
			}
			if !out.Over() && !checkObservation(s, fail) {
				return false
			}
			if !checkEvaluator(s, fail) {
				return false
			}
			if !out.Over() && !checkPlayouter(t, s, &rng, cfg, fail) {
				return false
			}
		}
		if out.Over() {
			return true
		}
		if ply >= cfg.MaxPlies {
			return fail("no end after %d plies", ply)
		}
		m := buf[rng.IntN(len(buf))]
		history = append(history, s.FormatMove(m))
		s.Play(m)
		prevTexts = texts
	}
}

// checkMoves: every legal move formats to a canonical text that parses back
// to the same move, and no two moves share a text.
func checkMoves(t *testing.T, s game.State, moves []game.Move, fail func(string, ...any) bool) ([]string, bool) {
	texts := make([]string, len(moves))
	seen := make(map[string]bool, len(moves))
	for i, m := range moves {
		txt := s.FormatMove(m)
		texts[i] = txt
		if seen[txt] {
			return nil, fail("two legal moves format as %q", txt)
		}
		seen[txt] = true
		back, err := s.ParseMove(txt)
		if err != nil {
			return nil, fail("legal move %q does not parse: %v", txt, err)
		}
		if back != m {
			return nil, fail("move %q parses to %d, want %d", txt, back, m)
		}
	}
	return texts, true
}

// checkGarbage: junk never parses, and the previous position's moves that are
// not legal now are rejected.
func checkGarbage(s game.State, extra, prev, now []string, fail func(string, ...any) bool) bool {
	legal := make(map[string]bool, len(now))
	for _, x := range now {
		legal[x] = true
	}
	for _, lists := range [][]string{defaultGarbage, extra, prev} {
		for _, txt := range lists {
			if legal[txt] {
				continue
			}
			if m, err := s.ParseMove(txt); err == nil {
				return fail("ParseMove(%q) accepted a move that is not legal here (as %q)", txt, s.FormatMove(m))
			}
		}
	}
	return true
}

// checkRoundTrip: position JSON reads back to an equal state — same JSON,
// same hash, same legal moves, same outcome — and equal positions always
// have equal hashes.
func checkRoundTrip(g game.Game, s game.State, texts []string, hashes map[string]uint64, fail func(string, ...any) bool) bool {
	pos, err := s.MarshalPosition()
	if err != nil {
		return fail("MarshalPosition: %v", err)
	}
	back, err := g.ParsePosition(pos)
	if err != nil {
		return fail("ParsePosition(%s): %v", pos, err)
	}
	pos2, err := back.MarshalPosition()
	if err != nil {
		return fail("MarshalPosition after round trip: %v", err)
	}
	if !bytes.Equal(pos, pos2) {
		return fail("position JSON changes on a round trip:\n  %s\n  %s", pos, pos2)
	}
	if back.Hash() != s.Hash() {
		return fail("hash %x after a position round trip, want %x (%s)", back.Hash(), s.Hash(), pos)
	}
	if back.Outcome() != s.Outcome() || back.ToMove() != s.ToMove() {
		return fail("outcome/to-move differ after a position round trip (%s)", pos)
	}
	if c, ok := s.(game.Configured); ok && !maps.Equal(c.Options(), back.(game.Configured).Options()) {
		return fail("options %v become %v on a position round trip", c.Options(), back.(game.Configured).Options())
	}
	got := formatAll(back, back.Legal(nil))
	want := append([]string(nil), texts...)
	sort.Strings(want)
	if strings.Join(got, " ") != strings.Join(want, " ") {
		return fail("legal moves differ after a position round trip (%s):\n  got  %v\n  want %v", pos, got, want)
	}
	key := string(pos)
	if h, ok := hashes[key]; ok && h != s.Hash() {
		return fail("equal positions with different hashes %x and %x (%s)", h, s.Hash(), pos)
	}
	hashes[key] = s.Hash()
	return true
}

// checkClone: Clone and CopyFrom give equal, independent copies.
func checkClone(s game.State, moves []game.Move, rng *game.RNG, fail func(string, ...any) bool) bool {
	before, _ := s.MarshalPosition()
	c := s.Clone()
	c2 := s.Clone()
	c2.CopyFrom(s)
	for _, x := range []game.State{c, c2} {
		p, _ := x.MarshalPosition()
		if !bytes.Equal(p, before) || x.Hash() != s.Hash() {
			return fail("a copy differs from its original")
		}
	}
	m := moves[rng.IntN(len(moves))]
	c.Play(m)
	for c.Outcome().Status == game.Ongoing {
		ms := c.Legal(nil)
		c.Play(ms[rng.IntN(len(ms))])
	}
	after, _ := s.MarshalPosition()
	if !bytes.Equal(before, after) {
		return fail("playing on a clone changed the original")
	}
	p2, _ := c2.MarshalPosition()
	if !bytes.Equal(p2, before) {
		return fail("playing on one clone changed another")
	}
	return true
}

// checkFacts: the game's Facts agree with what its states do under opts.
func checkFacts(t *testing.T, g game.Game, opts game.Options, seed uint64) {
	t.Helper()
	f := g.Facts()
	if f.MinPlayers < 1 || f.MinPlayers > f.MaxPlayers || f.MaxPlayers > game.MaxPlayers {
		t.Fatalf("Facts: %d…%d players, want 1 ≤ min ≤ max ≤ %d", f.MinPlayers, f.MaxPlayers, game.MaxPlayers)
	}
	if f.MinPlayers != f.MaxPlayers {
		found := false
		for _, o := range g.Options() {
			if o.Name == game.PlayersOption {
				found = true
				if !o.IsInt() || o.Min != f.MinPlayers || o.Max != f.MaxPlayers {
					t.Fatalf("option %q ranges %d…%d, Facts say %d…%d players", o.Name, o.Min, o.Max, f.MinPlayers, f.MaxPlayers)
				}
			}
		}
		if !found {
			t.Fatalf("seats vary (%d…%d) but there is no %q option", f.MinPlayers, f.MaxPlayers, game.PlayersOption)
		}
	}
	s, err := g.New(opts, seed)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	n, err := game.NumPlayers(g, opts)
	if err != nil || n != s.NumPlayers() || n < f.MinPlayers || n > f.MaxPlayers {
		t.Fatalf("NumPlayers(options) = %d (%v), a new state has %d seats, Facts say %d…%d", n, err, s.NumPlayers(), f.MinPlayers, f.MaxPlayers)
	}
	if c, ok := s.(game.Configured); ok && !maps.Equal(c.Options(), opts) {
		t.Fatalf("a state started with %v says it plays under %v", opts, c.Options())
	}
	if _, ok := s.(game.HiddenInfo); ok != f.HiddenInfo {
		t.Fatalf("Facts say HiddenInfo=%v but the state implements game.HiddenInfo: %v", f.HiddenInfo, ok)
	}
	if !f.Chance {
		// Without chance the seed decides nothing.
		for other := seed + 1; other < seed+20; other++ {
			s2, err := g.New(opts, other)
			if err != nil {
				t.Fatalf("New: %v", err)
			}
			p1, _ := s.MarshalPosition()
			p2, _ := s2.MarshalPosition()
			if !bytes.Equal(p1, p2) {
				t.Fatalf("Facts say no chance, but seeds %d and %d start different games", seed, other)
			}
		}
	}
}

// checkHidden: for games with hidden information, a determinized state looks
// the same as the original to the seat it was made for, has the very same
// legal moves (so a move chosen in it is a move of the true state), and
// depends on nothing of the state it overwrote (game.Observe builds its world
// in a copy of the true state).
func checkHidden(s game.State, rng *game.RNG, fail func(string, ...any) bool) bool {
	h, ok := s.(game.HiddenInfo)
	if !ok {
		return true
	}
	if _, err := h.View(game.Spectator); err != nil {
		return fail("View(Spectator): %v", err)
	}
	for seat := 0; seat < s.NumPlayers(); seat++ {
		v, err := h.View(seat)
		if err != nil {
			return fail("View(%d): %v", seat, err)
		}
		d := s.Clone()
		h.Determinize(d, seat, rng)
		v2, err := d.(game.HiddenInfo).View(seat)
		if err != nil {
			return fail("View(%d) of a determinization: %v", seat, err)
		}
		if !bytes.Equal(v, v2) {
			return fail("determinization for seat %d changes its view:\n  %s\n  %s", seat, v, v2)
		}
		if a, b := s.Legal(nil), d.Legal(nil); !slices.Equal(a, b) {
			return fail("determinization for seat %d changes the legal moves: %v, %v", seat, formatAll(s, a), formatAll(d, b))
		}
		// The same draw into a state that held something else (d, already
		// overwritten once) gives the same world.
		r1, r2 := *rng, *rng
		d1 := s.Clone()
		h.Determinize(d1, seat, &r1)
		h.Determinize(d, seat, &r2)
		p1, _ := d1.MarshalPosition()
		p2, _ := d.MarshalPosition()
		if !bytes.Equal(p1, p2) {
			return fail("determinization for seat %d depends on the state it overwrites", seat)
		}
	}
	return true
}

// checkObservation: what an agent is handed (game.Observe) shows the seat to
// move its view and lets it choose among the true state's very moves.
func checkObservation(s game.State, fail func(string, ...any) bool) bool {
	seat := s.ToMove()
	obs, err := game.Observe(s, seat)
	if err != nil {
		return fail("Observe(%d): %v", seat, err)
	}
	v, err := game.View(s, seat)
	if err != nil {
		return fail("View(%d): %v", seat, err)
	}
	ov, err := obs.View()
	if err != nil || !bytes.Equal(v, ov) {
		return fail("the observation's view differs from View(%d): %s (%v)", seat, ov, err)
	}
	w := obs.World()
	if w == s || obs.Hidden() != game.Hidden(s) || w.ToMove() != seat || !slices.Equal(w.Legal(nil), s.Legal(nil)) {
		return fail("the observation's world is the state itself, or differs in what the seat knows")
	}
	return true
}

// checkEvaluator: a heuristic stays inside [-1, 1] for every seat.
func checkEvaluator(s game.State, fail func(string, ...any) bool) bool {
	e, ok := s.(game.Evaluator)
	if !ok || s.Outcome().Over() {
		return true
	}
	for seat := 0; seat < s.NumPlayers(); seat++ {
		if v := e.Evaluate(seat); !(v >= -1 && v <= 1) {
			return fail("Evaluate(%d) = %v, outside [-1, 1]", seat, v)
		}
	}
	return true
}

// checkPlayouter: a specialised playout ends the game, in a state that keeps
// the game's invariants, without touching the original.
func checkPlayouter(t *testing.T, s game.State, rng *game.RNG, cfg *Config, fail func(string, ...any) bool) bool {
	if _, ok := s.(game.Playouter); !ok {
		return true
	}
	before := s.Hash()
	c := s.Clone()
	n := c.(game.Playouter).Playout(rng)
	if !c.Outcome().Over() || n < 0 {
		return fail("Playout returned %d plies without ending the game", n)
	}
	if cfg.Invariant != nil {
		cfg.Invariant(t, c)
		if t.Failed() {
			return fail("invariant failed at the end of a Playout")
		}
	}
	if s.Hash() != before {
		return fail("Playout on a clone changed the original")
	}
	return true
}

func formatAll(s game.State, moves []game.Move) []string {
	out := make([]string, len(moves))
	for i, m := range moves {
		out[i] = s.FormatMove(m)
	}
	sort.Strings(out)
	return out
}

// RandomStates returns n states reached by seeded random play under opts
// (every ply of the first games until n are collected), for tests that need
// a spread of positions.
func RandomStates(tb testing.TB, g game.Game, opts game.Options, seed uint64, n int) []game.State {
	tb.Helper()
	var out []game.State
	rng := game.NewRNG(seed)
	var buf []game.Move
	for gi := uint64(0); len(out) < n; gi++ {
		s, err := g.New(opts, seed+gi)
		if err != nil {
			tb.Fatalf("New: %v", err)
		}
		for len(out) < n {
			out = append(out, s.Clone())
			buf = s.Legal(buf[:0])
			if len(buf) == 0 {
				break
			}
			s.Play(buf[rng.IntN(len(buf))])
		}
	}
	return out
}

// CheckLegalAllocs asserts that Legal into a roomy buffer and Play on a
// scratch copy allocate nothing, over a spread of random states.
func CheckLegalAllocs(t *testing.T, g game.Game, opts game.Options) {
	t.Helper()
	states := RandomStates(t, g, opts, 99, 300)
	buf := make([]game.Move, 0, 4096)
	scratch := states[0].Clone()
	i := 0
	allocs := testing.AllocsPerRun(len(states), func() {
		s := states[i%len(states)]
		i++
		buf = s.Legal(buf[:0])
		if len(buf) > 0 {
			scratch.CopyFrom(s)
			scratch.Play(buf[len(buf)/2])
			_ = scratch.Outcome()
			_ = scratch.Hash()
		}
	})
	if allocs != 0 {
		t.Errorf("Legal+CopyFrom+Play allocate %.2f times per call, want 0", allocs)
	}
}
