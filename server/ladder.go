package server

import (
	"cmp"
	"context"
	"errors"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/ladder"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/rating"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// The bot ladder (issue 26 point 5; docs/api.md, The ladder). Bot accounts
// opt in per game (POST /api/ladder/{game}/join) and are paired with each
// other and with the built-in levels, which sit on every ladder as anchors
// held at a fixed rating, by package ladder's matchmaker. Exactly one node
// runs the matchmaker: it holds the ladder's lease in the store (as a
// tournament's director holds its tournament's), and every write of it is
// fenced by the lease's epoch. Every few seconds it records the ladder
// games that ended and pairs the entrants free then.
//
// A ladder game is an ordinary game: created by nobody (creator 0) with
// the bot accounts invited, then joined for them at once, as a
// tournament's games are — so a bot learns of it on its user channel
// (start, then its turns) like any game it plays. A game between two bots
// is rated as every rated game is. A game against an anchor is played by
// the server's own bot (from the pool of the node that made it, which the
// matchmaker bounds: ladder.Limits.MaxAnchorGames) and is unrated as a
// game (a seat of a server bot never is); the ladder rates the bot account
// when it ends, against the anchor's fixed rating, in the transaction
// that records the result — the anchor's rating does not move, so the
// bots' ratings are tied to the levels.

// Defaults of the ladder.
const (
	ladderTick  = 3 * time.Second
	ladderLease = 15 * time.Second
	// maxLadderGames is the most games at once a bot may ask for.
	maxLadderGames = 4
	// ladderJoinWait is how long a ladder game may stay open (its bots
	// not yet seated, or its creation lost) before it is counted aborted.
	ladderJoinWait = 2 * time.Minute
	// ladderListGames bounds the finished games read for a ladder's page.
	ladderListGames = 5000
)

// ladderClock is the clock of ladder games: a realtime game short enough
// that many are played, long enough for a program on a loaded machine.
var ladderClock = match.Clock{Kind: match.ClockRealtime, InitialMs: 3 * 60 * 1000, IncrementMs: 2000}

// ladderNode is a server's part in running the ladder.
type ladderNode struct {
	node  string
	tick  atomic.Int64 // time.Duration
	wake  chan struct{}
	mu    sync.Mutex
	clock match.Clock
	lim   ladder.Limits
	epoch int64 // the lease held, 0 for none (the loop's alone)
}

// ladders holds each server's ladderNode: the Server type is shared by
// many features, and the ladder keeps its state beside it rather than in
// it.
var ladders sync.Map // *Server → *ladderNode

func (s *Server) ladderNode() *ladderNode {
	if v, ok := ladders.Load(s); ok {
		return v.(*ladderNode)
	}
	ln := &ladderNode{node: "ladder-" + newID(), wake: make(chan struct{}, 1), clock: ladderClock, lim: ladder.DefaultLimits}
	ln.tick.Store(int64(ladderTick))
	v, _ := ladders.LoadOrStore(s, ln)
	return v.(*ladderNode)
}

// ladderStore is the store's ladder; 501 for a store without one.
func (s *Server) ladderStore() (store.Ladder, error) {
	ls, ok := s.store.(store.Ladder)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no ladder")
	}
	return ls, nil
}

// startLadder starts the node's matchmaker loop, which claims the
// ladder's lease once the server has started (its games resumed) and
// runs until the server shuts down.
func (s *Server) startLadder() {
	if _, ok := s.store.(store.Ladder); !ok {
		return
	}
	ln := s.ladderNode()
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer ladders.Delete(s)
		t := time.NewTimer(time.Duration(ln.tick.Load()))
		defer t.Stop()
		for {
			select {
			case <-s.ctx.Done():
				if ln.epoch > 0 {
					ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
					s.store.(store.Ladder).ReleaseLadder(ctx, ln.node, ln.epoch)
					cancel()
				}
				return
			case <-t.C:
			case <-ln.wake:
			}
			// Start runs the tournament director once the games are
			// resumed (or the node has joined its cluster): until then
			// the ladder waits too.
			if s.tournaments.director.Load() != nil {
				s.ladderStep(s.ctx, ln)
			}
			t.Reset(time.Duration(ln.tick.Load()))
		}
	}()
}

