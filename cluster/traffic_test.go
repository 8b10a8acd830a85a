package cluster

import (
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestBusTraffic measures what each node of three receives from NATS
// while 100 games are played (docs/deploy.md's table): each game is owned
// by one node and watched by one connection on the next. It runs only when
// TABULA_BUS_MEASURE is set (go test -run TestBusTraffic -v ./cluster/),
// and logs the messages and bytes each node received.
func TestBusTraffic(t *testing.T) {
	if os.Getenv("TABULA_BUS_MEASURE") == "" {
		t.Skip("set TABULA_BUS_MEASURE=1 to measure the bus")
	}
	const games, stones = 100, 30
	e := newQuietEnv(t)
	nodes := []*testNode{e.start(), e.start(), e.start()}
	type stat struct{ msgs, bytes uint64 }
	before := make([]stat, len(nodes))
	for i, n := range nodes {
		s := n.n.nc.Stats()
		before[i] = stat{s.InMsgs, s.InBytes}
	}
	start := time.Now()
	for g := 0; g < games; g++ {
		owner, watcher := nodes[g%3], nodes[(g+1)%3]
		id := fmt.Sprint("t", g)
		watch(watcher, id)
		a, b := match.User{ID: int64(2*g + 1)}, match.User{ID: int64(2*g + 2)}
		m := match.Meta{ID: id, Game: "tnim", Options: map[string]string{"stones": fmt.Sprint(stones)},
			Seats: []match.Seat{{Kind: match.SeatHuman, UserID: a.ID}, {Kind: match.SeatInvite, UserID: b.ID}}}
		if _, err := owner.reg.Create(t.Context(), a, m); err != nil {
			t.Fatal(err)
		}
		if _, err := owner.do(id, match.Command{Kind: match.CmdJoin, User: b, Seat: -1}); err != nil {
			t.Fatal(err)
		}
		for ply := 0; ply < stones; ply++ {
			who := []match.User{a, b}[ply%2]
			if _, err := owner.do(id, match.Command{Kind: match.CmdMove, User: who, Seat: -1, Ply: ply, Move: "1"}); err != nil {
				t.Fatalf("%s ply %d: %v", id, ply, err)
			}
		}
	}
	// Every watched game's end has reached its watcher.
	for g := 0; g < games; g++ {
		id := fmt.Sprint("t", g)
		if _, err := nodes[(g+1)%3].events.Wait(func(ev match.Event) bool { return ev.Game == id && ev.Kind == match.EventEnd }); err != nil {
			t.Fatalf("%s's end: %v", id, err)
		}
	}
	// Then until the counts stop moving.
	stable := 0
	last := make([]uint64, len(nodes))
	for stable < 5 {
		time.Sleep(50 * time.Millisecond)
		stable++
		for i, n := range nodes {
			if m := n.n.nc.Stats().InMsgs; m != last[i] {
				last[i], stable = m, 0
			}
		}
	}
	t.Logf("%d games of tnim (%d moves each), 3 nodes, one watcher of each game on another node, in %v", games, stones, time.Since(start).Round(time.Millisecond))
	for i, n := range nodes {
		s := n.n.nc.Stats()
		t.Logf("| node %d | %d messages | %d bytes | sent %d messages, %d bytes |", i+1, s.InMsgs-before[i].msgs, s.InBytes-before[i].bytes, s.OutMsgs, s.OutBytes)
	}
}
