package match

import "slices"

// SeatKind says who holds a seat.
type SeatKind string

// The kinds of seat.
const (
	SeatOpen   SeatKind = "open"   // anyone may join
	SeatInvite SeatKind = "invite" // only UserID may join
	SeatHuman  SeatKind = "human"  // taken by UserID
	SeatBot    SeatKind = "bot"    // a server-side bot at Level
	// SeatImported is a seat of an imported record: nobody plays it.
	SeatImported SeatKind = "imported"
)

// Seat is one seat of a game.
type Seat struct {
	Kind   SeatKind
	UserID int64  // human and invite seats
	Level  string // bot seats
}

// BotLevels are the server-side bots a seat may have. Outside programs
// (exec:) and hand-tuned search budgets are deliberately not offered: a
// seat must not be able to run a command or burn the server's cores.
// The levels come weakest first (agent.LevelOrder).
var BotLevels = []string{"random", "greedy", "beginner", "easy", "casual", "club", "strong", "medium", "hard"}

// User is who gives a command.
type User struct {
	ID    int64
	Guest bool // guests may not play rated games
}

// SeatOf is the seat user uid holds in m (the first, should there be more),
// or -1 when uid holds none or is 0 (nobody signed in).
func (m *Meta) SeatOf(uid int64) int {
	if uid == 0 {
		return -1
	}
	return slices.IndexFunc(m.Seats, func(s Seat) bool { return s.Kind == SeatHuman && s.UserID == uid })
}

// Invites reports whether m holds a seat to which uid is invited.
func (m *Meta) Invites(uid int64) bool {
	return uid != 0 && slices.ContainsFunc(m.Seats, func(s Seat) bool { return s.Kind == SeatInvite && s.UserID == uid })
}

// Public reports whether the lobby's public list shows m. An open game is
// listed only while a seat is open to anyone: one whose free seats are all
// invitations is the business of its creator and the invited (their own
// lists and the user channel show it), not a game a visitor can join.
func (m *Meta) Public() bool {
	return m.Status != Open || slices.ContainsFunc(m.Seats, func(s Seat) bool { return s.Kind == SeatOpen })
}

// full reports whether every seat is taken, so the game can start.
func (m *Meta) full() bool {
	return !slices.ContainsFunc(m.Seats, func(s Seat) bool { return s.Kind == SeatOpen || s.Kind == SeatInvite })
}

// checkSeats checks the seats of a game about to be created with n seats.
func checkSeats(seats []Seat, n int, creator User, rated bool, title string) error {
	if len(seats) != n {
		return errorf(CodeBadOption, "%s with these options has %d seats; %d given", title, n, len(seats))
	}
	users := map[int64]bool{}
	for _, s := range seats {
		switch s.Kind {
		case SeatHuman, SeatInvite:
			if s.UserID == 0 {
				return errorf(CodeBadOption, "a %s seat needs a user", s.Kind)
			}
			if s.Kind == SeatHuman && s.UserID != creator.ID {
				return errorf(CodeBadOption, "only an invitation can put someone else in a seat")
			}
			if users[s.UserID] {
				if s.UserID == creator.ID {
					return errorf(CodeBadOption, "you can take only one seat")
				}
				return errorf(CodeBadOption, "user %d is already seated or invited", s.UserID)
			}
			users[s.UserID] = true
		case SeatBot:
			if !slices.Contains(BotLevels, s.Level) {
				return errorf(CodeBadOption, "bot level %q: want one of %v", s.Level, BotLevels)
			}
			if rated {
				return errorf(CodeBadOption, "rated games are between registered users; no bots")
			}
		case SeatOpen:
		default:
			return errorf(CodeBadOption, "seat kind %q: want open, invite, human or bot", s.Kind)
		}
	}
	if rated && creator.Guest && users[creator.ID] {
		return errorf(CodeBadOption, "rated games are for registered users")
	}
	return nil
}

