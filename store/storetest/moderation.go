package storetest

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/tabula-games/tabula/store"
)

// Moderation runs the conformance tests of store.Moderation on the stores
// open gives.
func Moderation(t *testing.T, open func(t *testing.T) store.Store) {
	t.Run("reports", func(t *testing.T) { testReports(t, open(t)) })
	t.Run("standing", func(t *testing.T) { testStanding(t, open(t)) })
	t.Run("race", func(t *testing.T) { testModerationRace(t, open(t)) })
}

func moderationOf(t *testing.T, s store.Store) store.Moderation {
	t.Cleanup(func() { s.Close() })
	m, ok := s.(store.Moderation)
	if !ok {
		t.Fatalf("%T keeps no moderation", s)
	}
	return m
}

// testReports: a report is stored with its line's text and context as they
// were, listed newest first by status, counted per reporter since a time,
// and resolved once (a second resolution is ErrConflict, a missing report
// ErrNotFound), each resolution with its line of the log.
func testReports(t *testing.T, s store.Store) {
	m := moderationOf(t, s)
	ctx := context.Background()
	a, b, c := newUser(t, s, "Rita"), newUser(t, s, "mallory"), newUser(t, s, "carl")
	r1 := store.Report{ReporterID: a.ID, UserID: b.ID, GameID: "g1", Line: 3, LineText: "you <b>fool</b>",
		Context: []store.ChatContext{{N: 2, Seat: 0, User: "Rita", Text: "gl", At: t0}, {N: 3, Seat: 1, User: "mallory", Text: "you <b>fool</b>", At: t0}},
		Reason:  "abuse", Text: "rude", Created: t0}
	must(t, m.CreateReport(ctx, &r1))
	r2 := store.Report{ReporterID: c.ID, UserID: b.ID, Reason: "name", Created: t0.Add(time.Hour)}
	must(t, m.CreateReport(ctx, &r2))
	if r1.ID == 0 || r2.ID <= r1.ID || r1.Status != store.ReportOpen {
		t.Fatalf("ids %d, %d, status %q", r1.ID, r2.ID, r1.Status)
	}
	got, err := m.Report(ctx, r1.ID)
	must(t, err)
	if got.Reporter != "Rita" || got.User != "mallory" || got.LineText != "you <b>fool</b>" || len(got.Context) != 2 ||
		got.Context[1].Text != "you <b>fool</b>" || !got.Context[0].At.Equal(t0) || got.GameID != "g1" || got.Line != 3 || !got.Created.Equal(t0) {
		t.Fatalf("report read back: %+v", got)
	}
	if r, err := m.Report(ctx, r2.ID); err != nil || r.Context != nil && len(r.Context) != 0 {
		t.Fatalf("report without context: %+v, %v", r, err)
	}
	_, err = m.Report(ctx, 9999)
	wantErr(t, err, store.ErrNotFound, "a missing report")
	list, err := m.Reports(ctx, store.ReportFilter{Status: store.ReportOpen})
	must(t, err)
	if len(list) != 2 || list[0].ID != r2.ID {
		t.Fatalf("open reports: %+v", list)
	}
	n, err := m.CountReportsBy(ctx, a.ID, t0)
	must(t, err)
	if n != 1 {
		t.Fatalf("Rita's reports since t0: %d", n)
	}
	if n, _ := m.CountReportsBy(ctx, a.ID, t0.Add(time.Second)); n != 0 {
		t.Fatalf("Rita's reports since after her one: %d", n)
	}
	e := store.AuditEntry{ActorID: c.ID, Actor: "carl", Action: "dismiss", TargetID: b.ID, ReportID: r1.ID, Reason: "nothing", At: t0}
	must(t, m.ResolveReport(ctx, r1.ID, store.ReportDismissed, c.ID, t0, e))
	wantErr(t, m.ResolveReport(ctx, r1.ID, store.ReportDismissed, c.ID, t0, e), store.ErrConflict, "dismissing twice")
	wantErr(t, m.ResolveReport(ctx, 9999, store.ReportDismissed, c.ID, t0, e), store.ErrNotFound, "dismissing a missing report")
	if l, _ := m.Reports(ctx, store.ReportFilter{Status: store.ReportOpen}); len(l) != 1 || l[0].ID != r2.ID {
		t.Fatalf("open after a dismissal: %+v", l)
	}
	if l, _ := m.Reports(ctx, store.ReportFilter{Before: r2.ID}); len(l) != 1 || l[0].Status != store.ReportDismissed || l[0].ResolvedBy != c.ID {
		t.Fatalf("all before r2: %+v", l)
	}
	e.Action = "reopen-report"
	must(t, m.ResolveReport(ctx, r1.ID, store.ReportOpen, c.ID, t0, e))
	if r, _ := m.Report(ctx, r1.ID); r.Status != store.ReportOpen || r.ResolvedBy != 0 || !r.Resolved.IsZero() {
		t.Fatalf("reopened: %+v", r)
	}
	log, err := m.AuditLog(ctx, 0, 0)
	must(t, err)
	if len(log) != 2 || log[0].Action != "reopen-report" || log[1].Action != "dismiss" || log[1].Target != "mallory" || log[1].ReportID != r1.ID {
		t.Fatalf("log (the refused resolutions must not be in it): %+v", log)
	}
	if l, _ := m.AuditLog(ctx, log[0].ID, 10); len(l) != 1 || l[0].ID != log[1].ID {
		t.Fatalf("log before the newest: %+v", l)
	}
}

