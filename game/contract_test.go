package game_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

func newTake(t *testing.T, g takeGame, settings ...string) game.State {
	t.Helper()
	opts, err := game.ParseOptions(g, settings)
	if err != nil {
		t.Fatal(err)
	}
	s, err := g.New(opts, 1)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestNumPlayers(t *testing.T) {
	g := takeGame{}
	for _, tc := range []struct {
		opts game.Options
		want int
		err  bool
	}{
		{nil, 2, false},
		{game.Options{"players": "3"}, 3, false},
		{game.Options{"pile": "9"}, 2, false},
		{game.Options{"players": "4"}, 0, true},
		{game.Options{"colour": "red"}, 0, true},
	} {
		n, err := game.NumPlayers(g, tc.opts)
		if n != tc.want || (err != nil) != tc.err {
			t.Errorf("NumPlayers(%v) = %d, %v; want %d (error: %v)", tc.opts, n, err, tc.want, tc.err)
		}
	}
}

func TestLegalTexts(t *testing.T) {
	s := newTake(t, takeGame{})
	// Legal lists 2 before 1; the texts come sorted.
	if got := game.LegalTexts(s); !slices.Equal(got, []string{"take1", "take2"}) {
		t.Errorf("LegalTexts = %q, want [take1 take2]", got)
	}
	over := newTake(t, takeGame{}, "pile=1")
	over.Play(1)
	if got := game.LegalTexts(over); got == nil || len(got) != 0 {
		t.Errorf("LegalTexts of a finished game = %#v, want an empty list", got)
	}
}

func TestPlayAndIsLegal(t *testing.T) {
	s := newTake(t, takeGame{}, "pile=3")
	if !game.IsLegal(s, 2) || game.IsLegal(s, 3) {
		t.Error("IsLegal: take 2 is legal from 3 stones, take 3 is not")
	}
	for _, tc := range []struct {
		text string
		want error
	}{
		{"take9", game.ErrIllegal},
		{"nonsense", game.ErrSyntax},
		{"take2", nil},
		{"take2", game.ErrIllegal}, // one stone left
		{"take1", nil},
	} {
		if err := game.Play(s, tc.text); !errors.Is(err, tc.want) || (tc.want == nil) != (err == nil) {
			t.Errorf("Play(%q) = %v, want %v", tc.text, err, tc.want)
		}
	}
	if o := s.Outcome(); !o.IsWinner(1) {
		t.Errorf("seat 1 took the last stone; outcome %+v", o)
	}
}

// Perft counts worked out by hand for a pile of 4 (take one or two):
// depth 2: 4→2→{0,1}, 4→3→{1,2}; depth 3: 4-2-1-0, 4-3-1-0, 4-3-2-0,
// 4-3-2-1; depth 4: only 4-3-2-1-0.
func TestPerft(t *testing.T) {
	s := newTake(t, takeGame{}, "pile=4")
	before, _ := s.MarshalPosition()
	for depth, want := range []uint64{1, 2, 4, 4, 1, 0} {
		if got := game.Perft(s, depth); got != want {
			t.Errorf("Perft(%d) = %d, want %d", depth, got, want)
		}
	}
	if after, _ := s.MarshalPosition(); string(after) != string(before) {
		t.Error("Perft changed the state")
	}
}

func TestRandomPlayout(t *testing.T) {
	for seed := uint64(0); seed < 20; seed++ {
		s := newTake(t, takeGame{}, "pile=5")
		rng := game.NewRNG(seed)
		_, plies := game.RandomPlayout(s, &rng, nil)
		// Five stones taken one or two at a time: 3 to 5 plies.
		if !s.Outcome().Over() || plies < 3 || plies > 5 {
			t.Fatalf("seed %d: %d plies, over %v", seed, plies, s.Outcome().Over())
		}
	}
}

func TestRegistry(t *testing.T) {
	g := takeGame{}
	game.Register(g)
	if got, err := game.Lookup("take"); err != nil || got.Name() != "take" {
		t.Fatalf("Lookup(take) = %v, %v", got, err)
	}
	if !slices.Contains(game.Names(), "take") || !slices.IsSorted(game.Names()) {
		t.Errorf("Names = %v, want a sorted list with take", game.Names())
	}
	_, err := game.Lookup("chess")
	if err == nil || !strings.Contains(err.Error(), `unknown game "chess"`) || !strings.Contains(err.Error(), "take") {
		t.Errorf("Lookup(chess) = %v, want it to name the games there are", err)
	}
	defer func() {
		if recover() == nil {
			t.Error("registering a name twice did not panic")
		}
	}()
	game.Register(g)
}

// viewless claims hidden information but has no view: the barrier must
// refuse rather than fall back to the position.
type viewless struct{ *take }

type viewlessGame struct{ takeGame }

func (viewlessGame) Facts() game.Facts {
	return game.Facts{MinPlayers: 2, MaxPlayers: 3, HiddenInfo: true}
}
func (s viewless) Game() game.Game       { return viewlessGame{} }
func (s viewless) Clone() game.State     { return viewless{s.take.Clone().(*take)} }
func (s viewless) CopyFrom(o game.State) { *s.take = *o.(viewless).take }

// badView is a hidden-information state whose View misbehaves.
type badView struct {
	*takeh
	panics bool
}

func (s badView) View(seat int) ([]byte, error) {
	if s.panics {
		panic("no such seat")
	}
	return []byte(`{"pile":`), nil
}

func TestView(t *testing.T) {
	open := newTake(t, takeGame{}, "pile=6")
	secret := newTake(t, takeGame{hidden: true}, "pile=6")
	for _, tc := range []struct {
		name   string
		s      game.State
		seat   int
		want   string // "" when an error is expected
		hidden bool
	}{
		{"nothing hidden: the position", open, 0, `{"pile":6,"players":2,"toMove":0,"winner":-1}`, false},
		{"nothing hidden, spectator", open, game.Spectator, `{"pile":6,"players":2,"toMove":0,"winner":-1}`, false},
		{"hidden: the view", secret, 1, `{"pile":6,"toMove":0}`, true},
		{"hidden, spectator", secret, game.Spectator, `{"pile":6,"toMove":0}`, true},
		{"declared hidden, no view", viewless{open.(*take)}, 0, "", true},
		{"a view that panics", badView{secret.(*takeh), true}, 0, "", true},
		{"a view that is not JSON", badView{secret.(*takeh), false}, 0, "", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if game.Hidden(tc.s) != tc.hidden {
				t.Errorf("Hidden = %v, want %v", !tc.hidden, tc.hidden)
			}
			v, err := game.View(tc.s, tc.seat)
			if tc.want == "" {
				if err == nil {
					t.Fatalf("View = %s, want an error", v)
				}
				return
			}
			if err != nil || string(v) != tc.want {
				t.Fatalf("View = %s, %v; want %s", v, err, tc.want)
			}
		})
	}
}

