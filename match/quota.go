package match

import (
	"context"
	"slices"
	"sync"
)

// Quotas bound the games one user may have going at once, so that nobody
// can fill a node's memory, its lobby or its bots' cores alone. Each limit
// counts the open and live games the user created; N >= 0 allows at most N,
// a negative value any number.
type Quotas struct {
	// OpenGames is the open games (waiting for players) a user may have
	// created.
	OpenGames int
	// BotGames is the games with a server bot seat a user may have
	// created, open or live.
	BotGames int
	// BotOnlyGames is, among those, the games without any seat for a
	// person: bots playing bots, which cost the node for as long as they
	// run and nobody waits for. Only registered users may create them
	// (guests never), and at most this many; 0 turns them off.
	BotOnlyGames int
	// Games lists the open and live games a user created (the store's
	// query; in a cluster, every node's). Nil: no limits (guests still
	// never create games without a person's seat).
	Games func(ctx context.Context, creator int64) ([]Meta, error)
}

// DefaultQuotas are the limits of `tabula serve` without flags (Games is
// left to the caller).
var DefaultQuotas = Quotas{OpenGames: 5, BotGames: 3, BotOnlyGames: 1}

// hasBot reports whether a game has a server bot seat, and humanless
// whether it has no seat a person can hold.
func hasBot(seats []Seat) (bot, humanless bool) {
	bot = slices.ContainsFunc(seats, func(s Seat) bool { return s.Kind == SeatBot })
	humanless = !slices.ContainsFunc(seats, func(s Seat) bool { return s.Kind != SeatBot })
	return bot, humanless
}

// userLocks serialises the quota check and the creation of each user's
// games on this node, so that two requests at once cannot both pass a
// limit with one place left.
type userLocks struct {
	mu    sync.Mutex
	locks map[int64]*userLock
}

type userLock struct {
	sync.Mutex
	users int // holders and waiters
}

// lock takes uid's lock and returns its release.
func (l *userLocks) lock(uid int64) func() {
	l.mu.Lock()
	if l.locks == nil {
		l.locks = map[int64]*userLock{}
	}
	ul := l.locks[uid]
	if ul == nil {
		ul = &userLock{}
		l.locks[uid] = ul
	}
	ul.users++
	l.mu.Unlock()
	ul.Lock()
	return func() {
		ul.Unlock()
		l.mu.Lock()
		if ul.users--; ul.users == 0 {
			delete(l.locks, uid)
		}
		l.mu.Unlock()
	}
}

// checkQuotas refuses a game m that user u may not create now: a game
// without a person's seat from a guest, or one over a limit. The caller
// holds u's lock until the game is stored.
func (r *Registry) checkQuotas(ctx context.Context, u User, m *Meta) error {
	q := &r.cfg.Quotas
	if u.ID == 0 {
		// The site's own games (a tournament's boards, the bot ladder's),
		// made by nobody: the quotas hold users back, and counted for
		// "nobody" they made every tournament and the ladder share one
		// user's twelve open games, so that a busy site stopped pairing.
		// Those games have their own bounds (a tournament's size, the
		// ladder's limits), and the node's room for bots still holds.
		return nil
	}
	bot, humanless := hasBot(m.Seats)
	if humanless && u.Guest {
		return errorf(CodeForbidden, "games without a seat for a person are for registered users")
	}
	if q.Games == nil {
		return nil
	}
	if humanless && q.BotOnlyGames == 0 {
		return errorf(CodeForbidden, "this server does not run games without a seat for a person")
	}
	open := !m.full()
	if (!open || q.OpenGames < 0) && (!bot || q.BotGames < 0) && (!humanless || q.BotOnlyGames < 0) {
		return nil
	}
	games, err := q.Games(ctx, u.ID)
	if err != nil {
		if ctx.Err() != nil {
			// The asker has gone: nothing failed, and nobody hears the answer.
			return ctx.Err()
		}
		r.cfg.Log.Error("count games", "user", u.ID, "err", err)
		return errUnavailable
	}
	var nOpen, nBot, nBotOnly int
	for i := range games {
		g := &games[i]
		if g.Status != Open && g.Status != Live {
			continue
		}
		if g.Status == Open {
			nOpen++
		}
		if b, h := hasBot(g.Seats); b {
			nBot++
			if h {
				nBotOnly++
			}
		}
	}
	switch {
	case open && q.OpenGames >= 0 && nOpen >= q.OpenGames:
		return errorf(CodeQuota, "you have %d open games waiting for players, the most allowed; start or abort one first", nOpen)
	case bot && q.BotGames >= 0 && nBot >= q.BotGames:
		return errorf(CodeQuota, "you have %d games with server bots going, the most allowed; finish one first", nBot)
	case humanless && q.BotOnlyGames >= 0 && nBotOnly >= q.BotOnlyGames:
		return errorf(CodeQuota, "you have %d games of bots against bots going, the most allowed; wait for it to end", nBotOnly)
	}
	return nil
}
