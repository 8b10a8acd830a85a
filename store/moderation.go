package store

import (
	"context"
	"time"
)

// Moderation: reports of players and chat lines, the moderator role,
// mutes, closed accounts and the log of every moderator's action (package
// moderation has the rules; the store keeps the facts, each change in one
// transaction with its line of the log).

// Report statuses.
const (
	ReportOpen      = "open"
	ReportDismissed = "dismissed" // a moderator found nothing to do
	ReportActioned  = "actioned"  // a moderator muted or closed because of it
)

// ChatContext is one chat line kept with a report: the reported line and
// the lines around it, as they were when the report was made.
type ChatContext struct {
	N    int64     `json:"n"`
	Seat int       `json:"seat"`
	User string    `json:"user"`
	Text string    `json:"text"`
	At   time.Time `json:"at"`
}

// Report is one user reporting another, perhaps for a chat line of a game.
type Report struct {
	ID         int64
	ReporterID int64
	Reporter   string // the reporter's name, when listed
	UserID     int64  // who is reported
	User       string // their name, when listed
	GameID     string // "" for none
	Line       int64  // the chat line's number in the game's chat; 0 for none
	LineText   string // the line's text as it was said
	Context    []ChatContext
	Reason     string
	Text       string
	Created    time.Time
	Status     string
	ResolvedBy int64
	Resolved   time.Time
}

// ReportFilter selects reports: by status ("" any), newest first.
type ReportFilter struct {
	Status string
	UserID int64 // 0: anyone's
	Before int64 // 0: from the newest; else reports with a smaller id
	Limit  int   // 0: 50
}

// Mute keeps a user out of chat until Until (zero: until it is lifted).
type Mute struct {
	UserID  int64
	Until   time.Time
	By      int64
	Reason  string
	Created time.Time
}

// Closure is a closed account.
type Closure struct {
	UserID  int64
	By      int64
	Reason  string
	Created time.Time
}

// AuditEntry is one line of the moderation log: who did what to whom,
// when and why. ActorID 0 is the command line (Actor names who ran it).
type AuditEntry struct {
	ID       int64
	ActorID  int64
	Actor    string
	Action   string
	TargetID int64
	Target   string // the target's name, when listed
	ReportID int64
	Reason   string
	Detail   string
	At       time.Time
}

// Standing is what moderation says of one user now.
type Standing struct {
	Moderator bool
	Closed    *Closure
	Mute      *Mute // nil, or a mute that may have expired (Until before now)
}

// Moderation is reports, roles, mutes, closures and their log. Every
// method that changes something writes its AuditEntry in the same
// transaction, so the log has every change and nothing that did not
// happen.
type Moderation interface {
	// CreateReport stores r (status open) and sets r.ID.
	CreateReport(ctx context.Context, r *Report) error
	// Report returns one report with its names.
	Report(ctx context.Context, id int64) (Report, error)
	// Reports lists reports with their names, newest first.
	Reports(ctx context.Context, f ReportFilter) ([]Report, error)
	// CountReportsBy counts the reports reporterID made since since.
	CountReportsBy(ctx context.Context, reporterID int64, since time.Time) (int, error)
	// ResolveReport sets an open report's status (or, status open, opens a
	// resolved one again). ErrNotFound for no such report, ErrConflict if
	// it is already in that status.
	ResolveReport(ctx context.Context, id int64, status string, by int64, at time.Time, e AuditEntry) error

	// SetModerator grants (on) or revokes the moderator role.
	// ErrConflict if the user already has (or lacks) it.
	SetModerator(ctx context.Context, userID int64, on bool, e AuditEntry) error
	// Moderators lists the users with the role.
	Moderators(ctx context.Context) ([]User, error)

	// Mute mutes a user, replacing any mute they have.
	Mute(ctx context.Context, m Mute, e AuditEntry) error
	// Unmute lifts a user's mute; ErrNotFound if they have none.
	Unmute(ctx context.Context, userID int64, e AuditEntry) error
	// CloseAccount closes a user's account; ErrConflict if it is closed.
	CloseAccount(ctx context.Context, c Closure, e AuditEntry) error
	// ReopenAccount undoes CloseAccount; ErrNotFound if it is not closed.
	ReopenAccount(ctx context.Context, userID int64, e AuditEntry) error
	// AccountClosed reports whether a user's account is closed.
	AccountClosed(ctx context.Context, userID int64) (bool, error)

	// Standing is a user's role, mute and closure, read in one go.
	Standing(ctx context.Context, userID int64) (Standing, error)
	// AuditLog lists the log, newest first: entries with an id below
	// before (0: from the newest), at most limit (0: 100).
	AuditLog(ctx context.Context, before int64, limit int) ([]AuditEntry, error)
}
