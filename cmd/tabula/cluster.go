package main

import (
	"errors"
	"flag"
	"os"
	"strings"

	"github.com/tabula-games/tabula/cluster"
	"github.com/tabula-games/tabula/server"
)

// checkClusterFlags: cluster mode is PostgreSQL and NATS together; either
// one alone is a mistake worth stopping for (a second node on the same
// database without NATS would never hear of the first one's games).
func checkClusterFlags(postgres bool, nats string) error {
	switch {
	case nats != "" && !postgres:
		return errors.New("--nats is cluster mode, which needs --db postgres://… too (SQLite is one machine's)")
	case postgres && nats == "":
		return errors.New("--db postgres://… is cluster mode, which needs --nats nats://… too (the nodes' messages); for one machine use the default SQLite file")
	case nats != "" && !strings.HasPrefix(nats, "nats://") && !strings.HasPrefix(nats, "tls://"):
		return errors.New("--nats: want nats://host:port (or tls://…), several separated by commas")
	}
	return nil
}

// joinCluster makes this process a node of the cluster on the store (which
// is PostgreSQL here) and NATS.
func (m *serveMain) joinCluster() (server.Cluster, error) {
	st, ok := m.store.(cluster.Store)
	if !ok {
		return nil, errors.New("cluster mode: the store keeps no leases")
	}
	n, err := cluster.New(cluster.Config{
		Store: st, NATS: m.nats, Prefix: m.natsPrefix, Name: m.nodeName, LeaseTTL: m.leaseTTL, Log: m.log,
		// The server is made after the node; its bot pool says when the
		// node is at its budget.
		BotsFull: func() bool { return m.srv != nil && m.srv.BotsFull() },
	})
	if err != nil {
		return nil, err
	}
	m.node = n
	return n, nil
}

// fromEnvironment takes --db and --nats from TABULA_DB and TABULA_NATS
// when they are not given: their URLs may hold passwords, which an
// environment file keeps out of the process list. A flag wins.
func (m *serveMain) fromEnvironment(fs *flag.FlagSet) {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	if v := os.Getenv("TABULA_DB"); v != "" && !set["db"] {
		m.db = v
	}
	if v := os.Getenv("TABULA_NATS"); v != "" && !set["nats"] {
		m.nats = v
	}
}
