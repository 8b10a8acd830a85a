package main

import (
	"bytes"
	"context"
	crand "crypto/rand"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server/wire"
)

// This file is `tabula bot --server`: it connects an engine to a Tabula
// server as the token's account, over the public API only (docs/api.md):
// the user channel for invitations, turns, starts and ends; HTTP to join,
// decline, resign and list games. It accepts invitations by a policy
// (botconnect_policy.go), plays every game at once (botconnect_game.go),
// reconnects with back-off and resumes after a network loss or a restart
// of either side, and stops cleanly on SIGINT/SIGTERM.

// connectOptions are tabula bot --server's flags.
type connectOptions struct {
	server, token, engine string
	policy                botPolicy
	dryRun                bool
	onStop                string
	seed                  uint64
	// ladders are the games whose ladder the account joins (--ladder).
	ladders []string
	// sweep is how often the games are listed again, to drop games that
	// ended without an end message (an abort) and to see a stop through.
	sweep time.Duration
}

// runBotConnect parses the flags and runs the connector until a signal.
func runBotConnect(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bot", flag.ContinueOnError)
	var o connectOptions
	fs.StringVar(&o.server, "server", "", "the Tabula server's `URL` (http://host:port or https://…)")
	fs.StringVar(&o.token, "token", "", "the account's personal API `TOKEN` (tbl_…; default: $TABULA_TOKEN)")
	fs.StringVar(&o.engine, "engine", "", "the `AGENT` that plays: a built-in level (hard) or exec:COMMAND")
	config := fs.String("config", "", "the policy `FILE` (JSON, docs/bots.md): which challenges to accept")
	fs.BoolVar(&o.dryRun, "dry-run", false, "check that the engine answers the protocol and the server takes the token, then exit")
	fs.StringVar(&o.onStop, "on-stop", "", "what SIGINT/SIGTERM does with the games in progress: finish or resign (default: the policy's onStop, else finish)")
	fs.Uint64Var(&o.seed, "seed", 1, "seed of the built-in engines")
	fs.Var(ladderFlag{&o.ladders}, "ladder", "join the server's ladder of `GAME` (repeated or comma-separated) and leave it on a clean stop")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	if o.token == "" {
		o.token = os.Getenv("TABULA_TOKEN")
	}
	if err := o.check(); err != nil {
		return err
	}
	if o.policy, err = readPolicy(*config); err != nil {
		return err
	}
	if o.onStop == "" {
		o.onStop = o.policy.OnStop
	}
	if o.onStop == "" {
		o.onStop = "finish"
	}
	if o.onStop != "finish" && o.onStop != "resign" {
		return fmt.Errorf("--on-stop %q: want finish or resign", o.onStop)
	}
	ctx := context.Background()
	if o.dryRun {
		ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
		defer stop()
		return dryRun(ctx, o, stdout)
	}
	sig := make(chan os.Signal, 2)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	stops := make(chan struct{}, 2)
	go func() {
		for range sig {
			stops <- struct{}{}
		}
	}()
	return connect(ctx, o, stops, stdout)
}

// check refuses missing or malformed flags.
func (o *connectOptions) check() error {
	if o.server == "" {
		return fmt.Errorf("--server: want the server's URL, as in --server https://tabula.example")
	}
	u, err := url.Parse(o.server)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--server %q: want http://host[:port] or https://host[:port]", o.server)
	}
	o.server = strings.TrimRight(u.String(), "/")
	if o.token == "" {
		return fmt.Errorf("--token: want the account's API token (create one on the tokens page or with POST /api/tokens)")
	}
	if o.engine == "" {
		return fmt.Errorf("--engine: want the engine, as in --engine hard or --engine \"exec:python3 mybot.py\"")
	}
	if _, err := agent.New(o.engine, mustGame(game.Names()[0]), o.seed); err != nil {
		return err
	}
	return nil
}

func mustGame(name string) game.Game {
	g, err := game.Lookup(name)
	if err != nil {
		panic(err) // a registered name
	}
	return g
}

