package moderation_test

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/moderation"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

func open(t *testing.T) (*moderation.Service, moderation.Store, *time.Time) {
	t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "t.db"), sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	return moderation.New(db, func() time.Time { return now }), db, &now
}

func user(t *testing.T, st moderation.Store, name string, guest bool) store.User {
	t.Helper()
	u := store.User{Name: name, Guest: guest, Created: time.Now()}
	if err := st.CreateUser(context.Background(), &u); err != nil {
		t.Fatal(err)
	}
	return u
}

func code(err error) moderation.Code {
	var e *moderation.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

var cli = moderation.Actor{Name: "command line (test)", CommandLine: true}

// TestRules: the role only from the command line and only for registered
// accounts; a site moderator acts neither on themselves nor on another
// moderator; reasons are required and plain; a mute lasts a minute to a
// year or until undone, and ends by itself; the reporter's quota counts the
// last 24 hours.
func TestRules(t *testing.T) {
	ctx := context.Background()
	mod, st, now := open(t)
	mona, otto, bob := user(t, st, "mona", false), user(t, st, "otto", false), user(t, st, "bob", false)
	user(t, st, "guest-abc", true)
	if _, err := mod.Grant(ctx, moderation.Actor{ID: otto.ID, Name: "otto"}, "otto", "me"); code(err) != moderation.CodeForbidden {
		t.Fatalf("a grant from the site: %v", err)
	}
	if _, err := mod.Grant(ctx, cli, "guest-abc", "x"); code(err) != moderation.CodeBadRequest {
		t.Fatalf("a guest made moderator: %v", err)
	}
	if _, err := mod.Grant(ctx, cli, "mona", ""); code(err) != moderation.CodeBadRequest {
		t.Fatalf("a grant without a reason: %v", err)
	}
	for _, n := range []string{"mona", "otto"} {
		if _, err := mod.Grant(ctx, cli, n, "trusted"); err != nil {
			t.Fatal(err)
		}
	}
	site := moderation.Actor{ID: mona.ID, Name: "mona"}
	if _, err := mod.Mute(ctx, site, "otto", time.Hour, "x", 0); code(err) != moderation.CodeForbidden {
		t.Fatalf("a moderator muting a moderator: %v", err)
	}
	if _, err := mod.Close(ctx, site, "mona", "x", 0); code(err) != moderation.CodeForbidden {
		t.Fatalf("a moderator closing their own account: %v", err)
	}
	if _, err := mod.Mute(ctx, site, "bob", time.Hour, "bad\x1b[2J", 0); code(err) != moderation.CodeBadRequest {
		t.Fatalf("a reason with a control character: %v", err)
	}
	for _, d := range []time.Duration{-time.Minute, 30 * time.Second, moderation.MaxMute + time.Hour} {
		if _, err := mod.Mute(ctx, site, "bob", d, "spam", 0); code(err) != moderation.CodeBadRequest {
			t.Fatalf("a mute of %v: %v", d, err)
		}
	}
	if _, err := mod.Mute(ctx, site, "bob", time.Hour, "spam", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := mod.CanChat(ctx, bob.ID); code(err) != moderation.CodeForbidden || !strings.Contains(err.Error(), "13:00 UTC") {
		t.Fatalf("bob muted: %v", err)
	}
	*now = now.Add(time.Hour)
	if _, err := mod.CanChat(ctx, bob.ID); err != nil {
		t.Fatalf("bob after his mute ended: %v", err)
	}
	if _, err := mod.Mute(ctx, cli, "otto", 0, "the command line may", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := mod.CanChat(ctx, otto.ID); err == nil || !strings.Contains(err.Error(), "until they undo it") {
		t.Fatalf("otto muted until undone: %v", err)
	}
	if _, err := mod.Close(ctx, cli, "bob", "abuse", 0); err != nil {
		t.Fatal(err)
	}
	if _, err := mod.CanChat(ctx, bob.ID); err == nil || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("a closed account chatting: %v", err)
	}
	// The quota: ReportsPerDay in any 24 hours.
	for i := 0; i < moderation.ReportsPerDay; i++ {
		if _, err := mod.Report(ctx, &otto, store.Report{UserID: bob.ID, Reason: "spam"}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := mod.Report(ctx, &otto, store.Report{UserID: bob.ID, Reason: "spam"}); code(err) != moderation.CodeRateLimited {
		t.Fatalf("a report over the quota: %v", err)
	}
	*now = now.Add(24*time.Hour + time.Second)
	if _, err := mod.Report(ctx, &otto, store.Report{UserID: bob.ID, Reason: "spam", Text: "line one\nline two"}); err != nil {
		t.Fatalf("a report a day later: %v", err)
	}
	if _, err := mod.Report(ctx, &otto, store.Report{UserID: otto.ID, Reason: "spam"}); code(err) != moderation.CodeBadRequest {
		t.Fatalf("reporting oneself: %v", err)
	}
	if _, err := mod.Report(ctx, &otto, store.Report{UserID: bob.ID, Reason: "spam", Text: "a\u202Eb"}); code(err) != moderation.CodeBadRequest {
		t.Fatalf("a report with a direction override: %v", err)
	}
}
