package e2e

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// A game channel connection read in the background, for tests that send
// commands and wait for their answers (by message id) and for the events
// around them (by a condition), with no fixed sleeps.

// roomMsg is a game channel message with the room's fields too.
type roomMsg struct {
	message
	Line   *chatLine   `json:"line"`
	Note   *offerNote  `json:"note"`
	Offers []offerJSON `json:"offers"`
	Away   []awayJSON  `json:"away"`
	Room   *struct {
		N      int64       `json:"n"`
		Offers []offerJSON `json:"offers"`
		Chat   []chatLine  `json:"chat"`
		Away   []awayJSON  `json:"away"`
	} `json:"room"`
	Result *struct {
		Winners []int  `json:"winners"`
		Reason  string `json:"reason"`
	} `json:"-"`
}

type chatLine struct {
	N    int64  `json:"n"`
	Seat int    `json:"seat"`
	Text string `json:"text"`
}

type offerNote struct {
	Kind   string `json:"kind"`
	Seat   int    `json:"seat"`
	Action string `json:"action"`
}

type offerJSON struct {
	Kind string `json:"kind"`
	Seat int    `json:"seat"`
	Ply  int    `json:"ply"`
}

type awayJSON struct {
	Seat      int   `json:"seat"`
	ClaimInMs int64 `json:"claimInMs"`
}

// code is an error answer's code ("" for an ack).
func (m roomMsg) code() string {
	if m.Error == nil {
		return ""
	}
	return m.Error.Code
}

// session is one game channel connection, read by a goroutine of its own
// into a log of every message.
type session struct {
	cn   *conn
	mu   sync.Mutex
	log  []roomMsg
	wake chan struct{} // closed (and replaced) at every message, and at the end
	err  error         // why reading stopped; nil while it goes on
	n    int           // message ids sent
}

// open dials game id's channel through the proxy onto node ("": any) and
// starts reading it.
func (c *client) open(ctx context.Context, id, node string) (*session, error) {
	cn, err := c.dial(ctx, id, node)
	if err != nil {
		return nil, err
	}
	ss := &session{cn: cn, wake: make(chan struct{})}
	go ss.read()
	return ss, nil
}

func (ss *session) read() {
	for {
		_, data, err := ss.cn.ws.Read(context.Background())
		var m roomMsg
		if err == nil {
			err = json.Unmarshal(data, &m)
			if err == nil && len(m.Game.Result) > 0 && string(m.Game.Result) != "null" {
				json.Unmarshal(m.Game.Result, &m.Result)
			}
		}
		ss.mu.Lock()
		if err != nil {
			ss.err = err
		} else {
			ss.log = append(ss.log, m)
		}
		close(ss.wake)
		ss.wake = make(chan struct{})
		ss.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (ss *session) close() { ss.cn.close() }

// node is the node this connection is served by.
func (ss *session) node() string { return ss.cn.node }

// send sends a command, giving it a new message id unless it has one, and
// returns the id.
func (ss *session) send(ctx context.Context, cmd map[string]any) (string, error) {
	ss.mu.Lock()
	if cmd["id"] == nil {
		ss.n++
		cmd["id"] = fmt.Sprint("q", ss.n)
	}
	id := cmd["id"].(string)
	ss.mu.Unlock()
	return id, ss.cn.send(ctx, cmd)
}

var errSessionEnded = errors.New("the connection ended")

// wait returns the first message at index from or later that ok accepts,
// and the index after it; it waits for one until ctx ends or the
// connection does.
func (ss *session) wait(ctx context.Context, from int, ok func(roomMsg) bool) (roomMsg, int, error) {
	for {
		ss.mu.Lock()
		for ; from < len(ss.log); from++ {
			if m := ss.log[from]; ok(m) {
				ss.mu.Unlock()
				return m, from + 1, nil
			}
		}
		wake, err := ss.wake, ss.err
		ss.mu.Unlock()
		if err != nil {
			return roomMsg{}, from, fmt.Errorf("%w: %v", errSessionEnded, err)
		}
		select {
		case <-ctx.Done():
			return roomMsg{}, from, ctx.Err()
		case <-wake:
		}
	}
}

// answer waits for the k-th answer (ack or error, k from 1) to message id.
func (ss *session) answer(ctx context.Context, id string, k int) (roomMsg, error) {
	from := 0
	for {
		m, next, err := ss.wait(ctx, from, func(m roomMsg) bool { return (m.Type == "ack" || m.Type == "error") && m.ID == id })
		if err != nil {
			return m, err
		}
		if k--; k == 0 {
			return m, nil
		}
		from = next
	}
}

// do sends a command and waits (up to a minute) for its answer.
func (ss *session) do(ctx context.Context, cmd map[string]any) (roomMsg, error) {
	id, err := ss.send(ctx, cmd)
	if err != nil {
		return roomMsg{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	return ss.answer(ctx, id, 1)
}

// all is every message so far.
func (ss *session) all() []roomMsg {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return append([]roomMsg(nil), ss.log...)
}

// count is how many messages so far ok accepts.
func (ss *session) count(ok func(roomMsg) bool) int {
	n := 0
	for _, m := range ss.all() {
		if ok(m) {
			n++
		}
	}
	return n
}

// state is where the game stands for this connection after its last
// snapshot and the moves since: the number of moves, and the legal moves
// if it is this seat's turn (nil otherwise).
func (ss *session) state() (ply int, legal []string, seat int, status string) {
	for _, m := range ss.all() {
		switch m.Type {
		case "snapshot":
			ply, legal, seat, status = len(m.Moves), m.Legal, m.Seat, m.Game.Status
		case "move":
			ply, legal = *m.Ply+1, nil
			if m.ToMove == seat {
				legal = m.Legal
			}
		case "end":
			status, legal = m.Game.Status, nil
		}
	}
	return
}

// waitTurn waits until it is this connection's seat's turn, and returns the
// ply and the legal moves.
func (ss *session) waitTurn(ctx context.Context) (int, []string, error) {
	for {
		ply, legal, _, status := ss.state()
		if len(legal) > 0 {
			return ply, legal, nil
		}
		if status == "finished" || status == "aborted" {
			return 0, nil, fmt.Errorf("the game is %s", status)
		}
		ss.mu.Lock()
		wake, err := ss.wake, ss.err
		ss.mu.Unlock()
		if err != nil {
			return 0, nil, err
		}
		select {
		case <-ctx.Done():
			return 0, nil, ctx.Err()
		case <-wake:
		}
	}
}

// until polls cond every 50 ms until it holds or the deadline passes: the
// wait for a state outside any connection (the database).
func until(ctx context.Context, within time.Duration, cond func() bool) bool {
	ctx, cancel := context.WithTimeout(ctx, within)
	defer cancel()
	for !cond() {
		select {
		case <-ctx.Done():
			return false
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}