// meetEngine starts the engine once to read its hello and returns the
// games it plays and a line describing it.
func meetEngine(ctx context.Context, spec string, seed uint64) (plays func(string) bool, desc string, budget time.Duration, err error) {
	a, err := agent.New(spec, mustGame(game.Names()[0]), seed)
	if err != nil {
		return nil, "", 0, err
	}
	e, ok := a.(*agent.Exec)
	if !ok {
		agent.Close(a)
		return func(string) bool { return true }, fmt.Sprintf("engine %s: built in, plays every game", spec), 0, nil
	}
	defer e.Close()
	e.Game = "" // only listening to the hello
	if err := e.Start(ctx); err != nil {
		return nil, "", 0, fmt.Errorf("the engine did not start: %s", whyFailed(err))
	}
	h, v2 := e.Hello()
	if !v2 {
		return func(string) bool { return true }, fmt.Sprintf("engine %s: no hello (protocol 1), offered every game", spec), e.Budget(), nil
	}
	what := "every game"
	if len(h.Games) > 0 {
		what = strings.Join(h.Games, ", ")
	}
	return h.Plays, fmt.Sprintf("engine %s: %q, protocol %d, plays %s", spec, h.Name, h.Protocol, what), e.Budget(), nil
}

// dryRun checks the engine answers a first move of every game it plays and
// that the server takes the token, and plays nothing.
func dryRun(ctx context.Context, o connectOptions, w io.Writer) error {
	var failed []string
	plays, desc, _, err := meetEngine(ctx, o.engine, o.seed)
	if err != nil {
		fmt.Fprintf(w, "engine %s: FAIL  %v\n", o.engine, err)
		failed = append(failed, "the engine")
	} else {
		fmt.Fprintln(w, desc)
		for _, name := range game.Names() {
			if !plays(name) || (len(o.policy.Games) > 0 && !slices.Contains(o.policy.Games, name)) {
				continue
			}
			g := mustGame(name)
			a, err := agent.New(o.engine, g, o.seed)
			if err == nil {
				err = agent.Start(ctx, a)
			}
			var m string
			if err == nil {
				var s game.State
				if s, err = g.New(nil, o.seed); err == nil {
					var mv game.Move
					if mv, err = agent.Ask(ctx, a, s); err == nil {
						m = s.FormatMove(mv)
					}
				}
			}
			if a != nil {
				agent.Close(a)
			}
			if err != nil {
				fmt.Fprintf(w, "%-7s FAIL  a first move: %s\n", name+":", whyFailed(err))
				failed = append(failed, name)
				continue
			}
			fmt.Fprintf(w, "%-7s ok    a first move: %s\n", name+":", m)
		}
	}
	c := &connector{o: o, http: &http.Client{Timeout: 20 * time.Second}}
	var me struct {
		User wire.User `json:"user"`
	}
	if err := c.api(ctx, http.MethodGet, "/api/me", nil, &me); err != nil {
		fmt.Fprintf(w, "server %s: FAIL  %v\n", o.server, err)
		failed = append(failed, "the server")
	} else {
		fmt.Fprintf(w, "server %s: ok    signed in as %s\n", o.server, me.User.Name)
		if !me.User.Bot {
			fmt.Fprintf(w, "server %s: note  %s\n", o.server, notBotNote(me.User.Name))
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("dry run failed: %s", strings.Join(failed, ", "))
	}
	fmt.Fprintln(w, "dry run: ok (nothing played)")
	return nil
}

// connector is a running tabula bot --server.
type connector struct {
	o          connectOptions
	http       *http.Client
	me         string
	plays      func(string) bool
	execBudget time.Duration

	hard     context.Context // ends every game's goroutine: the connector is done
	stopHard context.CancelFunc
	stopping atomic.Bool
	// laddersLeft is set once a stop has taken the account off its
	// ladders (or tried to): a sweep's finishStop, which the stopping flag
	// starts, must not resign a game before then, while a ladder can still
	// pair the bot.
	laddersLeft atomic.Bool
	// finishing makes finishStop's passes one at a time: the stop's and a
	// sweep's would otherwise resign the same games at once, and the one
	// that found them over would end the connector under the other's
	// requests.
	finishing sync.Mutex

	logMu sync.Mutex
	log   io.Writer

	conn    atomic.Pointer[websocket.Conn]
	mu      sync.Mutex
	games   map[string]*botGame
	over    map[string]*botGame // games that ended lately, for their last acknowledgement
	invites chan wire.Summary
	decided map[string]bool // invitations already answered
}

// connect runs the connector until it is stopped: a receive on stops
// begins a clean stop by o.onStop, a second one ends it at once.
func connect(ctx context.Context, o connectOptions, stops <-chan struct{}, w io.Writer) error {
	if o.sweep == 0 {
		o.sweep = 30 * time.Second
	}
	hard, stopHard := context.WithCancel(ctx)
	defer stopHard()
	c := &connector{o: o, http: &http.Client{Timeout: 20 * time.Second}, hard: hard, stopHard: stopHard, log: w,
		games: map[string]*botGame{}, over: map[string]*botGame{}, invites: make(chan wire.Summary, 64), decided: map[string]bool{}}
	plays, desc, budget, err := meetEngine(hard, o.engine, o.seed)
	if err != nil {
		return err
	}
	c.plays, c.execBudget = plays, budget
	c.logf("%s", desc)
	// Who the token is: a wrong token or an unreachable server at start
	// is an error, not something to retry for ever.
	var me struct {
		User wire.User `json:"user"`
	}
	if err := c.api(hard, http.MethodGet, "/api/me", nil, &me); err != nil {
		return fmt.Errorf("server %s: %w", o.server, err)
	}
	c.me = me.User.Name
	c.logf("account %s on %s; policy: %s", c.me, o.server, o.policy.describe())
	if !me.User.Bot {
		c.logf("%s", notBotNote(c.me))
	}
	if err := c.joinLadders(hard); err != nil {
		return err
	}

	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); c.answerInvites() }()
	go func() { defer wg.Done(); c.watchStops(stops) }()
	c.serve()
	c.stopHard()
	c.mu.Lock()
	var all []*botGame
	for _, g := range c.games {
		all = append(all, g)
	}
	c.mu.Unlock()
	for _, g := range all {
		<-g.done
	}
	wg.Wait()
	c.logf("stopped")
	return nil
}

