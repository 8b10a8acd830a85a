package agent

import (
	"context"
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// standoff is a toy game for the search's draw handling. Seat 0 leads: the
// heuristic gives it 0.8 while both sides wait. Its other move, go, gives up
// part of the lead for a position worth 0.6 to it that keeps changing. A
// search that trusts the heuristic waits forever; one that sees that waiting
// only repeats the position (or, with repeat off, makes no progress) and
// counts that as a draw with contempt goes.
type standoffGame struct{}

func (standoffGame) Name() string               { return "standoff" }
func (standoffGame) Title() string              { return "Standoff" }
func (standoffGame) Options() []game.OptionSpec { return nil }
func (standoffGame) Facts() game.Facts          { return game.Facts{MinPlayers: 2, MaxPlayers: 2} }
func (standoffGame) New(game.Options, uint64) (game.State, error) {
	return &standoff{repeat: true}, nil
}
func (standoffGame) ParsePosition([]byte) (game.State, error) { return &standoff{repeat: true}, nil }

const (
	wait  game.Move = 1
	goOn  game.Move = 2
	flail game.Move = 10 // and up
)

type standoff struct {
	turn   int  // plies played
	gone   bool // seat 0 has gone: the position changes every ply from then on
	repeat bool // waiting returns to the same position (else each ply is a new one)
	weak   bool // going is worth only 0.45 to seat 0: better than a draw only with contempt
	// flails is how many moves seat 1 has besides waiting while seat 0
	// waits, each a blunder that changes the position for good and gives
	// seat 0 0.95: progress, but none that seat 1 would choose.
	flails  int
	flailed bool
	plyTurn bool // Progress counts plies as turns (as Skjuub, whose turns are each player's)
	// stuck: seat 0 cannot make progress on its own while it waits
	// (game.Stuck); without it no one is ever stuck.
	stuck bool
	hist  []uint64
}

func (s *standoff) Game() game.Game       { return standoffGame{} }
func (s *standoff) NumPlayers() int       { return 2 }
func (s *standoff) SeatName(i int) string { return strconv.Itoa(i + 1) }
func (s *standoff) ToMove() int {
	if s.turn >= 200 {
		return -1
	}
	return s.turn % 2
}
func (s *standoff) Legal(dst []game.Move) []game.Move {
	if s.turn >= 200 {
		return dst
	}
	dst = append(dst, wait)
	if s.turn%2 == 0 && !s.gone {
		dst = append(dst, goOn)
	}
	if s.turn%2 == 1 && !s.gone && !s.flailed {
		for i := range s.flails {
			dst = append(dst, flail+game.Move(i))
		}
	}
	return dst
}
func (s *standoff) Play(m game.Move) {
	s.hist = append(s.hist, s.key())
	s.gone = s.gone || m == goOn
	s.flailed = s.flailed || m >= flail
	s.turn++
}
func (s *standoff) key() uint64 {
	if s.flailed {
		return uint64(s.turn)<<2 | 1<<40
	}
	if s.repeat && !s.gone {
		return uint64(s.turn % 2) // waiting changes nothing but the side to move
	}
	if s.gone {
		return uint64(s.turn)<<2 | 3
	}
	return uint64(s.turn)<<2 | 2
}
func (s *standoff) Outcome() game.Outcome {
	if s.turn >= 200 {
		return game.Outcome{Status: game.Drawn}
	}
	return game.Outcome{}
}
func (s *standoff) Clone() game.State {
	c := *s
	c.hist = slices.Clone(s.hist)
	return &c
}
func (s *standoff) CopyFrom(src game.State) {
	o := src.(*standoff)
	h := append(s.hist[:0], o.hist...)
	*s = *o
	s.hist = h
}
func (s *standoff) Hash() uint64 {
	return s.key() ^ uint64(s.turn)<<20
}
func (s *standoff) FormatMove(m game.Move) string { return strconv.Itoa(int(m)) }
func (s *standoff) ParseMove(t string) (game.Move, error) {
	k, _ := strconv.Atoi(t)
	return game.Move(k), nil
}
func (s *standoff) MarshalPosition() ([]byte, error) { return json.Marshal(s.turn) }

// Evaluate: waiting keeps seat 0's lead (0.8 as a reward), going leaves it
// 0.6.
func (s *standoff) Evaluate(seat int) float64 {
	v := 0.6
	if s.flailed {
		v = 0.95
	}
	if s.gone {
		v = 0.2
		if s.weak {
			v = -0.1
		}
	}
	if seat == 1 {
		v = -v
	}
	return v
}
func (s *standoff) PlayoutPlies() int { return 1 }
func (s *standoff) Repeated() bool    { return slices.Contains(s.hist, s.key()) }
func (s *standoff) Progress() (uint64, int) {
	if s.plyTurn {
		if s.flailed {
			return 1 << 40, s.turn
		}
		if s.gone {
			return uint64(s.turn), s.turn
		}
		return 0, s.turn
	}
	if s.flailed {
		return 1 << 40, s.turn / 2
	}
	if s.gone {
		return uint64(s.turn), s.turn / 2
	}
	return 0, s.turn / 2
}
func (s *standoff) StallTurns() int         { return 6 }
func (s *standoff) Stuck(seat int) bool     { return s.stuck && seat == 0 && !s.gone }
func (s *standoff) SearchContempt() float64 { return 0.25 }

func chooseStandoff(t *testing.T, s *standoff, spec string) game.Move {
	t.Helper()
	a, err := New(spec, standoffGame{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	m, err := a.Choose(context.Background(), seen(s))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRepetitionCountsAsADraw(t *testing.T) {
	s := &standoff{repeat: true}
	for _, c := range []struct {
		spec string
		want game.Move
	}{
		// Waiting repeats the position: a draw, worth 0.25 to a bot with
		// contempt and 0.5 to one without; going is worth 0.6.
		{"mcts:iters=3000", goOn},
		{"mcts:iters=3000:contempt=off", goOn},
		// Trusting the heuristic, waiting looks better (0.8).
		{"mcts:iters=3000:rep=off:stall=off", wait},
	} {
		if got := chooseStandoff(t, s, c.spec); got != c.want {
			t.Errorf("%s chose %d, want %d", c.spec, got, c.want)
		}
	}
}

// Contempt decides where going is worse than an even draw: the game's
// contempt makes the repeating wait worth 0.25, below going's 0.45; without
// contempt ("off", or an explicit 0, which is none rather than the game's)
// the draw's 0.5 is better.
func TestContemptFromTheGame(t *testing.T) {
	s := &standoff{repeat: true, weak: true}
	for spec, want := range map[string]game.Move{
		"mcts:iters=3000":              goOn,
		"mcts:iters=3000:contempt=off": wait,
		"mcts:iters=3000:contempt=0":   wait,
	} {
		if got := chooseStandoff(t, s, spec); got != want {
			t.Errorf("%s chose %d, want %d", spec, got, want)
		}
	}
}

func TestStallHorizon(t *testing.T) {
	// No position repeats; waiting makes no progress. Six turns ahead are
	// beyond what the search sees from a fresh game, so the lead looks
	// safe, and waiting is right until the stall draws near.
	fresh := &standoff{}
	if got := chooseStandoff(t, fresh, "mcts:iters=3000:stall=50"); got != wait {
		t.Errorf("a fresh game with a far horizon: chose %d, want wait", got)
	}
	if got := chooseStandoff(t, fresh, "mcts:iters=3000:stall=1"); got != goOn {
		t.Errorf("a horizon of one turn: chose %d, want go", got)
	}
	// The agent counts the turns it has seen without progress: after some
	// waiting, the game's own horizon (6 turns) comes within reach.
	a, err := New("mcts:iters=3000", standoffGame{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	s := &standoff{}
	var last game.Move
	for s.turn < 40 && !s.gone {
		if last, err = a.Choose(context.Background(), seen(s)); err != nil {
			t.Fatal(err)
		}
		s.Play(last)
		if !s.gone {
			s.Play(wait)
		}
	}
	if !s.gone || s.turn > 14 {
		t.Errorf("went at ply %d (gone %v), want within the 6-turn horizon", s.turn, s.gone)
	}
	if got := chooseStandoff(t, &standoff{turn: 30}, "mcts:iters=3000:stall=off"); got != wait {
		t.Errorf("stall=off: chose %d, want wait", got)
	}
}

func TestProgressSeen(t *testing.T) {
	var p progressSeen
	for _, c := range []struct {
		s    *standoff
		want int
	}{
		{&standoff{turn: 0}, 0},
		{&standoff{turn: 4}, 2},
		{&standoff{turn: 10}, 5},
		{&standoff{turn: 12, gone: true}, 0}, // progress
		{&standoff{turn: 2}, 0},              // fewer turns: a new game
		{&standoff{turn: 8}, 3},
	} {
		if got := p.quiet(c.s); got != c.want {
			t.Errorf("turn %d gone %v: quiet %d, want %d", c.s.turn, c.s.gone, got, c.want)
		}
	}
}

func TestStallIsADrawInTheTree(t *testing.T) {
	// Waiting reaches the horizon (one turn) at once. Seat 1 holds the
	// draw by waiting too; its thirty blunders are progress, and a search
	// that looked for progress only at the playout's end counted the
	// random blunders of its playouts as a way out of the stall.
	s := &standoff{flails: 30, plyTurn: true}
	if got := chooseStandoff(t, s, "mcts:iters=3000:stall=1"); got != goOn {
		t.Errorf("chose %d, want go", got)
	}
	if got := chooseStandoff(t, s, "mcts:iters=3000:stall=1:stallat=playout"); got != wait {
		t.Errorf("with the horizon at the playouts' end only: chose %d, want wait (the blunders' way out)", got)
	}
}

// TestStallBoost: the budget is multiplied only at a move where the game
// has gone half its stall horizon (standoff's 6 turns: 3) without progress
// as far as the agent has seen, for either seat; any progress starts the
// count again.
func TestStallBoost(t *testing.T) {
	quiet := func(turn int) *standoff { return &standoff{turn: turn, plyTurn: true} }
	// After seat 1's blunder the position stands still again, in a new place.
	moved := func(turn int) *standoff { return &standoff{turn: turn, plyTurn: true, flailed: true} }
	// Seat 1, behind, has more than one move (a forced move is not searched).
	behind := func(turn int) *standoff { return &standoff{turn: turn, plyTurn: true, flails: 2} }
	for _, c := range []struct {
		name   string
		spec   string
		states []*standoff // the positions at the agent's moves, in order
		want   []int       // its iterations at each
	}{
		{"the leader, quiet", "mcts:iters=100:boost=4:rep=off", []*standoff{quiet(0), quiet(2), quiet(4), quiet(6)}, []int{100, 100, 400, 400}},
		{"no boost", "mcts:iters=100:rep=off", []*standoff{quiet(0), quiet(2), quiet(4), quiet(6)}, []int{100, 100, 100, 100}},
		{"boost 1", "mcts:iters=100:boost=1:rep=off", []*standoff{quiet(0), quiet(2), quiet(4), quiet(6)}, []int{100, 100, 100, 100}},
		{"the seat behind", "mcts:iters=100:boost=4:rep=off", []*standoff{behind(1), behind(3), behind(5), behind(7)}, []int{100, 100, 400, 400}},
		{"progress", "mcts:iters=100:boost=4:rep=off", []*standoff{quiet(0), quiet(2), moved(4), moved(6), moved(8)}, []int{100, 100, 100, 100, 400}},
		// The search's own horizon, where it sets one, decides: 10 turns, 5.
		{"stall=10", "mcts:iters=100:boost=4:rep=off:stall=10", []*standoff{quiet(0), quiet(2), quiet(4), quiet(6)}, []int{100, 100, 100, 400}},
		// With the search's horizon off, the game's (6 turns) still times the boost.
		{"stall=off", "mcts:iters=100:boost=4:rep=off:stall=off", []*standoff{quiet(0), quiet(2), quiet(4), quiet(6)}, []int{100, 100, 400, 400}},
		// Two workers share the multiplied budget as they share the plain one.
		{"two workers", "mcts:iters=100:boost=4:rep=off:workers=2", []*standoff{quiet(0), quiet(4)}, []int{200, 800}},
	} {
		a, err := New(c.spec, standoffGame{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []int
		for i, s := range c.states {
			if _, err := a.Choose(context.Background(), seen(s)); err != nil {
				t.Fatal(err)
			}
			st := a.(*MCTS).LastStats
			if st.Boosted != (st.Iterations > c.want[0]) {
				t.Errorf("%s, move %d: %d iterations, Boosted %v", c.name, i, st.Iterations, st.Boosted)
			}
			got = append(got, st.Iterations)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s (%s): iterations %v, want %v", c.name, c.spec, got, c.want)
		}
	}
	if _, err := New("mcts:boost=0", standoffGame{}, 1); err == nil {
		t.Error("boost=0 accepted")
	}
}

// The standoff's searching-seat heuristics are its own: TestSeekStalled
// asks only at which moves the search uses them.
func (s *standoff) EvaluateContact(seat, _ int) float64  { return s.Evaluate(seat) }
func (s *standoff) EvaluateExchange(seat, _ int) float64 { return s.Evaluate(seat) }

// TestSeekStalled: contact=stalled and exchange=stalled seek at the moves
// where the boost would boost (half the stall horizon without progress,
// standoff's 6 turns: 3), and at no other; progress ends it.
func TestSeekStalled(t *testing.T) {
	quiet := func(turn int) *standoff { return &standoff{turn: turn, plyTurn: true} }
	moved := func(turn int) *standoff { return &standoff{turn: turn, plyTurn: true, flailed: true} }
	states := []*standoff{quiet(0), quiet(2), quiet(4), quiet(6), moved(8), moved(10), moved(12)}
	want := []bool{false, false, true, true, false, false, true}
	for _, spec := range []string{"mcts:iters=100:rep=off:contact=stalled", "mcts:iters=100:rep=off:exchange=stalled", "mcts:iters=100:rep=off:exchange=stalled:stall=off"} {
		a, err := New(spec, standoffGame{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var got []bool
		for _, s := range states {
			if _, err := a.Choose(context.Background(), seen(s)); err != nil {
				t.Fatal(err)
			}
			w := a.(*MCTS).workers[0]
			got = append(got, w.contact || w.exchange)
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: seeking at the moves %v, want %v", spec, got, want)
		}
	}
	if !halfStalled(quiet(0), 0, 3) || halfStalled(quiet(0), 0, 2) || halfStalled(quiet(0), 10, 4) || !halfStalled(quiet(0), -1, 3) {
		t.Error("halfStalled: not half the horizon (the search's where set, else the game's)")
	}
	if halfStalled(&nim{Pile: 5}, 6, 100) {
		t.Error("halfStalled: a game without progress stalled")
	}
}

// A position in which the searching seat is stuck counts toward a draw by
// the share stuck= says: waiting, worth 0.8 to seat 0 by the heuristic, is
// worth 0.25 + (0.8 − 0.25)·(1 − share) with the game's contempt — 0.525
// at a half, below going's 0.6, and 0.745 at a tenth, still above it.
// Without the option, or in a game where seat 0 is never stuck, it waits.
func TestStuckCountsTowardADraw(t *testing.T) {
	for _, c := range []struct {
		spec  string
		stuck bool
		want  game.Move
	}{
		{"mcts:iters=3000:rep=off:stall=off", true, wait},
		{"mcts:iters=3000:rep=off:stall=off:stuck=0.5", true, goOn},
		{"mcts:iters=3000:rep=off:stall=off:stuck=0.1", true, wait},
		{"mcts:iters=3000:rep=off:stall=off:stuck=0.5", false, wait},
	} {
		if got := chooseStandoff(t, &standoff{stuck: c.stuck}, c.spec); got != c.want {
			t.Errorf("%s, seat 0 stuck while waiting %v: chose %d, want %d", c.spec, c.stuck, got, c.want)
		}
	}
}