// testStanding: the role, a mute and a closure are read in one Standing,
// each set and undone once with its line of the log; undoing what is not
// there is an error and logs nothing.
func testStanding(t *testing.T, s store.Store) {
	m := moderationOf(t, s)
	ctx := context.Background()
	mod, u := newUser(t, s, "Mona"), newUser(t, s, "ursula")
	e := func(act string) store.AuditEntry {
		return store.AuditEntry{Actor: "command line (root)", Action: act, TargetID: u.ID, Reason: "why", At: t0}
	}
	st, err := m.Standing(ctx, u.ID)
	must(t, err)
	if st.Moderator || st.Closed != nil || st.Mute != nil {
		t.Fatalf("a new user's standing: %+v", st)
	}
	_, err = m.Standing(ctx, 9999)
	wantErr(t, err, store.ErrNotFound, "standing of no user")
	must(t, m.SetModerator(ctx, mod.ID, true, e("grant")))
	wantErr(t, m.SetModerator(ctx, mod.ID, true, e("grant")), store.ErrConflict, "granting twice")
	if l, _ := m.Moderators(ctx); len(l) != 1 || l[0].Name != "Mona" || l[0].PasswordHash != "" {
		t.Fatalf("moderators: %+v", l)
	}
	until := t0.Add(time.Hour)
	must(t, m.Mute(ctx, store.Mute{UserID: u.ID, Until: until, By: mod.ID, Reason: "spam", Created: t0}, e("mute")))
	must(t, m.Mute(ctx, store.Mute{UserID: u.ID, By: mod.ID, Reason: "again", Created: t0}, e("mute"))) // replaces: until undone
	must(t, m.CloseAccount(ctx, store.Closure{UserID: u.ID, By: mod.ID, Reason: "abuse", Created: t0}, e("close")))
	wantErr(t, m.CloseAccount(ctx, store.Closure{UserID: u.ID, By: mod.ID, Reason: "abuse", Created: t0}, e("close")), store.ErrConflict, "closing twice")
	st, err = m.Standing(ctx, u.ID)
	must(t, err)
	if st.Moderator || st.Closed == nil || st.Closed.Reason != "abuse" || st.Mute == nil || !st.Mute.Until.IsZero() || st.Mute.Reason != "again" {
		t.Fatalf("standing after mute and close: %+v %+v %+v", st, st.Closed, st.Mute)
	}
	if c, err := m.AccountClosed(ctx, u.ID); err != nil || !c {
		t.Fatalf("AccountClosed = %v, %v", c, err)
	}
	if st, _ := m.Standing(ctx, mod.ID); !st.Moderator || st.Closed != nil {
		t.Fatalf("the moderator's standing: %+v", st)
	}
	must(t, m.Unmute(ctx, u.ID, e("unmute")))
	wantErr(t, m.Unmute(ctx, u.ID, e("unmute")), store.ErrNotFound, "unmuting one not muted")
	must(t, m.ReopenAccount(ctx, u.ID, e("reopen")))
	wantErr(t, m.ReopenAccount(ctx, u.ID, e("reopen")), store.ErrNotFound, "reopening an open account")
	must(t, m.SetModerator(ctx, mod.ID, false, e("revoke")))
	wantErr(t, m.SetModerator(ctx, mod.ID, false, e("revoke")), store.ErrConflict, "revoking twice")
	if c, _ := m.AccountClosed(ctx, u.ID); c {
		t.Fatal("reopened account still closed")
	}
	log, err := m.AuditLog(ctx, 0, 0)
	must(t, err)
	want := []string{"revoke", "reopen", "unmute", "close", "mute", "mute", "grant"}
	if len(log) != len(want) {
		t.Fatalf("log: %+v", log)
	}
	for i, w := range want {
		if log[i].Action != w || log[i].Actor != "command line (root)" || !log[i].At.Equal(t0) {
			t.Fatalf("log[%d] = %+v, want %s", i, log[i], w)
		}
	}
}

// testModerationRace: moderators on two nodes closing the same account at
// once: one succeeds, the other is ErrConflict, and the log has one close.
func testModerationRace(t *testing.T, s store.Store) {
	m := moderationOf(t, s)
	ctx := context.Background()
	u := newUser(t, s, "target")
	var wg sync.WaitGroup
	errs := make([]error, 8)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = m.CloseAccount(ctx, store.Closure{UserID: u.ID, Reason: "r", Created: t0},
				store.AuditEntry{Actor: "x", Action: "close", TargetID: u.ID, Reason: "r", At: t0})
		}()
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else {
			wantErr(t, err, store.ErrConflict, "a concurrent close")
		}
	}
	log, err := m.AuditLog(ctx, 0, 0)
	must(t, err)
	if ok != 1 || len(log) != 1 {
		t.Fatalf("%d closes succeeded, %d logged; want 1, 1", ok, len(log))
	}
}