// pokeLadder has the matchmaker look now (a bot joined).
func (s *Server) pokeLadder() {
	select {
	case s.ladderNode().wake <- struct{}{}:
	default:
	}
}

// ladderStep is one look of the matchmaker: renew or claim the lease,
// record what ended, pair who is free.
func (s *Server) ladderStep(ctx context.Context, ln *ladderNode) {
	ls := s.store.(store.Ladder)
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if ln.epoch == 0 && s.ladderIdle(ctx, ls) {
		return // nothing to pair or record: no lease taken, nothing written
	}
	epoch, err := ls.ClaimLadder(ctx, ln.node, ln.epoch, ladderLease)
	switch {
	case errors.Is(err, store.ErrConflict):
		return // another node is the matchmaker
	case errors.Is(err, store.ErrDeposed):
		ln.epoch = 0
		return
	case err != nil:
		if ctx.Err() == nil {
			s.log.Error("ladder lease", "err", err)
		}
		return
	}
	if ln.epoch != epoch {
		s.log.Info("ladder matchmaker", "node", ln.node, "epoch", epoch)
	}
	ln.epoch = epoch
	pending, err := ls.PendingLadderGames(ctx)
	if err != nil {
		s.log.Error("ladder pending games", "err", err)
		return
	}
	playing := map[string][]store.LadderGame{}
	for _, g := range pending {
		if !s.settleLadderGame(ctx, ls, epoch, g) {
			playing[g.Game] = append(playing[g.Game], g)
		}
	}
	for _, name := range game.Names() {
		if err := s.pairLadder(ctx, ls, ln, epoch, name, playing[name]); err != nil {
			if !errors.Is(err, store.ErrDeposed) && ctx.Err() == nil {
				s.log.Error("ladder pairing", "game", name, "err", err)
			}
			return
		}
	}
}

// ladderIdle reports whether no ladder has a bot on it and no ladder game
// is being played: a site whose ladder nobody uses is never written to by
// it (a store that cannot be read counts as busy).
func (s *Server) ladderIdle(ctx context.Context, ls store.Ladder) bool {
	pending, err := ls.PendingLadderGames(ctx)
	if err != nil || len(pending) > 0 {
		return false
	}
	for _, name := range game.Names() {
		es, err := ls.LadderEntries(ctx, name)
		if err != nil || slices.ContainsFunc(es, func(e store.LadderEntry) bool { return !e.Anchor() && e.Active }) {
			return false
		}
	}
	return true
}

// settleLadderGame records the result of ladder game g if its game is
// over, and reports whether it did.
func (s *Server) settleLadderGame(ctx context.Context, ls store.Ladder, epoch int64, g store.LadderGame) bool {
	m, err := s.store.Game(ctx, g.GameID)
	result := ""
	switch {
	case errors.Is(err, store.ErrNotFound):
		if s.now().Sub(g.Created) < ladderJoinWait {
			return false // being created
		}
		result = store.LadderAborted
	case err != nil:
		s.log.Error("ladder game", "game", g.GameID, "err", err)
		return false
	case m.Status == match.Open:
		if s.now().Sub(g.Created) < ladderJoinWait {
			s.seatLadderBots(ctx, &m, g)
		}
		return false
	case m.Status == match.Live:
		return false
	case m.Status == match.Aborted || m.Result == nil:
		result = store.LadderAborted
	case m.Result.Status == match.Drawn:
		result = store.LadderDraw
	case slices.Equal(m.Result.Winners, []int{0}):
		result = store.LadderFirst
	case slices.Equal(m.Result.Winners, []int{1}):
		result = store.LadderSecond
	default:
		result = store.LadderDraw
	}
	ended := m.Finished
	if ended.IsZero() {
		ended = s.now()
	}
	err = ls.EndLadderGameFenced(ctx, epoch, g.GameID, result, ended, rateVsAnchor)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Error("ladder result", "game", g.GameID, "err", err)
		return false
	}
	for _, uid := range []int64{g.FirstUser, g.SecondUser} {
		if uid != 0 {
			s.forgetUsers([]int64{uid}) // the rating beside the name
		}
	}
	return true
}

