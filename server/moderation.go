package server

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/moderation"
	"github.com/tabula-games/tabula/store"
)

// Moderation on the site (package moderation has the rules): any signed-in
// player reports a player or a chat line of a game they play; moderators
// read the reports and the log, mute, close, dismiss and undo. Every
// moderator endpoint asks the store whether the caller is a moderator on
// each request, so a role revoked on the command line ends at once on
// every node. docs/api.md ("Moderation") and docs/security.md say what a
// moderator sees.

// moderationStatus is the HTTP status of each refusal of package moderation.
var moderationStatus = map[moderation.Code]int{
	moderation.CodeBadRequest:  http.StatusBadRequest,
	moderation.CodeNotFound:    http.StatusNotFound,
	moderation.CodeForbidden:   http.StatusForbidden,
	moderation.CodeConflict:    http.StatusConflict,
	moderation.CodeRateLimited: http.StatusTooManyRequests,
}

// moderationError turns a refusal of package moderation into an HTTP
// error; anything else is unexpected, logged as op.
func (s *Server) moderationError(op string, err error) error {
	var me *moderation.Error
	if errors.As(err, &me) {
		if st, ok := moderationStatus[me.Code]; ok {
			return errf(st, string(me.Code), "%s", me.Message)
		}
	}
	return s.internal(op, err)
}

// moderationService is the moderation of the server's store.
func (s *Server) moderationService() (*moderation.Service, error) {
	ms, ok := s.store.(moderation.Store)
	if !ok {
		return nil, errf(http.StatusNotImplemented, "not_implemented", "this server's store keeps no moderation")
	}
	return moderation.New(ms, s.now), nil
}

// chatAllowed refuses the chat line of a muted user (403 muted) or of a
// closed account whose game page is still connected (403 closed). A store
// that cannot answer lets the line through and logs why: a store outage
// should not silence everyone.
func (s *Server) chatAllowed(ctx context.Context, uid int64) error {
	ms, ok := s.store.(moderation.Store)
	if !ok || uid == 0 {
		return nil
	}
	m, err := moderation.New(ms, s.now).CanChat(ctx, uid)
	var me *moderation.Error
	switch {
	case err == nil:
		return nil
	case m != nil && errors.As(err, &me):
		return errf(http.StatusForbidden, "muted", "%s", me.Message)
	case errors.As(err, &me):
		return errf(http.StatusForbidden, "closed", "%s", me.Message)
	}
	s.log.Error("can chat", "user", uid, "err", err)
	return nil
}

// reportContext is how many lines before and after a reported line are
// kept with the report.
const reportContext = 5

type reportRequest struct {
	User   string `json:"user"`
	Game   string `json:"game"`
	Line   int64  `json:"line"`
	Reason string `json:"reason"`
	Text   string `json:"text"`
}

type reportJSON struct {
	ID       int64               `json:"id"`
	Reporter string              `json:"reporter,omitempty"`
	User     string              `json:"user"`
	Game     string              `json:"game,omitempty"`
	Line     int64               `json:"line,omitempty"`
	LineText string              `json:"lineText,omitempty"`
	Context  []store.ChatContext `json:"context,omitempty"`
	Reason   string              `json:"reason"`
	Text     string              `json:"text"`
	Created  time.Time           `json:"created"`
	Status   string              `json:"status"`
	Resolved *time.Time          `json:"resolved,omitempty"`
}

func reportOut(r store.Report, full bool) reportJSON {
	out := reportJSON{ID: r.ID, User: r.User, Game: r.GameID, Line: r.Line, LineText: r.LineText, Reason: r.Reason,
		Text: r.Text, Created: r.Created.UTC(), Status: r.Status}
	if full {
		out.Reporter, out.Context = r.Reporter, r.Context
		if !r.Resolved.IsZero() {
			t := r.Resolved.UTC()
			out.Resolved = &t
		}
	}
	return out
}

