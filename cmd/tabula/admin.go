package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/user"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tabula-games/tabula/moderation"
	"github.com/tabula-games/tabula/store"
	"github.com/tabula-games/tabula/store/sqlite"
)

// `tabula admin`: the site's administrator's moderation, on the store the
// site uses (--db, as `serve` takes it, or TABULA_DB). It grants and
// revokes the moderator role — which only the command line can — and does
// what a moderator does on the site (package moderation, the same rules):
// list reports and the log, mute, close, dismiss, and undo each. Every
// change is logged with "command line (USER)" as who did it.

// adminUsage is the subcommands, for the usage line and errors.
const adminUsage = "admin [--db FILE|postgres://…] [--as NAME] grant|revoke NAME --reason R | moderators | reports [--status open|dismissed|actioned|all] [--json] | log [--json] | mute NAME [--for 24h] --reason R [--report ID] | unmute NAME --reason R | close NAME --reason R [--report ID] | reopen NAME --reason R | dismiss|reopen-report ID --reason R"

// adminArgs is how many positional arguments each subcommand takes after
// its name, and which of the optional flags apply to it.
var adminArgs = map[string]struct {
	n     int
	flags []string
}{
	"grant": {1, []string{"reason"}}, "revoke": {1, []string{"reason"}},
	"moderators": {0, nil}, "reports": {0, []string{"status", "json"}}, "log": {0, []string{"json", "limit"}},
	"mute": {1, []string{"reason", "for", "report"}}, "unmute": {1, []string{"reason"}},
	"close": {1, []string{"reason", "report"}}, "reopen": {1, []string{"reason"}},
	"dismiss": {1, []string{"reason"}}, "reopen-report": {1, []string{"reason"}},
}

func runAdmin(args []string, _ io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("admin", flag.ContinueOnError)
	db := fs.String("db", "tabula.db", "the site's SQLite database file (it must exist), or a postgres:// URL (TABULA_DB stands in for it)")
	as := fs.String("as", "", "who is acting, for the log (default: the system user running the command)")
	reason := fs.String("reason", "", "why, for the log (every change needs one)")
	dur := fs.Duration("for", 0, "mute: how long (1m to 8760h); without it, until unmuted")
	report := fs.Int64("report", 0, "mute, close: the report the action answers (it is marked actioned)")
	status := fs.String("status", "open", "reports: open, dismissed, actioned or all")
	asJSON := fs.Bool("json", false, "reports, log: one JSON object instead of a table")
	limit := fs.Int("limit", 100, "log: how many entries, newest first")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) == 0 {
		return fmt.Errorf("name a subcommand: %s", adminUsage)
	}
	cmd := pos[0]
	spec, ok := adminArgs[cmd]
	if !ok {
		return fmt.Errorf("unknown subcommand %q: %s", cmd, adminUsage)
	}
	if len(pos)-1 != spec.n {
		return fmt.Errorf("%s takes %d argument(s), not %d", cmd, spec.n, len(pos)-1)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	for name := range set {
		if name == "db" || name == "as" {
			continue
		}
		ok := false
		for _, f := range spec.flags {
			ok = ok || f == name
		}
		if !ok {
			return fmt.Errorf("--%s does not apply to %s", name, cmd)
		}
	}
	if v := os.Getenv("TABULA_DB"); v != "" && !set["db"] {
		*db = v
	}
	actor := moderation.Actor{Name: "command line (" + adminName(*as) + ")", CommandLine: true}

	ctx := context.Background()
	st, err := openAdminStore(ctx, *db)
	if err != nil {
		return err
	}
	defer st.Close()
	ms, ok := st.(moderation.Store)
	if !ok {
		return errors.New("this store keeps no moderation")
	}
	mod := moderation.New(ms, nil)
	arg := ""
	if spec.n > 0 {
		arg = pos[1]
	}
	reportID := func() (int64, error) {
		n, err := strconv.ParseInt(arg, 10, 64)
		if err != nil || n <= 0 {
			return 0, fmt.Errorf("%s: %q is not a report's number", cmd, arg)
		}
		return n, nil
	}
	switch cmd {
	case "grant", "revoke":
		var u store.User
		if cmd == "grant" {
			u, err = mod.Grant(ctx, actor, arg, *reason)
		} else {
			u, err = mod.Revoke(ctx, actor, arg, *reason)
		}
		if err == nil {
			fmt.Fprintf(stdout, "%s %s\n", map[string]string{"grant": "granted the moderator role to", "revoke": "revoked the moderator role of"}[cmd], u.Name)
		}
	case "moderators":
		var us []store.User
		if us, err = ms.Moderators(ctx); err == nil {
			for _, u := range us {
				fmt.Fprintln(stdout, u.Name)
			}
		}
	case "reports":
		err = adminReports(ctx, ms, *status, *asJSON, stdout)
	case "log":
		err = adminLog(ctx, ms, *limit, *asJSON, stdout)
	case "mute":
		var m store.Mute
		if m, err = mod.Mute(ctx, actor, arg, *dur, *reason, *report); err == nil {
			until := "until unmuted"
			if !m.Until.IsZero() {
				until = "until " + m.Until.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(stdout, "muted %s %s\n", arg, until)
		}
	case "unmute":
		if _, err = mod.Unmute(ctx, actor, arg, *reason); err == nil {
			fmt.Fprintf(stdout, "unmuted %s\n", arg)
		}
	case "close":
		if _, err = mod.Close(ctx, actor, arg, *reason, *report); err == nil {
			fmt.Fprintf(stdout, "closed the account %s\n", arg)
		}
	case "reopen":
		if _, err = mod.Reopen(ctx, actor, arg, *reason); err == nil {
			fmt.Fprintf(stdout, "reopened the account %s\n", arg)
		}
	case "dismiss", "reopen-report":
		var id int64
		if id, err = reportID(); err != nil {
			return err
		}
		var r store.Report
		if cmd == "dismiss" {
			r, err = mod.Dismiss(ctx, actor, id, *reason)
		} else {
			r, err = mod.ReopenReport(ctx, actor, id, *reason)
		}
		if err == nil {
			fmt.Fprintf(stdout, "report %d is %s\n", r.ID, r.Status)
		}
	}
	return err
}

// adminName is who runs the command: --as, else the system user.
func adminName(as string) string {
	if as = strings.TrimSpace(as); as != "" {
		return as
	}
	if u, err := user.Current(); err == nil && u.Username != "" {
		return u.Username
	}
	return "unknown"
}

// openAdminStore opens the site's store as serve does, except that an
// SQLite file must already exist: administering a new, empty file is
// always a mistyped path.
func openAdminStore(ctx context.Context, db string) (store.Store, error) {
	if strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://") {
		return openPostgres(ctx, db)
	}
	if _, err := os.Stat(db); err != nil {
		return nil, fmt.Errorf("--db %s: no such database file (give the file `tabula serve` uses)", db)
	}
	return sqlite.Open(ctx, db, sqlite.Options{})
}