// rateVsAnchor is the store's rating of a bot against an anchor
// (ladder.RateVsAnchor on the stored values).
func rateVsAnchor(bot match.Rating, anchorRating, anchorDeviation, score float64) match.Rating {
	in := rating.Rating{R: bot.Rating, RD: bot.Deviation, Vol: bot.Volatility}
	if bot.Games == 0 {
		in = rating.Default()
	}
	out := ladder.RateVsAnchor(in, ladder.Anchor{Rating: anchorRating, Deviation: anchorDeviation}, score)
	return match.Rating{Rating: out.R, Deviation: out.RD, Volatility: out.Vol}
}

// entrantKey is an entrant's key in package ladder and on the wire.
func entrantKey(uid int64, level string) string {
	if level != "" {
		return "level:" + level
	}
	return "u:" + strconv.FormatInt(uid, 10)
}

// pairLadder pairs the free entrants of one game's ladder and creates
// their games.
func (s *Server) pairLadder(ctx context.Context, ls store.Ladder, ln *ladderNode, epoch int64, name string, playing []store.LadderGame) error {
	es, err := ls.LadderEntries(ctx, name)
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(es, func(e store.LadderEntry) bool { return !e.Anchor() && e.Active }) {
		return nil
	}
	if !slices.ContainsFunc(es, store.LadderEntry.Anchor) {
		// A ladder's first bot brings the levels in, at their calibrated ratings.
		for _, a := range ladder.StartAnchors(name) {
			if err := ls.SetLadderAnchor(ctx, name, a.Level, a.Rating, a.Deviation, true, s.now()); err != nil {
				return err
			}
		}
		if es, err = ls.LadderEntries(ctx, name); err != nil {
			return err
		}
	}
	ln.mu.Lock()
	lim, clock := ln.lim, ln.clock
	ln.mu.Unlock()
	now := s.now()
	recent, err := ls.LadderGames(ctx, name, now.Add(-lim.Window), 2000)
	if err != nil {
		return err
	}
	var played []ladder.Played
	lastEnd := map[string]time.Time{}
	for _, g := range recent {
		a, b := entrantKey(g.FirstUser, g.FirstLevel), entrantKey(g.SecondUser, g.SecondLevel)
		if g.Result != store.LadderAborted {
			played = append(played, ladder.Played{First: a, Second: b, At: g.Created})
		}
		for _, k := range []string{a, b} {
			if g.Ended.After(lastEnd[k]) {
				lastEnd[k] = g.Ended
			}
		}
	}
	busy := map[string]int{}
	for _, g := range playing {
		busy[entrantKey(g.FirstUser, g.FirstLevel)]++
		busy[entrantKey(g.SecondUser, g.SecondLevel)]++
	}
	online := s.ladderOnline(ctx)
	var entrants []ladder.Entrant
	byKey := map[string]store.LadderEntry{}
	for _, e := range es {
		k := entrantKey(e.UserID, e.Level)
		if !e.Active || (!e.Anchor() && !online(e.UserID)) || (e.Anchor() && !slices.Contains(match.BotLevels, e.Level)) {
			continue
		}
		r, d := e.Rating, e.Deviation
		if !e.Anchor() && e.Games == 0 {
			r, d = rating.DefaultRating, rating.DefaultDeviation
		}
		since := e.Joined
		if lastEnd[k].After(since) {
			since = lastEnd[k]
		}
		byKey[k] = e
		entrants = append(entrants, ladder.Entrant{Key: k, Rating: r, Deviation: d, Playing: busy[k],
			MaxGames: e.MaxGames, Anchor: e.Anchor(), Waited: max(now.Sub(since), 0)})
	}
	for _, p := range ladder.Pair(entrants, played, now, lim) {
		if err := s.createLadderGame(ctx, ls, epoch, name, clock, byKey[p.First], byKey[p.Second]); err != nil {
			return err
		}
	}
	return nil
}

