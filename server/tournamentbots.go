package server

import (
	"context"
	"net/http"

	"github.com/tabula-games/tabula/store"
)

// Bot accounts in tournaments (issue 25 item 7, issue 26 item 1): a
// tournament created with "bots" admits bot accounts beside people; one
// without refuses them. Their games are created and seated by the director
// like anyone's, so a bot's connector hears of them on the user channel
// (the game's start, then its turns) as of any game it is seated in.

var errBotTournament = errf(http.StatusForbidden, "bot_account",
	"this tournament does not admit bot accounts (its creator did not allow bots)")

// botMayEnter refuses bot account u a tournament that does not admit bots.
// It asks the store, not only the cache, as quick pairing does: the account
// may have become a bot on another node a moment ago.
func (s *Server) botMayEnter(ctx context.Context, u *store.User, t *store.Tournament) error {
	if t.Bots || u.Guest {
		return nil
	}
	if c, ok := s.botAccts.get().Get(u.ID, s.now()); ok && c {
		return errBotTournament
	}
	if s.loadBot(ctx, u.ID) {
		return errBotTournament
	}
	return nil
}
