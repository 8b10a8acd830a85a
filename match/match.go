package match

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// storeTimeout bounds one write of a game: a store that does not answer in
// this time fails the command rather than hold the game forever.
const storeTimeout = 30 * time.Second

// Match is the single owner of one open or live game. Everything that reads
// or changes the game runs on its goroutine (run), one thing at a time, so
// commands, clocks and bots need no locks; and nothing is acknowledged or
// published before the store has committed it.
type Match struct {
	reg   *Registry
	log   *slog.Logger
	id    string
	g     game.Game
	meta  Meta
	st    game.State // the true state: leaves only through game.View, game.Observe and Snapshot
	next  game.State // scratch for the move being committed
	moves []Move
	clk   clocks

	inbox  chan func()
	stopCh chan struct{}
	quit   chan struct{} // closed when run returns
	done   bool          // the game ended or the owner went stale: run returns

	timer    Stopper
	timerGen int
	bots     botSeats
	room     room      // offers, chat, presence (room.go)
	cond     condState // the stored conditional moves' runs (conditional.go)
	answers  answers   // the answers to the last keyed commands (answers.go)
	// ended is what the registry keeps of the answers once the game has
	// ended here (answers.go); nil before.
	ended *endedAnswers

	// active is when a person last acted (joined, left, moved); the game
	// expires when that was too long ago (expiry.go).
	active    time.Time
	expiry    Stopper
	expiryGen int
}

func newMatch(reg *Registry, g game.Game, meta Meta, st game.State, moves []Move) *Match {
	return &Match{
		reg: reg, log: reg.cfg.Log, id: meta.ID, g: g, meta: meta, st: st, next: st.Clone(), moves: moves,
		clk:    newClocks(meta.Clock, len(meta.Seats), moves),
		inbox:  make(chan func(), 64),
		stopCh: make(chan struct{}),
		quit:   make(chan struct{}),
		bots:   botSeats{agents: map[int]agent.Agent{}},
		room:   newRoom(len(meta.Seats), reg.cfg.Time.Now()),
		active: lastPersonAct(&meta, moves),
	}
}

// ID is the game's id.
func (m *Match) ID() string { return m.id }

func (m *Match) run() {
	defer close(m.quit)
	defer m.reg.remove(m)
	for !m.done {
		select {
		case fn := <-m.inbox:
			// A stop wins over work already queued: a bot decision that
			// StopAll cancelled must not be played as a random move.
			select {
			case <-m.stopCh:
				m.release()
				return
			default:
			}
			fn()
		case <-m.stopCh:
			m.release()
			return
		}
	}
	m.release()
}

func (m *Match) release() {
	if m.timer != nil {
		m.timer.Stop()
	}
	if m.room.timer != nil {
		m.room.timer.Stop()
	}
	if m.expiry != nil {
		m.expiry.Stop()
	}
	m.bots.release()
}

// stop ends the owner after the function it is running.
func (m *Match) stop() {
	select {
	case <-m.stopCh:
	default:
		close(m.stopCh)
	}
	<-m.quit
}

// call runs fn on the owner's goroutine and waits for it. ErrClosed: the
// owner has stopped (fn did not run).
func (m *Match) call(ctx context.Context, fn func()) error {
	done := make(chan struct{})
	select {
	case m.inbox <- func() { defer close(done); fn() }:
	case <-m.quit:
		return ErrClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-m.quit:
		// fn runs before run returns and quit closes, so if it ran at
		// all, done is closed by now.
		select {
		case <-done:
			return nil
		default:
			return ErrClosed
		}
	}
}

// retire ends the owner once the function it is running returns, and
// takes it out of the registry at once: when a command that ended the game
// (or found another node owning it) answers, the game has no owner here
// any more, and the next command hears so (ErrClosed).
func (m *Match) retire() {
	m.done = true
	if m.meta.Status == Finished || m.meta.Status == Aborted {
		m.ended = &endedAnswers{quit: m.quit, list: m.answers.last(endedAnswersKept)}
	}
	m.reg.retire(m)
}

// post queues fn without waiting (timers, bots). It must not be called from
// the owner's own goroutine.
func (m *Match) post(fn func()) {
	select {
	case m.inbox <- fn:
	case <-m.quit:
	}
}

