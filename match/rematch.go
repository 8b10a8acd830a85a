package match

import "crypto/sha256"

// The rematch. A finished game has no owner to run commands, so a rematch
// is a new game: the same game, options, clock and rating, the seats turned
// by one (two players swap), the player who asks in their new seat and every
// other person invited to theirs (bots stay bots). It starts when every
// invited player has accepted — joined it —, and is gone (aborted) when one
// declines, when the one who offered withdraws, or when either leaves the
// finished game's page. Its id is derived from the finished game's
// (RematchID), so a game has at most one rematch: two players asking at
// once make one game, the second ask accepting it, and a declined rematch
// is not offered again (a new game from the lobby is). The server finds
// the games and runs the commands; the rules of who may ask and what the
// rematch is are here.

// RematchID is the id of the rematch of game id.
func RematchID(id string) string {
	const alphabet = "23456789abcdefghjkmnpqrstuvwxyz"
	sum := sha256.Sum256([]byte("tabula rematch of " + id))
	b := make([]byte, 10)
	for i := range b {
		b[i] = alphabet[int(sum[i])%len(alphabet)]
	}
	return string(b)
}

// Rematch is the rematch that user uid asks of the finished game old: its
// seats turned by one, uid in theirs and every other person invited. Its
// ID and Created are the caller's to fill in (ID: RematchID(old.ID)).
func Rematch(old *Meta, uid int64) (Meta, error) {
	if old.Status != Finished {
		return Meta{}, errorf(CodeConflict, "only a finished game has a rematch")
	}
	if old.SeatOf(uid) < 0 {
		return Meta{}, errorf(CodeForbidden, "you did not play this game")
	}
	if len(old.StartPosition) > 0 {
		return Meta{}, errorf(CodeConflict, "a game from a set position has no rematch; create it again")
	}
	n := len(old.Seats)
	m := Meta{Game: old.Game, Options: old.Options, Clock: old.Clock, Rated: old.Rated, Seats: make([]Seat, n)}
	for i := range m.Seats {
		se := old.Seats[(i+1)%n]
		switch {
		case se.Kind == SeatBot:
			m.Seats[i] = Seat{Kind: SeatBot, Level: se.Level}
		case se.Kind == SeatHuman && se.UserID == uid:
			m.Seats[i] = Seat{Kind: SeatHuman, UserID: uid}
		case se.Kind == SeatHuman:
			m.Seats[i] = Seat{Kind: SeatInvite, UserID: se.UserID}
		default:
			return Meta{}, errorf(CodeConflict, "this game has no rematch")
		}
	}
	return m, nil
}

// AnswerRematch is what becomes of user uid's ask when the rematch rm
// exists already: nil if uid is invited to it, and accepts it by joining;
// otherwise the reason it is refused.
func AnswerRematch(rm *Meta, uid int64) error {
	switch {
	case rm.Status == Open && rm.Invites(uid):
		return nil
	case rm.Status == Open && rm.SeatOf(uid) >= 0:
		return errorf(CodeConflict, "you have offered a rematch already")
	case rm.Status == Aborted:
		return errorf(CodeConflict, "the rematch was declined or withdrawn; start a new game from the lobby")
	}
	return errorf(CodeConflict, "the rematch has started")
}

// PendingRematch reports whether user uid has a part in the rematch rm that
// leaving the finished game's page withdraws (their offer) or declines
// (their invitation).
func PendingRematch(rm *Meta, uid int64) bool {
	return rm.Status == Open && (rm.SeatOf(uid) >= 0 || rm.Invites(uid))
}

// ErrRematchRace answers an ask whose rematch kept changing while it was
// being made (created and gone again between two looks).
var ErrRematchRace = &Error{Code: CodeConflict, Message: "the rematch changed meanwhile; try again"}