// ladderOnline is who may be paired: a bot account whose user channel (or
// any request) was seen lately, on this node or, by the site's online
// list, on another. A store without the list: everyone.
func (s *Server) ladderOnline(ctx context.Context) func(uid int64) bool {
	list, err := s.presence.online(ctx)
	now := s.now()
	return func(uid int64) bool {
		s.presence.mu.Lock()
		here := s.presence.isOnline(uid, now)
		s.presence.mu.Unlock()
		if here || err != nil || list == nil {
			return true
		}
		return slices.ContainsFunc(list.entries, func(e store.OnlineEntry) bool { return e.UserID == uid })
	}
}

// createLadderGame records a ladder game, then creates it and seats its
// bot accounts. A game that cannot be created is counted aborted.
func (s *Server) createLadderGame(ctx context.Context, ls store.Ladder, epoch int64, name string, clock match.Clock, first, second store.LadderEntry) error {
	lg := store.LadderGame{GameID: newID(), Game: name, FirstUser: first.UserID, FirstLevel: first.Level,
		SecondUser: second.UserID, SecondLevel: second.Level, Created: s.now()}
	if err := ls.CreateLadderGameFenced(ctx, epoch, lg); errors.Is(err, store.ErrLeftLadder) {
		// A bot left between the matchmaker's reading and this pairing:
		// no game, rather than one nobody will play.
		s.log.Info("ladder pairing dropped: a bot left the ladder", "of", name, "err", err)
		return nil
	} else if err != nil {
		return err
	}
	m := match.Meta{ID: lg.GameID, Game: name, Options: map[string]string{}, Clock: clock, Created: lg.Created,
		Rated: first.Level == "" && second.Level == ""}
	if g, err := game.Lookup(name); err == nil && slices.ContainsFunc(g.Options(), func(o game.OptionSpec) bool { return o.Name == game.PlayersOption }) {
		m.Options[game.PlayersOption] = "2"
	}
	for _, e := range []store.LadderEntry{first, second} {
		if e.Anchor() {
			m.Seats = append(m.Seats, match.Seat{Kind: match.SeatBot, Level: e.Level})
		} else {
			m.Seats = append(m.Seats, match.Seat{Kind: match.SeatInvite, UserID: e.UserID})
		}
	}
	// The ladder, not a user, creates its games: creator 0.
	ack, err := s.games.Create(ctx, match.User{}, m)
	if err != nil {
		s.log.Error("ladder game not created", "game", lg.GameID, "err", err)
		if err := ls.EndLadderGameFenced(ctx, epoch, lg.GameID, store.LadderAborted, s.now(), nil); err != nil {
			return err
		}
		return nil
	}
	s.log.Info("ladder game", "game", lg.GameID, "of", name, "first", first.Name, "second", second.Name)
	meta := ack.Meta
	s.seatLadderBots(ctx, &meta, lg)
	return nil
}

// seatLadderBots joins the bot accounts of an open ladder game to their
// invited seats (a seat taken already is left as it is).
func (s *Server) seatLadderBots(ctx context.Context, m *match.Meta, lg store.LadderGame) {
	for seat, uid := range []int64{lg.FirstUser, lg.SecondUser} {
		if uid == 0 || (seat < len(m.Seats) && m.Seats[seat].Kind == match.SeatHuman) {
			continue
		}
		_, err := s.tell(ctx, lg.GameID, match.Command{Kind: match.CmdJoin, User: match.User{ID: uid}, Seat: seat, Ply: -1, Retry: true})
		var me *match.Error
		if err != nil && !errors.As(err, &me) {
			s.log.Error("ladder seat", "game", lg.GameID, "user", uid, "err", err)
		}
	}
}

