package match

import (
	"slices"
	"time"
)

// The room is what goes on around a game's moves: the players' offers
// (a draw, a takeback: offers.go), their chat (chat.go) and whether each is
// there (presence.go). None of it is stored. It lives in the game's owner
// and goes when the owner does — the game ends, its node restarts, another
// node takes it over — so an offer then lapses, a chat is gone and every
// player counts as present again. Nothing in the room changes the game but
// through a command that writes it like any other: an accepted draw ends
// it, an accepted takeback takes moves back, a claim ends it.
//
// The room's events write nothing, so they cannot take the game's event
// numbers: each carries the game's Seq as it stands and a number of the
// room's own, Room.N, that a listener uses to skip what a snapshot already
// held.

// Room is the room of a game as one user may see it.
type Room struct {
	// N numbers the room's events in this owner's lifetime (0: none yet).
	N      int64
	Offers []Offer
	// Chat is the last lines of the reader's chat (ChatKeep): the players'
	// for a player, the spectators' for anyone else (chat.go).
	Chat []ChatLine
	// Away is the players who are not there now.
	Away []Away
}

// OfferKind is what a player offers the others.
type OfferKind string

// The offers.
const (
	OfferDraw     OfferKind = "draw"     // end the game drawn (two human players)
	OfferTakeback OfferKind = "takeback" // take back the offerer's last move and all after it
)

// Offer is a pending offer.
type Offer struct {
	Kind OfferKind
	Seat int // who offers
	Ply  int // the number of moves when it was made: any move ends it
	// Accepted is the seats that have accepted so far, when more than one
	// must (a takeback in a game of more than two people).
	Accepted []int
}

// NoteAction is what happened to an offer.
type NoteAction string

// What can happen to an offer, besides its effect when accepted.
const (
	NoteOffered   NoteAction = "offered"
	NoteAccepted  NoteAction = "accepted" // by one seat of several that must
	NoteDeclined  NoteAction = "declined"
	NoteWithdrawn NoteAction = "withdrawn"
)

// OfferNote is what happened to an offer, for EventOffer: Seat did Action
// to an offer of Kind (its own when offered or withdrawn, another's when
// declined or accepted).
type OfferNote struct {
	Kind   OfferKind
	Seat   int
	Action NoteAction
}

// ChatLine is one line of the players' chat, or of the spectators' (Seat
// is SpectatorSeat).
type ChatLine struct {
	N    int64 // the line's number in this owner's chats, from 1
	Seat int
	User int64 // who said it (a spectator has no seat to name them)
	Text string
	At   time.Time
}

// Away is a player who is not there: no game page of theirs has been open
// since Since. ClaimAt is when the other players may claim the win, if
// they may (this seat is to move in a game without a correspondence clock);
// zero otherwise.
type Away struct {
	Seat    int
	Since   time.Time
	ClaimAt time.Time
}

// room is the owner's state of the room.
type room struct {
	n      int64
	offers []Offer
	// offered remembers, per seat and kind, the number of moves at which
	// the seat last offered it: once a move, no more.
	offered map[offerKey]int
	chat    chat
	seen    []presence
	away    []int // the seats last published as away
	timer   Stopper
	gen     int
}

type offerKey struct {
	seat int
	kind OfferKind
}

func newRoom(seats int, now time.Time) room {
	r := room{offered: map[offerKey]int{}, seen: make([]presence, seats)}
	for i := range r.seen {
		r.seen[i] = presence{noPage: now.Add(PresenceTTL)}
	}
	return r
}

// roomFor is the room as user uid may see it: the players' chat for a
// player, the spectators' for anyone else.
func (m *Match) roomFor(uid int64) *Room {
	r := m.roomNow()
	r.Chat = m.room.chat.linesFor(m.meta.SeatOf(uid) >= 0)
	return r
}

// roomNow is the room without its chat.
func (m *Match) roomNow() *Room {
	r := &Room{N: m.room.n, Offers: cloneOffers(m.room.offers), Away: m.awayNow(m.reg.cfg.Time.Now())}
	return r
}

func cloneOffers(os []Offer) []Offer {
	out := make([]Offer, len(os))
	for i, o := range os {
		o.Accepted = slices.Clone(o.Accepted)
		out[i] = o
	}
	return out
}

// publishRoom publishes a room event: the next room number, the room as
// it stands (without its chat).
func (m *Match) publishRoom(e Event) {
	m.room.n++
	e.Room = m.roomNow()
	m.publish(e)
}

// playerSeat is the seat u holds in an open or live game.
func (m *Match) playerSeat(u User) (int, error) {
	if m.meta.Status != Open && m.meta.Status != Live {
		return -1, errorf(CodeGameOver, "the game is over")
	}
	seat := m.meta.SeatOf(u.ID)
	if seat < 0 {
		return -1, errorf(CodeForbidden, "you are not a player of this game")
	}
	return seat, nil
}

// humans is the number of seats people hold.
func (m *Meta) humans() int {
	n := 0
	for _, s := range m.Seats {
		if s.Kind == SeatHuman {
			n++
		}
	}
	return n
}
