// Package moderation is the rules of the site's safety tools beyond
// blocks: players report a player or a chat line with a reason;
// moderators (a role granted on the command line, `tabula admin`) read the
// reports, mute a player's chat for a while or until undone, close an
// account, dismiss a report, and undo each of these. Every action is
// written to the moderation log (who, what, to whom, when, why) in the same
// transaction as the change itself.
//
// The facts live in the store (store.Moderation) and nothing is cached
// here: a mute or a closure made on one node holds on every node at its
// next request, because every node asks the store. The server (HTTP) and
// the command (`tabula admin`) apply these rules the same way; the server
// adds what only it can know, such as a chat line's text.
package moderation

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/tabula-games/tabula/store"
)

// Store is what moderation is kept in.
type Store interface {
	store.Users
	store.Moderation
}

// Code is the kind of a refusal, in the words of the API's error codes.
type Code string

// The refusals.
const (
	CodeBadRequest  Code = "bad_request"
	CodeNotFound    Code = "not_found"
	CodeForbidden   Code = "forbidden"
	CodeConflict    Code = "conflict"
	CodeRateLimited Code = "rate_limited"
)

// Error is a refusal: its code and what to tell the user. Errors of the
// store are not Errors.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return e.Message }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Limits of reports and actions.
const (
	// MaxReportText is the characters of a report's own words.
	MaxReportText = 1000
	// MaxActionReason is the characters of a moderator's reason.
	MaxActionReason = 500
	// ReportsPerDay is how many reports one user may make in 24 hours:
	// enough for any real trouble, too few to bury the moderators.
	ReportsPerDay = 20
	// MaxMute is the longest mute with a duration (longer: until undone).
	MaxMute = 365 * 24 * time.Hour
)

// Reasons are the reasons a report may give.
var Reasons = []string{"abuse", "spam", "cheating", "name", "other"}

// Actions written to the log.
const (
	ActGrant        = "grant"
	ActRevoke       = "revoke"
	ActMute         = "mute"
	ActUnmute       = "unmute"
	ActClose        = "close"
	ActReopen       = "reopen"
	ActDismiss      = "dismiss"
	ActReopenReport = "reopen-report"
)

// Actor is who acts: a moderator on the site (ID, Name), or the command
// line (ID 0, Name says who ran it).
type Actor struct {
	ID   int64
	Name string
	// CommandLine: the site's administrator, who may act on moderators
	// too; a moderator on the site may not.
	CommandLine bool
}

// Service applies the rules to a store.
type Service struct {
	st  Store
	now func() time.Time
}

// New returns the moderation kept in st; now is the clock (time.Now if nil).
func New(st Store, now func() time.Time) *Service {
	if now == nil {
		now = time.Now
	}
	return &Service{st: st, now: now}
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

func checkText(what, text string, max int, required bool) (string, error) {
	if !utf8.ValidString(text) {
		return "", errorf(CodeBadRequest, "%s must be valid UTF-8", what)
	}
	text = strings.TrimSpace(text)
	if required && text == "" {
		return "", errorf(CodeBadRequest, "give %s", what)
	}
	if n := utf8.RuneCountInString(text); n > max {
		return "", errorf(CodeBadRequest, "%s is at most %d characters; this is %d", what, max, n)
	}
	for _, r := range text {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') || bidiControl(r) {
			return "", errorf(CodeBadRequest, "%s must be plain text: no control characters (U+%04X)", what, r)
		}
	}
	return text, nil
}

// CheckReason says why a report's reason will not do, or returns nil.
func CheckReason(reason string) error {
	for _, r := range Reasons {
		if r == reason {
			return nil
		}
	}
	return errorf(CodeBadRequest, "a report's reason is one of %s", strings.Join(Reasons, ", "))
}

// user finds a user by name.
func (s *Service) user(ctx context.Context, name string) (store.User, error) {
	u, err := s.st.UserByName(ctx, name)
	if errors.Is(err, store.ErrNotFound) {
		return u, errorf(CodeNotFound, "no user %q", name)
	}
	return u, err
}

// Report stores a report by reporter of r.UserID: the reason, the words,
// and — filled in by the caller, who found the line — the game, the line
// and its context. It checks the reporter's quota, that they are not
// reporting themselves, and the text.
func (s *Service) Report(ctx context.Context, reporter *store.User, r store.Report) (store.Report, error) {
	if err := CheckReason(r.Reason); err != nil {
		return r, err
	}
	text, err := checkText("the report's text", r.Text, MaxReportText, false)
	if err != nil {
		return r, err
	}
	r.Text = text
	if r.UserID == reporter.ID {
		return r, errorf(CodeBadRequest, "you cannot report yourself")
	}
	now := s.now()
	n, err := s.st.CountReportsBy(ctx, reporter.ID, now.Add(-24*time.Hour))
	if err != nil {
		return r, err
	}
	if n >= ReportsPerDay {
		return r, errorf(CodeRateLimited, "you have made %d reports in the last 24 hours, the most there may be; the moderators will read them", n)
	}
	r.ReporterID, r.Created = reporter.ID, now
	if err := s.st.CreateReport(ctx, &r); err != nil {
		return r, err
	}
	return r, nil
}

