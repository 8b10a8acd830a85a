package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/rating"
	"github.com/tabula-games/tabula/store"
)

// room is the single owner of one open or live game. Everything that reads
// or changes the game runs as a closure on the room's goroutine (run), so
// moves, lobby changes, clocks and bots are serialised without locks, and
// nothing is acknowledged or broadcast before the store has committed it.
type room struct {
	s     *Server
	id    string
	g     game.Game
	meta  match.Meta
	st    game.State // the true state: never leaves the room except through game.View and game.Observe
	next  game.State // scratch for the move being committed
	moves []match.Move
	subs  map[*sub]struct{}

	inbox  chan func()
	stopCh chan struct{}
	quit   chan struct{} // closed when run returns
	done   bool          // the game ended or was aborted: run returns

	// Realtime clocks: remaining time per seat, counted from turnStart
	// for the seat to move.
	remaining []int64
	turnStart time.Time
	timer     *time.Timer
	timerGen  int

	agents    map[int]agent.Agent
	botBusy   bool
	botCancel context.CancelFunc
}

var errRoomClosed = errors.New("room closed")

func newRoom(s *Server, g game.Game, meta match.Meta, st game.State, moves []match.Move) *room {
	r := &room{
		s: s, id: meta.ID, g: g, meta: meta, st: st, next: st.Clone(), moves: moves,
		subs:   map[*sub]struct{}{},
		inbox:  make(chan func(), 64),
		stopCh: make(chan struct{}),
		quit:   make(chan struct{}),
		agents: map[int]agent.Agent{},
	}
	r.remaining = make([]int64, len(meta.Seats))
	for i := range r.remaining {
		r.remaining[i] = meta.Clock.InitialMs
	}
	for _, m := range moves {
		if m.Seat >= 0 && m.Seat < len(r.remaining) && meta.Clock.Kind == match.ClockRealtime {
			r.remaining[m.Seat] = m.ClockMs
		}
	}
	return r
}

func (r *room) run() {
	defer close(r.quit)
	defer r.s.hub.remove(r)
	for !r.done {
		select {
		case fn := <-r.inbox:
			fn()
		case <-r.stopCh:
			r.release()
			return
		}
	}
	r.release()
}

func (r *room) release() {
	if r.timer != nil {
		r.timer.Stop()
	}
	if r.botCancel != nil {
		r.botCancel()
	}
	for _, a := range r.agents {
		agent.Close(a)
	}
}

// stop ends the room's goroutine after the closure it is running.
func (r *room) stop() {
	select {
	case <-r.stopCh:
	default:
		close(r.stopCh)
	}
	<-r.quit
}

// call runs fn on the room's goroutine and waits for it.
func (r *room) call(ctx context.Context, fn func()) error {
	done := make(chan struct{})
	select {
	case r.inbox <- func() { defer close(done); fn() }:
	case <-r.quit:
		return errRoomClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-r.quit:
		// fn runs before run returns and quit closes, so if it ran at
		// all, done is closed by now.
		select {
		case <-done:
			return nil
		default:
			return errRoomClosed
		}
	}
}

// post queues fn without waiting (timers, bots). It must not be called
// from the room's own goroutine.
func (r *room) post(fn func()) {
	select {
	case r.inbox <- fn:
	case <-r.quit:
	}
}

func (r *room) seatOf(uid int64) int {
	if uid == 0 {
		return -1
	}
	for i, s := range r.meta.Seats {
		if s.Kind == match.SeatHuman && s.UserID == uid {
			return i
		}
	}
	return -1
}

// --- messages ---

type clockState struct {
	Seat        int   `json:"seat"`
	RemainingMs int64 `json:"remainingMs"`
}

func (r *room) clocks(now time.Time) []clockState {
	if r.meta.Clock.Kind != match.ClockRealtime {
		return nil
	}
	out := make([]clockState, len(r.remaining))
	for i, ms := range r.remaining {
		if r.meta.Status == match.Live && i == r.meta.ToMove {
			ms -= now.Sub(r.turnStart).Milliseconds()
		}
		out[i] = clockState{i, max(ms, 0)}
	}
	return out
}

func (r *room) summary() summaryJSON {
	return r.s.summary(context.Background(), &r.meta, r.st)
}

func marshal(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("server: marshal message: " + err.Error())
	}
	return b
}

