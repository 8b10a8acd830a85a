package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestClusterFlags: cluster mode is --db postgres://… and --nats together;
// either alone is refused at start-up with a clear error, before anything
// is opened or served.
func TestClusterFlags(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--db", db, "--nats", "nats://127.0.0.1:4222"}, "--nats is cluster mode, which needs --db postgres://"},
		{[]string{"--db", "postgres://nobody@127.0.0.1:1/x"}, "needs --nats nats://… too"},
		{[]string{"--db", "postgresql://nobody@127.0.0.1:1/x"}, "needs --nats nats://… too"},
		{[]string{"--db", "postgres://nobody@127.0.0.1:1/x", "--nats", "127.0.0.1:4222"}, "--nats: want nats://host:port"},
	} {
		_, err := startServe(t, append([]string{"--addr", "127.0.0.1:0", "--log-level", "error"}, tc.args...)...)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want an error about %q", tc.args, err, tc.want)
		}
	}
}

// TestClusterEnvironment: TABULA_DB and TABULA_NATS stand in for --db and
// --nats (keeping passwords out of the process list); a flag wins.
func TestClusterEnvironment(t *testing.T) {
	t.Setenv("TABULA_DB", "postgres://u:secret@db.internal/tabula")
	t.Setenv("TABULA_NATS", "nats://n:secret@nats.internal:4222")
	m, err := parseServe(nil)
	if err != nil || m.db != "postgres://u:secret@db.internal/tabula" || m.nats != "nats://n:secret@nats.internal:4222" {
		t.Fatalf("from the environment: %+v, %v", m, err)
	}
	m, err = parseServe([]string{"--db", "x.db", "--nats", "nats://other:4222"})
	if err != nil || m.db != "x.db" || m.nats != "nats://other:4222" {
		t.Fatalf("flags over the environment: %q %q, %v", m.db, m.nats, err)
	}
}
