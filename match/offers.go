package match

import (
	"slices"

	"github.com/tabula-games/tabula/game"
)

// Offers: a draw, or a takeback, offered by one player to the others, who
// accept or decline it; the offerer may withdraw it. The rules:
//
//   - Only players offer, accept and decline, each for their own seat.
//   - A draw is offered only in a game of two seats held by two people.
//     Offering one while the other player's offer stands accepts it.
//   - A takeback takes back the offerer's last move and every move after
//     it (against a bot: your move and the bot's reply). It is free —
//     done at once — in an unrated game where every other seat is a bot;
//     otherwise every other person in the game must accept it (a rated
//     game never changes without the opponent's consent). Never in a game
//     with hidden information: nearly every Skyjo action reveals a card,
//     and taking it back would let a player choose again knowing it
//     (takeback.go).
//   - One pending offer per kind per seat, and one offer of each kind per
//     seat per move: a declined offer cannot be made again until someone
//     has moved.
//   - Every move ends every pending offer (the offerer's move withdraws
//     it; the opponent's declines it by playing on), and so do a takeback
//     and the end of the game.

// offer is CmdOffer.
func (m *Match) offer(u User, kind OfferKind) error {
	seat, err := m.meta.player(u)
	if err != nil {
		return err
	}
	switch kind {
	case OfferDraw:
		if len(m.meta.Seats) != 2 || m.meta.humans() != 2 {
			return errorf(CodeConflict, "a draw is offered only between two players; against a bot, resign or abort")
		}
		if i := m.pending(kind, 1-seat); i >= 0 {
			return m.accept(u, kind) // both want it
		}
	case OfferTakeback:
		keep, err := m.takebackFrom(seat)
		if err != nil {
			return err
		}
		if m.freeTakeback(seat) {
			return m.takeBack(keep)
		}
	default:
		return errorf(CodeBadRequest, "offer %q: want draw or takeback", kind)
	}
	if m.pending(kind, seat) >= 0 {
		return errorf(CodeConflict, "you have offered a %s already", kind)
	}
	key := offerKey{seat, kind}
	if at, ok := m.room.offered[key]; ok && at == len(m.moves) {
		return errorf(CodeRateLimited, "you have offered a %s at this move already; wait for the next move", kind)
	}
	m.room.offered[key] = len(m.moves)
	m.room.offers = append(m.room.offers, Offer{Kind: kind, Seat: seat, Ply: len(m.moves)})
	m.publishRoom(Event{Kind: EventOffer, Note: &OfferNote{Kind: kind, Seat: seat, Action: NoteOffered}})
	return nil
}

// accept is CmdAccept: the other seat's pending offer of kind.
func (m *Match) accept(u User, kind OfferKind) error {
	seat, err := m.meta.player(u)
	if err != nil {
		return err
	}
	i := m.othersOffer(kind, seat)
	if i < 0 {
		return errorf(CodeConflict, "no %s is offered to you", kind)
	}
	o := &m.room.offers[i]
	if !slices.Contains(o.Accepted, seat) {
		o.Accepted = append(o.Accepted, seat)
	}
	for s, se := range m.meta.Seats {
		if s != o.Seat && se.Kind == SeatHuman && !slices.Contains(o.Accepted, s) {
			// Others must accept too.
			m.publishRoom(Event{Kind: EventOffer, Note: &OfferNote{Kind: kind, Seat: seat, Action: NoteAccepted}})
			return nil
		}
	}
	switch kind {
	case OfferDraw:
		return m.finish(agreedDraw(&m.meta, m.reg.cfg.Time.Now()))
	default:
		keep, err := m.takebackFrom(o.Seat)
		if err != nil {
			return err
		}
		return m.takeBack(keep)
	}
}

// decline is CmdDecline: the other seat's offer of kind, or (withdrawing)
// one's own.
func (m *Match) decline(u User, kind OfferKind) error {
	seat, err := m.meta.player(u)
	if err != nil {
		return err
	}
	action := NoteWithdrawn
	i := m.pending(kind, seat)
	if i < 0 {
		action = NoteDeclined
		if i = m.othersOffer(kind, seat); i < 0 {
			return errorf(CodeConflict, "no %s is offered", kind)
		}
	}
	m.room.offers = slices.Delete(m.room.offers, i, i+1)
	m.publishRoom(Event{Kind: EventOffer, Note: &OfferNote{Kind: kind, Seat: seat, Action: action}})
	return nil
}

// pending is the index of seat's pending offer of kind, or -1.
func (m *Match) pending(kind OfferKind, seat int) int {
	return slices.IndexFunc(m.room.offers, func(o Offer) bool { return o.Kind == kind && o.Seat == seat })
}

// othersOffer is the index of a pending offer of kind made to seat by
// another seat, or -1.
func (m *Match) othersOffer(kind OfferKind, seat int) int {
	return slices.IndexFunc(m.room.offers, func(o Offer) bool { return o.Kind == kind && o.Seat != seat })
}

// clearOffers ends every pending offer (a move, a takeback). The clients
// know the rule and drop theirs on the same event: no event of its own.
func (m *Match) clearOffers() { m.room.offers = nil }

// freeTakeback reports whether seat may take back without asking: an
// unrated game in which every other seat is a bot.
func (m *Match) freeTakeback(seat int) bool {
	if m.meta.Rated {
		return false
	}
	for s, se := range m.meta.Seats {
		if s != seat && se.Kind != SeatBot {
			return false
		}
	}
	return true
}

// takebackFrom is the number of moves a takeback by seat keeps: all
// before the seat's last move.
func (m *Match) takebackFrom(seat int) (int, error) {
	if game.Hidden(m.st) {
		return 0, errorf(CodeConflict, "%s has no takebacks: its moves reveal hidden cards", m.g.Title())
	}
	for i := len(m.moves) - 1; i >= 0; i-- {
		if m.moves[i].Seat == seat {
			return i, nil
		}
	}
	return 0, errorf(CodeConflict, "you have made no move to take back")
}
