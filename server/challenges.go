package server

import (
	"context"
	"errors"
	"math/rand/v2"
	"net/http"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
	"github.com/tabula-games/tabula/store"
)

// Challenges (docs/api.md, Challenges). A challenge is an invitation game
// (an open game whose other seats are invitations) that expires: the
// lobby's createGame makes it with match.Meta.Expires set, and from then
// on it is the game's owner that runs it — accepting is joining, declining
// is match.CmdRefuse (with a reason), cancelling is aborting, and the
// owner aborts it unanswered at Expires. The players hear of each step on
// their user channels (userchannel.go) from the game's events, on
// whichever node they are. This file reads the requests and lists the
// challenges; the rules are match's (challenge.go).

// Limits of challenges.
const (
	// maxChallenged is the most players one challenge invites (Skyjo's
	// eight seats, less the challenger's).
	maxChallenged = 7
	// maxOpenChallenges is the most challenges one user may have waiting
	// for an answer: a flood of challenges is refused (429, quota).
	maxOpenChallenges = 3
	// challengeTTL is how long a challenge waits for its answer; a
	// correspondence game's, correspondenceChallengeTTL.
	challengeTTL               = 10 * time.Minute
	correspondenceChallengeTTL = 3 * 24 * time.Hour
)

// testChallengeTTL, when above zero, replaces challengeTTL: a test sees a
// challenge expire in a moment (ShortChallenges, export_challenges_test.go).
var testChallengeTTL atomic.Int64

// errNoSuchPlayer answers an invitation or a challenge of a name that
// nobody has.
func errNoSuchPlayer(name string) error {
	return errf(http.StatusNotFound, "no_such_player", "no player is named %q", name)
}

