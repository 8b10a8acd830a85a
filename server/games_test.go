package server_test

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/tabula-games/tabula/game"
)

var realGames = []string{"sgolte", "sploof", "skjuub", "skyjo"}

func needGame(t *testing.T, name string) {
	t.Helper()
	if _, err := game.Lookup(name); err != nil {
		t.Skipf("%s is not registered yet", name)
	}
}

// gameChannelPlayer plays random legal moves over the game channel until
// the game ends.
func gameChannelPlayer(t *testing.T, ws *wsClient, rng *rand.Rand) {
	for {
		m := ws.next("snapshot", "move", "end", "error")
		switch m.Type {
		case "end":
			return
		case "error":
			t.Errorf("game channel error: %s", m.raw)
			return
		}
		if len(m.Legal) == 0 {
			continue
		}
		ply := m.Ply + 1
		if m.Type == "snapshot" {
			ply = len(m.Moves)
		}
		ws.send(map[string]any{"type": "move", "id": "m", "ply": ply, "move": m.Legal[rng.IntN(len(m.Legal))]})
	}
}

// userChannelBot answers the user channel's move requests (the bot API)
// with random legal moves until the game id ends.
func userChannelBot(t *testing.T, ws *wsClient, id string, rng *rand.Rand) {
	answered := -1
	for {
		m := ws.next("move", "end", "error")
		switch m.Type {
		case "end":
			var e struct{ Game summary }
			json.Unmarshal(m.raw, &e)
			if e.Game.ID == id {
				return
			}
			continue
		case "error":
			t.Errorf("user channel error: %s", m.raw)
			return
		}
		if m.ID != id || m.Ply <= answered {
			continue // a repeated request: answer each (id, ply) once
		}
		if len(m.View) == 0 || len(m.Legal) == 0 {
			t.Errorf("bot request without view or legal moves: %s", m.raw)
			return
		}
		answered = m.Ply
		ws.send(map[string]any{"type": "move", "id": id, "ply": m.Ply, "move": m.Legal[rng.IntN(len(m.Legal))]})
	}
}