// ladderGame is the game named in a ladder path, or 404.
func ladderGame(r *http.Request) (string, error) {
	g, err := game.Lookup(r.PathValue("game"))
	if err != nil {
		return "", errf(http.StatusNotFound, "not_found", "no game is named %q", r.PathValue("game"))
	}
	return g.Name(), nil
}

// handleLadderJoin is POST /api/ladder/{game}/join: the signed-in bot
// account enters the game's ladder, {"maxGames": n} games at once (1 to
// maxLadderGames, default 1).
func (s *Server) handleLadderJoin(w http.ResponseWriter, r *http.Request, u *store.User) {
	name, err := ladderGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	var req struct {
		MaxGames *int `json:"maxGames"`
	}
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	n := 1
	if req.MaxGames != nil {
		n = *req.MaxGames
	}
	if n < 1 || n > maxLadderGames {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "maxGames: 1 to %d", maxLadderGames))
		return
	}
	if err := s.ladderBot(r.Context(), u); err != nil {
		writeError(w, err)
		return
	}
	ls, err := s.ladderStore()
	if err != nil {
		writeError(w, err)
		return
	}
	if err := ls.JoinLadder(r.Context(), name, u.ID, n, s.now()); err != nil {
		writeError(w, s.internal("join ladder", err))
		return
	}
	s.log.Info("ladder join", "user", u.ID, "game", name, "maxGames", n)
	s.pokeLadder()
	writeJSON(w, http.StatusOK, map[string]any{"game": name, "maxGames": n, "active": true})
}

