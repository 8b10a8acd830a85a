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
