package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// TestTournamentDirectorKilled (issue 25 item 6): a Swiss of four players
// and two rounds runs under the lease of one node's director. In the middle
// of round 1 — one board's game over and recorded, the other still live —
// that node is killed (SIGKILL). The other node's director takes the lease
// over: the live game, finished on the surviving node, is recorded, round
// 2 is paired (no rematch, everyone once) and played, and the tournament
// finishes. Round 1 is what it was (same boards, same games), and the
// database holds exactly one game per board: none lost, none made twice.
func TestTournamentDirectorKilled(t *testing.T) {
	s := newSite(t, 2)
	base := s.nodeURL(0)
	users := map[string]*client{}
	var names []string
	for i := range 4 {
		c := s.anonymous()
		name := fmt.Sprint("tdk", i)
		var resp struct{ Token string }
		if _, err := c.callAt(base, "POST", "/api/users", map[string]string{"name": name, "password": "plum tart at noon"}, &resp); err != nil {
			t.Fatalf("%s registers: %v", name, err)
		}
		c.token, c.name = resp.Token, name
		users[name] = c
		names = append(names, name)
	}
	req := map[string]any{"name": "Failover Swiss", "format": "swiss", "game": "sgolte", "rounds": 2,
		"start": time.Now().Add(3 * time.Second).UTC().Format(time.RFC3339Nano), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	var created struct{ Tournament struct{ ID string } }
	if st, err := users[names[0]].callAt(base, "POST", "/api/tournaments", req, &created); err != nil {
		t.Fatalf("create: %d %v", st, err)
	}
	id := created.Tournament.ID
	for _, n := range names {
		if st, err := users[n].callAt(base, "POST", "/api/tournaments/"+id+"/join", nil, nil); err != nil {
			t.Fatalf("%s joins: %d %v", n, st, err)
		}
	}

	type board struct{ White, Black, GameID, Result string }
	var tr struct {
		Tournament struct{ Status string }
		Rounds     []struct{ Boards []board }
	}
	read := func(at string) {
		t.Helper()
		if st, err := users[names[0]].callAt(at, "GET", "/api/tournaments/"+id, nil, &tr); err != nil {
			t.Fatalf("read the tournament: %d %v", st, err)
		}
	}
	waitTill := func(d time.Duration, what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("waited %v for %s; the tournament: %+v", d, what, tr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	live := func(at, game string) bool {
		var snap struct{ Game struct{ Status string } }
		_, err := users[names[0]].callAt(at, "GET", "/api/games/"+game, nil, &snap)
		return err == nil && snap.Game.Status == "live"
	}
	// resign has the board's Black resign, through the node at, until the
	// game's owner (perhaps a new one after the kill) answers.
	resign := func(at string, b board) {
		t.Helper()
		waitTill(30*time.Second, "the resignation of "+b.GameID, func() bool {
			_, err := users[b.Black].callAt(at, "POST", "/api/games/"+b.GameID+"/resign", struct{}{}, nil)
			return err == nil || codeOf(err) == "game_over"
		})
	}
	waitTill(30*time.Second, "round 1's games", func() bool {
		read(base)
		return len(tr.Rounds) == 1 && len(tr.Rounds[0].Boards) == 2 && live(base, tr.Rounds[0].Boards[0].GameID) && live(base, tr.Rounds[0].Boards[1].GameID)
	})
	r1 := tr.Rounds[0].Boards

	// The director: the node whose log names the lease's holder.
	var holder string
	if err := s.admin.QueryRow("SELECT owner FROM "+s.schema+".tournaments WHERE id = $1", id).Scan(&holder); err != nil || holder == "" {
		t.Fatalf("the tournament's lease holder %q: %v", holder, err)
	}
	dir := -1
	for i, p := range s.nodes {
		if data, _ := os.ReadFile(p.log.Name()); strings.Contains(string(data), holder) {
			dir = i
		}
	}
	if dir < 0 {
		t.Fatalf("no node's log names the director %s", holder)
	}
	survivor := s.nodeURL(1 - dir)
	t.Logf("the director is node%d (%s)", dir+1, holder)

	// Board 1 ends before the kill and is recorded by the first director.
	resign(base, r1[0])
	waitTill(20*time.Second, "board 1's result", func() bool { read(base); return tr.Rounds[0].Boards[0].Result != "" })

	killed := time.Now()
	s.nodes[dir].kill()
	t.Logf("killed node%d with board 2 (%s) live", dir+1, r1[1].GameID)
	resign(survivor, r1[1])
	waitTill(45*time.Second, "round 2 paired by another director", func() bool { read(survivor); return len(tr.Rounds) == 2 })
	t.Logf("round 2 paired %v after the kill", time.Since(killed).Round(100*time.Millisecond))
	var newHolder string
	s.admin.QueryRow("SELECT owner FROM "+s.schema+".tournaments WHERE id = $1", id).Scan(&newHolder)
	if newHolder == holder {
		t.Fatalf("the dead director %s still holds the lease", holder)
	}

	// Round 1 unchanged, both results kept; round 2 a fair pairing.
	for i, b := range tr.Rounds[0].Boards {
		if b.White != r1[i].White || b.Black != r1[i].Black || b.GameID != r1[i].GameID {
			t.Fatalf("round 1 board %d changed: %+v, was %+v", i+1, b, r1[i])
		}
		if b.Result != "0-1" && b.Result != "1-0" {
			t.Fatalf("round 1 board %d: result %q, want a win (Black resigned)", i+1, b.Result)
		}
	}
	met := map[string]bool{}
	for _, b := range r1 {
		met[b.White+"/"+b.Black], met[b.Black+"/"+b.White] = true, true
	}
	seen := map[string]bool{}
	r2 := tr.Rounds[1].Boards
	for _, b := range r2 {
		if met[b.White+"/"+b.Black] || seen[b.White] || seen[b.Black] || b.Black == "" || b.GameID == "" {
			t.Fatalf("round 2 %+v after round 1 %+v: a rematch, a player twice, or a board without its game", r2, r1)
		}
		seen[b.White], seen[b.Black] = true, true
	}
	for _, b := range r2 {
		waitTill(30*time.Second, "round 2's game "+b.GameID, func() bool { return live(survivor, b.GameID) })
		resign(survivor, b)
	}
	waitTill(30*time.Second, "the tournament's end", func() bool { read(survivor); return tr.Tournament.Status == "finished" })

	// One stored game per board, and no other game made by the site.
	ids := []any{}
	for _, rd := range tr.Rounds {
		for _, b := range rd.Boards {
			ids = append(ids, b.GameID)
		}
	}
	var boards, siteGames int
	if err := s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".games WHERE id IN ($1, $2, $3, $4) AND status = 'finished'", ids...).Scan(&boards); err != nil {
		t.Fatal(err)
	}
	if err := s.admin.QueryRow("SELECT COUNT(*) FROM " + s.schema + ".games WHERE creator_id = 0").Scan(&siteGames); err != nil {
		t.Fatal(err)
	}
	if boards != 4 || siteGames != 4 {
		t.Fatalf("%d of the 4 boards' games finished in the database, %d games made by the site: want 4 and 4", boards, siteGames)
	}
	s.cleanLogs()
}
