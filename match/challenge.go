package match

import (
	"slices"
	"time"
)

// Challenges. A challenge is an invitation with a deadline: an open game
// with invited seats and Meta.Expires set. Its invited players accept it
// by joining (CmdJoin) and decline it with a reason (CmdRefuse); its
// creator cancels it (CmdAbort); unless every seat is taken by Expires,
// its owner aborts it then (expiry.go). Each of these ends is published
// as an EventEnd carrying an Answer, so the challenger hears why — on
// whichever node they are, like any event of the game. Declining any seat
// of a multi-seat challenge (Skyjo) ends the whole challenge: the game was
// proposed to that set of players.

// CmdRefuse declines a challenge (an open game with Meta.Expires) the
// user is invited to, giving Command.Text as the reason (one of
// DeclineReasons).
const CmdRefuse CommandKind = "refuse"

// DeclineReasons are the reasons a challenge may be declined with; the
// clients translate them.
var DeclineReasons = []string{"generic", "later", "too_fast", "too_slow", "rated", "casual", "game", "options", "bot"}

// AnswerKind is what became of a challenge that did not start.
type AnswerKind string

// The ends of a challenge other than its start.
const (
	AnswerDeclined  AnswerKind = "declined"  // an invited player declined (Reason says why)
	AnswerCancelled AnswerKind = "cancelled" // its creator withdrew it
	AnswerExpired   AnswerKind = "expired"   // nobody answered in time
)

// Answer is what became of a challenge: an EventEnd's news.
type Answer struct {
	Kind   AnswerKind
	UserID int64  // who declined or cancelled; 0 when it expired
	Reason string // AnswerDeclined: one of DeclineReasons
}

// Challenge reports whether m is a challenge.
func (m *Meta) Challenge() bool { return !m.Expires.IsZero() }

// challengeAnswer is the Answer of the challenge m owns, or nil if it owns
// an ordinary game.
func (m *Match) challengeAnswer(kind AnswerKind, uid int64, reason string) *Answer {
	if !m.meta.Challenge() {
		return nil
	}
	return &Answer{Kind: kind, UserID: uid, Reason: reason}
}

// abortAnswer is the Answer of u's abort of an open challenge: its
// creator cancels it, an invited player declines it without a reason.
func (m *Match) abortAnswer(u User) *Answer {
	if m.meta.Started.IsZero() && u.ID == m.meta.CreatorID {
		return m.challengeAnswer(AnswerCancelled, u.ID, "")
	}
	if m.meta.Started.IsZero() {
		return m.challengeAnswer(AnswerDeclined, u.ID, "generic")
	}
	return nil
}

// refuse is CmdRefuse: u, invited to the open challenge, declines it.
func (m *Match) refuse(u User, reason string) error {
	if err := m.meta.mayRefuse(u, reason); err != nil {
		return err
	}
	next := m.meta.Clone()
	next.Status, next.Finished = Aborted, m.reg.cfg.Time.Now()
	next.ToMove, next.Deadline = -1, time.Time{}
	if err := m.update(next); err != nil {
		return err
	}
	m.log.Info("challenge declined", "game", m.id, "user", u.ID, "reason", reason)
	m.publish(Event{Kind: EventEnd, Answer: &Answer{Kind: AnswerDeclined, UserID: u.ID, Reason: reason}})
	m.retire()
	return nil
}

// mayRefuse says whether u may decline m with reason.
func (m *Meta) mayRefuse(u User, reason string) error {
	if !slices.Contains(DeclineReasons, reason) {
		return errorf(CodeBadRequest, "reason %q: want one of %v", reason, DeclineReasons)
	}
	if !m.Challenge() {
		return errorf(CodeConflict, "this game is not a challenge")
	}
	if m.Status != Open {
		return errorf(CodeConflict, "the challenge is over (the game is %s)", m.Status)
	}
	if !m.Invites(u.ID) {
		return errorf(CodeForbidden, "you are not invited to this challenge")
	}
	return nil
}
