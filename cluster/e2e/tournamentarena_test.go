package e2e

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"
)

// registered makes a registered user of each name, each through the next
// node in turn, and returns their clients (signed in through the proxy).
func (s *site) registered(names ...string) []*client {
	s.t.Helper()
	var out []*client
	for i, name := range names {
		c := s.anonymous()
		var resp struct{ Token string }
		if st, err := c.callAt(s.nodeURL(i%len(s.nodes)), "POST", "/api/users", map[string]string{"name": name, "password": "plum tart at noon"}, &resp); err != nil {
			s.t.Fatalf("%s registers on node %d: %d %v", name, i%len(s.nodes)+1, st, err)
		}
		c.token, c.name = resp.Token, name
		out = append(out, c)
	}
	return out
}

type arenaView struct {
	Tournament struct{ Status string }
	Rounds     []struct {
		Number int
		Boards []struct{ White, Black, GameID, Result string }
	}
	Arena struct {
		FinishedGames  int
		StandingsTotal int
		Standings      json.RawMessage
	}
}

// TestArenaAcrossNodes (issue 25 item 6): an arena of four players who
// joined through three nodes, its games ended through any node, is paired
// again and again by its one director, and every node then tells the same
// standings, the same games of each player and the same pages — the
// arena's parts of the answer (recent boards, standings pages, a player's
// games) read what the director stored, not what one node saw. One player
// wins every game (the others resign against her; elsewhere Black
// resigns), so her line is known: 2, 2, then 4 a game on her streak.
func TestArenaAcrossNodes(t *testing.T) {
	s := newSite(t, 3)
	users := s.registered("arw", "arx", "ary", "arz")
	byName := map[string]*client{}
	for _, c := range users {
		byName[c.name] = c
	}
	req := map[string]any{"name": "Arena across nodes", "format": "arena", "game": "sgolte", "minutes": 1,
		"start": time.Now().Add(8 * time.Second).UTC().Format(time.RFC3339Nano), "clock": map[string]any{"kind": "realtime", "initialMs": 600000}}
	var created struct{ Tournament struct{ ID string } }
	if st, err := users[0].callAt(s.nodeURL(0), "POST", "/api/tournaments", req, &created); err != nil {
		t.Fatalf("create: %d %v", st, err)
	}
	id := created.Tournament.ID
	for i, c := range users {
		if st, err := c.callAt(s.nodeURL(i%3), "POST", "/api/tournaments/"+id+"/join", nil, nil); err != nil {
			t.Fatalf("%s joins on node %d: %d %v", c.name, i%3+1, st, err)
		}
	}

	// End every game as it comes, through a node other than the one read.
	resigned := map[string]bool{}
	var view arenaView
	k := 0
	for end := time.Now().Add(3 * time.Minute); view.Tournament.Status != "finished"; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("the arena is %q 3 minutes after its creation (1 minute long); %d games finished", view.Tournament.Status, view.Arena.FinishedGames)
		}
		k++
		if _, err := users[0].callAt(s.nodeURL(k%3), "GET", "/api/tournaments/"+id, nil, &view); err != nil {
			t.Fatalf("GET on node %d: %v", k%3+1, err)
		}
		for _, r := range view.Rounds {
			for _, b := range r.Boards {
				if b.Result != "" || b.GameID == "" || resigned[b.GameID] {
					continue
				}
				loser := b.Black
				if b.Black == "arw" {
					loser = b.White
				}
				// A wave is stored before its games are created and
				// seated: a resignation may come too soon (404, 409),
				// and is sent again at the next look.
				if _, err := byName[loser].callAt(s.nodeURL((k+1)%3), "POST", "/api/games/"+b.GameID+"/resign", nil, nil); err == nil {
					resigned[b.GameID] = true
				}
			}
		}
	}
	if len(resigned) < 4 {
		t.Fatalf("%d games in a minute of four players whose games end at once", len(resigned))
	}

	// Every node tells the same.
	var first arenaView
	for i := range 3 {
		var v arenaView
		if _, err := users[1].callAt(s.nodeURL(i), "GET", "/api/tournaments/"+id, nil, &v); err != nil {
			t.Fatalf("GET on node %d: %v", i+1, err)
		}
		if i == 0 {
			first = v
			continue
		}
		if string(v.Arena.Standings) != string(first.Arena.Standings) || v.Arena.FinishedGames != first.Arena.FinishedGames {
			t.Errorf("node %d's standings (%d games)\n%s\nnode 1's (%d games)\n%s", i+1, v.Arena.FinishedGames, v.Arena.Standings, first.Arena.FinishedGames, first.Arena.Standings)
		}
	}
	var lines []struct {
		Rank                int
		Name                string
		Points, Games, Wins int
		Sheet               []int
	}
	if err := json.Unmarshal(first.Arena.Standings, &lines); err != nil {
		t.Fatal(err)
	}
	// (A resignation whose answer was lost is sent again and refused as
	// the game is over: a game may have ended unseen by the count.)
	if first.Arena.FinishedGames < len(resigned) || first.Arena.StandingsTotal != 4 || len(lines) != 4 {
		t.Fatalf("%d games finished of %d resigned; %d standings lines of %d", first.Arena.FinishedGames, len(resigned), len(lines), first.Arena.StandingsTotal)
	}
	t.Logf("%d games in the minute; arw's sheet %v", first.Arena.FinishedGames, lines[0].Sheet)
	games := 0
	for _, l := range lines {
		games += l.Games
		var got []string
		for i := range 3 {
			var mine struct {
				Rounds []struct{ Boards []struct{ Result string } }
				Line   struct{ Games int }
			}
			st, err := users[2].callAt(s.nodeURL(i), "GET", "/api/tournaments/"+id+"/games?player="+l.Name, nil, &mine)
			if err != nil || st != http.StatusOK {
				t.Fatalf("%s's games on node %d: %d %v", l.Name, i+1, st, err)
			}
			data, _ := json.Marshal(mine)
			got = append(got, string(data))
			n := 0
			for _, r := range mine.Rounds {
				n += len(r.Boards)
			}
			if n != l.Games || mine.Line.Games != l.Games {
				t.Errorf("node %d lists %d games of %s (line: %d), the standings %d", i+1, n, l.Name, mine.Line.Games, l.Games)
			}
		}
		if got[1] != got[0] || got[2] != got[0] {
			t.Errorf("%s's games differ between nodes:\n%s", l.Name, got)
		}
		if l.Name == "arw" {
			want := 0
			for g := range l.Games {
				want += map[bool]int{true: 2, false: 4}[g < 2]
			}
			if l.Rank != 1 || l.Wins != l.Games || l.Points != want {
				t.Errorf("arw won all %d games: rank %d, %d wins, %d points (sheet %v), want %d", l.Games, l.Rank, l.Wins, l.Points, l.Sheet, want)
			}
		}
	}
	if games != 2*first.Arena.FinishedGames {
		t.Errorf("the lines count %d games, two a game of %d", games, first.Arena.FinishedGames)
	}
	for i := range 3 {
		var page struct{ Page, Total int }
		if _, err := users[3].callAt(s.nodeURL(i), "GET", "/api/tournaments/"+id+"/standings?player=ARZ", nil, &page); err != nil || page.Page != 1 || page.Total != 4 {
			t.Errorf("arz's standings page on node %d: %+v %v", i+1, page, err)
		}
	}
}
