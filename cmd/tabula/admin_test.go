package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/account"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// TestAdmin: `tabula admin` on a temporary SQLite file grants the role,
// lists a report, mutes and closes a player, undoes each, and logs it all
// with who ran it and why; a closed account cannot sign in until it is
// reopened.
func TestAdmin(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "tabula.db")
	st, err := sqlite.Open(ctx, path, sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	hash, err := account.HashPassword("correct horse battery", account.PasswordCost{Time: 1, MemoryKiB: 64})
	if err != nil {
		t.Fatal(err)
	}
	users := map[string]store.User{}
	for _, n := range []string{"Mona", "mallory", "rita"} {
		u := store.User{Name: n, PasswordHash: hash, Created: time.Now()}
		if err := st.CreateUser(ctx, &u); err != nil {
			t.Fatal(err)
		}
		users[n] = u
	}
	rep := store.Report{ReporterID: users["rita"].ID, UserID: users["mallory"].ID, GameID: "g1", Line: 2, LineText: "you fool",
		Reason: "abuse", Text: "rude \x1b[31m", Created: time.Now()}
	if err := st.CreateReport(ctx, &rep); err != nil {
		t.Fatal(err)
	}
	st.Close()

	ok := func(want string, args ...string) string {
		t.Helper()
		code, out, errOut := tabula(t, "", append([]string{"admin", "--db", path, "--as", "root"}, args...)...)
		if code != 0 || !strings.Contains(out, want) {
			t.Fatalf("tabula admin %v: exit %d, out %q, err %q; want %q", args, code, out, errOut, want)
		}
		return out
	}
	refused := func(want string, args ...string) {
		t.Helper()
		code, out, errOut := tabula(t, "", append([]string{"admin", "--db", path}, args...)...)
		if code == 0 || !strings.Contains(errOut, want) || strings.Count(strings.TrimSpace(errOut), "\n") != 0 {
			t.Fatalf("tabula admin %v: exit %d, out %q, err %q; want one line with %q", args, code, out, errOut, want)
		}
	}
	ok("granted the moderator role to Mona", "grant", "mona", "--reason", "trusted")
	ok("Mona", "moderators")
	refused("already", "grant", "Mona", "--reason", "again")
	refused("give a reason", "grant", "rita")
	out := ok("you fool", "reports")
	if strings.Contains(out, "\x1b") {
		t.Fatalf("a report's text reached the terminal unescaped: %q", out)
	}
	var js struct {
		Reports []struct {
			ID       int64  `json:"id"`
			User     string `json:"user"`
			LineText string `json:"lineText"`
		} `json:"reports"`
	}
	if err := json.Unmarshal([]byte(ok("mallory", "reports", "--json")), &js); err != nil || len(js.Reports) != 1 || js.Reports[0].LineText != "you fool" {
		t.Fatalf("reports --json: %+v, %v", js, err)
	}
	ok("muted mallory until", "mute", "mallory", "--for", "2h", "--reason", "abuse", "--report", "1")
	if out := ok("id", "reports"); strings.Contains(out, "you fool") {
		t.Fatalf("the answered report is still open: %q", out)
	}
	ok("actioned", "reports", "--status", "actioned")
	ok("unmuted mallory", "unmute", "mallory", "--reason", "appeal")
	refused("not muted", "unmute", "mallory", "--reason", "again")
	ok("closed the account mallory", "close", "mallory", "--reason", "abuse")
	refused("closed already", "close", "MALLORY", "--reason", "again")

	st, err = sqlite.Open(ctx, path, sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	accts := account.New(account.Config{Store: st, Cost: account.PasswordCost{Time: 1, MemoryKiB: 64}})
	if _, err := accts.SignIn(ctx, "mallory", "correct horse battery", "test"); err != account.ErrClosed {
		t.Fatalf("a closed account signed in: %v", err)
	}
	st.Close()
	ok("reopened the account mallory", "reopen", "mallory", "--reason", "appeal upheld")
	st, err = sqlite.Open(ctx, path, sqlite.Options{NoSync: true})
	if err != nil {
		t.Fatal(err)
	}
	accts = account.New(account.Config{Store: st, Cost: account.PasswordCost{Time: 1, MemoryKiB: 64}})
	if _, err := accts.SignIn(ctx, "mallory", "correct horse battery", "test"); err != nil {
		t.Fatalf("a reopened account cannot sign in: %v", err)
	}
	st.Close()
	ok("report 1 is open", "reopen-report", "1", "--reason", "look again")
	ok("report 1 is dismissed", "dismiss", "1", "--reason", "nothing there")
	ok("revoked the moderator role of Mona", "revoke", "Mona", "--reason", "stepped down")

	log := ok("command line (root)", "log")
	for _, act := range []string{"grant", "mute", "actioned", "unmute", "close", "reopen", "reopen-report", "dismiss", "revoke"} {
		if !strings.Contains(log, " "+act+" ") {
			t.Fatalf("the log has no %s:\n%s", act, log)
		}
	}
	if !strings.Contains(log, `"appeal upheld"`) {
		t.Fatalf("the log lacks a reason:\n%s", log)
	}

	refused("no such database file", "--db", filepath.Join(t.TempDir(), "typo.db"), "moderators")
	refused("unknown subcommand", "frobnicate")
	refused("does not apply", "grant", "rita", "--for", "1h", "--reason", "x")
	refused("takes 1 argument", "mute", "--reason", "x")
	refused("no user", "mute", "nobody", "--reason", "x")
	refused("not a report's number", "dismiss", "x1", "--reason", "x")
	refused("no report 99", "dismiss", "99", "--reason", "x")
	refused("a mute lasts", "mute", "rita", "--for", "10s", "--reason", "x")
}