func (s *Server) handleCreateChallenge(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req wire.ChallengeRequest
	if err := decode(w, r, &req, maxBody, false); err != nil {
		writeError(w, err)
		return
	}
	// (Against a server bot alone, the game is no challenge: it starts.)
	c, err := createKeyed(s, r, u, req.Game, len(req.Players) > 0, func(id string) (wire.Challenge, error) {
		return s.createChallenge(r.Context(), u, req, id)
	}, func(snap *match.Snapshot) wire.Challenge {
		return challengeOf(s.summary(r.Context(), &snap.Meta, match.SeatNames(snap.State)), snap.Meta.Expires)
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, c)
}

// createChallenge checks a challenge request and creates its game: an
// open game of the challenger's seat and invitations (and, with a bot,
// that bot in the seats left), or, against a server bot alone, a game
// that starts at once. id is the game's id ("": a new one).
func (s *Server) createChallenge(ctx context.Context, u *store.User, req wire.ChallengeRequest, id string) (wire.Challenge, error) {
	if u.Guest {
		return wire.Challenge{}, errf(http.StatusForbidden, "forbidden", "guests cannot challenge: register first")
	}
	g, err := game.Lookup(req.Game)
	if err != nil {
		return wire.Challenge{}, badOption("unknown game %q", req.Game)
	}
	switch {
	case req.Bot == "" && len(req.Players) == 0:
		return wire.Challenge{}, errf(http.StatusBadRequest, "bad_request", "players: name whom you challenge")
	case len(req.Players) > maxChallenged:
		return wire.Challenge{}, errf(http.StatusBadRequest, "bad_request", "players: at most %d", maxChallenged)
	}
	opts := req.Options
	if opts == nil {
		opts = map[string]string{}
	}
	// Against the bot alone it takes one seat; with players, the bot
	// takes the seats the options add beyond theirs (Skyjo: a friend and
	// two computer players).
	others := len(req.Players)
	if others == 0 {
		others = 1
	}
	// A game of a variable number of seats (Skyjo) has as many as the
	// challenge names, unless the options say otherwise.
	if _, set := opts[game.PlayersOption]; !set && slices.ContainsFunc(g.Options(), func(o game.OptionSpec) bool { return o.Name == game.PlayersOption }) {
		opts = cloneOptions(opts)
		opts[game.PlayersOption] = strconv.Itoa(1 + others)
	}
	n := 1 + others
	if full, err := game.Complete(g, opts); err == nil {
		if st, err := g.New(full, 1); err == nil {
			n = st.NumPlayers()
		}
	}
	if err := challengeSeats(g, n, req); err != nil {
		return wire.Challenge{}, err
	}
	seat := rand.IntN(n)
	if req.Seat != nil && *req.Seat >= 0 {
		if *req.Seat >= n {
			return wire.Challenge{}, errf(http.StatusBadRequest, "bad_request", "seat %d: the game has %d seats", *req.Seat, n)
		}
		seat = *req.Seat
	}
	cr := createReq{Game: req.Game, Options: opts, Rated: req.Rated, id: id}
	if req.Clock != nil {
		cr.Clock = &match.Clock{Kind: match.ClockKind(req.Clock.Kind), InitialMs: req.Clock.InitialMs, IncrementMs: req.Clock.IncrementMs, Days: req.Clock.Days}
	}
	if len(req.Players) > 0 {
		ttl := challengeTTL
		if d := testChallengeTTL.Load(); d > 0 {
			ttl = time.Duration(d)
		}
		if cr.Clock != nil && cr.Clock.Kind == match.ClockCorrespondence {
			ttl = correspondenceChallengeTTL
		}
		cr.expires = s.now().Add(ttl).Truncate(time.Millisecond)
		if err := s.mayChallenge(ctx, u, req.Players); err != nil {
			return wire.Challenge{}, err
		}
	}
	others = 0
	for i := range n {
		switch {
		case i == seat:
			cr.Seats = append(cr.Seats, seatReq{Kind: "me"})
		case others < len(req.Players):
			cr.Seats = append(cr.Seats, seatReq{Kind: "invite", User: req.Players[others]})
			others++
		default:
			cr.Seats = append(cr.Seats, seatReq{Kind: "bot", Level: req.Bot})
		}
	}
	res, err := s.createGame(ctx, u, cr)
	if err != nil {
		return wire.Challenge{}, err
	}
	return challengeOf(res.Game, cr.expires), nil
}

// challengeSeats checks that a game of n seats fits the challenge: the
// challenger and each player named, and with a bot too at least one seat
// more for it (the bot takes every seat left).
func challengeSeats(g game.Game, n int, req wire.ChallengeRequest) error {
	switch {
	case len(req.Players) == 0:
		return nil
	case req.Bot == "" && n != 1+len(req.Players):
		return badOption("%s with these options has %d seats: challenge %d players", g.Title(), n, n-1)
	case req.Bot != "" && n <= 1+len(req.Players):
		return badOption("%s with these options has %d seats: no seat is left for a bot beside you and %d players (set the players option)", g.Title(), n, len(req.Players))
	}
	return nil
}

func cloneOptions(o map[string]string) map[string]string {
	out := make(map[string]string, len(o)+1)
	for k, v := range o {
		out[k] = v
	}
	return out
}

// mayChallenge checks the challenged names before anything is created:
// each a player (not the challenger, not twice), none who blocks the
// challenger, none already challenged by them and waiting; and the
// challenger under the quota of open challenges.
func (s *Server) mayChallenge(ctx context.Context, u *store.User, names []string) error {
	var ids []int64
	for _, name := range names {
		t, err := s.store.UserByName(ctx, name)
		if errors.Is(err, store.ErrNotFound) {
			return errNoSuchPlayer(name)
		} else if err != nil {
			return s.internal("challenge", err)
		}
		if t.ID == u.ID {
			return errf(http.StatusBadRequest, "bad_request", "you cannot challenge yourself")
		}
		if slices.Contains(ids, t.ID) {
			return errf(http.StatusBadRequest, "bad_request", "%q is named twice", name)
		}
		if err := s.notBlockedBy(ctx, t.ID, u.ID); err != nil {
			return err
		}
		if err := s.answerable(ctx, t); err != nil {
			return err
		}
		ids = append(ids, t.ID)
	}
	open, err := s.openChallenges(ctx, store.GameFilter{Creator: u.ID})
	if err != nil {
		return err
	}
	if len(open) >= maxOpenChallenges {
		return errf(http.StatusTooManyRequests, "quota", "you have %d challenges waiting for an answer: wait for one, or cancel one", len(open))
	}
	for _, m := range open {
		for _, id := range ids {
			if m.Invites(id) || m.SeatOf(id) >= 0 {
				return errf(http.StatusConflict, "conflict", "you have challenged %s already: wait for the answer", s.userName(ctx, id))
			}
		}
	}
	return nil
}

// answerable refuses to challenge a closed account: it could never answer,
// and the challenge would hold a place in the challenger's quota until it
// expired. (Its name is still taken, so "no such player" would be wrong.)
func (s *Server) answerable(ctx context.Context, t store.User) error {
	if err := s.notClosed(ctx, t.ID); errors.Is(err, errUnauthorized) {
		return errf(http.StatusForbidden, "closed", "%s's account is closed", t.Name)
	} else if err != nil {
		return err
	}
	return nil
}

// openChallenges is the stored open challenges f selects that have not
// expired.
func (s *Server) openChallenges(ctx context.Context, f store.GameFilter) ([]match.Meta, error) {
	f.Statuses, f.Limit = []match.Status{match.Open}, 200
	games, err := s.store.Games(ctx, f)
	if err != nil {
		return nil, s.internal("challenges", err)
	}
	now := s.now()
	return slices.DeleteFunc(games, func(m match.Meta) bool { return !m.Challenge() || !m.Expires.After(now) }), nil
}

// challengeOf is the challenge of the game sum.
func challengeOf(sum wire.Summary, expires time.Time) wire.Challenge {
	c := wire.Challenge{ID: sum.ID, From: sum.Creator, To: []string{}, Expires: expires.UTC(), Game: sum}
	for _, se := range sum.Seats {
		if se.User != "" && se.User != sum.Creator {
			c.To = append(c.To, se.User)
		}
	}
	return c
}

func (s *Server) handleChallenges(w http.ResponseWriter, r *http.Request, u *store.User) {
	out := wire.Challenges{Incoming: []wire.Challenge{}, Outgoing: []wire.Challenge{}}
	in, err := s.openChallenges(r.Context(), store.GameFilter{UserID: u.ID})
	if err != nil {
		writeError(w, err)
		return
	}
	for i := range in {
		if in[i].Invites(u.ID) && s.notFromBlocked(r.Context(), u.ID, &in[i]) == nil {
			out.Incoming = append(out.Incoming, challengeOf(s.summary(r.Context(), &in[i], nil), in[i].Expires))
		}
	}
	mine, err := s.openChallenges(r.Context(), store.GameFilter{Creator: u.ID})
	if err != nil {
		writeError(w, err)
		return
	}
	for i := range mine {
		out.Outgoing = append(out.Outgoing, challengeOf(s.summary(r.Context(), &mine[i], nil), mine[i].Expires))
	}
	writeJSON(w, http.StatusOK, out)
}

// challengeFor is the stored challenge of the path, which must be one:
// 404 for no game (or one that is not a challenge).
func (s *Server) challengeFor(r *http.Request) (match.Meta, error) {
	m, err := s.store.Game(r.Context(), r.PathValue("id"))
	if errors.Is(err, store.ErrNotFound) || (err == nil && !m.Challenge()) {
		return m, errf(http.StatusNotFound, "not_found", "no such challenge")
	}
	if err != nil {
		return m, s.internal("challenge", err)
	}
	return m, nil
}

func (s *Server) handleAcceptChallenge(w http.ResponseWriter, r *http.Request, u *store.User) {
	if err := decode(w, r, &struct{}{}, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	m, err := s.challengeFor(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if !m.Invites(u.ID) && m.SeatOf(u.ID) < 0 {
		writeError(w, errf(http.StatusForbidden, "forbidden", "this challenge is not to you"))
		return
	}
	if err := s.notFromBlocked(r.Context(), u.ID, &m); err != nil {
		writeError(w, err)
		return
	}
	// Joining the seat the challenge holds for you; the owner refuses it
	// once the challenge has expired or ended.
	s.lobbyAction(w, r, match.Command{Kind: match.CmdJoin, User: actor(u), Seat: -1})
}

func (s *Server) handleDeclineChallenge(w http.ResponseWriter, r *http.Request, u *store.User) {
	var req wire.DeclineRequest
	if err := decode(w, r, &req, maxBody, true); err != nil {
		writeError(w, err)
		return
	}
	if req.Reason == "" {
		req.Reason = "generic"
	}
	if !slices.Contains(match.DeclineReasons, req.Reason) {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "reason %q: want one of %v", req.Reason, match.DeclineReasons))
		return
	}
	if _, err := s.challengeFor(r); err != nil {
		writeError(w, err)
		return
	}
	c, err := keyed(r, match.Command{Kind: match.CmdRefuse, User: actor(u), Text: req.Reason})
	if err != nil {
		writeError(w, err)
		return
	}
	if _, err := s.command(r.Context(), r.PathValue("id"), c); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleCancelChallenge(w http.ResponseWriter, r *http.Request, u *store.User) {
	m, err := s.challengeFor(r)
	if err != nil {
		writeError(w, err)
		return
	}
	if m.CreatorID != u.ID {
		writeError(w, errf(http.StatusForbidden, "forbidden", "only the challenger can cancel a challenge; decline it instead"))
		return
	}
	c, err := keyed(r, match.Command{Kind: match.CmdAbort, User: actor(u)})
	if err != nil {
		writeError(w, err)
		return
	}
	if _, err := s.command(r.Context(), m.ID, c); err != nil {
		writeError(w, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// challengeNews is the user channel's message of a challenge's event for
// user uid, or nil when the event tells them nothing of one.
func (s *Server) challengeNews(ctx context.Context, e *match.Event, uid int64) *wire.ChallengeNews {
	m := &e.Meta
	if !m.Challenge() {
		return nil
	}
	var n wire.ChallengeNews
	switch {
	case e.Kind == match.EventCreated && m.Invites(uid):
		n.News = wire.ChallengeReceived
	case e.Kind == match.EventStart && m.SeatOf(uid) >= 0:
		n.News = wire.ChallengeAccepted
	case e.Kind == match.EventEnd && e.Answer != nil && (m.SeatOf(uid) >= 0 || m.Invites(uid)):
		n.News, n.Reason = string(e.Answer.Kind), e.Answer.Reason
		if e.Answer.UserID != 0 {
			n.By = s.userName(ctx, e.Answer.UserID)
		}
	default:
		return nil
	}
	n.Type = wire.TypeChallenge
	n.Challenge = challengeOf(s.summary(ctx, m, e.Names), m.Expires)
	return &n
}