// Do runs a command and answers it. A refused command is an *Error and
// changed nothing; ErrClosed means the game has no owner here any more.
func (m *Match) Do(ctx context.Context, c Command) (Ack, error) {
	var ack Ack
	var cerr error
	if err := m.call(ctx, func() { ack, cerr = m.applyOnce(c) }); err != nil {
		return Ack{}, err
	}
	return ack, cerr
}

// Snapshot is a copy of the game as it stands.
func (m *Match) Snapshot(ctx context.Context) (*Snapshot, error) {
	var s *Snapshot
	err := m.call(ctx, func() {
		s = &Snapshot{Meta: m.meta.Clone(), Moves: slices.Clone(m.moves), State: m.st.Clone(),
			Clocks: m.clk.state(m.running(), m.reg.cfg.Time.Now()), Room: m.roomNow()}
		s.Room.Chat = m.room.chat.lines()
	})
	return s, err
}

// running is the seat whose clock runs, or -1.
func (m *Match) running() int {
	if m.meta.Status != Live {
		return -1
	}
	return m.meta.ToMove
}

func (m *Match) apply(c Command) (Ack, error) {
	var mv *Move
	var err error
	switch c.Kind {
	case CmdJoin:
		if seat := m.meta.SeatOf(c.User.ID); c.Retry && seat >= 0 && (c.Seat < 0 || c.Seat == seat) {
			// The first copy of a retried join took the seat, and its
			// owner died before answering (the game may have started
			// since): done, not a conflict.
			break
		}
		err = m.join(c.User, c.Seat, c.AcceptDeal)
	case CmdLeave:
		if c.Retry && m.meta.Status == Open && m.meta.SeatOf(c.User.ID) < 0 {
			break // the same for a retried leave: the seat is given back
		}
		err = m.leave(c.User)
	case CmdAbort:
		err = m.abort(c.User)
	case CmdRefuse:
		err = m.refuse(c.User, c.Text)
	case CmdMove:
		mv, err = m.humanMove(c)
	case CmdResign:
		err = m.resign(c.User, c.Ply)
	case CmdOffer:
		err = m.offer(c.User, c.Offer)
	case CmdAccept:
		err = m.accept(c.User, c.Offer)
	case CmdDecline:
		err = m.decline(c.User, c.Offer)
	case CmdChat:
		err = m.say(c.User, c.Text)
	case CmdPresence:
		err = m.present(c.User, c.Here, c.Source)
	case CmdClaim:
		err = m.claim(c.User)
	case CmdBerserk:
		err = m.berserk(c.User)
	case CmdRoom:
	default:
		err = errorf(CodeBadRequest, "unknown command %q", c.Kind)
	}
	if err != nil {
		return Ack{}, m.confirmRefusal(err)
	}
	ack := Ack{Meta: m.meta.Clone(), Names: SeatNames(m.st), Move: mv}
	if c.Kind == CmdRoom {
		ack.Room = m.roomFor(c.User.ID)
	}
	return ack, nil
}

// --- writing and publishing ---

// storeFailed logs a write the store refused and answers the command with
// the generic "nothing was changed".
func (m *Match) storeFailed(op string, err error) error {
	m.log.Error(op, "game", m.id, "err", err)
	return errUnavailable
}

// update writes a changed copy of the game; only on success does the owner
// adopt it.
func (m *Match) update(next Meta) error {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := m.reg.cfg.Journal.UpdateGame(ctx, &next); err != nil {
		if errors.Is(err, ErrDeposed) {
			return m.deposed("update game")
		}
		if errors.Is(err, ErrConflict) {
			return errorf(CodeConflict, "the game changed meanwhile; try again")
		}
		return m.storeFailed("update game", err)
	}
	m.meta = next
	return nil
}