// describe is the policy in a few words, for the first log lines.
func (p *botPolicy) describe() string {
	games := "every game the engine plays"
	if len(p.Games) > 0 {
		games = strings.Join(p.Games, ", ")
	}
	clocks := "any clock"
	if len(p.Clocks) > 0 {
		clocks = "clocks " + strings.Join(p.Clocks, ", ")
	}
	rated := p.Rated
	if rated == "" {
		rated = "any"
	}
	return fmt.Sprintf("%s; %s; rated: %s; at most %d games at once", games, clocks, rated, p.MaxGames)
}

func (c *connector) logf(format string, args ...any) {
	c.logMu.Lock()
	defer c.logMu.Unlock()
	fmt.Fprintf(c.log, "%s %s\n", time.Now().UTC().Format("2006-01-02T15:04:05Z"), fmt.Sprintf(format, args...))
}

// serve keeps the user channel open, reconnecting with back-off, until the
// connector is done.
func (c *connector) serve() {
	backoff := 250 * time.Millisecond
	for c.hard.Err() == nil {
		connected, err := c.session()
		if c.hard.Err() != nil {
			return
		}
		if connected {
			backoff = 250 * time.Millisecond
		}
		if var403(err) {
			// Retrying cannot help: the token may not play (docs/api.md, scopes).
			c.logf("%s; the server does not let this token play: stopping", oneLine(err.Error()))
			c.stopHard()
			return
		}
		wait := backoff + rand.N(backoff/2+1)
		c.logf("connection lost: %s; reconnecting in %v", oneLine(err.Error()), wait.Round(time.Millisecond))
		if var401(err) {
			c.logf("the server refused the token: stopping")
			c.stopHard()
			return
		}
		select {
		case <-c.hard.Done():
			return
		case <-time.After(wait):
		}
		backoff = min(backoff*2, 15*time.Second)
	}
}

func var401(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.status == http.StatusUnauthorized
}

// var403 is a user channel the server refuses this token for good: a read
// token (scope), or an account a moderator closed.
func var403(err error) bool {
	var ae *apiError
	return errors.As(err, &ae) && ae.status == http.StatusForbidden
}