// handleLadderLeave is POST /api/ladder/{game}/leave: the bot is paired
// no more (its games in progress go on).
func (s *Server) handleLadderLeave(w http.ResponseWriter, r *http.Request, u *store.User) {
	name, err := ladderGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if err := s.ladderBot(r.Context(), u); err != nil {
		writeError(w, err)
		return
	}
	ls, err := s.ladderStore()
	if err != nil {
		writeError(w, err)
		return
	}
	if err := ls.LeaveLadder(r.Context(), name, u.ID); errors.Is(err, store.ErrNotFound) {
		writeError(w, errf(http.StatusNotFound, "not_found", "you are not on the %s ladder", name))
		return
	} else if err != nil {
		writeError(w, s.internal("leave ladder", err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// ladderBot refuses the ladder to anyone but a bot account: people play
// bots by challenging them.
func (s *Server) ladderBot(ctx context.Context, u *store.User) error {
	if u.Guest || !s.loadBot(ctx, u.ID) {
		return errf(http.StatusForbidden, "not_bot", "the ladder is for bot accounts (docs/bots.md); a person plays a bot by challenging it")
	}
	return nil
}

// handleLadder is GET /api/ladder/{game}: the entrants by rating, with
// their games, W/D/L and (an anchor) the rating its games measure; the
// head-to-head record of every pair that has played; the latest games.
func (s *Server) handleLadder(w http.ResponseWriter, r *http.Request) {
	name, err := ladderGame(r)
	if err != nil {
		writeError(w, err)
		return
	}
	ls, err := s.ladderStore()
	if err != nil {
		writeError(w, err)
		return
	}
	ctx := r.Context()
	// The games before the entrants: a result and the rating it changed
	// are written together, so a result read here has its rating read
	// below (the other order could show a loss beside the rating before it).
	games, err := ls.LadderGames(ctx, name, time.Time{}, ladderListGames)
	if err != nil {
		writeError(w, s.internal("ladder games", err))
		return
	}
	es, err := ls.LadderEntries(ctx, name)
	if err != nil {
		writeError(w, s.internal("ladder entries", err))
		return
	}
	lines := map[string]*wire.LadderEntrant{}
	out := []*wire.LadderEntrant{}
	ratingOf := map[string]rating.Rating{}
	for _, e := range es {
		l := &wire.LadderEntrant{ID: entrantKey(e.UserID, e.Level), Name: e.Name, Anchor: e.Anchor(), Active: e.Active,
			Rating: int(math.Round(e.Rating)), Deviation: int(math.Round(e.Deviation)), MaxGames: e.MaxGames}
		rr := rating.Rating{R: e.Rating, RD: e.Deviation, Vol: rating.DefaultVolatility}
		if !e.Anchor() {
			if e.Games == 0 {
				rr = rating.Default()
				l.Rating, l.Deviation = rating.DefaultRating, rating.DefaultDeviation
			}
			l.Provisional = rr.RD > maxLeaderboardDeviation
		}
		ratingOf[l.ID] = rr
		lines[l.ID] = l
		out = append(out, l)
	}
	pairs := map[[2]string]*wire.LadderPair{}
	var pairList []*wire.LadderPair
	measured := map[string][]rating.Result{}
	recent := []wire.LadderGame{}
	for _, g := range games {
		a, b := entrantKey(g.FirstUser, g.FirstLevel), entrantKey(g.SecondUser, g.SecondLevel)
		if len(recent) < 30 {
			gj := wire.LadderGame{ID: g.GameID, First: a, Second: b, Result: g.Result, Created: g.Created}
			if !g.Ended.IsZero() {
				gj.Ended = &g.Ended
			}
			recent = append(recent, gj)
		}
		la, lb := lines[a], lines[b]
		if la == nil || lb == nil {
			continue
		}
		if g.Result == store.LadderPending {
			la.Playing++
			lb.Playing++
			continue
		}
		if g.Result == store.LadderAborted {
			continue
		}
		sa := 0.5
		switch g.Result {
		case store.LadderFirst:
			sa = 1
			la.Wins++
			lb.Losses++
		case store.LadderSecond:
			sa = 0
			la.Losses++
			lb.Wins++
		default:
			la.Draws++
			lb.Draws++
		}
		la.Games++
		lb.Games++
		if la.Anchor {
			measured[a] = append(measured[a], rating.Result{Opponent: ratingOf[b], Score: sa})
		}
		if lb.Anchor {
			measured[b] = append(measured[b], rating.Result{Opponent: ratingOf[a], Score: 1 - sa})
		}
		k, swap := [2]string{a, b}, false
		if a > b {
			k, swap = [2]string{b, a}, true
		}
		p := pairs[k]
		if p == nil {
			p = &wire.LadderPair{A: k[0], B: k[1]}
			pairs[k] = p
			pairList = append(pairList, p)
		}
		switch {
		case sa == 0.5:
			p.Draws++
		case (sa == 1) != swap:
			p.WinsA++
		default:
			p.WinsB++
		}
	}
	for id, res := range measured {
		m := ladder.Measured(res)
		lines[id].Measured = &wire.LadderRating{Rating: int(math.Round(m.R)), Deviation: int(math.Round(m.RD))}
	}
	slices.SortStableFunc(out, func(a, b *wire.LadderEntrant) int {
		if c := cmp.Compare(b.Rating, a.Rating); c != 0 {
			return c
		}
		return cmp.Compare(a.Name, b.Name)
	})
	slices.SortFunc(pairList, func(a, b *wire.LadderPair) int { return cmp.Or(cmp.Compare(a.A, b.A), cmp.Compare(a.B, b.B)) })
	ln := s.ladderNode()
	ln.mu.Lock()
	clock := ln.clock
	ln.mu.Unlock()
	page := wire.LadderPage{Game: name, Clock: wireTimeControl(clock), Entrants: make([]wire.LadderEntrant, len(out)), HeadToHead: make([]wire.LadderPair, len(pairList)), Games: recent}
	for i, l := range out {
		page.Entrants[i] = *l
	}
	for i, p := range pairList {
		page.HeadToHead[i] = *p
	}
	writeJSON(w, http.StatusOK, page)
}
