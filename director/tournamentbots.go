package director

import (
	"context"
	"fmt"
	"slices"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store"
)

// The server's own bots as tournament players (issue 25 item 7). A
// tournament's creator adds them (store.TournamentBots); each is a player
// with a negative id and a level (match.BotLevels), paired, seated and
// scored like anyone. Its games are created with a bot seat of its level,
// so the node that owns a game plays its bots, whichever node directs the
// tournament, and a bots-only game starts at once.

// MaxBots is the most built-in bots a tournament may have had (withdrawn
// ones count): enough to fill two Skyjo tables of 8, few enough that one
// tournament cannot take a node's bot cores.
const MaxBots = 16

// CheckAddBot refuses a built-in bot of level in tournament t (with
// rounds paired so far): only where bots are admitted, in an unrated
// tournament (rated games are between registered users), while a new
// player may still enter.
func CheckAddBot(t *store.Tournament, rounds int, level string) error {
	switch {
	case !slices.Contains(match.BotLevels, level) || !botIDLevel(level):
		return refuse(match.CodeBadOption, "bot level %q: want one of %v", level, match.BotLevels)
	case !t.Bots:
		return refuse(match.CodeForbidden, "this tournament does not admit bots (its creator did not allow them)")
	case t.Rated:
		return refuse(match.CodeForbidden, "rated games are between registered users: the server's bots play only in unrated tournaments")
	case t.Status == store.TournamentFinished:
		return refuse(match.CodeConflict, "the tournament is finished")
	case t.Status == store.TournamentRunning && t.Format == RoundRobin:
		return refuse(match.CodeConflict, "a round robin takes no players once it has started")
	case t.Status == store.TournamentRunning && t.Format != Arena && rounds >= t.Rounds:
		return refuse(match.CodeConflict, "the tournament is in its last round")
	}
	return nil
}

// botLevels maps the built-in bots among users (negative ids) to their
// levels, reading tournament id's players only when there is one.
func (d *Director) botLevels(ctx context.Context, id string, users []int64) (map[int64]string, error) {
	if !slices.ContainsFunc(users, func(u int64) bool { return u < 0 }) {
		return nil, nil
	}
	players, err := d.cfg.Store.TournamentPlayers(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("tournament %s: the bots' levels: %w", id, err)
	}
	levels := map[int64]string{}
	for _, p := range players {
		if p.BotLevel != "" {
			levels[p.UserID] = p.BotLevel
		}
	}
	for _, u := range users {
		if _, ok := levels[u]; u < 0 && !ok {
			return nil, fmt.Errorf("tournament %s: player %d is no bot of it", id, u)
		}
	}
	return levels, nil
}

// botIDLevel reports whether a bot's id can say level (store.BotID): a
// level added to match.BotLevels needs adding to store.BotIDLevels too.
func botIDLevel(level string) bool {
	_, ok := store.BotID(0, level)
	return ok
}