// handleReport is POST /api/reports: u reports a user, perhaps for a game
// they share, perhaps for one chat line of it, which is stored with its
// text and the lines around it as the game's owner has them now.
func (s *Server) handleReport(w http.ResponseWriter, r *http.Request, u *store.User) {
	mod, err := s.moderationService()
	if err != nil {
		writeError(w, err)
		return
	}
	var req reportRequest
	if err := decode(w, r, &req, 16<<10, false); err != nil {
		writeError(w, err)
		return
	}
	if err := moderation.CheckReason(req.Reason); err != nil {
		writeError(w, s.moderationError("report", err))
		return
	}
	if req.Line != 0 && req.Game == "" {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "a chat line is reported with its game"))
		return
	}
	if req.User == "" && req.Line == 0 {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "name the user, or the game and chat line, you report"))
		return
	}
	// The reported user: named, or (a chat line without a name) the one
	// who said the line, which reportedGame finds.
	var t *store.User
	if req.User != "" {
		tu, err := s.store.UserByName(r.Context(), req.User)
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, errf(http.StatusNotFound, "not_found", "no user %q", req.User))
			return
		}
		if err != nil {
			writeError(w, s.internal("report", err))
			return
		}
		t = &tu
	}
	rep := store.Report{Reason: req.Reason, Text: req.Text}
	if req.Game != "" {
		if t, err = s.reportedGame(r.Context(), &rep, u, t, req.Game, req.Line); err != nil {
			writeError(w, err)
			return
		}
	}
	if t.ID == u.ID {
		writeError(w, errf(http.StatusBadRequest, "bad_request", "you cannot report yourself"))
		return
	}
	rep.UserID = t.ID
	rep, err = mod.Report(r.Context(), u, rep)
	if err != nil {
		writeError(w, s.moderationError("report", err))
		return
	}
	s.log.Info("report", "id", rep.ID, "reporter", u.ID, "user", t.ID, "game", rep.GameID, "line", rep.Line)
	rep.User = t.Name
	writeJSON(w, http.StatusCreated, reportOut(rep, false))
}

// reportedGame fills in the game of a report and returns the reported
// user: t, or — t nil — the one who said the line. The reporter and the
// reported user must both play in the game, and a reported line must be
// one the reported user said, still kept in the game's chat (its owner
// keeps the last match.ChatKeep lines while the game is on).
func (s *Server) reportedGame(ctx context.Context, rep *store.Report, u, t *store.User, id string, line int64) (*store.User, error) {
	snap, err := s.snapshot(ctx, id)
	if err != nil {
		if ae := apiErrorOf(err); ae.Status == http.StatusNotFound {
			return nil, errf(http.StatusNotFound, "not_found", "no game %q", id)
		}
		return nil, err
	}
	m := &snap.Meta
	if m.SeatOf(u.ID) < 0 {
		return nil, errf(http.StatusBadRequest, "bad_request", "you can report a game only when you play in it")
	}
	rep.GameID = m.ID
	if line == 0 {
		if m.SeatOf(t.ID) < 0 {
			return nil, errf(http.StatusBadRequest, "bad_request", "%s does not play in game %s", t.Name, m.ID)
		}
		return t, nil
	}
	room := snap.Room
	if room == nil && s.cfg.Cluster != nil && (m.Status == match.Open || m.Status == match.Live) {
		ack, err := s.tell(ctx, m.ID, match.Command{Kind: match.CmdRoom, User: match.User{ID: u.ID}})
		if err == nil {
			room = ack.Room
		}
	}
	if room == nil {
		return nil, errf(http.StatusNotFound, "not_found", "the chat of game %s is no longer kept (it is kept while the game is played)", m.ID)
	}
	at := -1
	for i, l := range room.Chat {
		if l.N == line {
			at = i
		}
	}
	if at < 0 {
		return nil, errf(http.StatusNotFound, "not_found", "game %s has no chat line %d (or it is no longer kept)", m.ID, line)
	}
	l := room.Chat[at]
	if l.Seat < 0 || l.Seat >= len(m.Seats) || m.Seats[l.Seat].UserID == 0 {
		return nil, errf(http.StatusBadRequest, "bad_request", "chat line %d of game %s is not a player's", line, m.ID)
	}
	said := m.Seats[l.Seat].UserID
	if t == nil {
		tu, err := s.store.User(ctx, said)
		if err != nil {
			return nil, s.internal("report", err)
		}
		t = &tu
	}
	if said != t.ID {
		return nil, errf(http.StatusBadRequest, "bad_request", "chat line %d of game %s is not %s's", line, m.ID, t.Name)
	}
	rep.Line, rep.LineText = l.N, l.Text
	// The context is the players' chat around the line, as the reporter
	// saw it: the spectators' lines in the same room are not theirs.
	var players []match.ChatLine
	for _, c := range room.Chat {
		if c.Seat >= 0 && c.Seat < len(m.Seats) {
			players = append(players, c)
		}
	}
	at = slices.IndexFunc(players, func(c match.ChatLine) bool { return c.N == line })
	for _, c := range players[max(0, at-reportContext):min(len(players), at+reportContext+1)] {
		rep.Context = append(rep.Context, store.ChatContext{N: c.N, Seat: c.Seat, User: s.userName(ctx, m.Seats[c.Seat].UserID),
			Text: c.Text, At: c.At.UTC()})
	}
	return t, nil
}