type snapshotMsg struct {
	Type   string          `json:"type"`
	Game   summaryJSON     `json:"game"`
	Seat   int             `json:"seat"`
	Moves  []moveJSON      `json:"moves"`
	View   json.RawMessage `json:"view,omitempty"`
	Legal  []string        `json:"legal,omitempty"`
	Clocks []clockState    `json:"clocks,omitempty"`
}

func (r *room) snapshot(uid int64) []byte {
	seat := r.seatOf(uid)
	v, err := game.View(r.st, seat)
	if err != nil {
		r.s.log.Error("view", "game", r.id, "err", err)
	}
	m := snapshotMsg{Type: "snapshot", Game: r.summary(), Seat: seat, Moves: movesJSON(r.moves), View: v, Clocks: r.clocks(r.s.now())}
	if r.meta.Status == match.Live && seat >= 0 && seat == r.st.ToMove() {
		m.Legal = game.LegalTexts(r.st)
	}
	return marshal(m)
}

type moveMsg struct {
	Type     string          `json:"type"`
	Ply      int             `json:"ply"`
	Seat     int             `json:"seat"`
	Move     string          `json:"move"`
	At       time.Time       `json:"at"`
	ToMove   int             `json:"toMove"`
	View     json.RawMessage `json:"view,omitempty"`
	Legal    []string        `json:"legal,omitempty"`
	Clocks   []clockState    `json:"clocks,omitempty"`
	Deadline *time.Time      `json:"deadline,omitempty"`
}

// broadcastMove tells every watcher about the move just committed, each
// with the view of its own seat.
func (r *room) broadcastMove(mv match.Move) {
	toMove := r.st.ToMove()
	var legal []string
	msgs := map[int][]byte{}
	for c := range r.subs {
		seat := r.seatOf(c.user)
		msg, ok := msgs[seat]
		if !ok {
			v, err := game.View(r.st, seat)
			if err != nil {
				r.s.log.Error("view", "game", r.id, "err", err)
			}
			m := moveMsg{Type: "move", Ply: mv.Ply, Seat: mv.Seat, Move: mv.Text, At: mv.At.UTC(), ToMove: toMove, View: v,
				Clocks: r.clocks(mv.At), Deadline: timePtr(r.meta.Deadline)}
			if seat >= 0 && seat == toMove {
				if legal == nil {
					legal = game.LegalTexts(r.st)
				}
				m.Legal = legal
			}
			msg = marshal(m)
			msgs[seat] = msg
		}
		c.send(msg)
	}
}

func (r *room) broadcast(msg []byte) {
	for c := range r.subs {
		c.send(msg)
	}
}

func (r *room) lobbyChanged() {
	r.broadcast(marshal(map[string]any{"type": "lobby", "game": r.summary()}))
}

// turnRequest is the bot-protocol request of CLI.md, with the game id and
// ply added, sent on the user channel of the seat to move.
type turnRequest struct {
	Type   string          `json:"type"`
	ID     string          `json:"id"`
	Game   string          `json:"game"`
	Seat   int             `json:"seat"`
	Ply    int             `json:"ply"`
	View   json.RawMessage `json:"view"`
	Legal  []string        `json:"legal"`
	TimeMs int64           `json:"timeMs"`
}

// turnMessage is the request for the human seat to move, or nil.
func (r *room) turnMessage() (int64, []byte) {
	if r.meta.Status != match.Live {
		return 0, nil
	}
	seat := r.st.ToMove()
	if seat < 0 || r.meta.Seats[seat].Kind != match.SeatHuman {
		return 0, nil
	}
	v, err := game.View(r.st, seat)
	if err != nil {
		r.s.log.Error("view", "game", r.id, "err", err)
		return 0, nil
	}
	var timeMs int64
	if !r.meta.Deadline.IsZero() {
		timeMs = max(r.meta.Deadline.Sub(r.s.now()).Milliseconds(), 1)
	}
	return r.meta.Seats[seat].UserID, marshal(turnRequest{Type: "move", ID: r.id, Game: r.meta.Game, Seat: seat, Ply: len(r.moves),
		View: v, Legal: game.LegalTexts(r.st), TimeMs: timeMs})
}

func (r *room) notifyTurn() {
	if uid, msg := r.turnMessage(); msg != nil {
		r.s.hub.toUser(uid, msg)
	}
}

func (r *room) notifySeats(kind string) {
	msg := marshal(map[string]any{"type": kind, "game": r.summary()})
	for _, s := range r.meta.Seats {
		if s.Kind == match.SeatHuman {
			r.s.hub.toUser(s.UserID, msg)
		}
	}
}

