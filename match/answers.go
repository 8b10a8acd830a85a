package match

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Answered commands: every command may carry an idempotency key
// (Command.Key), and the owner remembers the answers it gave to the last
// keyed commands of its game, so that a command sent again — forwarded a
// second time by a node that heard no answer from the first attempt, or
// resent by a client — is applied once and its copy gets the first
// answer: a chat line is said once, a retried resignation answers what
// the resignation did, not that the game is over.
//
// The list lives in the owner, like the room, and goes with it: a copy
// that reaches the game's next owner after a takeover is judged by what
// the store holds (a move by its ply, Command.Retry; an end by the result
// recorded, package cluster).

// answersKept is how many answers an owner remembers: a copy comes within
// seconds of its first (a forwarding node gives up after
// cluster.Config.ForwardTimeout), while a game sees a few commands a
// second at most.
const answersKept = 16

// answer is the answer given to one keyed command.
type answer struct {
	user int64
	key  string
	// what is the command apart from its key: the same key on another
	// command (a client that reuses its ids) is a new command, not a copy.
	what string
	ack  Ack
	err  error
}

// answers is the owner's list of answered keys, oldest first.
type answers struct {
	list []answer
}

// remembered reports whether an answer to the command is kept: Key set,
// and not a read or a presence report, which change nothing a copy could
// repeat.
func remembered(c Command) bool {
	return c.Key != "" && c.Kind != CmdRoom && c.Kind != CmdPresence
}

// what is the command apart from its key and its Retry mark.
func what(c Command) string {
	return fmt.Sprintf("%s|%d|%d|%d|%q|%s|%q|%t", c.Kind, c.User.ID, c.Seat, c.Ply, c.Move, c.Offer, c.Text, c.AcceptDeal)
}

// find is the answer given to an earlier copy of c.
func (a *answers) find(c Command) (answer, bool) {
	w := what(c)
	for i := len(a.list) - 1; i >= 0; i-- {
		if e := a.list[i]; e.key == c.Key && e.user == c.User.ID {
			return e, e.what == w
		}
	}
	return answer{}, false
}

// add remembers the answer to c. An answer that changed nothing for a
// reason of the moment — the store failed, this owner was deposed — is not
// kept: a copy may well succeed.
func (a *answers) add(c Command, ack Ack, err error) {
	var me *Error
	if err != nil && (!errors.As(err, &me) || me.Code == CodeUnavailable) {
		return
	}
	if len(a.list) >= answersKept {
		a.list = append(a.list[:0], a.list[1:]...)
	}
	a.list = append(a.list, answer{user: c.User.ID, key: c.Key, what: what(c), ack: ack, err: err})
}

// applyOnce is apply for a command that may be a copy of one answered
// already: the copy gets the first answer, and nothing is applied again.
func (m *Match) applyOnce(c Command) (Ack, error) {
	if len(c.Key) > MaxKey {
		return Ack{}, errorf(CodeBadRequest, "a command's key is at most %d bytes", MaxKey)
	}
	if !remembered(c) {
		return m.apply(c)
	}
	if e, ok := m.answers.find(c); ok {
		ack := e.ack
		ack.Meta = ack.Meta.Clone()
		return ack, e.err
	}
	ack, err := m.apply(c)
	// The answer is kept with the game's own options and start position,
	// which never change, rather than the copies made for the caller.
	kept := ack
	kept.Meta.Options, kept.Meta.StartPosition = m.meta.Options, m.meta.StartPosition
	m.answers.add(c, kept, err)
	if m.ended != nil {
		m.ended.list = m.answers.last(endedAnswersKept)
	}
	return ack, err
}

// last is the last n answers (fewer if there are fewer), in a list of
// their own.
func (a *answers) last(n int) []answer {
	return slices.Clone(a.list[max(len(a.list)-n, 0):])
}