// moderator authenticates a moderator endpoint: 403 for anyone without
// the role (asked of the store on every request).
func (s *Server) moderator(h func(http.ResponseWriter, *http.Request, *store.User, *moderation.Service, moderation.Actor)) func(http.ResponseWriter, *http.Request, *store.User) {
	return func(w http.ResponseWriter, r *http.Request, u *store.User) {
		mod, err := s.moderationService()
		if err != nil {
			writeError(w, err)
			return
		}
		ok, err := mod.IsModerator(r.Context(), u.ID)
		if err != nil {
			writeError(w, s.internal("moderator", err))
			return
		}
		if !ok {
			writeError(w, errf(http.StatusForbidden, "forbidden", "only moderators may do this"))
			return
		}
		h(w, r, u, mod, moderation.Actor{ID: u.ID, Name: u.Name})
	}
}

// handleModerationRole is GET /api/moderation/role: whether the caller is
// a moderator (any signed-in user may ask about themselves; the page shows
// its Moderation link by it).
func (s *Server) handleModerationRole(w http.ResponseWriter, r *http.Request, u *store.User) {
	mod, err := s.moderationService()
	if err != nil {
		writeError(w, err)
		return
	}
	ok, err := mod.IsModerator(r.Context(), u.ID)
	if err != nil {
		writeError(w, s.internal("moderator", err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]bool{"moderator": ok})
}

// handleModerationReports is GET /api/moderation/reports?status=…&before=…
func (s *Server) handleModerationReports(w http.ResponseWriter, r *http.Request, u *store.User, mod *moderation.Service, a moderation.Actor) {
	ms := s.store.(moderation.Store)
	f := store.ReportFilter{Status: r.URL.Query().Get("status"), Limit: 50}
	switch f.Status {
	case "":
		f.Status = store.ReportOpen
	case "all":
		f.Status = ""
	case store.ReportOpen, store.ReportDismissed, store.ReportActioned:
	default:
		writeError(w, errf(http.StatusBadRequest, "bad_request", "status is open, dismissed, actioned or all"))
		return
	}
	if v := r.URL.Query().Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "before is a report's id"))
			return
		}
		f.Before = n
	}
	list, err := ms.Reports(r.Context(), f)
	if err != nil {
		writeError(w, s.internal("reports", err))
		return
	}
	out := []reportJSON{}
	for _, rep := range list {
		out = append(out, reportOut(rep, true))
	}
	writeJSON(w, http.StatusOK, map[string]any{"reports": out})
}

type auditJSON struct {
	ID     int64     `json:"id"`
	Actor  string    `json:"actor"`
	Action string    `json:"action"`
	Target string    `json:"target,omitempty"`
	Report int64     `json:"report,omitempty"`
	Reason string    `json:"reason"`
	Detail string    `json:"detail,omitempty"`
	At     time.Time `json:"at"`
}