// confirmRefusal is the answer to a command refused with err: err itself,
// unless the refusal rests on the game as this owner holds it and another
// node has taken the game over (Holder) — then this owner stops and the
// command answers ErrClosed, to be forwarded to the game's owner. A
// refusal that cannot be confirmed (the store does not answer) is
// errUnavailable: nothing was changed, and the client tries again.
func (m *Match) confirmRefusal(err error) error {
	h, ok := m.reg.cfg.Journal.(Holder)
	var me *Error
	if !ok || m.done || !errors.As(err, &me) {
		return err
	}
	switch me.Code {
	case CodeBadRequest, CodeBadMove, CodeBadOption, CodeBadPosition, CodeRateLimited, CodeQuota, CodeUnavailable:
		return err // the command's own fault, or the store's: true whoever holds the game
	}
	ctx, cancel := context.WithTimeout(context.Background(), holdsTimeout)
	defer cancel()
	switch herr := h.Holds(ctx, m.id); {
	case herr == nil:
		return err
	case errors.Is(herr, ErrDeposed):
		return m.deposed("refuse a command")
	default:
		m.log.Warn("confirm a refusal", "game", m.id, "err", herr)
		return errUnavailable
	}
}

// holdsTimeout bounds the check of a refusal (confirmRefusal).
const holdsTimeout = 5 * time.Second

// deposed stops an owner whose write was fenced off: another node owns the
// game now. The command answers ErrClosed, which the caller forwards to
// the new owner; nothing was written here.
func (m *Match) deposed(op string) error {
	m.log.Warn("another node owns the game now; this owner stops", "game", m.id, "op", op)
	m.retire()
	return ErrClosed
}

// publish hands the event of the change just committed to the publisher.
func (m *Match) publish(e Event) {
	e.Game, e.Seq, e.Meta, e.Names = m.id, m.meta.Version, m.meta.Clone(), SeatNames(m.st)
	m.reg.cfg.Publisher.Publish(e)
}

// --- lobby ---

func (m *Match) join(u User, want int, acceptDeal bool) error {
	if m.meta.Status == Open && !m.meta.Expires.IsZero() && m.expired() {
		return errorf(CodeConflict, "the challenge has expired")
	}
	next, seat, err := m.meta.joined(u, want, acceptDeal)
	if err != nil {
		return err
	}
	if err := m.update(next); err != nil {
		return err
	}
	m.log.Info("seat taken", "game", m.id, "seat", seat, "user", u.ID)
	m.active = m.reg.cfg.Time.Now()
	m.publish(Event{Kind: EventLobby})
	// The seat is stored: the join has been applied, whatever becomes of
	// the start. A start fenced off because another node took the game
	// over is that node's to make (it starts a full open game when it
	// adopts it); answering ErrClosed here would have the join forwarded
	// to it as if it had never run, and refused there.
	// A start the store failed (not fenced off) is likewise no reason to
	// answer the stored join as refused ("nothing was changed"): the
	// owner tries the start again.
	if err := m.startIfFull(); err != nil && !errors.Is(err, ErrClosed) {
		m.log.Warn("the full game did not start; trying again", "game", m.id, "err", err)
		m.startLater()
	}
	return nil
}

// startLater tries the start of a full open game again a second later,
// and again until it is written or the owner stops: the join that filled
// the game is stored and was answered, so nothing else would start it.
func (m *Match) startLater() {
	m.reg.cfg.Time.AfterFunc(time.Second, func() {
		m.post(func() {
			if m.done {
				return
			}
			if err := m.startIfFull(); err != nil && !errors.Is(err, ErrClosed) {
				m.log.Warn("the full game did not start; trying again", "game", m.id, "err", err)
				m.startLater()
			}
		})
	})
}

func (m *Match) leave(u User) error {
	next, err := m.meta.left(u)
	if err != nil {
		return err
	}
	if err := m.update(next); err != nil {
		return err
	}
	m.active = m.reg.cfg.Time.Now()
	m.publish(Event{Kind: EventLobby})
	return nil
}

func (m *Match) abort(u User) error {
	if err := m.meta.MayAbort(u, m.moves); err != nil {
		return err
	}
	next := m.meta.Clone()
	next.Status, next.Finished = Aborted, m.reg.cfg.Time.Now()
	next.ToMove, next.Deadline = -1, time.Time{}
	if err := m.update(next); err != nil {
		return err
	}
	m.log.Info("game aborted", "game", m.id)
	m.publish(Event{Kind: EventEnd, Answer: m.abortAnswer(u)})
	m.retire()
	return nil
}