// IsModerator reports whether user uid has the moderator role (a closed
// account has none).
func (s *Service) IsModerator(ctx context.Context, uid int64) (bool, error) {
	st, err := s.st.Standing(ctx, uid)
	if errors.Is(err, store.ErrNotFound) {
		return false, nil
	}
	return st.Moderator && st.Closed == nil, err
}

// CanChat is nil if user uid may chat now, else the refusal: muted (with
// until when), or closed — a closed account's open game page may still be
// connected, and its lines are refused at once all the same.
func (s *Service) CanChat(ctx context.Context, uid int64) (*store.Mute, error) {
	st, err := s.st.Standing(ctx, uid)
	if errors.Is(err, store.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if st.Closed != nil {
		return nil, errorf(CodeForbidden, "this account is closed")
	}
	if st.Mute == nil || (!st.Mute.Until.IsZero() && !s.now().Before(st.Mute.Until)) {
		return nil, nil
	}
	return st.Mute, MutedError(st.Mute)
}

// MutedError is the refusal of a muted user's chat line.
func MutedError(m *store.Mute) *Error {
	if m.Until.IsZero() {
		return errorf(CodeForbidden, "a moderator has muted you: you cannot chat until they undo it")
	}
	return errorf(CodeForbidden, "a moderator has muted you: you cannot chat until %s", m.Until.UTC().Format("2006-01-02 15:04 UTC"))
}

// target finds the user an action is about and checks that actor may act
// on them: not on oneself, and from the site not on a moderator.
func (s *Service) target(ctx context.Context, a Actor, name string) (store.User, error) {
	u, err := s.user(ctx, name)
	if err != nil {
		return u, err
	}
	if a.CommandLine {
		return u, nil
	}
	if u.ID == a.ID {
		return u, errorf(CodeForbidden, "you cannot act on your own account")
	}
	st, err := s.st.Standing(ctx, u.ID)
	if err != nil {
		return u, err
	}
	if st.Moderator {
		return u, errorf(CodeForbidden, "%s is a moderator: only the site's administrator (tabula admin) acts on moderators", u.Name)
	}
	return u, nil
}

func (s *Service) entry(a Actor, action string, target int64, report int64, reason, detail string) store.AuditEntry {
	return store.AuditEntry{ActorID: a.ID, Actor: a.Name, Action: action, TargetID: target, ReportID: report,
		Reason: reason, Detail: detail, At: s.now()}
}

func actionReason(reason string) (string, error) {
	return checkText("a reason", reason, MaxActionReason, true)
}

// conflict turns the store's ErrConflict or ErrNotFound into a refusal.
func conflict(err error, msg string) error {
	if errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrNotFound) {
		return errorf(CodeConflict, "%s", msg)
	}
	return err
}

// Grant gives name the moderator role (the command line only).
func (s *Service) Grant(ctx context.Context, a Actor, name, reason string) (store.User, error) {
	return s.setRole(ctx, a, name, reason, true)
}

// Revoke takes the moderator role from name (the command line only).
func (s *Service) Revoke(ctx context.Context, a Actor, name, reason string) (store.User, error) {
	return s.setRole(ctx, a, name, reason, false)
}

func (s *Service) setRole(ctx context.Context, a Actor, name, reason string, on bool) (store.User, error) {
	if !a.CommandLine {
		return store.User{}, errorf(CodeForbidden, "the moderator role is granted and revoked on the command line (tabula admin)")
	}
	reason, err := actionReason(reason)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.user(ctx, name)
	if err != nil {
		return u, err
	}
	if on && u.Guest {
		return u, errorf(CodeBadRequest, "%s is a guest: only a registered account can be a moderator", u.Name)
	}
	act, msg := ActGrant, u.Name+" is a moderator already"
	if !on {
		act, msg = ActRevoke, u.Name+" is not a moderator"
	}
	return u, conflict(s.st.SetModerator(ctx, u.ID, on, s.entry(a, act, u.ID, 0, reason, "")), msg)
}