// handleModerationLog is GET /api/moderation/log?before=…
func (s *Server) handleModerationLog(w http.ResponseWriter, r *http.Request, u *store.User, mod *moderation.Service, a moderation.Actor) {
	var before int64
	if v := r.URL.Query().Get("before"); v != "" {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			writeError(w, errf(http.StatusBadRequest, "bad_request", "before is a log entry's id"))
			return
		}
		before = n
	}
	list, err := s.store.(moderation.Store).AuditLog(r.Context(), before, 100)
	if err != nil {
		writeError(w, s.internal("moderation log", err))
		return
	}
	out := []auditJSON{}
	for _, e := range list {
		out = append(out, auditJSON{ID: e.ID, Actor: e.Actor, Action: e.Action, Target: e.Target, Report: e.ReportID,
			Reason: e.Reason, Detail: e.Detail, At: e.At.UTC()})
	}
	writeJSON(w, http.StatusOK, map[string]any{"log": out})
}

type actionRequest struct {
	User    string `json:"user"`
	Reason  string `json:"reason"`
	Report  int64  `json:"report"`
	Minutes int64  `json:"minutes"` // mute: 0 until undone
}

// handleModerationAction is POST /api/moderation/{action}: mute, unmute,
// close, reopen (a user), dismiss, reopen-report (a report).
func (s *Server) handleModerationAction(w http.ResponseWriter, r *http.Request, u *store.User, mod *moderation.Service, a moderation.Actor) {
	var req actionRequest
	if err := decode(w, r, &req, 8<<10, false); err != nil {
		writeError(w, err)
		return
	}
	ctx := r.Context()
	action := r.PathValue("action")
	if req.Report != 0 {
		if _, err := mod.CheckReport(ctx, req.Report); err != nil {
			writeError(w, s.moderationError(action, err))
			return
		}
	}
	var err error
	switch action {
	case moderation.ActMute:
		if req.Minutes < 0 || req.Minutes > int64(moderation.MaxMute/time.Minute) {
			err = errf(http.StatusBadRequest, "bad_request", "minutes is 1 to %d, or 0 until undone", int64(moderation.MaxMute/time.Minute))
			break
		}
		_, err = mod.Mute(ctx, a, req.User, time.Duration(req.Minutes)*time.Minute, req.Reason, req.Report)
	case moderation.ActUnmute:
		_, err = mod.Unmute(ctx, a, req.User, req.Reason)
	case moderation.ActClose:
		var t store.User
		if t, err = mod.Close(ctx, a, req.User, req.Reason, req.Report); err == nil {
			s.closeConns(t.ID) // its open sockets too, on every node (accountclosed.go)
		}
	case moderation.ActReopen:
		_, err = mod.Reopen(ctx, a, req.User, req.Reason)
	case moderation.ActDismiss, moderation.ActReopenReport:
		if req.Report == 0 {
			err = errf(http.StatusBadRequest, "bad_request", "name the report")
			break
		}
		var rep store.Report
		if action == moderation.ActDismiss {
			rep, err = mod.Dismiss(ctx, a, req.Report, req.Reason)
		} else {
			rep, err = mod.ReopenReport(ctx, a, req.Report, req.Reason)
		}
		if err == nil {
			s.log.Info("moderation", "action", action, "by", u.ID, "report", rep.ID)
			writeJSON(w, http.StatusOK, reportOut(rep, true))
			return
		}
	default:
		err = errf(http.StatusNotFound, "not_found", "no moderation action %q", action)
	}
	if err != nil {
		writeError(w, s.moderationError(action, err))
		return
	}
	s.log.Info("moderation", "action", action, "by", u.ID, "user", req.User, "report", req.Report)
	w.WriteHeader(http.StatusNoContent)
}

// notClosed is errUnauthorized for a user whose account a moderator
// closed, read from the store on every request so that a closure holds at
// once on every node.
func (s *Server) notClosed(ctx context.Context, uid int64) error {
	ms, ok := s.store.(moderation.Store)
	if !ok {
		return nil
	}
	closed, err := ms.AccountClosed(ctx, uid)
	if err != nil {
		return s.internal("account closed", err)
	}
	if closed {
		return errUnauthorized
	}
	return nil
}
