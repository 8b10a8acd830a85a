package agent

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skyjo"
)

// TestSkyjoSeatCannotReachTheTrueState: what a bot seat in Skyjo is handed
// (Agent.Choose takes a game.Observation and nothing else) has no path to
// the true state. Two checks, each at every tenth decision of a game:
//   - walking every pointer, interface, slice and map reachable from the
//     observation, exported or not, never lands inside the true state;
//   - two true states with the same view but other hidden cards give deeply
//     equal observations, so nothing reachable carries a hidden card.
func TestSkyjoSeatCannotReachTheTrueState(t *testing.T) {
	s, err := skyjo.NewState(game.Options{"players": "3"}, 21)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(8)
	guessed := 0
	for ply := 0; ply < 120 && !s.Outcome().Over(); ply++ {
		if ply%10 == 0 {
			seat := s.ToMove()
			obs, err := game.Observe(s, seat)
			if err != nil {
				t.Fatal(err)
			}
			if !obs.Hidden() {
				t.Fatal("a Skyjo observation says nothing is hidden")
			}
			if reaches(reflect.ValueOf(obs), s) {
				t.Fatalf("ply %d: the observation reaches the true state", ply)
			}
			other := shuffleHidden(t, s, 5+ply)
			obs2, err := game.Observe(other, seat)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(obs, obs2) {
				t.Fatalf("ply %d: states with the same view give different observations", ply)
			}
			// The world is a guess: over a game, some hidden card in it
			// differs from the truth (else the walk above proves little).
			p1, _ := s.MarshalPosition()
			p2, _ := obs.World().MarshalPosition()
			if string(p1) != string(p2) {
				guessed++
			}
		}
		s.Play(s.PolicyMove(&rng))
	}
	if guessed == 0 {
		t.Fatal("the sampled world always equalled the truth: the test proves nothing")
	}
}

// TestReachesFindsALeak is the control of the walk: a value that holds the
// true state, directly or behind an interface, a slice or an unexported
// field, is found.
func TestReachesFindsALeak(t *testing.T) {
	s, _ := skyjo.NewState(nil, 3)
	type hidden struct{ st game.State }
	type leaky struct {
		n     int
		inner []any
	}
	for name, v := range map[string]any{
		"pointer":          s,
		"interface":        game.State(s),
		"unexported field": hidden{s},
		"slice of any":     leaky{inner: []any{1, hidden{s}}},
		"map value":        map[string]any{"x": &hidden{s}},
	} {
		if !reaches(reflect.ValueOf(v), s) {
			t.Errorf("%s: the walk missed the true state", name)
		}
	}
	if reaches(reflect.ValueOf(s.Clone()), s) {
		t.Error("a clone was taken for the true state")
	}
}

// reaches reports whether any pointer reachable from v points into the
// memory of the true state *s.
func reaches(v reflect.Value, s *skyjo.State) bool {
	lo := uintptr(unsafe.Pointer(s))
	hi := lo + unsafe.Sizeof(*s)
	return walk(v, lo, hi, map[uintptr]bool{})
}

func walk(v reflect.Value, lo, hi uintptr, seen map[uintptr]bool) bool {
	inside := func(p uintptr) bool { return p >= lo && p < hi }
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return false
		}
		p := v.Pointer()
		if inside(p) {
			return true
		}
		if seen[p] {
			return false
		}
		seen[p] = true
		return walk(v.Elem(), lo, hi, seen)
	case reflect.Interface:
		return !v.IsNil() && walk(v.Elem(), lo, hi, seen)
	case reflect.Slice:
		if v.IsNil() {
			return false
		}
		if inside(v.Pointer()) {
			return true
		}
		fallthrough
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if walk(v.Index(i), lo, hi, seen) {
				return true
			}
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if walk(v.Field(i), lo, hi, seen) {
				return true
			}
		}
	case reflect.Map:
		it := v.MapRange()
		for it.Next() {
			if walk(it.Key(), lo, hi, seen) || walk(it.Value(), lo, hi, seen) {
				return true
			}
		}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		return !v.IsNil() && inside(v.Pointer())
	}
	return false
}