// --- lobby ---

// update writes a changed copy of the game row; only on success does the
// room adopt it.
func (r *room) update(ctx context.Context, m match.Meta) error {
	if err := r.s.store.UpdateGame(ctx, &m); err != nil {
		if errors.Is(err, store.ErrConflict) {
			return errf(http.StatusConflict, "conflict", "the game changed meanwhile; try again")
		}
		return r.s.internal("update game", err)
	}
	r.meta = m
	return nil
}

func copySeats(s []match.Seat) []match.Seat { return append([]match.Seat(nil), s...) }

func (r *room) join(ctx context.Context, u *store.User, want int) error {
	if r.meta.Status != match.Open {
		return errf(http.StatusConflict, "conflict", "the game is %s, not open", r.meta.Status)
	}
	if r.seatOf(u.ID) >= 0 {
		return errf(http.StatusConflict, "conflict", "you already hold a seat in this game")
	}
	mayTake := func(i int) bool {
		s := r.meta.Seats[i]
		return s.Kind == match.SeatOpen || (s.Kind == match.SeatInvite && s.UserID == u.ID)
	}
	seat := -1
	if want >= 0 {
		if want >= len(r.meta.Seats) {
			return errf(http.StatusBadRequest, "bad_request", "no seat %d", want)
		}
		if !mayTake(want) {
			return errf(http.StatusConflict, "conflict", "seat %d is not open to you", want)
		}
		seat = want
	} else {
		for i, s := range r.meta.Seats {
			if s.Kind == match.SeatInvite && s.UserID == u.ID {
				seat = i
				break
			}
		}
		for i, s := range r.meta.Seats {
			if seat < 0 && s.Kind == match.SeatOpen {
				seat = i
			}
		}
		if seat < 0 {
			return errf(http.StatusConflict, "conflict", "no seat is open to you")
		}
	}
	m := r.meta
	m.Seats = copySeats(m.Seats)
	m.Seats[seat] = match.Seat{Kind: match.SeatHuman, UserID: u.ID}
	if m.Rated && u.Guest {
		return errf(http.StatusForbidden, "forbidden", "rated games are for registered users")
	}
	if err := r.update(ctx, m); err != nil {
		return err
	}
	r.s.log.Info("seat taken", "game", r.id, "seat", seat, "user", u.ID)
	r.lobbyChanged()
	return r.startIfFull(ctx)
}

func (r *room) leave(ctx context.Context, u *store.User) error {
	if r.meta.Status != match.Open {
		return errf(http.StatusConflict, "conflict", "the game is %s; leaving is only possible before the start", r.meta.Status)
	}
	seat := r.seatOf(u.ID)
	if seat < 0 {
		return errf(http.StatusForbidden, "forbidden", "you hold no seat in this game")
	}
	m := r.meta
	m.Seats = copySeats(m.Seats)
	m.Seats[seat] = match.Seat{Kind: match.SeatOpen}
	if err := r.update(ctx, m); err != nil {
		return err
	}
	r.lobbyChanged()
	return nil
}

func (r *room) abort(ctx context.Context, u *store.User) error {
	if r.meta.Status != match.Open {
		return errf(http.StatusConflict, "conflict", "only an open game can be aborted")
	}
	if u.ID != r.meta.CreatorID {
		return errf(http.StatusForbidden, "forbidden", "only the creator can abort the game")
	}
	m := r.meta
	m.Status, m.Finished = match.Aborted, r.s.now()
	if err := r.update(ctx, m); err != nil {
		return err
	}
	r.s.log.Info("game aborted", "game", r.id)
	r.broadcast(marshal(map[string]any{"type": "end", "game": r.summary()}))
	r.done = true
	return nil
}

func (r *room) startIfFull(ctx context.Context) error {
	if r.meta.Status != match.Open {
		return nil
	}
	for _, s := range r.meta.Seats {
		if s.Kind == match.SeatOpen || s.Kind == match.SeatInvite {
			return nil
		}
	}
	now := r.s.now()
	m := r.meta
	m.Status, m.Started = match.Live, now
	m.ToMove = r.st.ToMove()
	r.turnStart = now
	m.Deadline = r.deadline(m.ToMove, now)
	if err := r.update(ctx, m); err != nil {
		return err
	}
	r.s.log.Info("game started", "game", r.id, "game_name", r.meta.Game, "seats", len(r.meta.Seats))
	r.lobbyChanged()
	// A fresh snapshot tells each watcher its seat's view and, to the seat
	// to move, its legal moves.
	for c := range r.subs {
		c.send(r.snapshot(c.user))
	}
	r.notifySeats("start")
	r.afterTurn()
	return nil
}