// session is one connection of the user channel: it returns when the
// connection ends, saying whether it was established.
func (c *connector) session() (bool, error) {
	ctx, cancel := context.WithCancel(c.hard)
	defer cancel()
	dctx, dcancel := context.WithTimeout(ctx, 20*time.Second)
	ws, resp, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(c.o.server, "http")+"/api/ws", &websocket.DialOptions{
		HTTPClient: c.http, HTTPHeader: http.Header{"Authorization": {"Bearer " + c.o.token}}})
	dcancel()
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusUnauthorized {
			return false, &apiError{status: http.StatusUnauthorized, code: "unauthorized", message: "the token was refused"}
		}
		if resp != nil && resp.StatusCode == http.StatusForbidden {
			return false, &apiError{status: http.StatusForbidden, code: "forbidden",
				message: "the server refuses this token the user channel (a read-only token cannot play: make one with the bot:play scope)"}
		}
		return false, err
	}
	ws.SetReadLimit(1 << 20)
	c.conn.Store(ws)
	defer func() {
		c.conn.Store(nil)
		ws.CloseNow()
	}()
	c.logf("connected to %s as %s", c.o.server, c.me)
	go c.resync(ctx)
	go c.keepAlive(ctx, ws)
	for {
		_, data, err := ws.Read(ctx)
		if err != nil {
			return true, err
		}
		c.dispatch(data)
	}
}

// keepAlive pings the server so that a connection the network dropped
// without a word is noticed and replaced.
func (c *connector) keepAlive(ctx context.Context, ws *websocket.Conn) {
	t := time.NewTicker(20 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			pctx, cancel := context.WithTimeout(ctx, 10*time.Second)
			err := ws.Ping(pctx)
			cancel()
			if err != nil && ctx.Err() == nil {
				ws.Close(websocket.StatusGoingAway, "no pong")
				return
			}
		}
	}
}

// send writes a message on the current connection.
func (c *connector) send(ctx context.Context, m wire.ClientMessage) error {
	ws := c.conn.Load()
	if ws == nil {
		return errors.New("not connected")
	}
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, data)
}

// dispatch handles one message of the user channel.
func (c *connector) dispatch(data []byte) {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &head) != nil {
		return
	}
	switch head.Type {
	case wire.TypeMove:
		var p wire.Prompt
		if json.Unmarshal(data, &p) != nil {
			return
		}
		if g := c.game(p.ID, p.Game, p.Seat, nil, "resumed"); g != nil {
			g.offer(p)
		}
	case wire.TypeStart:
		var e wire.GameEvent
		if json.Unmarshal(data, &e) == nil {
			c.game(e.Game.ID, e.Game.Game, seatOf(&e.Game, c.me), &e.Game, "started")
		}
	case wire.TypeEnd:
		var e wire.GameEvent
		if json.Unmarshal(data, &e) == nil {
			c.ended(&e.Game)
		}
	case wire.TypeInvite:
		var e wire.GameEvent
		if json.Unmarshal(data, &e) == nil {
			select {
			case c.invites <- e.Game:
			default:
				c.logf("challenge %s: too many waiting; it is sent again on reconnecting", e.Game.ID)
			}
		}
	case wire.TypeAck:
		var a wire.Ack
		if json.Unmarshal(data, &a) == nil && a.Ply != nil {
			if g := c.lookupAcked(a.ID); g != nil {
				g.acked(*a.Ply)
			}
		}
	case wire.TypeError:
		var e wire.Error
		if json.Unmarshal(data, &e) == nil {
			c.refused(e)
		}
	}
}

// refused handles the server's refusal of a move.
func (c *connector) refused(e wire.Error) {
	g := c.lookup(e.ID)
	switch e.Error.Code {
	case "stale_ply", "not_your_turn":
		// A move sent again after a reconnection that the server had
		// already applied, or a request overtaken by the game: nothing
		// to do, the server asks when it is our turn.
		return
	case "game_over":
		if g != nil {
			go c.checkEnded(e.ID)
		}
		return
	case "rate_limited", "unavailable":
		c.logf("game %s: the server refused the move for now (%s): asking again", e.ID, e.Error.Code)
		if g != nil {
			go func() {
				select {
				case <-time.After(time.Second):
				case <-g.ctx.Done():
					return
				}
				g.retry()
			}()
		}
		return
	}
	if g != nil {
		c.resign(g, fmt.Sprintf("the server refused the engine's move: %s: %s", e.Error.Code, e.Error.Message))
		return
	}
	c.logf("game %s: refused: %s: %s", e.ID, e.Error.Code, e.Error.Message)
}

func (c *connector) lookup(id string) *botGame {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.games[id]
}

// lookupAcked is the game an acknowledgement is about: one that is on, or
// that the move acknowledged has just ended (its end may come first).
func (c *connector) lookupAcked(id string) *botGame {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g := c.games[id]; g != nil {
		return g
	}
	return c.over[id]
}