// adminReport is a report as `admin reports --json` prints it.
type adminReport struct {
	ID       int64               `json:"id"`
	Reporter string              `json:"reporter"`
	User     string              `json:"user"`
	Game     string              `json:"game,omitempty"`
	Line     int64               `json:"line,omitempty"`
	LineText string              `json:"lineText,omitempty"`
	Context  []store.ChatContext `json:"context,omitempty"`
	Reason   string              `json:"reason"`
	Text     string              `json:"text"`
	Created  time.Time           `json:"created"`
	Status   string              `json:"status"`
}

func adminReports(ctx context.Context, ms moderation.Store, status string, asJSON bool, w io.Writer) error {
	switch status {
	case "all":
		status = ""
	case store.ReportOpen, store.ReportDismissed, store.ReportActioned:
	default:
		return fmt.Errorf("--status %q: want open, dismissed, actioned or all", status)
	}
	list, err := ms.Reports(ctx, store.ReportFilter{Status: status, Limit: 1000})
	if err != nil {
		return err
	}
	if asJSON {
		out := []adminReport{}
		for _, r := range list {
			out = append(out, adminReport{ID: r.ID, Reporter: r.Reporter, User: r.User, Game: r.GameID, Line: r.Line,
				LineText: r.LineText, Context: r.Context, Reason: r.Reason, Text: r.Text, Created: r.Created.UTC(), Status: r.Status})
		}
		return json.NewEncoder(w).Encode(map[string]any{"reports": out})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\twhen\tstatus\treporter\tuser\treason\tgame\tline\ttext")
	for _, r := range list {
		line := ""
		if r.Line != 0 {
			line = fmt.Sprintf("%d: %q", r.Line, r.LineText)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%q\n", r.ID, r.Created.UTC().Format("2006-01-02 15:04"), r.Status,
			r.Reporter, r.User, r.Reason, r.GameID, line, r.Text)
	}
	return tw.Flush()
}

func adminLog(ctx context.Context, ms moderation.Store, limit int, asJSON bool, w io.Writer) error {
	if limit <= 0 || limit > 10000 {
		return fmt.Errorf("--limit %d: want 1 to 10000", limit)
	}
	list, err := ms.AuditLog(ctx, 0, limit)
	if err != nil {
		return err
	}
	if asJSON {
		type entry struct {
			ID     int64     `json:"id"`
			Actor  string    `json:"actor"`
			Action string    `json:"action"`
			Target string    `json:"target,omitempty"`
			Report int64     `json:"report,omitempty"`
			Reason string    `json:"reason"`
			Detail string    `json:"detail,omitempty"`
			At     time.Time `json:"at"`
		}
		out := []entry{}
		for _, e := range list {
			out = append(out, entry{e.ID, e.Actor, e.Action, e.Target, e.ReportID, e.Reason, e.Detail, e.At.UTC()})
		}
		return json.NewEncoder(w).Encode(map[string]any{"log": out})
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "id\twhen\twho\taction\ttarget\treport\treason\tdetail")
	for _, e := range list {
		rep := ""
		if e.ReportID != 0 {
			rep = strconv.FormatInt(e.ReportID, 10)
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\t%s\t%q\t%s\n", e.ID, e.At.UTC().Format("2006-01-02 15:04:05"), e.Actor, e.Action, e.Target, rep, e.Reason, e.Detail)
	}
	return tw.Flush()
}