// resume continues a live game loaded from the store after a restart.
func (r *room) resume() {
	now := r.s.now()
	// Realtime clocks do not run while the server is down: the seat to move
	// gets its stored remaining time again from now.
	r.turnStart = now
	if r.meta.Clock.Kind == match.ClockRealtime {
		r.meta.Deadline = r.deadline(r.meta.ToMove, now)
	}
	if r.st.Outcome().Over() {
		// Crashed between the last move and finishing: cannot happen with
		// one transaction, but a record that says so is finished now.
		r.finish(r.endFor(r.st.Outcome(), match.ReasonNormal, r.st, -1))
		return
	}
	r.afterTurn()
}

// deadline is when seat must have moved, if the game has a clock.
func (r *room) deadline(seat int, from time.Time) time.Time {
	switch r.meta.Clock.Kind {
	case match.ClockRealtime:
		if seat >= 0 {
			return from.Add(time.Duration(r.remaining[seat]) * time.Millisecond)
		}
	case match.ClockCorrespondence:
		return from.Add(time.Duration(r.meta.Clock.Days) * 24 * time.Hour)
	}
	return time.Time{}
}

// afterTurn arms the clock, tells the seat to move and starts a bot.
func (r *room) afterTurn() {
	r.armTimer()
	r.notifyTurn()
	r.maybeBot()
}

func (r *room) armTimer() {
	if r.timer != nil {
		r.timer.Stop()
	}
	r.timerGen++
	if r.meta.Status != match.Live || r.meta.Deadline.IsZero() {
		return
	}
	gen := r.timerGen
	r.timer = time.AfterFunc(max(r.meta.Deadline.Sub(r.s.now()), 0), func() {
		r.post(func() {
			if gen == r.timerGen && r.meta.Status == match.Live {
				r.timeout()
			}
		})
	})
}

// --- moves ---

// humanMove validates and commits a move by user u. seat (-1: any) is the
// seat the client says it moves for, ply the number of moves it has seen.
func (r *room) humanMove(u *store.User, seat, ply int, text string) (match.Move, error) {
	if r.meta.Status != match.Live {
		if r.meta.Status == match.Open {
			return match.Move{}, errf(http.StatusConflict, "conflict", "the game has not started")
		}
		return match.Move{}, errf(http.StatusConflict, "game_over", "the game is over")
	}
	mine := r.seatOf(u.ID)
	if mine < 0 {
		return match.Move{}, errf(http.StatusForbidden, "forbidden", "you are not a player of this game")
	}
	if seat >= 0 && seat != mine {
		return match.Move{}, errf(http.StatusForbidden, "forbidden", "seat %d is not yours", seat)
	}
	if toMove := r.st.ToMove(); toMove != mine {
		return match.Move{}, errf(http.StatusConflict, "not_your_turn", "it is seat %d's turn", toMove)
	}
	if ply != len(r.moves) {
		return match.Move{}, errf(http.StatusConflict, "stale_ply", "ply %d is not the next move: %d moves have been played", ply, len(r.moves))
	}
	m, err := r.st.ParseMove(text)
	switch {
	case errors.Is(err, game.ErrIllegal):
		return match.Move{}, errf(http.StatusUnprocessableEntity, "illegal_move", "%q is not legal now", text)
	case err != nil:
		return match.Move{}, errf(http.StatusBadRequest, "bad_move", "%q is not a move in %s's notation", text, r.g.Title())
	}
	return r.commit(mine, m)
}