// endedAnswers is what a node keeps, for a while, of a game that ended
// here: its owner's last answers, for the copies of its commands that come
// after the end — the copy of the resignation that ended it, say — which
// no owner is left to answer. Only the answers: not the owner.
type endedAnswers struct {
	quit <-chan struct{} // closed once the owner has answered its last command
	list []answer        // written by the owner before quit closes
}

// endedKept is how many ended games' answers a node keeps, and
// endedAnswersKept how many answers of each: the copy a node has to
// answer after the end is that of the command that ended the game.
const (
	endedKept        = 512
	endedAnswersKept = 4
)

// retire takes the owner m out of the registry; its answers stay, if its
// game ended, in the same moment, so that a copy that finds no owner
// finds them.
func (r *Registry) retire(m *Match) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if m.ended != nil {
		if r.ended == nil {
			r.ended = map[string]*endedAnswers{}
		}
		if _, ok := r.ended[m.id]; !ok {
			r.endedOrder = append(r.endedOrder, m.id)
		}
		r.ended[m.id] = m.ended
		if over := len(r.endedOrder) - endedKept; over > 0 {
			for _, id := range r.endedOrder[:over] {
				delete(r.ended, id)
			}
			r.endedOrder = append(r.endedOrder[:0], r.endedOrder[over:]...)
		}
	}
	if r.games[m.id] == m {
		delete(r.games, m.id)
	}
}

// late answers a command for game id, which has no owner here: the answer
// to its first copy if the game ended here lately and that copy was
// answered, ErrClosed otherwise.
func (r *Registry) late(ctx context.Context, id string, c Command) (Ack, error) {
	r.mu.Lock()
	e := r.ended[id]
	r.mu.Unlock()
	if e == nil || !remembered(c) {
		return Ack{}, ErrClosed
	}
	select {
	case <-e.quit:
	case <-ctx.Done():
		return Ack{}, ErrClosed
	}
	a := answers{list: e.list}
	if found, ok := a.find(c); ok {
		ack := found.ack
		ack.Meta = ack.Meta.Clone()
		return ack, found.err
	}
	return Ack{}, ErrClosed
}

// MoveStored reports whether the move command c is the move stored at its
// ply for its player's seat, moves being game m's: a copy of the move that
// ended the game, whose owner is gone with the end and its answers, is done
// — as a copy of any other move is to the game's next owner (humanMove).
func MoveStored(m *Meta, moves []Move, c Command) bool {
	seat := m.SeatOf(c.User.ID)
	return c.Kind == CmdMove && seat >= 0 && (c.Seat < 0 || c.Seat == seat) &&
		c.Ply >= 0 && c.Ply < len(moves) && moves[c.Ply].Seat == seat && moves[c.Ply].Text == c.Move
}

// EndedBy reports whether the game m, ended, ended as command c asked: c
// resigned (at the ply the game ended at, if it named one), offered or
// accepted the draw it ended with, claimed the win it ended with, or
// aborted it (or declined it, a challenge). The owner that answered c is
// gone with the game's end, so a copy of c that comes after it (its first
// answer lost when the owner died, or later than the forwarding node
// waited) is judged by the stored end instead: answered as done when the
// end is c's, as the end of the game otherwise.
func EndedBy(m *Meta, c Command) bool {
	seat := m.SeatOf(c.User.ID)
	won := m.Result != nil && seat >= 0 && slices.Contains(m.Result.Winners, seat)
	switch {
	case m.Status == Aborted:
		return (c.Kind == CmdAbort || c.Kind == CmdRefuse) && (seat >= 0 || m.Invites(c.User.ID) || m.CreatorID == c.User.ID)
	case m.Status != Finished || m.Result == nil || seat < 0:
		return false
	}
	switch c.Kind {
	case CmdResign:
		return m.Result.Reason == ReasonResign && !won && (c.Ply < 0 || c.Ply == m.Ply)
	case CmdOffer, CmdAccept:
		return c.Offer == OfferDraw && m.Result.Reason == ReasonAgreed
	case CmdClaim:
		return m.Result.Reason == ReasonAbandoned && won
	}
	return false
}
