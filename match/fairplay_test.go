package match_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	_ "github.com/tabula-games/tabula/match/matchtest"
)

// TestNotInProgress: a game still being played (open or live) is refused
// with not_finished, naming it; a game that has ended in any way is not.
func TestNotInProgress(t *testing.T) {
	for _, st := range []match.Status{match.Open, match.Live} {
		err := match.NotInProgress(&match.Meta{ID: "g1", Status: st})
		var me *match.Error
		if !errors.As(err, &me) || me.Code != match.CodeNotFinished ||
			me.Message != "game g1 is still being played: no engine looks at it before it ends" {
			t.Errorf("%v: %v, want not_finished", st, err)
		}
	}
	for _, st := range []match.Status{match.Finished, match.Aborted, match.Imported} {
		if err := match.NotInProgress(&match.Meta{ID: "g1", Status: st}); err != nil {
			t.Errorf("%v: %v, want nil", st, err)
		}
	}
}

// liveGames is a fixed list of live games, or an error.
type liveGames struct {
	snaps []*match.Snapshot
	err   error
	asked string
}

func (l *liveGames) LiveGamesOf(_ context.Context, userID int64, gameName string) ([]*match.Snapshot, error) {
	l.asked = fmt.Sprintf("%d %s", userID, gameName)
	return l.snaps, l.err
}

// liveTnim is a live game of tnim started from 10 stones (or from the
// position start), with moves played.
func liveTnim(t *testing.T, start string, moves ...string) *match.Snapshot {
	t.Helper()
	m := match.Meta{ID: "live", Game: "tnim", Status: match.Live, Options: map[string]string{"stones": "10"}, Ply: len(moves)}
	if start != "" {
		m.Options, m.StartPosition = nil, []byte(start)
	}
	ms := make([]match.Move, len(moves))
	for i, text := range moves {
		ms[i] = match.Move{Ply: i, Seat: i % 2, Text: text}
	}
	snap, err := match.StoredSnapshot(m, ms, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// tnimAt is the tnim position with stones left and toMove to move.
func tnimAt(t *testing.T, stones, toMove int) game.State {
	t.Helper()
	g, err := game.Lookup("tnim")
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.ParsePosition([]byte(fmt.Sprintf(`{"game":"tnim","stones":%d,"players":2,"toMove":%d,"winner":-1}`, stones, toMove)))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestNotOwnLivePosition: a position a user's live game has passed
// through, the one on its board and those up to two plies ahead are
// refused with own_game; the game's ordinary start once it has left it,
// positions further ahead and the same stones with the other seat to move
// pass.
func TestNotOwnLivePosition(t *testing.T) {
	ctx := context.Background()
	// 10 stones, seat 0 takes 1, seat 1 takes 2: 7 left, seat 0 to move.
	games := &liveGames{snaps: []*match.Snapshot{liveTnim(t, "", "1", "2")}}
	for _, tc := range []struct {
		stones, toMove int
		refused        bool
	}{
		{10, 0, false}, // the ordinary start, left behind
		{9, 1, true},   // passed through
		{7, 0, true},   // on the board
		{5, 1, true},   // one ply ahead
		{1, 0, true},   // two plies ahead
		{3, 1, false},  // three plies ahead
		{7, 1, false},  // the board's stones, the other seat to move
		{8, 0, false},  // never on the way
	} {
		err := match.NotOwnLivePosition(ctx, games, 7, tnimAt(t, tc.stones, tc.toMove))
		var me *match.Error
		refused := errors.As(err, &me) && me.Code == match.CodeOwnGame
		if refused != tc.refused || (err != nil && !refused) {
			t.Errorf("%d stones, seat %d to move: %v, refused want %v", tc.stones, tc.toMove, err, tc.refused)
		}
	}
	if games.asked != "7 tnim" {
		t.Errorf("asked for the live games of %q, want user 7's of tnim", games.asked)
	}
}

// TestNotOwnLivePositionStart: the start of a game with no move yet is
// refused, and so is a game's own start position even once it has moved
// on.
func TestNotOwnLivePositionStart(t *testing.T) {
	ctx := context.Background()
	fresh := &liveGames{snaps: []*match.Snapshot{liveTnim(t, "")}}
	if err := match.NotOwnLivePosition(ctx, fresh, 7, tnimAt(t, 10, 0)); err == nil {
		t.Error("the start of a game with no move yet passed")
	}
	pos := `{"game":"tnim","stones":20,"players":2,"toMove":1,"winner":-1}`
	from := &liveGames{snaps: []*match.Snapshot{liveTnim(t, pos, "3", "3", "3")}}
	if err := match.NotOwnLivePosition(ctx, from, 7, tnimAt(t, 20, 1)); err == nil {
		t.Error("the start position of a game that has moved on passed")
	}
	if err := match.NotOwnLivePosition(ctx, &liveGames{}, 7, tnimAt(t, 10, 0)); err != nil {
		t.Errorf("no live games: %v", err)
	}
}

// TestNotOwnLivePositionError: the live games' error is passed on as it is.
func TestNotOwnLivePositionError(t *testing.T) {
	boom := errors.New("store down")
	err := match.NotOwnLivePosition(context.Background(), &liveGames{err: boom}, 7, tnimAt(t, 10, 0))
	if !errors.Is(err, boom) {
		t.Fatalf("%v, want the store's error", err)
	}
}
