package game_test

import (
	"errors"
	"maps"
	"testing"

	"github.com/tabula-games/tabula/game"
)

func TestParseOptions(t *testing.T) {
	g := takeGame{}
	defaults := game.Options{"pile": "5", "players": "2", "last": "wins"}
	for _, tc := range []struct {
		name     string
		settings []string
		want     game.Options // nil: an error is expected
		err      string
	}{
		{"none", nil, defaults, ""},
		{"an integer", []string{"pile=7"}, game.Options{"pile": "7", "players": "2", "last": "wins"}, ""},
		{"spaces trimmed", []string{" pile = 7 ", "last= loses"}, game.Options{"pile": "7", "players": "2", "last": "loses"}, ""},
		{"the same setting twice", []string{"pile=7", " pile = 7"}, game.Options{"pile": "7", "players": "2", "last": "wins"}, ""},
		// Issue 23, finding 8: the last of two settings won silently.
		{"two settings of one option", []string{"pile=7", "last=loses", "pile=9"}, nil, "take: invalid option: pile given twice, pile=7 then pile=9; give it once"},
		{"bounds are inclusive", []string{"pile=1", "players=3"}, game.Options{"pile": "1", "players": "3", "last": "wins"}, ""},
		{"below the range", []string{"pile=0"}, nil, "take: invalid option: pile=0: want 1…30"},
		{"above the range", []string{"pile=31"}, nil, "take: invalid option: pile=31: want 1…30"},
		{"not a number", []string{"pile=many"}, nil, `take: invalid option: pile="many": want an integer`},
		{"not a value", []string{"last=maybe"}, nil, `take: invalid option: last="maybe": want one of wins|loses`},
		{"unknown key", []string{"colour=red"}, nil, `take: invalid option: unknown option "colour" (options: pile, players, last)`},
		{"no equals sign", []string{"pile"}, nil, `take: invalid option "pile": want key=value`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := game.ParseOptions(g, tc.settings)
			if tc.want == nil {
				if err == nil || err.Error() != tc.err || !errors.Is(err, game.ErrOption) {
					t.Fatalf("error %v, want %q wrapping ErrOption", err, tc.err)
				}
				return
			}
			if err != nil || !maps.Equal(got, tc.want) {
				t.Fatalf("got %v, %v; want %v", got, err, tc.want)
			}
		})
	}
}

func TestCompleteAndDefaults(t *testing.T) {
	g := takeGame{}
	if got := game.Defaults(g); !maps.Equal(got, game.Options{"pile": "5", "players": "2", "last": "wins"}) {
		t.Errorf("Defaults = %v", got)
	}
	got, err := game.Complete(g, game.Options{"players": "3"})
	if err != nil || !maps.Equal(got, game.Options{"pile": "5", "players": "3", "last": "wins"}) {
		t.Errorf("Complete(players=3) = %v, %v", got, err)
	}
	if got, err := game.Complete(g, nil); err != nil || len(got) != 3 {
		t.Errorf("Complete(nil) = %v, %v", got, err)
	}
	if _, err := game.Complete(g, game.Options{"players": "4"}); !errors.Is(err, game.ErrOption) {
		t.Errorf("Complete(players=4) = %v, want an option error", err)
	}
}

func TestOptionsAccessors(t *testing.T) {
	o := game.Options{"pile": "12", "last": "loses", "players": "2"}
	if o.String() != "last=loses,pile=12,players=2" {
		t.Errorf("String = %q, want the keys sorted", o.String())
	}
	if o.Int("pile") != 12 || o.Int("last") != 0 || o.Int("absent") != 0 {
		t.Errorf("Int: pile %d, last %d, absent %d; want 12, 0, 0", o.Int("pile"), o.Int("last"), o.Int("absent"))
	}
	if o.Get("last") != "loses" || o.Get("absent") != "" {
		t.Errorf("Get: %q, %q", o.Get("last"), o.Get("absent"))
	}
	specs := takeGame{}.Options()
	if !specs[0].IsInt() || specs[2].IsInt() {
		t.Error("IsInt: pile is an integer option, last is not")
	}
}

// With several bad options the error names the first in sorted order, the
// same one every time (map order must not leak into error texts).
func TestCompleteReportsTheSameErrorEveryTime(t *testing.T) {
	for i := 0; i < 20; i++ {
		_, err := game.Complete(takeGame{}, game.Options{"pile": "0", "last": "maybe", "players": "9"})
		if want := `take: invalid option: last="maybe": want one of wins|loses`; err == nil || err.Error() != want {
			t.Fatalf("Complete = %v, want %q", err, want)
		}
	}
	_, err := game.CheckOptions(takeGame{}, game.Options{"pile": "0"})
	if want := "invalid option: pile=0: want 1…30"; err == nil || err.Error() != want || !errors.Is(err, game.ErrOption) {
		t.Fatalf("CheckOptions = %v, want %q without the game's name", err, want)
	}
}
