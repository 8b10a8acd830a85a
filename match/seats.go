package match

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

// SeatOf is the seat user uid holds in m (the first, should there be more),
// or -1 when uid holds none or is 0 (nobody signed in).
func (m *Meta) SeatOf(uid int64) int {
	if uid == 0 {
		return -1
	}
	for i, s := range m.Seats {
		if s.Kind == SeatHuman && s.UserID == uid {
			return i
		}
	}
	return -1
}