// startIfFull starts an open game whose seats are all taken.
func (m *Match) startIfFull() error {
	if m.meta.Status != Open || !m.meta.full() {
		return nil
	}
	now := m.reg.cfg.Time.Now()
	next := m.meta.Clone()
	next.Status, next.Started, next.ToMove = Live, now, m.st.ToMove()
	next.Deadline = m.clk.deadline(next.ToMove, now)
	if err := m.update(next); err != nil {
		return err
	}
	m.clk.turnStart = now
	m.log.Info("game started", "game", m.id, "game_name", m.meta.Game, "seats", len(m.meta.Seats))
	m.publish(m.withSight(Event{Kind: EventStart}))
	m.afterTurn()
	m.armExpiry()
	return nil
}

// resume continues a live game loaded from the store: after a restart of
// the only node, or taken over from a node that died (adopted).
func (m *Match) resume(adopted bool) {
	if m.expired() {
		// Abandoned while the node was down: it ends now instead.
		m.expire()
		return
	}
	defer m.armExpiry()
	now := m.reg.cfg.Time.Now()
	m.clk.turnStart = now
	switch {
	case adopted:
		// The claim that took the game over moved the stored deadline past
		// the outage (cluster mode's fair clock): the seat to move has
		// until then, and its realtime clock shows what is left of it.
		if seat := m.meta.ToMove; m.meta.Clock.Kind == ClockRealtime && seat >= 0 && seat < len(m.clk.remaining) && !m.meta.Deadline.IsZero() {
			m.clk.remaining[seat] = max(m.meta.Deadline.Sub(now).Milliseconds(), 0)
		}
		m.publish(Event{Kind: EventResumed, Clocks: m.clk.state(m.running(), now), Prompt: m.prompt()})
	case m.meta.Clock.Kind == ClockRealtime:
		// Realtime clocks do not run while the server is down: the seat to
		// move gets its stored remaining time again from now.
		m.meta.Deadline = m.clk.deadline(m.meta.ToMove, now)
	}
	if out := m.st.Outcome(); out.Over() {
		// A record whose last move ended the game but which is not
		// finished: impossible with one transaction per move, but such
		// a game is finished now rather than left hanging.
		m.finish(endOf(&m.meta, out, ReasonNormal, m.st, -1, now))
		return
	}
	m.afterTurn()
}

// afterTurn arms the clock of the seat to move and starts a bot if it is
// one.
func (m *Match) afterTurn() {
	m.armTimer()
	m.maybeBot()
	m.maybeConditional()
	m.armRest()
}

func (m *Match) armTimer() {
	if m.timer != nil {
		m.timer.Stop()
	}
	m.timerGen++
	if m.meta.Status != Live || m.meta.Deadline.IsZero() {
		return
	}
	gen := m.timerGen
	m.timer = m.reg.cfg.Time.AfterFunc(max(m.meta.Deadline.Sub(m.reg.cfg.Time.Now()), 0), func() {
		m.post(func() {
			if gen == m.timerGen && m.meta.Status == Live {
				m.timeout()
			}
		})
	})
}

// --- moves ---

// humanMove validates and commits the move of a command.
func (m *Match) humanMove(c Command) (*Move, error) {
	seat, err := m.meta.player(c.User)
	if err != nil {
		return nil, err
	}
	if c.Seat >= 0 && c.Seat != seat {
		return nil, errorf(CodeForbidden, "seat %d is not yours", c.Seat)
	}
	if c.Retry && c.Ply >= 0 && c.Ply < len(m.moves) && m.moves[c.Ply].Seat == seat && m.moves[c.Ply].Text == c.Move {
		// The first copy of a retried command was applied — perhaps
		// followed by other seats' moves before the retry came.
		done := m.moves[c.Ply]
		return &done, nil
	}
	if toMove := m.st.ToMove(); toMove != seat {
		return nil, errorf(CodeNotYourTurn, "it is seat %d's turn", toMove)
	}
	if c.Ply != len(m.moves) {
		return nil, errorf(CodeStalePly, "ply %d is not the next move: %d moves have been played", c.Ply, len(m.moves))
	}
	mv, err := m.st.ParseMove(c.Move)
	switch {
	case errors.Is(err, game.ErrIllegal):
		return nil, errorf(CodeIllegalMove, "%q is not legal now", c.Move)
	case err != nil:
		return nil, errorf(CodeBadMove, "%q is not a move in %s's notation", c.Move, m.g.Title())
	}
	rec, err := m.commit(seat, mv)
	if err == nil && !m.done {
		m.alive(seat)
	}
	if err == nil {
		m.active = rec.At
	}
	return rec, err
}

