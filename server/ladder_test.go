package server_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/ladder"
	"github.com/tabula-games/tabula/match"
)

type ladderPage struct {
	Game     string `json:"game"`
	Entrants []struct {
		ID        string `json:"id"`
		Name      string `json:"name"`
		Anchor    bool   `json:"anchor"`
		Active    bool   `json:"active"`
		Rating    int    `json:"rating"`
		Deviation int    `json:"deviation"`
		Games     int    `json:"games"`
		Wins      int    `json:"wins"`
		Draws     int    `json:"draws"`
		Losses    int    `json:"losses"`
		Playing   int    `json:"playing"`
		Measured  *struct {
			Rating int `json:"rating"`
		} `json:"measured"`
	} `json:"entrants"`
	HeadToHead []struct {
		A, B         string
		WinsA, WinsB int
		Draws        int
	} `json:"headToHead"`
	Games []struct {
		ID     string `json:"id"`
		First  string `json:"first"`
		Second string `json:"second"`
		Result string `json:"result"`
	} `json:"games"`
}

// ladderWait polls the ladder's page until ok says so (or fails after 20 s).
func ladderWait(t *testing.T, e *env, game string, what string, ok func(p ladderPage) bool) ladderPage {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var p ladderPage
		e.anon().must(http.StatusOK, "GET", "/api/ladder/"+game, nil, &p)
		if ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("ladder %s: waited for %s; page %+v", game, what, p)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// liveGame is user c's one live game.
func liveGame(t *testing.T, c *client) summary {
	t.Helper()
	var list struct{ Games []summary }
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.must(http.StatusOK, "GET", "/api/games?user="+c.name+"&status=live", nil, &list)
		if len(list.Games) == 1 {
			return list.Games[0]
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s's live games: %+v\n%s", c.name, list.Games, c.e.logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLadderJoinAuthz: only a bot account joins or leaves a ladder, with a
// token that may play; bad games and counts are refused and store nothing.
func TestLadderJoinAuthz(t *testing.T) {
	e := newEnv(t)
	alice, robo := e.register("alice"), e.register("robo")
	robo.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	e.anon().apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/ladder/sgolte/join", nil)
	e.guest().apiErr(http.StatusForbidden, "not_bot", "POST", "/api/ladder/sgolte/join", nil)
	alice.apiErr(http.StatusForbidden, "not_bot", "POST", "/api/ladder/sgolte/join", nil)
	alice.apiErr(http.StatusForbidden, "not_bot", "POST", "/api/ladder/sgolte/leave", nil)
	robo.newToken("reader", "read").apiErr(http.StatusForbidden, "scope", "POST", "/api/ladder/sgolte/join", nil)
	play := robo.newToken("player", "bot:play")
	play.apiErr(http.StatusNotFound, "not_found", "POST", "/api/ladder/chess/join", nil)
	play.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/ladder/sgolte/join", map[string]int{"maxGames": 0})
	play.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/ladder/sgolte/join", map[string]int{"maxGames": 5})
	play.apiErr(http.StatusBadRequest, "bad_json", "POST", "/api/ladder/sgolte/join", map[string]any{"maxGames": 1, "extra": true})
	play.apiErr(http.StatusNotFound, "not_found", "POST", "/api/ladder/sgolte/leave", nil)
	e.anon().apiErr(http.StatusNotFound, "not_found", "GET", "/api/ladder/chess", nil)
	var p ladderPage
	e.anon().must(http.StatusOK, "GET", "/api/ladder/sgolte", nil, &p)
	if len(p.Entrants) != 0 || p.HeadToHead == nil {
		t.Fatalf("refused joins stored something: %+v", p)
	}
	play.must(http.StatusOK, "POST", "/api/ladder/sgolte/join", map[string]int{"maxGames": 2}, nil)
	play.must(http.StatusNoContent, "POST", "/api/ladder/sgolte/leave", nil, nil)
	e.anon().must(http.StatusOK, "GET", "/api/ladder/sgolte", nil, &p)
	bots := 0
	for _, en := range p.Entrants {
		if !en.Anchor {
			bots++
			if en.Name != "robo" || en.Active {
				t.Fatalf("after join and leave: %+v", p.Entrants)
			}
		}
	}
	if bots != 1 {
		t.Fatalf("after join and leave: %+v", p.Entrants)
	}
}

// TestLadderPairs: a bot that joins is paired with an anchor at once; its
// loss rates it against the anchor's fixed rating, which does not move;
// two bots (anchors kept out) play a rated game with each other, and the
// page shows the games, W/D/L and the head-to-head record.
func TestLadderPairs(t *testing.T) {
	e := newEnv(t)
	lim := ladder.DefaultLimits
	lim.MaxAnchorGames = 1
	clock := match.Clock{Kind: match.ClockRealtime, InitialMs: 10 * 60 * 1000, IncrementMs: 1000}
	e.srv.SetLadder(20*time.Millisecond, clock, lim)
	r1, r2 := e.register("robo1"), e.register("robo2")
	for _, c := range []*client{r1, r2} {
		c.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	}
	r1.must(http.StatusOK, "POST", "/api/ladder/sgolte/join", nil, nil)
	g := liveGame(t, r1)
	var anchor string
	for _, s := range g.Seats {
		if s.Kind == "bot" {
			anchor = s.Level
		}
	}
	// The levels stand at their calibrated ratings (ladder.StartAnchors):
	// easy's 1200 is the closest to a new bot's 1500, not medium's 2196.
	if anchor != "easy" || g.Game != "sgolte" {
		t.Fatalf("the first ladder game %+v: want robo1 against easy, the closest rating", g)
	}
	// Anchors out from now: after its loss robo1 waits for another bot.
	lim.MaxAnchorGames = 0
	e.srv.SetLadder(20*time.Millisecond, clock, lim)
	r1.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
	p := ladderWait(t, e, "sgolte", "robo1's loss", func(p ladderPage) bool {
		for _, en := range p.Entrants {
			if en.Name == "robo1" && en.Losses == 1 {
				return true
			}
		}
		return false
	})
	for _, en := range p.Entrants {
		switch {
		case en.Name == "robo1" && !(en.Rating < 1500 && en.Deviation < 350 && en.Games == 1):
			t.Fatalf("robo1 after losing to easy: %+v", en)
		case en.Name == "easy" && (en.Rating != 1200 || en.Wins != 1 || en.Measured == nil || en.Measured.Rating <= 1200):
			t.Fatalf("easy after its win: %+v (fixed 1200, one win, measured above)", en)
		case en.Name == "medium" && en.Rating != 2196, en.Name == "hard" && en.Rating != 2510:
			t.Fatalf("%s at %v: want Sgolte's calibrated rating (ladder.Calibrated)", en.Name, en.Rating)
		case en.Anchor && en.Name != "easy" && en.Games != 0:
			t.Fatalf("anchor %+v played", en)
		}
	}

	// The two bots play each other, rated.
	r2.must(http.StatusOK, "POST", "/api/ladder/sgolte/join", nil, nil)
	g = liveGame(t, r2)
	var rated struct {
		Game struct {
			Rated bool `json:"rated"`
		} `json:"game"`
	}
	e.anon().must(http.StatusOK, "GET", "/api/games/"+g.ID, nil, &rated)
	if !rated.Game.Rated || g.Seats[0].User == g.Seats[1].User || g.Seats[0].Kind != "human" || g.Seats[1].Kind != "human" {
		t.Fatalf("the bots' ladder game %+v (rated %v)", g, rated.Game.Rated)
	}
	r2.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
	p = ladderWait(t, e, "sgolte", "robo2's loss", func(p ladderPage) bool { return len(p.HeadToHead) == 2 })
	for _, en := range p.Entrants {
		if en.Name == "robo2" && (en.Losses != 1 || en.Rating >= 1500) {
			t.Fatalf("robo2 after losing a rated game: %+v", en)
		}
	}
	found := false
	for _, h := range p.HeadToHead {
		if (h.A == "u:"+strconv.FormatInt(r1.id, 10) && h.B == "u:"+strconv.FormatInt(r2.id, 10) && h.WinsA == 1 && h.WinsB == 0) ||
			(h.B == "u:"+strconv.FormatInt(r1.id, 10) && h.A == "u:"+strconv.FormatInt(r2.id, 10) && h.WinsB == 1 && h.WinsA == 0) {
			found = true
		}
	}
	if !found {
		t.Fatalf("head to head %+v: want robo1 1-0 robo2", p.HeadToHead)
	}
	// Leaving stops the pairing; the games stay on the page.
	r1.must(http.StatusNoContent, "POST", "/api/ladder/sgolte/leave", nil, nil)
	r2.must(http.StatusNoContent, "POST", "/api/ladder/sgolte/leave", nil, nil)
	finished := 0
	for _, g := range p.Games {
		if g.Result == "first" || g.Result == "second" {
			finished++
		}
	}
	if finished != 2 {
		t.Fatalf("games %+v: want the two decided", p.Games)
	}
}

// TestLadderOneMatchmaker: two nodes on one PostgreSQL: exactly one pairs
// (it holds the ladder's lease); when it stops, the other takes over at
// once (the lease is released on shutdown) and pairs the next bot.
func TestLadderOneMatchmaker(t *testing.T) {
	open := postgresStore(t)
	n1, n2 := newEnvWith(t, open), newEnvWith(t, open)
	clock := match.Clock{Kind: match.ClockRealtime, InitialMs: 10 * 60 * 1000, IncrementMs: 1000}
	for _, e := range []*env{n1, n2} {
		e.srv.SetLadder(20*time.Millisecond, clock, ladder.DefaultLimits)
	}
	r1 := n1.register("robo1")
	r1.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	r1.must(http.StatusOK, "POST", "/api/ladder/sgolte/join", nil, nil)
	liveGame(t, r1)
	claims := func(e *env) int { return strings.Count(e.logs.String(), `"msg":"ladder matchmaker"`) }
	holder, other := n1, n2
	if claims(n2) > 0 {
		holder, other = n2, n1
	}
	if claims(holder) != 1 || claims(other) != 0 {
		t.Fatalf("claims: %d and %d; want exactly one node pairing", claims(holder), claims(other))
	}
	holder.stop()
	r2 := other.register("robo2")
	r2.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	r2.must(http.StatusOK, "POST", "/api/ladder/sgolte/join", nil, nil)
	g := liveGame(t, r2)
	if claims(other) != 1 {
		t.Fatalf("the remaining node claimed the ladder %d times; want once", claims(other))
	}
	if g.Seats[0].Kind != "bot" && g.Seats[1].Kind != "bot" {
		t.Fatalf("robo2's game %+v: want a level (robo1 is busy)", g)
	}
}

// TestLadderSkyjo: a Skyjo ladder game has two seats (the game's own
// default has more), the bot and a level.
func TestLadderSkyjo(t *testing.T) {
	e := newEnv(t)
	e.srv.SetLadder(20*time.Millisecond, match.Clock{Kind: match.ClockRealtime, InitialMs: 10 * 60 * 1000, IncrementMs: 1000}, ladder.DefaultLimits)
	r := e.register("robo")
	r.must(http.StatusOK, "POST", "/api/me/bot", nil, nil)
	r.must(http.StatusOK, "POST", "/api/ladder/skyjo/join", nil, nil)
	g := liveGame(t, r)
	if g.Game != "skyjo" || len(g.Seats) != 2 || g.Options["players"] != "2" {
		t.Fatalf("the Skyjo ladder game %+v: want two seats", g)
	}
	r.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
	ladderWait(t, e, "skyjo", "the result", func(p ladderPage) bool { return len(p.HeadToHead) == 1 })
}
