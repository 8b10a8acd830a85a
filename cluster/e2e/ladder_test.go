package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestLadderAcrossNodes (issue 26 point 5, on N nodes): two bot accounts,
// each connected with `tabula bot --ladder sploof` through the proxy, are
// paired on the ladder by exactly one node's matchmaker (the ladder's
// lease), with each other and with the built-in anchors. That node is
// killed (SIGKILL) with ladder games in progress: another node takes the
// lease once it lapses and pairs again, the games the dead node made are
// finished by the nodes that take them over and recorded, no bot is ever in
// more ladder games at once than it asked for, and every node shows the same
// ladder.
func TestLadderAcrossNodes(t *testing.T) {
	s := newSite(t, 3)
	// The connectors speak to the proxy, which trusts its own certificate
	// only: Go's TLS takes extra roots from SSL_CERT_FILE.
	t.Setenv("SSL_CERT_FILE", filepath.Join(s.dir, "ca.pem"))

	const maxGames = 2
	var bots []*proc
	defer func() {
		for _, b := range bots {
			b.stop()
		}
	}()
	ids := map[string]bool{}
	for i := range 2 {
		c := s.anonymous()
		name := fmt.Sprint("ladderbot", i)
		var reg struct{ Token string }
		if st, err := c.call("POST", "/api/users", map[string]string{"name": name, "password": "plum tart at noon"}, &reg); err != nil {
			t.Fatalf("%s registers: %d %v", name, st, err)
		}
		c.token, c.name = reg.Token, name
		if st, err := c.call("POST", "/api/me/bot", struct{}{}, nil); err != nil {
			t.Fatalf("%s becomes a bot: %d %v", name, st, err)
		}
		var tok struct{ Token string }
		if st, err := c.call("POST", "/api/tokens", map[string]any{"name": "ladder", "scopes": []string{"bot:play"}}, &tok); err != nil {
			t.Fatalf("%s's token: %d %v", name, st, err)
		}
		policy := filepath.Join(s.dir, name+".json")
		if err := os.WriteFile(policy, []byte(fmt.Sprintf(`{"maxGames": %d}`, maxGames)), 0o644); err != nil {
			t.Fatal(err)
		}
		bots = append(bots, s.start(name, binary, "bot", "--server", s.https, "--token", tok.Token,
			"--engine", "random", "--seed", fmt.Sprint(i+1), "--ladder", "sploof", "--config", policy))
		ids[name] = true
	}

	// ladderGames is what the store holds of the ladder's games.
	type ladderGame struct {
		id, first, second, result string
		created, ended            int64
	}
	ladderGames := func() []ladderGame {
		t.Helper()
		rows, err := s.admin.Query(`SELECT lg.game_id, COALESCE(a.name, lg.first_level), COALESCE(b.name, lg.second_level), lg.result, lg.created, lg.ended
			FROM ` + s.schema + `.ladder_games lg
			LEFT JOIN ` + s.schema + `.users a ON a.id = lg.first_user
			LEFT JOIN ` + s.schema + `.users b ON b.id = lg.second_user
			ORDER BY lg.created`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var out []ladderGame
		for rows.Next() {
			var g ladderGame
			if err := rows.Scan(&g.id, &g.first, &g.second, &g.result, &g.created, &g.ended); err != nil {
				t.Fatal(err)
			}
			out = append(out, g)
		}
		return out
	}
	finished := func(gs []ladderGame) int {
		n := 0
		for _, g := range gs {
			if g.result != "" {
				n++
			}
		}
		return n
	}

	// The matchmaker: the node whose log says it took the lease last.
	matchmaker := func() int {
		best, at := -1, ""
		entries, _ := os.ReadDir(s.dir)
		for _, e := range entries {
			for i := range 3 {
				if !strings.HasPrefix(e.Name(), fmt.Sprint("node", i+1, "-")) {
					continue
				}
				data, _ := os.ReadFile(filepath.Join(s.dir, e.Name()))
				for _, line := range strings.Split(string(data), "\n") {
					if strings.Contains(line, `msg="ladder matchmaker"`) {
						if ts, _, ok := strings.Cut(strings.TrimPrefix(line, "time="), " "); ok && ts > at {
							best, at = i, ts
						}
					}
				}
			}
		}
		return best
	}

	waitFor := func(d time.Duration, what string, cond func() bool) {
		t.Helper()
		deadline := time.Now().Add(d)
		for !cond() {
			if time.Now().After(deadline) {
				t.Fatalf("%s: not within %v; the ladder's games: %+v", what, d, ladderGames())
			}
			time.Sleep(250 * time.Millisecond)
		}
	}
	waitFor(90*time.Second, "two ladder games finished", func() bool { return finished(ladderGames()) >= 2 })
	mm := matchmaker()
	if mm < 0 {
		t.Fatal("no node logged that it is the ladder's matchmaker")
	}
	before := ladderGames()
	var live []string
	for _, g := range before {
		if g.result == "" {
			live = append(live, g.id)
		}
	}
	killedAt := time.Now()
	s.nodes[mm].kill()
	t.Logf("killed node%d, the ladder's matchmaker, with %d ladder games made (%d finished, live: %v)", mm+1, len(before), finished(before), live)

	// Another node takes the lease and pairs again; the games the dead
	// node made are finished and recorded.
	waitFor(2*time.Minute, "a ladder game made after the kill, by another node", func() bool {
		for _, g := range ladderGames() {
			if time.UnixMilli(g.created).After(killedAt) {
				return true
			}
		}
		return false
	})
	if m := matchmaker(); m == mm || m < 0 {
		t.Fatalf("after the kill the matchmaker is node%d", m+1)
	}
	waitFor(2*time.Minute, "the games live at the kill recorded", func() bool {
		done := map[string]bool{}
		for _, g := range ladderGames() {
			if g.result != "" {
				done[g.id] = true
			}
		}
		for _, id := range live {
			if !done[id] {
				return false
			}
		}
		return true
	})
	s.startNode(mm)

	// The bots stop (leaving the ladder, finishing their games), and every
	// ladder game is recorded.
	for _, b := range bots {
		b.stop()
	}
	bots = nil
	waitFor(2*time.Minute, "every ladder game recorded after the bots stopped", func() bool {
		gs := ladderGames()
		return finished(gs) == len(gs)
	})
	// Never more games at once than a bot asked for: at each game's start,
	// count the bot's games that were in progress.
	all := ladderGames()
	for _, g := range all {
		for _, who := range []string{g.first, g.second} {
			if !ids[who] {
				continue
			}
			at := 0
			for _, o := range all {
				if (o.first == who || o.second == who) && o.created <= g.created && (o.ended == 0 || o.ended > g.created) {
					at++
				}
			}
			if at > maxGames {
				t.Errorf("%s was in %d ladder games at once when %s began (it asked for %d)", who, at, g.id, maxGames)
			}
		}
	}
	// Every ladder game is a game of the store, made once (or counted
	// aborted: its creation lost with its node).
	for _, g := range all {
		var n int
		s.admin.QueryRow("SELECT COUNT(*) FROM "+s.schema+".games WHERE id = $1", g.id).Scan(&n)
		if n != 1 && g.result != "aborted" {
			t.Errorf("ladder game %s (%s) has %d games in the store", g.id, g.result, n)
		}
	}

	// Every node shows the same ladder, with the bots' games counted.
	type entrant struct {
		Name   string
		Anchor bool
		Games  int
		Rating int
	}
	var pages [3]string
	for i := range 3 {
		var page struct{ Entrants []entrant }
		if st, err := s.anonymous().callAt(s.nodeURL(i), "GET", "/api/ladder/sploof", nil, &page); err != nil {
			t.Fatalf("node%d's ladder: %d %v", i+1, st, err)
		}
		games := 0
		for _, e := range page.Entrants {
			if ids[e.Name] {
				games += e.Games
			}
		}
		if games == 0 {
			t.Errorf("node%d's ladder counts no game of the bots: %+v", i+1, page.Entrants)
		}
		pages[i] = fmt.Sprintf("%+v", page.Entrants)
	}
	if pages[0] != pages[1] || pages[1] != pages[2] {
		t.Errorf("the nodes show different ladders:\n%s\n%s\n%s", pages[0], pages[1], pages[2])
	}
	t.Logf("%d ladder games, all finished; the ladder: %s", len(ladderGames()), pages[0])
	s.cleanLogs()
}