// commit plays mv for seat: the move is written to the store first, and the
// owner's state changes only once the store has it.
func (m *Match) commit(seat int, mv game.Move) (*Move, error) {
	now := m.reg.cfg.Time.Now()
	clockMs, inTime := m.clk.charge(seat, now)
	if !inTime {
		m.timeout()
		return nil, errorf(CodeGameOver, "your time ran out")
	}
	if m.meta.Clock.Kind == ClockCorrespondence && !m.meta.Deadline.IsZero() && now.After(m.meta.Deadline) {
		m.timeout()
		return nil, errorf(CodeGameOver, "the move came after the deadline")
	}
	m.next.CopyFrom(m.st)
	text := m.next.FormatMove(mv)
	m.next.Play(mv)
	rec := Move{Ply: len(m.moves), Seat: seat, Text: text, At: now, ClockMs: clockMs}
	toMove := m.next.ToMove()
	oldRemaining := m.clk.remaining[seat]
	if m.meta.Clock.Kind == ClockRealtime {
		m.clk.remaining[seat] = clockMs
	}
	turn := Turn{ToMove: toMove, Deadline: m.clk.deadline(toMove, now)}
	var end *End
	if out := m.next.Outcome(); out.Over() {
		e := endOf(&m.meta, out, ReasonNormal, m.next, -1, now)
		end, turn = &e, Turn{ToMove: -1}
	}
	if err := m.append(rec, turn, end); err != nil {
		m.clk.remaining[seat] = oldRemaining
		return nil, err
	}
	m.st, m.next = m.next, m.st
	m.moves = append(m.moves, rec)
	m.meta.Ply, m.meta.ToMove, m.meta.Deadline = len(m.moves), turn.ToMove, turn.Deadline
	m.meta.Version++
	m.clk.turnStart = now
	m.clearOffers()
	m.publishMove(rec)
	if end != nil {
		m.finished(*end)
	} else {
		m.afterTurn()
	}
	return &rec, nil
}

// append commits a move. If the store's answer is lost (a timeout after the
// commit), the stored moves decide whether it happened.
func (m *Match) append(rec Move, turn Turn, end *End) error {
	j := m.reg.cfg.Journal
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	err := j.AppendMove(ctx, m.id, rec, turn, end)
	if err == nil {
		return nil
	}
	if errors.Is(err, ErrDeposed) {
		return m.deposed("append move")
	}
	check, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if ms, err2 := j.Moves(check, m.id); err2 == nil && len(ms) == rec.Ply+1 && ms[rec.Ply].Text == rec.Text && ms[rec.Ply].Seat == rec.Seat {
		return nil
	}
	if errors.Is(err, ErrConflict) {
		// Someone else wrote this game (another node): this owner is
		// stale and stops.
		m.log.Error("move conflict: game changed outside its owner", "game", m.id, "ply", rec.Ply)
		m.retire()
		return errorf(CodeConflict, "the game changed meanwhile; reconnect")
	}
	return m.storeFailed("append move", err)
}

// publishMove publishes the move just committed with what each seat may now
// see.
func (m *Match) publishMove(rec Move) {
	m.publish(m.withSight(Event{Kind: EventMove, Move: &rec}))
}

// withSight adds to e what each seat may see now: the views, the legal
// moves of the seat to move, the clocks and the prompt to a human seat to
// move.
func (m *Match) withSight(e Event) Event {
	e.Clocks = m.clk.state(m.running(), m.clk.turnStart)
	if game.Hidden(m.st) {
		e.Views = make([]json.RawMessage, len(m.meta.Seats)+1)
		for i := range e.Views {
			e.Views[i] = m.view(i - 1)
		}
	} else {
		e.Views = []json.RawMessage{m.view(game.Spectator)}
	}
	if seat := m.st.ToMove(); seat >= 0 {
		e.Legal = game.LegalTexts(m.st)
		e.Prompt = promptOf(&m.meta, seat, len(m.moves), e.View(seat), e.Legal)
	}
	return e
}