func TestObserveWithNothingHidden(t *testing.T) {
	s := newTake(t, takeGame{}, "pile=6")
	obs, err := game.Observe(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	s.Play(2) // the caller goes on; the observation is a snapshot
	if obs.Hidden() || obs.Seat() != 0 || obs.Game().Name() != "take" {
		t.Errorf("Hidden %v, Seat %d, Game %s", obs.Hidden(), obs.Seat(), obs.Game().Name())
	}
	if v, err := obs.View(); err != nil || string(v) != `{"pile":6,"players":2,"toMove":0,"winner":-1}` {
		t.Errorf("View = %s, %v; want the position before the move", v, err)
	}
	dst := s.Clone()
	rng := game.NewRNG(1)
	obs.Sample(dst, &rng)
	if dst.(*take).Pile != 6 {
		t.Errorf("Sample of a perfect-information game gave pile %d, want the position (6)", dst.(*take).Pile)
	}
}

func TestObserveWithSomethingHidden(t *testing.T) {
	g := takeGame{hidden: true}
	// Two games that differ only in their secret.
	a := newTake(t, g, "pile=6")
	b := a.Clone()
	b.(*takeh).Secret = a.(*takeh).Secret + 1
	oa, err := game.Observe(a, 0)
	if err != nil {
		t.Fatal(err)
	}
	ob, _ := game.Observe(b, 0)
	if !oa.Hidden() {
		t.Error("Hidden = false for a game with a secret")
	}
	if v, _ := oa.View(); string(v) != `{"pile":6,"toMove":0}` {
		t.Errorf("View = %s", v)
	}
	if !reflect.DeepEqual(oa, ob) {
		t.Error("two states with the same view give different observations")
	}
	if oa.World() == a || oa.World().(*takeh).take == a.(*takeh).take {
		t.Error("the observation's world is the true state")
	}
	// Sample redraws the secret: over a few draws it takes several values.
	seen := map[int]bool{}
	rng := game.NewRNG(3)
	dst := a.Clone()
	for i := 0; i < 10; i++ {
		oa.Sample(dst, &rng)
		if dst.(*takeh).Pile != 6 {
			t.Fatal("a sample changed what the seat sees")
		}
		seen[dst.(*takeh).Secret] = true
	}
	if len(seen) < 5 {
		t.Errorf("ten samples drew %d distinct secrets", len(seen))
	}
}

func TestObserveFailsClosed(t *testing.T) {
	s := newTake(t, takeGame{hidden: true}, "pile=6")
	if _, err := game.Observe(badView{s.(*takeh), true}, 0); err == nil {
		t.Error("Observe accepted a state whose view panics")
	}
	open := newTake(t, takeGame{})
	if _, err := game.Observe(viewless{open.(*take)}, 0); err == nil {
		t.Error("Observe accepted a state that declares hidden information and has no view")
	}
}