// game returns the live game id, starting its goroutine the first time it
// is seen (how says how it was found, for the log). nil when the game is
// not ours to play or the connector is done.
func (c *connector) game(id, name string, seat int, sum *wire.Summary, how string) *botGame {
	c.mu.Lock()
	defer c.mu.Unlock()
	if g := c.games[id]; g != nil {
		if sum != nil {
			g.setClock(sum.Clock)
		}
		return g
	}
	if c.hard.Err() != nil || seat < 0 {
		return nil
	}
	gm, err := game.Lookup(name)
	if err != nil {
		c.logf("game %s: %v", id, err)
		return nil
	}
	g := newBotGame(c, id, gm, seat)
	c.games[id] = g
	if sum != nil {
		g.setClock(sum.Clock)
		c.logf("game %s: %s (%s, seat %d, vs %s, clock %s, %s, ply %d)", id, how, name, seat, opponents(sum, c.me), clockText(sum.Clock), ratedText(sum.Rated), sum.Ply)
	} else {
		c.logf("game %s: %s (%s, seat %d)", id, how, name, seat)
		go c.fetchClock(g)
	}
	go g.run()
	return g
}

func ratedText(r bool) string {
	if r {
		return "rated"
	}
	return "unrated"
}

// fetchClock reads the time control of a game first met by a move request.
func (c *connector) fetchClock(g *botGame) {
	var snap wire.Snapshot
	if err := c.api(g.ctx, http.MethodGet, "/api/games/"+g.id, nil, &snap); err == nil {
		g.setClock(snap.Game.Clock)
	}
}

// decline refuses the invitation to game id: a challenge by POST
// /api/challenges/{id}/decline with reason, so the challenger is told why;
// an invitation that is not a challenge (it has no deadline, so the server
// has no decline for it) is aborted.
func (c *connector) decline(id, reason string) error {
	err := c.api(c.hard, http.MethodPost, "/api/challenges/"+id+"/decline", map[string]string{"reason": reason}, nil)
	var ae *apiError
	if errors.As(err, &ae) && ae.status == http.StatusNotFound {
		return c.api(c.hard, http.MethodPost, "/api/games/"+id+"/abort", struct{}{}, nil)
	}
	return err
}

// ended ends a game of ours that finished (or was aborted).
func (c *connector) ended(sum *wire.Summary) {
	c.mu.Lock()
	g := c.games[sum.ID]
	delete(c.games, sum.ID)
	if g != nil {
		if len(c.over) >= 16 {
			clear(c.over) // only the last games' late acknowledgements matter
		}
		c.over[sum.ID] = g
	}
	left := len(c.games)
	c.mu.Unlock()
	if g == nil {
		return
	}
	g.cancel()
	c.logf("game %s: ended: %s", sum.ID, outcome(sum, g.seat))
	// Resigning, finishStop says when all is done.
	if c.stopping.Load() && left == 0 && c.o.onStop == "finish" {
		go c.stopWhenAcked(g)
	}
}

// stopWhenAcked ends the connector once the last move sent in g (which may
// have ended it: the end can come before the acknowledgement) is
// acknowledged, or after two seconds.
func (c *connector) stopWhenAcked(g *botGame) {
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) && c.hard.Err() == nil {
		g.mu.Lock()
		n := len(g.sent)
		g.mu.Unlock()
		if n == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.stopWhenLaddersSettled()
}

// checkEnded asks the server whether a game has ended.
func (c *connector) checkEnded(id string) {
	var snap wire.Snapshot
	if err := c.api(c.hard, http.MethodGet, "/api/games/"+id, nil, &snap); err != nil {
		return
	}
	if snap.Game.Status == wire.StatusFinished || snap.Game.Status == wire.StatusAborted {
		c.ended(&snap.Game)
	}
}

// mine lists the account's games of the given statuses.
func (c *connector) mine(ctx context.Context, statuses ...wire.Status) ([]wire.Summary, error) {
	q := url.Values{"user": {c.me}, "limit": {"200"}}
	for _, s := range statuses {
		q.Add("status", string(s))
	}
	var list wire.GameList
	if err := c.api(ctx, http.MethodGet, "/api/games?"+q.Encode(), nil, &list); err != nil {
		return nil, err
	}
	var out []wire.Summary
	for _, g := range list.Games {
		if seatOf(&g, c.me) >= 0 {
			out = append(out, g)
		}
	}
	return out, nil
}