// view is what seat may see now; nil (and an error in the log) if the game
// cannot say, never more than the seat may see.
func (m *Match) view(seat int) json.RawMessage {
	v, err := game.View(m.st, seat)
	if err != nil {
		m.log.Error("view", "game", m.id, "err", err)
	}
	return v
}

// prompt is the request to the human seat to move now, or nil.
func (m *Match) prompt() *Prompt {
	p, err := promptFor(&m.meta, m.st, len(m.moves))
	if err != nil {
		m.log.Error("view", "game", m.id, "err", err)
	}
	return p
}

// promptFor is the request to the human seat to move in the live game m at
// st after ply moves, or nil.
func promptFor(m *Meta, st game.State, ply int) (*Prompt, error) {
	seat := st.ToMove()
	if m.Status != Live || seat < 0 {
		return nil, nil
	}
	view, err := game.View(st, seat)
	if err != nil {
		return nil, err
	}
	return promptOf(m, seat, ply, view, game.LegalTexts(st)), nil
}

// promptOf is the bot protocol's request (agent.Request: what exec: bots
// read, built from what the seat may see) to the user in seat, if a human
// holds it: its view, its legal moves (sorted), and the time left, which
// the transport fills in when it sends the prompt.
func promptOf(m *Meta, seat, ply int, view json.RawMessage, legal []string) *Prompt {
	if m.Status != Live || seat < 0 || seat >= len(m.Seats) || m.Seats[seat].Kind != SeatHuman {
		return nil
	}
	return &Prompt{UserID: m.Seats[seat].UserID, Ply: ply, Deadline: m.Deadline,
		Request: agent.Request{Type: "move", Game: m.Game, Seat: seat, View: view, Legal: legal}}
}

// Prompt is the request to the user in the seat to move, or nil when no
// human seat is to move.
func (s *Snapshot) Prompt() (*Prompt, error) { return promptFor(&s.Meta, s.State, len(s.Moves)) }

// --- the end ---

// finished updates the owner once the store has recorded the end.
func (m *Match) finished(end End) {
	res := end.Result
	m.meta.Status, m.meta.Finished, m.meta.Result = Finished, end.Finished, &res
	m.meta.ToMove, m.meta.Deadline = -1, time.Time{}
	m.meta.Version++
	m.log.Info("game finished", "game", m.id, "reason", res.Reason, "winners", res.Winners, "plies", len(m.moves))
	m.publish(Event{Kind: EventEnd})
	m.retire()
}

// finish records an end without a move (resignation, time, a stored game
// found already over) and updates the owner.
func (m *Match) finish(end End) error {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := m.reg.cfg.Journal.EndGame(ctx, m.id, end); err != nil {
		if errors.Is(err, ErrDeposed) {
			return m.deposed("end game")
		}
		return m.storeFailed("end game", err)
	}
	m.finished(end)
	return nil
}

func (m *Match) resign(u User, ply int) error {
	if ply >= 0 && ply != len(m.moves) {
		return errorf(CodeStalePly, "ply %d is not the current one: %d moves have been played", ply, len(m.moves))
	}
	if m.meta.Status != Live {
		return errorf(CodeGameOver, "the game is not being played")
	}
	seat := m.meta.SeatOf(u.ID)
	if seat < 0 {
		return errorf(CodeForbidden, "you are not a player of this game")
	}
	return m.finish(endOf(&m.meta, game.Outcome{}, ReasonResign, m.st, seat, m.reg.cfg.Time.Now()))
}

// timeout ends the game: the seat to move ran out of time.
func (m *Match) timeout() {
	seat := m.st.ToMove()
	if seat < 0 || m.meta.Status != Live {
		return
	}
	m.log.Info("lost on time", "game", m.id, "seat", seat)
	if err := m.finish(endOf(&m.meta, game.Outcome{}, ReasonTimeout, m.st, seat, m.reg.cfg.Time.Now())); err != nil {
		// Try again shortly rather than leave a game hanging.
		m.timer = m.reg.cfg.Time.AfterFunc(time.Second, func() { m.post(m.timeout) })
	}
}
