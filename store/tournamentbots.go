package store

import (
	"context"
	"slices"
	"strconv"
	"time"
)

// The server's own bots as tournament players (issue 25 item 7). A built-in
// bot is a TournamentPlayer with a negative UserID, never a user's, so it
// is paired, seated and scored like anyone, and the director seats it as a
// bot of its level. The id itself says which bot it is — the tournament's
// n-th (from 0) of level BotIDLevels[l] is -(n·64 + l + 1) — so a bot
// needs no column of its own: every store that keeps tournament players
// keeps bots.

// BotIDLevels are the levels a bot's id can say, by their index in it.
// Append only: a level's index is in the ids stored.
var BotIDLevels = []string{"random", "greedy", "easy", "medium", "hard", "beginner", "casual", "club", "strong"}

// botIDLevelsCap is how many levels an id can say.
const botIDLevelsCap = 64

// BotID is the id of a tournament's n-th bot (from 0) of level, and false
// for a level BotIDLevels has not.
func BotID(n int, level string) (int64, bool) {
	l := slices.Index(BotIDLevels, level)
	if l < 0 || l >= botIDLevelsCap {
		return 0, false
	}
	return -(int64(n)*botIDLevelsCap + int64(l) + 1), true
}

// BotOfID is the level and number (from 1) of the bot whose id is uid, and
// false for a user's id.
func BotOfID(uid int64) (level string, n int, ok bool) {
	if uid >= 0 {
		return "", 0, false
	}
	k := -uid - 1
	l := int(k % botIDLevelsCap)
	if l >= len(BotIDLevels) {
		return "", 0, false
	}
	return BotIDLevels[l], int(k/botIDLevelsCap) + 1, true
}

// BotPlayerName is the name the players list gives the bot whose id is
// uid: its level and number, "easy #2". A user's name has no space, so it
// is never one.
func BotPlayerName(uid int64) string {
	level, n, _ := BotOfID(uid)
	return level + " #" + strconv.Itoa(n)
}

// TournamentBots adds the server's own bots to tournaments.
type TournamentBots interface {
	// AddTournamentBot adds a built-in bot of level to tournament id as
	// its next player, with the id of its next bot (BotID). ErrConflict
	// when the tournament is finished, has max players (not counting those
	// who withdrew) or maxBots bots already (counting those withdrawn, so
	// that adding and removing cannot go on for ever).
	AddTournamentBot(ctx context.Context, id, level string, now time.Time, max, maxBots int) (TournamentPlayer, error)
}