// resync lists the account's live games after connecting: each is
// resumed (the server sends the requests of those waiting for a move),
// and a game held here that is no longer live has ended.
func (c *connector) resync(ctx context.Context) {
	live, err := c.mine(ctx, wire.StatusLive)
	if err != nil {
		return
	}
	ids := map[string]bool{}
	for i := range live {
		g := &live[i]
		ids[g.ID] = true
		// A game this connector saw as an invitation (and accepted, or
		// left to the server that made it) starts here, whether the user
		// channel or this sweep meets it first; any other was going on
		// before this connector came.
		c.mu.Lock()
		how := "resumed"
		if c.decided[g.ID] {
			how = "started"
		}
		c.mu.Unlock()
		c.game(g.ID, g.Game, seatOf(g, c.me), g, how)
	}
	c.mu.Lock()
	var gone []string
	for id := range c.games {
		if !ids[id] {
			gone = append(gone, id)
		}
	}
	c.mu.Unlock()
	for _, id := range gone {
		c.checkEnded(id)
	}
	if c.stopping.Load() {
		c.finishStop(ctx)
	}
}

// answerInvites decides every invitation, one at a time.
func (c *connector) answerInvites() {
	tick := time.NewTicker(c.o.sweep)
	defer tick.Stop()
	for {
		select {
		case <-c.hard.Done():
			return
		case <-tick.C:
			c.resync(c.hard)
		case g := <-c.invites:
			c.answer(&g)
		}
	}
}

func (c *connector) answer(g *wire.Summary) {
	c.mu.Lock()
	seen := c.decided[g.ID]
	c.decided[g.ID] = true
	c.mu.Unlock()
	if seen {
		return
	}
	if serverMade(g) {
		c.logf("game %s: made by the server (a ladder's or a tournament's), which seats the bot", g.ID)
		return
	}
	what := fmt.Sprintf("challenge %s from %s (%s, clock %s, %s)", g.ID, g.Creator, gameText(g), clockText(g.Clock), ratedText(g.Rated))
	v := verdict{why: "the bot is stopping", reason: reasonLater}
	if !c.stopping.Load() {
		games, err := c.mine(c.hard, wire.StatusOpen, wire.StatusLive)
		if err != nil {
			c.logf("%s: not answered: %v", what, err)
			c.mu.Lock()
			delete(c.decided, g.ID) // sent again on reconnecting
			c.mu.Unlock()
			return
		}
		v = c.o.policy.judge(g, c.plays, len(games))
	}
	if !v.ok {
		if err := c.decline(g.ID, v.reason); err != nil {
			c.logf("%s: declining failed: %v", what, err)
			return
		}
		c.logf("%s: declined: %s", what, v.why)
		return
	}
	body := map[string]any{}
	for _, s := range g.Seats {
		if s.Kind == wire.SeatInvite && strings.EqualFold(s.User, c.me) {
			body["seat"] = s.Seat
			break
		}
	}
	if g.Start != nil && g.Start.KeepDeal {
		body["acceptDeal"] = true
	}
	if err := c.api(c.hard, http.MethodPost, "/api/games/"+g.ID+"/join", body, nil); err != nil {
		c.logf("%s: joining failed: %v", what, err)
		return
	}
	c.logf("%s: accepted", what)
}

// gameText is a game with the options that differ from the defaults.
func gameText(g *wire.Summary) string {
	gm, err := game.Lookup(g.Game)
	if err != nil {
		return g.Game
	}
	defaults := map[string]string{}
	for _, o := range gm.Options() {
		defaults[o.Name] = o.Default
	}
	var opts []string
	for _, k := range sortedKeys(g.Options) {
		if d, ok := defaults[k]; !ok || d != g.Options[k] {
			opts = append(opts, k+"="+g.Options[k])
		}
	}
	if len(opts) == 0 {
		return g.Game
	}
	return g.Game + " " + strings.Join(opts, " ")
}