// commit plays m for seat: the move is written to the store first, and the
// room's state changes only once the store has it.
func (r *room) commit(seat int, m game.Move) (match.Move, error) {
	now := r.s.now()
	var clockMs int64
	if r.meta.Clock.Kind == match.ClockRealtime {
		clockMs = r.remaining[seat] - now.Sub(r.turnStart).Milliseconds()
		if clockMs <= 0 {
			r.timeout()
			return match.Move{}, errf(http.StatusConflict, "game_over", "your time ran out")
		}
		clockMs += r.meta.Clock.IncrementMs
	}
	if r.meta.Clock.Kind == match.ClockCorrespondence && !r.meta.Deadline.IsZero() && now.After(r.meta.Deadline) {
		r.timeout()
		return match.Move{}, errf(http.StatusConflict, "game_over", "the move came after the deadline")
	}
	r.next.CopyFrom(r.st)
	text := r.next.FormatMove(m)
	r.next.Play(m)
	mv := match.Move{Ply: len(r.moves), Seat: seat, Text: text, At: now, ClockMs: clockMs}
	toMove := r.next.ToMove()
	oldRemaining := r.remaining[seat]
	if r.meta.Clock.Kind == match.ClockRealtime {
		r.remaining[seat] = clockMs
	}
	turn := match.Turn{ToMove: toMove, Deadline: r.deadline(toMove, now)}
	var end *match.End
	if out := r.next.Outcome(); out.Over() {
		e := r.endFor(out, match.ReasonNormal, r.next, -1)
		end = &e
		turn = match.Turn{ToMove: -1}
	}
	if err := r.append(mv, turn, end); err != nil {
		r.remaining[seat] = oldRemaining
		return match.Move{}, err
	}
	r.st, r.next = r.next, r.st
	r.moves = append(r.moves, mv)
	r.meta.Ply, r.meta.ToMove, r.meta.Deadline = len(r.moves), turn.ToMove, turn.Deadline
	r.meta.Version++
	r.turnStart = now
	r.s.metrics.moves.Inc()
	r.broadcastMove(mv)
	if end != nil {
		r.finished(*end)
	} else {
		r.afterTurn()
	}
	return mv, nil
}

// append commits a move. If the store's answer is lost (a timeout after
// the commit), the stored moves decide whether it happened.
func (r *room) append(mv match.Move, turn match.Turn, end *match.End) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := r.s.store.AppendMove(ctx, r.id, mv, turn, end)
	if err == nil {
		return nil
	}
	check, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel2()
	if ms, err2 := r.s.store.Moves(check, r.id); err2 == nil && len(ms) == mv.Ply+1 && ms[mv.Ply].Text == mv.Text && ms[mv.Ply].Seat == mv.Seat {
		return nil
	}
	if errors.Is(err, store.ErrConflict) {
		// Someone else wrote this game (another node): this room is stale.
		r.s.log.Error("move conflict: game changed outside its owner", "game", r.id, "ply", mv.Ply)
		r.done = true
		return errf(http.StatusConflict, "conflict", "the game changed meanwhile; reconnect")
	}
	return r.s.internal("append move", err)
}

// endFor builds the end of the game for an outcome. forfeit >= 0 is a seat
// that resigned or lost on time: it loses and everyone else shares the win.
func (r *room) endFor(out game.Outcome, reason match.Reason, st game.State, forfeit int) match.End {
	n := len(r.meta.Seats)
	res := match.Result{Status: match.Verdict(out.Status.String()), Reason: reason, Winners: []int{}}
	winners := make([]bool, n)
	if forfeit >= 0 {
		res.Status = match.Won
		for i := 0; i < n; i++ {
			winners[i] = i != forfeit
		}
	} else {
		for i := 0; i < n; i++ {
			winners[i] = out.Status == game.Won && out.IsWinner(i)
		}
		res.Scores = scoresOf(st)
	}
	for i, w := range winners {
		if w {
			res.Winners = append(res.Winners, i)
		}
	}
	end := match.End{Result: res, Finished: r.s.now()}
	if r.meta.Rated {
		var uids []int64
		for _, s := range r.meta.Seats {
			if s.Kind != match.SeatHuman {
				return end
			}
			uids = append(uids, s.UserID)
		}
		places := rating.Places(n, winners, res.Scores)
		if forfeit >= 0 {
			places = rating.Places(n, winners, nil)
		}
		now := end.Finished
		end.RatedUsers = uids
		end.Rate = func(cur []match.Rating) []match.Rating {
			in := make([]rating.Rating, len(cur))
			for i, c := range cur {
				in[i] = rating.Rating{R: c.Rating, RD: c.Deviation, Vol: c.Volatility}
				if c.Games == 0 {
					in[i] = rating.Default()
				}
			}
			outR := rating.UpdateGame(in, places, rating.Tau)
			res := make([]match.Rating, len(cur))
			for i, c := range cur {
				res[i] = match.Rating{UserID: c.UserID, Rating: outR[i].R, Deviation: outR[i].RD, Volatility: outR[i].Vol, Games: c.Games + 1, Updated: now}
			}
			return res
		}
	}
	return end
}