// TestFourGames: for each of the four games, two users play a whole game
// through the API (one on the game channel, one through the bot API on
// the user channel) while a spectator follows; then a user plays a bot
// seat; the records export, import and replay.
func TestFourGames(t *testing.T) {
	for i, name := range realGames {
		t.Run(name, func(t *testing.T) {
			needGame(t, name)
			e := newEnv(t)
			rng := rand.New(rand.NewPCG(uint64(i), 99))
			alice, bob := e.register("alice"), e.register("bob")
			var opts map[string]string
			if name == "skyjo" {
				opts = map[string]string{"players": "2"}
			}
			g := alice.create(map[string]any{"game": name, "options": opts})
			spec := e.anon().dial("/api/games/" + g.ID + "/ws")
			spec.next("snapshot")
			aws := alice.dial("/api/games/" + g.ID + "/ws")
			bws := bob.dial("/api/ws")
			bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)
			var wg sync.WaitGroup
			wg.Add(2)
			ra, rb := rand.New(rand.NewPCG(rng.Uint64(), 1)), rand.New(rand.NewPCG(rng.Uint64(), 2))
			go func() { defer wg.Done(); gameChannelPlayer(t, aws, ra) }()
			go func() { defer wg.Done(); userChannelBot(t, bws, g.ID, rb) }()
			// The spectator sees every move, in order, then the end.
			var seen []string
			for {
				m := spec.next("move", "end")
				if m.Type == "end" {
					break
				}
				if m.Ply != len(seen) || len(m.View) == 0 {
					t.Fatalf("spectator: move %d arrived as %s", len(seen), m.raw)
				}
				seen = append(seen, m.Move)
			}
			wg.Wait()
			sum, moves, _ := alice.game(g.ID)
			if sum.Status != "finished" || sum.Result == nil || len(moves) != len(seen) {
				t.Fatalf("after the game: %+v, %d moves, spectator saw %d", sum, len(moves), len(seen))
			}
			for i, m := range moves {
				if m.Move != seen[i] {
					t.Fatalf("move %d: stored %q, spectator saw %q", i, m.Move, seen[i])
				}
			}
			t.Logf("%s: %d plies, result %+v", name, len(moves), *sum.Result)
			checkRecords(t, e, alice, g.ID, moves)

			// A bot seat plays its moves.
			bg := alice.create(map[string]any{"game": name, "options": opts,
				"seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "greedy"}}})
			bws2 := alice.dial("/api/games/" + bg.ID + "/ws")
			gameChannelPlayer(t, bws2, rng)
			bsum, bmoves, _ := alice.game(bg.ID)
			botMoves := 0
			for _, m := range bmoves {
				if m.Seat == 1 {
					botMoves++
				}
			}
			if bsum.Status != "finished" || botMoves == 0 {
				t.Fatalf("bot game: %+v with %d bot moves", bsum, botMoves)
			}
		})
	}
}

// checkRecords: the record exports as JSON and text, both import for
// replay, and a prefix continues as a new game from its position.
func checkRecords(t *testing.T, e *env, c *client, id string, moves []moveJSON) {
	t.Helper()
	var rec struct {
		Game   string
		Moves  []moveJSON
		Seed   string
		Start  json.RawMessage
		Final  json.RawMessage
		Result json.RawMessage
	}
	c.must(http.StatusOK, "GET", "/api/games/"+id+"/record", nil, &rec)
	if len(rec.Moves) != len(moves) || len(rec.Final) == 0 || len(rec.Start) == 0 || rec.Seed == "" || len(rec.Result) == 0 {
		t.Fatalf("record of a finished game is incomplete: seed %q, %d moves, start %d bytes, final %d bytes", rec.Seed, len(rec.Moves), len(rec.Start), len(rec.Final))
	}
	status, text := c.do("GET", "/api/games/"+id+"/record.txt", nil)
	line := strings.TrimSpace(string(text))
	if status != 200 || strings.Count(line, "\n") != 0 || !strings.HasPrefix(line, "tabula-record/1 | game="+rec.Game) {
		t.Fatalf("text record: %d %q", status, line)
	}
	for _, body := range []any{map[string]any{"record": json.RawMessage(mustJSON(rec))}, map[string]any{"record": line}} {
		var imp struct{ Game summary }
		c.must(http.StatusCreated, "POST", "/api/records", body, &imp)
		if imp.Game.Status != "imported" || imp.Game.Ply != len(moves) || imp.Game.Result == nil {
			t.Fatalf("imported %+v", imp.Game)
		}
		var rep struct {
			Ply   int
			Moves []moveJSON
			View  json.RawMessage
		}
		c.must(http.StatusOK, "GET", "/api/games/"+imp.Game.ID+"/replay?ply="+jsonStr(len(moves)/2), nil, &rep)
		var orig struct{ View json.RawMessage }
		c.must(http.StatusOK, "GET", "/api/games/"+id+"/replay?ply="+jsonStr(len(moves)/2), nil, &orig)
		if rep.Ply != len(moves)/2 || string(rep.View) != string(orig.View) {
			t.Fatalf("replay of the import differs at ply %d:\n%s\n%s", rep.Ply, rep.View, orig.View)
		}
	}
	// Continue from the position after half the moves.
	half := strings.SplitN(line, " | moves=", 2)
	ms := strings.Split(strings.Split(half[1], " | ")[0], "; ")
	prefix := half[0] + " | moves=" + strings.Join(ms[:len(ms)/2], "; ")
	var cont struct{ Game summary }
	c.must(http.StatusCreated, "POST", "/api/records", map[string]any{"record": prefix, "mode": "continue"}, &cont)
	if cont.Game.Status != "open" || cont.Game.Ply != 0 {
		t.Fatalf("continued game %+v", cont.Game)
	}
	_, _, view := c.game(cont.Game.ID)
	var orig struct{ View json.RawMessage }
	c.must(http.StatusOK, "GET", "/api/games/"+id+"/replay?ply="+jsonStr(len(ms)/2), nil, &orig)
	if string(view) != string(orig.View) {
		t.Fatalf("continued game starts at\n%s\nwant\n%s", view, orig.View)
	}
	c.apiErr(http.StatusUnprocessableEntity, "illegal_move", "POST", "/api/records", map[string]any{"record": half[0] + " | moves=" + ms[0] + "; " + ms[0] + "; " + ms[0] + "; nonsense"})
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