// joined is m with user u in a seat: want, or (want < 0) the seat u is
// invited to, else the first open one. A game that keeps its creator's
// deal takes only those who accept it.
func (m *Meta) joined(u User, want int, acceptDeal bool) (Meta, int, error) {
	if m.Status != Open {
		return Meta{}, -1, errorf(CodeConflict, "the game is %s, not open", m.Status)
	}
	if m.SeatOf(u.ID) >= 0 {
		return Meta{}, -1, errorf(CodeConflict, "you already hold a seat in this game")
	}
	mayTake := func(s Seat) bool { return s.Kind == SeatOpen || (s.Kind == SeatInvite && s.UserID == u.ID) }
	seat := want
	switch {
	case want >= len(m.Seats):
		return Meta{}, -1, errorf(CodeBadRequest, "no seat %d", want)
	case want >= 0:
		if !mayTake(m.Seats[want]) {
			return Meta{}, -1, errorf(CodeConflict, "seat %d is not open to you", want)
		}
	default:
		if seat = slices.IndexFunc(m.Seats, func(s Seat) bool { return s.Kind == SeatInvite && s.UserID == u.ID }); seat < 0 {
			seat = slices.IndexFunc(m.Seats, mayTake)
		}
		if seat < 0 {
			return Meta{}, -1, errorf(CodeConflict, "no seat is open to you")
		}
	}
	if m.Rated && u.Guest {
		return Meta{}, -1, errorf(CodeForbidden, "rated games are for registered users")
	}
	if m.KeepDeal && !acceptDeal {
		return Meta{}, -1, errorf(CodeKeptDeal, "this game keeps the hidden cards of its creator's position, who may know them: join with acceptDeal to agree, or play a game the server deals")
	}
	next := m.Clone()
	next.Seats[seat] = Seat{Kind: SeatHuman, UserID: u.ID}
	return next, seat, nil
}

// left is m with u's seat open again, before the start.
func (m *Meta) left(u User) (Meta, error) {
	if m.Status != Open {
		return Meta{}, errorf(CodeConflict, "the game is %s; leaving is only possible before the start", m.Status)
	}
	if m.Challenge() {
		// A seat given back would be open to anyone: a challenge is
		// cancelled or declined instead.
		return Meta{}, errorf(CodeConflict, "a challenge cannot be left: cancel or decline it")
	}
	seat := m.SeatOf(u.ID)
	if seat < 0 {
		return Meta{}, errorf(CodeForbidden, "you hold no seat in this game")
	}
	next := m.Clone()
	next.Seats[seat] = Seat{Kind: SeatOpen}
	return next, nil
}

// MayAbort says whether u may cancel the game after moves: an open game
// its creator or a user invited to it (who declines so), a live game any
// of its players until every seat has made a move (as on lichess: once
// both players of a two-player game have moved, resign instead). An
// aborted game has no result and changes no rating.
func (m *Meta) MayAbort(u User, moves []Move) error {
	switch m.Status {
	case Open:
		if u.ID != m.CreatorID && !m.Invites(u.ID) {
			return errorf(CodeForbidden, "only the creator or an invited player can abort the game")
		}
		return nil
	case Live:
		if m.SeatOf(u.ID) < 0 {
			return errorf(CodeForbidden, "you are not a player of this game")
		}
		moved := make([]bool, len(m.Seats))
		n := 0
		for _, mv := range moves {
			if mv.Seat >= 0 && mv.Seat < len(moved) && !moved[mv.Seat] {
				moved[mv.Seat] = true
				n++
			}
		}
		if n == len(m.Seats) {
			return errorf(CodeConflict, "every player has moved: the game can no longer be aborted; resign instead")
		}
		return nil
	}
	return errorf(CodeConflict, "the game is %s; it cannot be aborted", m.Status)
}

// player is the seat u plays in a live game.
func (m *Meta) player(u User) (int, error) {
	switch m.Status {
	case Live:
	case Open:
		return -1, errorf(CodeConflict, "the game has not started")
	default:
		return -1, errorf(CodeGameOver, "the game is over")
	}
	seat := m.SeatOf(u.ID)
	if seat < 0 {
		return -1, errorf(CodeForbidden, "you are not a player of this game")
	}
	return seat, nil
}
