package match_test

import (
	"errors"
	"testing"

	"github.com/tabula-games/tabula/match"
)

// TestNoOwner: a game with no owner to run a command is over (game_over),
// aborted (conflict), or, still open or live, unavailable for now.
func TestNoOwner(t *testing.T) {
	for st, want := range map[match.Status]struct {
		code    match.Code
		message string
	}{
		match.Finished: {match.CodeGameOver, "the game is over"},
		match.Imported: {match.CodeGameOver, "the game is over"},
		match.Aborted:  {match.CodeConflict, "the game was aborted"},
		match.Open:     {match.CodeUnavailable, "the server cannot do that now; nothing was changed"},
		match.Live:     {match.CodeUnavailable, "the server cannot do that now; nothing was changed"},
	} {
		var me *match.Error
		if err := match.NoOwner(&match.Meta{Status: st}); !errors.As(err, &me) || me.Code != want.code || me.Message != want.message {
			t.Errorf("%v: %v, want %s: %s", st, err, want.code, want.message)
		}
	}
}
