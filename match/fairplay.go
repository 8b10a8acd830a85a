package match

import (
	"context"
	"fmt"

	"github.com/tabula-games/tabula/game"
)

// The fair-play rule (docs/security.md, Fair play): the site's engines say
// nothing about a game while it is being played — not to its players, not
// to a spectator, not to a second account. Every request that names a game
// in progress is refused for everyone (NotInProgress: the analysis board's
// from, the review, a record import naming it); a position sent without
// naming its game cannot be told from one typed in the editor, so only the
// positions of the asker's own live games are refused (NotOwnLivePosition),
// there and when a game with a bot starts from a position.

// The codes the fair-play rule refuses with.
const (
	CodeNotFinished Code = "not_finished" // the game named is still being played
	CodeOwnGame     Code = "own_game"     // the position is one of the asker's live games
)

// ownPositionsLimit bounds the positions generated ahead of each of a
// user's live games when a position is compared with them.
const ownPositionsLimit = 50_000

// NotInProgress refuses a game that is open or live: it may be analysed,
// reviewed or imported once it has ended.
func NotInProgress(m *Meta) error {
	if m.Status == Open || m.Status == Live {
		return errorf(CodeNotFinished, "game %s is still being played: no engine looks at it before it ends", m.ID)
	}
	return nil
}

// LiveGames finds what the fair-play rule compares a position with.
type LiveGames interface {
	// LiveGamesOf is the live games of the game named gameName in which
	// the user userID holds a seat, as they stand now. Its errors are
	// passed on as they are.
	LiveGamesOf(ctx context.Context, userID int64, gameName string) ([]*Snapshot, error)
}

// errOwnGame refuses a position of the asker's own live game.
var errOwnGame = &Error{Code: CodeOwnGame, Message: "this is a position of a game you are playing: it can be analysed once the game is over"}

// NotOwnLivePosition refuses st when it is a position of one of user
// userID's live games: any position the game has passed through but its
// ordinary start, the one on the board, and every position up to two plies
// ahead of it (the user's move and the reply). It is a speed bump, not a
// wall — a position typed in the editor further ahead passes, as on any
// site that lets players analyse positions —, but it stops the easy way of
// asking the engine about a game while playing it.
func NotOwnLivePosition(ctx context.Context, games LiveGames, userID int64, st game.State) error {
	snaps, err := games.LiveGamesOf(ctx, userID, st.Game().Name())
	if err != nil {
		return err
	}
	same := func(a game.State) bool { return a.Hash() == st.Hash() && a.ToMove() == st.ToMove() }
	for _, snap := range snaps {
		at, err := InitialState(&snap.Meta)
		if err != nil {
			return fmt.Errorf("own game %s: %w", snap.Meta.ID, err)
		}
		// The game's ordinary start (no position of its own) is everyone's:
		// once the game has left it, it tells nothing of this game, and a
		// player may start a bot game or an analysis there as from the lobby.
		ordinaryStart := len(snap.Meta.StartPosition) == 0 && len(snap.Moves) > 0
		if !ordinaryStart && same(at) {
			return errOwnGame
		}
		for _, mv := range snap.Moves {
			if game.Play(at, mv.Text) != nil {
				break
			}
			if same(at) {
				return errOwnGame
			}
		}
		seen := 0
		var ahead func(p game.State, depth int) bool
		ahead = func(p game.State, depth int) bool {
			if depth == 0 || seen > ownPositionsLimit {
				return false
			}
			for _, mv := range p.Legal(nil) {
				c := p.Clone()
				c.Play(mv)
				seen++
				if same(c) || ahead(c, depth-1) {
					return true
				}
			}
			return false
		}
		if ahead(snap.State, 2) {
			return errOwnGame
		}
	}
	return nil
}