// watchStops turns signals into a stop: the first by o.onStop, the second
// at once.
func (c *connector) watchStops(stops <-chan struct{}) {
	select {
	case <-c.hard.Done():
		return
	case <-stops:
	}
	c.mu.Lock()
	n := len(c.games)
	c.mu.Unlock()
	c.stopping.Store(true)
	c.leaveLadders(c.hard)
	c.laddersLeft.Store(true)
	if c.o.onStop == "resign" {
		c.logf("stopping: resigning %d games (a second signal stops at once)", n)
	} else {
		c.logf("stopping: finishing %d games, accepting no more (a second signal stops at once; a restart resumes them)", n)
	}
	go c.finishStop(c.hard)
	select {
	case <-c.hard.Done():
	case <-stops:
		c.logf("stopping at once: the games in progress are left as they are")
		c.stopHard()
	}
}

// finishStop leaves the open games the account has joined and, by
// o.onStop, resigns the live ones or waits for them to end.
func (c *connector) finishStop(ctx context.Context) {
	if !c.laddersLeft.Load() {
		return // a sweep's pass as the stop begins: the stop's own comes after it leaves the ladders
	}
	c.finishing.Lock()
	defer c.finishing.Unlock()
	games, err := c.mine(ctx, wire.StatusOpen, wire.StatusLive)
	if err != nil {
		return // tried again at the next connection or sweep
	}
	for i := range games {
		g := &games[i]
		switch {
		case g.Status == wire.StatusOpen:
			if err := c.api(ctx, http.MethodPost, "/api/games/"+g.ID+"/leave", struct{}{}, nil); err == nil {
				c.logf("game %s: left (it had not started)", g.ID)
			}
		case c.o.onStop == "resign":
			if b := c.lookup(g.ID); b != nil {
				b.cancel()
			}
			if err := c.api(ctx, http.MethodPost, "/api/games/"+g.ID+"/resign", struct{}{}, nil); err == nil {
				c.logf("game %s: resigned (stopping)", g.ID)
				c.checkEnded(g.ID)
			} else {
				c.logf("game %s: resigning failed: %v", g.ID, err)
			}
		}
	}
	c.mu.Lock()
	left := len(c.games)
	c.mu.Unlock()
	if c.o.onStop == "resign" {
		// Every game is resigned: what remains held here ended.
		live, err := c.mine(ctx, wire.StatusLive)
		if err == nil && len(live) == 0 {
			c.stopWhenLaddersSettled()
		}
		return
	}
	if left == 0 {
		c.stopWhenLaddersSettled()
	}
}

// resign resigns a game whose engine cannot go on, saying why.
func (c *connector) resign(g *botGame, why string) {
	if err := c.api(c.hard, http.MethodPost, "/api/games/"+g.id+"/resign", struct{}{}, nil); err != nil {
		c.logf("game %s: %s; resigning failed: %v", g.id, why, err)
		return
	}
	c.logf("game %s: resigned: %s", g.id, why)
	go c.checkEnded(g.id)
}

// apiError is an error answer of the server.
type apiError struct {
	status        int
	code, message string
}

func (e *apiError) Error() string {
	if e.code == "" {
		return fmt.Sprintf("HTTP %d", e.status)
	}
	return fmt.Sprintf("%s (%d): %s", e.code, e.status, e.message)
}

// api makes one request of the server's API with the token and decodes
// the answer into out (if not nil).
func (c *connector) api(ctx context.Context, method, path string, body, out any) error {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequestWithContext(ctx, method, c.o.server+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.o.token)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if method == http.MethodPost {
		// A copy that the HTTP client sends by itself — a proxy said the
		// server died before answering — is then known for one
		// (docs/api.md, Idempotency-Key).
		req.Header.Set("Idempotency-Key", crand.Text())
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var e wire.ErrorResponse
		json.Unmarshal(data, &e)
		return &apiError{status: resp.StatusCode, code: e.Error.Code, message: e.Error.Message}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// newEngine starts the engine for one game. Its start-up is never charged
// to a move (docs/bots.md).
func (c *connector) newEngine(ctx context.Context, g game.Game) (agent.Agent, error) {
	a, err := agent.New(c.o.engine, g, c.o.seed)
	if err != nil {
		return nil, err
	}
	if err := agent.Start(ctx, a); err != nil {
		agent.Close(a)
		return nil, err
	}
	return a, nil
}

// notBotNote is the one line that says the token's account is a person's,
// not a bot account: it still plays the games it is invited to, but shows
// without BOT, is ranked with people, and a server may one day refuse it.
func notBotNote(name string) string {
	return fmt.Sprintf("account %s is not a bot account: it plays, but shows as a person; an account with no games becomes one on the site's Tokens page (or POST /api/me/bot)", name)
}