// finished updates the room after the store has recorded the end.
func (r *room) finished(end match.End) {
	res := end.Result
	r.meta.Status, r.meta.Finished, r.meta.Result = match.Finished, end.Finished, &res
	r.meta.ToMove, r.meta.Deadline = -1, time.Time{}
	r.meta.Version++
	r.s.log.Info("game finished", "game", r.id, "reason", res.Reason, "winners", res.Winners, "plies", len(r.moves))
	msg := marshal(map[string]any{"type": "end", "game": r.summary()})
	r.broadcast(msg)
	r.notifySeats("end")
	r.done = true
}

// finish records an end without a move (resignation, time, a stored game
// found already over) and updates the room.
func (r *room) finish(end match.End) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := r.s.store.EndGame(ctx, r.id, end); err != nil {
		return r.s.internal("end game", err)
	}
	r.finished(end)
	return nil
}

func (r *room) resign(u *store.User) error {
	if r.meta.Status != match.Live {
		return errf(http.StatusConflict, "game_over", "the game is not being played")
	}
	seat := r.seatOf(u.ID)
	if seat < 0 {
		return errf(http.StatusForbidden, "forbidden", "you are not a player of this game")
	}
	return r.finish(r.endFor(game.Outcome{}, match.ReasonResign, r.st, seat))
}

func (r *room) timeout() {
	seat := r.st.ToMove()
	if seat < 0 || r.meta.Status != match.Live {
		return
	}
	r.s.log.Info("lost on time", "game", r.id, "seat", seat)
	if err := r.finish(r.endFor(game.Outcome{}, match.ReasonTimeout, r.st, seat)); err != nil {
		// Try again shortly rather than leave a game hanging.
		r.timer = time.AfterFunc(time.Second, func() { r.post(func() { r.timeout() }) })
	}
}

// --- bots ---

func (r *room) maybeBot() {
	if r.meta.Status != match.Live || r.botBusy {
		return
	}
	seat := r.st.ToMove()
	if seat < 0 || r.meta.Seats[seat].Kind != match.SeatBot {
		return
	}
	a := r.agents[seat]
	if a == nil {
		var err error
		a, err = agent.New(r.meta.Seats[seat].Level, r.g, randomSeed())
		if err != nil {
			r.s.log.Error("bot", "game", r.id, "seat", seat, "err", err)
			a = agent.NewRandom(randomSeed())
		}
		r.agents[seat] = a
	}
	budget := r.s.cfg.BotTimeout
	if !r.meta.Deadline.IsZero() {
		budget = min(budget, max(r.meta.Deadline.Sub(r.s.now())-50*time.Millisecond, 10*time.Millisecond))
	}
	ctx, cancel := context.WithTimeout(r.s.ctx, budget+r.s.cfg.BotDelay)
	r.botBusy, r.botCancel = true, cancel
	obs, obsErr := game.Observe(r.st, seat) // the bot sees only what its seat may
	ply, delay := len(r.moves), r.s.cfg.BotDelay
	go func() {
		defer cancel()
		if delay > 0 {
			select {
			case <-time.After(delay):
			case <-ctx.Done():
			}
		}
		// Bots think one per core at most, so a crowd of bot games slows
		// bots down rather than starving the rooms that serve people.
		var m game.Move
		err := ctx.Err()
		select {
		case r.s.botSem <- struct{}{}:
			m, err = a.Choose(ctx, obs)
			if obsErr != nil {
				m, err = 0, obsErr
			}
			<-r.s.botSem
		case <-ctx.Done():
			err = ctx.Err()
		}
		r.post(func() {
			r.botBusy, r.botCancel = false, nil
			r.botMoved(seat, ply, m, err)
		})
	}()
}

func (r *room) botMoved(seat, ply int, m game.Move, err error) {
	if r.meta.Status != match.Live || ply != len(r.moves) || r.st.ToMove() != seat {
		r.maybeBot()
		return
	}
	if err != nil || !game.IsLegal(r.st, m) {
		// A server bot failing is our bug, not the players' loss: play a
		// random legal move instead and say so.
		r.s.log.Warn("bot failed; playing a random move", "game", r.id, "seat", seat, "err", err)
		legal := r.st.Legal(nil)
		rng := game.NewRNG(randomSeed())
		m = legal[rng.IntN(len(legal))]
	}
	if _, err := r.commit(seat, m); err != nil {
		r.s.log.Error("bot move", "game", r.id, "seat", seat, "err", err)
		if !r.done {
			time.AfterFunc(time.Second, func() { r.post(func() { r.maybeBot() }) })
		}
	}
}