// Mute keeps name out of chat for d (0: until undone), because of report
// (0: none), which is then marked actioned.
func (s *Service) Mute(ctx context.Context, a Actor, name string, d time.Duration, reason string, report int64) (store.Mute, error) {
	reason, err := actionReason(reason)
	if err != nil {
		return store.Mute{}, err
	}
	if d < 0 || d > MaxMute {
		return store.Mute{}, errorf(CodeBadRequest, "a mute lasts from a minute to a year, or until undone (0)")
	}
	if d > 0 && d < time.Minute {
		return store.Mute{}, errorf(CodeBadRequest, "a mute lasts from a minute to a year, or until undone (0)")
	}
	u, err := s.target(ctx, a, name)
	if err != nil {
		return store.Mute{}, err
	}
	now := s.now()
	m := store.Mute{UserID: u.ID, By: a.ID, Reason: reason, Created: now}
	detail := "until undone"
	if d > 0 {
		m.Until = now.Add(d)
		detail = "until " + m.Until.UTC().Format(time.RFC3339)
	}
	if err := s.st.Mute(ctx, m, s.entry(a, ActMute, u.ID, report, reason, detail)); err != nil {
		return m, err
	}
	return m, s.actioned(ctx, a, report, reason)
}

// Unmute lifts name's mute.
func (s *Service) Unmute(ctx context.Context, a Actor, name, reason string) (store.User, error) {
	reason, err := actionReason(reason)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.target(ctx, a, name)
	if err != nil {
		return u, err
	}
	return u, conflict(s.st.Unmute(ctx, u.ID, s.entry(a, ActUnmute, u.ID, 0, reason, "")), u.Name+" is not muted")
}

// Close closes name's account: it can no longer sign in, its sessions and
// tokens stop working, and its name stays taken.
func (s *Service) Close(ctx context.Context, a Actor, name, reason string, report int64) (store.User, error) {
	reason, err := actionReason(reason)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.target(ctx, a, name)
	if err != nil {
		return u, err
	}
	c := store.Closure{UserID: u.ID, By: a.ID, Reason: reason, Created: s.now()}
	if err := conflict(s.st.CloseAccount(ctx, c, s.entry(a, ActClose, u.ID, report, reason, "")), u.Name+"'s account is closed already"); err != nil {
		return u, err
	}
	return u, s.actioned(ctx, a, report, reason)
}

// Reopen undoes Close.
func (s *Service) Reopen(ctx context.Context, a Actor, name, reason string) (store.User, error) {
	reason, err := actionReason(reason)
	if err != nil {
		return store.User{}, err
	}
	u, err := s.target(ctx, a, name)
	if err != nil {
		return u, err
	}
	return u, conflict(s.st.ReopenAccount(ctx, u.ID, s.entry(a, ActReopen, u.ID, 0, reason, "")), u.Name+"'s account is not closed")
}

// actioned marks report (if any) actioned after an action taken on it; a
// report already resolved stays as it is.
func (s *Service) actioned(ctx context.Context, a Actor, report int64, reason string) error {
	if report == 0 {
		return nil
	}
	r, err := s.st.Report(ctx, report)
	if err != nil || r.Status != store.ReportOpen {
		return nil // the action stands and is logged with the report's number
	}
	err = s.st.ResolveReport(ctx, report, store.ReportActioned, a.ID, s.now(), s.entry(a, store.ReportActioned, r.UserID, report, reason, ""))
	if errors.Is(err, store.ErrConflict) {
		return nil // another moderator resolved it meanwhile
	}
	return err
}

// CheckReport is report id, for an action taken because of it.
func (s *Service) CheckReport(ctx context.Context, id int64) (store.Report, error) {
	r, err := s.st.Report(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return r, errorf(CodeNotFound, "no report %d", id)
	}
	return r, err
}

// Dismiss closes report id with nothing done; Reopen a report with
// ReopenReport.
func (s *Service) Dismiss(ctx context.Context, a Actor, id int64, reason string) (store.Report, error) {
	return s.resolve(ctx, a, id, reason, store.ReportDismissed, ActDismiss)
}

// ReopenReport opens a dismissed or actioned report again (the action
// taken stays: undo it on its own).
func (s *Service) ReopenReport(ctx context.Context, a Actor, id int64, reason string) (store.Report, error) {
	return s.resolve(ctx, a, id, reason, store.ReportOpen, ActReopenReport)
}

func (s *Service) resolve(ctx context.Context, a Actor, id int64, reason, status, act string) (store.Report, error) {
	reason, err := actionReason(reason)
	if err != nil {
		return store.Report{}, err
	}
	r, err := s.CheckReport(ctx, id)
	if err != nil {
		return r, err
	}
	err = s.st.ResolveReport(ctx, id, status, a.ID, s.now(), s.entry(a, act, r.UserID, id, reason, ""))
	if err != nil {
		return r, conflict(err, fmt.Sprintf("report %d is %s already", id, status))
	}
	return s.st.Report(ctx, id)
}

// bidiControl reports the characters that reorder the text around them
// (as match.CleanChat refuses in chat): a report read by a moderator must
// show what was written.
func bidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) || r == 0x200E || r == 0x200F || r == 0x061C
}
