package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/tabula-games/tabula/compute"
	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/server"
)

// sse is an open stream of a job's events.
type sse struct {
	t      *testing.T
	resp   *http.Response
	sc     *bufio.Scanner
	cancel context.CancelFunc
}

// events opens GET /api/analysis/{id}/events as c; status is the answer's.
func (c *client) events(id string) (*sse, int) {
	c.e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	req, _ := http.NewRequestWithContext(ctx, "GET", c.e.hs.URL+"/api/analysis/"+id+"/events", nil)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		cancel()
		c.e.t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		cancel()
		return nil, resp.StatusCode
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		c.e.t.Fatalf("events: content type %q", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<22)
	return &sse{t: c.e.t, resp: resp, sc: sc, cancel: cancel}, resp.StatusCode
}

// next reads the next event (heartbeats skipped); "" at the end of the
// stream.
func (s *sse) next() (event string, data []byte) {
	s.t.Helper()
	for s.sc.Scan() {
		line := s.sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			event = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			data = []byte(strings.TrimPrefix(line, "data: "))
		case line == "" && event != "":
			return event, data
		}
	}
	return "", nil
}

// until reads events until one named want, returning its data; it fails if
// the stream ends first.
func (s *sse) until(want string) []byte {
	s.t.Helper()
	for {
		ev, data := s.next()
		if ev == want {
			return data
		}
		if ev == "" {
			s.t.Fatalf("the stream ended before a %q event", want)
		}
	}
}

func (s *sse) close() {
	s.cancel()
	s.resp.Body.Close()
}

type started struct {
	ID     string          `json:"id"`
	Kind   string          `json:"kind"`
	Events string          `json:"events"`
	Review json.RawMessage `json:"review"`
}

type report struct {
	Game  string  `json:"game"`
	Win   float64 `json:"win"`
	Lines []struct {
		Move  string   `json:"move"`
		Share float64  `json:"share"`
		PV    []string `json:"pv"`
	} `json:"lines"`
	Exact *struct {
		Text string `json:"text"`
	} `json:"exact"`
	Done bool `json:"done"`
}

// TestAnalysisStreamsAndStops: an analysis of a position streams reports
// with three lines; its owner stops it and the stream ends "stopped";
// another user can neither read nor stop it.
func TestAnalysisStreamsAndStops(t *testing.T) {
	e := newEnv(t)
	alice, mallory := e.guest(), e.guest()
	var st started
	alice.must(http.StatusCreated, "POST", "/api/analysis", map[string]any{"game": "sploof", "options": map[string]string{"first": "white"}, "moves": []string{"1c3"}}, &st)
	if st.ID == "" || st.Kind != "analysis" || st.Events != "/api/analysis/"+st.ID+"/events" {
		t.Fatalf("started %+v", st)
	}
	if _, code := mallory.events(st.ID); code != http.StatusNotFound {
		t.Fatalf("another user's events: %d", code)
	}
	mallory.apiErr(http.StatusNotFound, "not_found", "POST", "/api/analysis/"+st.ID+"/stop", nil)
	stream, code := alice.events(st.ID)
	if code != http.StatusOK {
		t.Fatalf("events: %d", code)
	}
	defer stream.close()
	var r report
	for len(r.Lines) < 3 {
		if err := json.Unmarshal(stream.until("report"), &r); err != nil {
			t.Fatal(err)
		}
	}
	if r.Game != "sploof" || r.Win < 0 || r.Win > 1 || r.Lines[0].PV[0] != r.Lines[0].Move {
		t.Fatalf("report %+v", r)
	}
	alice.must(http.StatusOK, "POST", "/api/analysis/"+st.ID+"/stop", nil, nil)
	var end struct{ Reason string }
	if err := json.Unmarshal(stream.until("end"), &end); err != nil || end.Reason != "stopped" {
		t.Fatalf("end %+v %v", end, err)
	}
}

// TestAnalysisRefusesBadInput: no account, unknown games, hidden
// information, illegal moves, bad positions, too many moves, a body too
// big, a finished position, a ply out of range.
func TestAnalysisRefusesBadInput(t *testing.T) {
	e := newEnv(t)
	anon, alice := e.anon(), e.guest()
	anon.apiErr(http.StatusUnauthorized, "unauthorized", "POST", "/api/analysis", map[string]any{"game": "sploof"})
	alice.apiErr(http.StatusNotFound, "unknown_game", "POST", "/api/analysis", map[string]any{"game": "chess"})
	alice.apiErr(http.StatusUnprocessableEntity, "cannot_analyse", "POST", "/api/analysis", map[string]any{"game": "skyjo"})
	alice.apiErr(http.StatusUnprocessableEntity, "illegal_move", "POST", "/api/analysis", map[string]any{"game": "sgolte", "moves": []string{"e5", "e5"}})
	alice.apiErr(http.StatusUnprocessableEntity, "bad_position", "POST", "/api/analysis", map[string]any{"game": "sploof", "position": map[string]any{"game": "sploof", "levels": []string{"x"}}})
	many := make([]string, 601)
	for i := range many {
		many[i] = "e5"
	}
	alice.apiErr(http.StatusRequestEntityTooLarge, "too_large", "POST", "/api/analysis", map[string]any{"game": "sgolte", "moves": many})
	alice.apiErr(http.StatusRequestEntityTooLarge, "too_large", "POST", "/api/analysis", `{"game":"sgolte","moves":["`+strings.Repeat("e", 70<<10)+`"]}`)
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/analysis", map[string]any{"game": "sgolte", "timeMs": -1})
	alice.apiErr(http.StatusNotFound, "not_found", "POST", "/api/analysis", map[string]any{"from": map[string]any{"id": "nosuchgame", "ply": 0}})
	// A finished game's last position has nothing to search.
	g, _ := game.Lookup("sploof")
	s, _ := g.New(game.Options{"first": "white"}, 1)
	var moves []string
	rng := game.NewRNG(1)
	for !s.Outcome().Over() {
		ms := s.Legal(nil)
		m := ms[rng.IntN(len(ms))]
		moves = append(moves, s.FormatMove(m))
		s.Play(m)
	}
	id := importGame(t, alice, "sploof", "1", moves)
	alice.apiErr(http.StatusUnprocessableEntity, "cannot_analyse", "POST", "/api/analysis", map[string]any{"from": map[string]any{"id": id, "ply": len(moves)}})
	alice.apiErr(http.StatusBadRequest, "bad_request", "POST", "/api/analysis", map[string]any{"from": map[string]any{"id": id, "ply": len(moves) + 1}})
	var st started
	alice.must(http.StatusCreated, "POST", "/api/analysis", map[string]any{"from": map[string]any{"id": id, "ply": 3}, "moves": []string{}}, &st)
}

// importGame imports a finished game for replay and returns its id.
func importGame(t *testing.T, c *client, name, seed string, moves []string) string {
	t.Helper()
	ms := make([]map[string]any, len(moves))
	for i, m := range moves {
		ms[i] = map[string]any{"ply": i, "move": m}
	}
	var imp struct{ Game summary }
	c.must(http.StatusCreated, "POST", "/api/records", map[string]any{"record": map[string]any{
		"format": "tabula-record/1", "game": name, "seed": seed, "options": map[string]string{"first": "white"}, "moves": ms}}, &imp)
	return imp.Game.ID
}

// TestAnalysisNeverOfLiveGame (issue 23, finding 7): no engine looks at a
// game while it is played. Named by its id it is refused to everyone — its
// player, a spectator, a fresh second account — for analysis, review and
// import of its record; its player cannot have a position of it analysed
// (sent as a position, or a move ahead) nor start a bot from it. A position
// pasted by another account cannot be told from one typed in the editor
// (docs/security.md says so). Once it is over, everyone may.
func TestAnalysisNeverOfLiveGame(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.guest(), e.guest()
	g := alice.create(map[string]any{"game": "sploof", "options": map[string]string{"first": "white"},
		"seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	if g.Status != "live" {
		t.Fatalf("game %+v", g)
	}
	from := map[string]any{"from": map[string]any{"id": g.ID, "ply": 0}}
	var rec json.RawMessage
	bob.must(http.StatusOK, "GET", "/api/games/"+g.ID+"/record", nil, &rec)
	for _, c := range []*client{alice, bob} {
		c.apiErr(http.StatusConflict, "not_finished", "POST", "/api/analysis", from)
		c.apiErr(http.StatusConflict, "not_finished", "POST", "/api/games/"+g.ID+"/review", nil)
		c.apiErr(http.StatusConflict, "not_finished", "POST", "/api/records", map[string]any{"record": rec})
		c.apiErr(http.StatusConflict, "not_finished", "POST", "/api/records", map[string]any{"record": rec, "mode": "continue",
			"seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	}
	_, _, view := alice.game(g.ID)
	alice.apiErr(http.StatusForbidden, "own_game", "POST", "/api/analysis", map[string]any{"game": "sploof", "position": view})
	sg, _ := game.Lookup("sploof")
	now, err := sg.ParsePosition(view)
	if err != nil {
		t.Fatal(err)
	}
	ahead := game.LegalTexts(now)[0]
	alice.apiErr(http.StatusForbidden, "own_game", "POST", "/api/analysis", map[string]any{"game": "sploof", "position": view, "moves": []string{ahead}})
	alice.apiErr(http.StatusForbidden, "own_game", "POST", "/api/games", map[string]any{"game": "sploof", "position": view,
		"seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	var st started
	bob.must(http.StatusCreated, "POST", "/api/analysis", map[string]any{"game": "sploof", "position": view}, &st)
	// Once the game has left its ordinary start, the start is everyone's
	// again: its player may start a bot game there, as from the lobby.
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/moves", map[string]any{"ply": 0, "move": ahead}, nil)
	fresh := alice.create(map[string]any{"game": "sploof", "position": view,
		"seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	alice.must(http.StatusOK, "POST", "/api/games/"+fresh.ID+"/resign", nil, nil)
	alice.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/resign", nil, nil)
	alice.must(http.StatusCreated, "POST", "/api/analysis", from, &st)
	bob.must(http.StatusCreated, "POST", "/api/analysis", from, &st)
	bob.must(http.StatusCreated, "POST", "/api/records", map[string]any{"record": rec}, nil)
}

// TestAnalysisFlood: one job per user (a new one stops the old one); a
// job beyond the node's places waits in line, told its place, and starts
// when a place frees; a full queue refuses at once with 503 analysis_busy
// and the Retry-After the API documents.
func TestAnalysisFlood(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.AnalysisJobs, c.AnalysisQueue, c.AnalysisQuantum = 1, 1, time.Hour })
	alice, bob, carol := e.guest(), e.guest(), e.guest()
	req := map[string]any{"game": "sgolte", "moves": []string{"e5"}}
	var first, second, waiting started
	alice.must(http.StatusCreated, "POST", "/api/analysis", req, &first)
	stream, _ := alice.events(first.ID)
	defer stream.close()
	alice.must(http.StatusCreated, "POST", "/api/analysis", req, &second)
	var end struct{ Reason string }
	if err := json.Unmarshal(stream.until("end"), &end); err != nil || end.Reason != "stopped" {
		t.Fatalf("the replaced analysis ended %+v %v", end, err)
	}
	bob.must(http.StatusCreated, "POST", "/api/analysis", req, &waiting)
	bobs, _ := bob.events(waiting.ID)
	defer bobs.close()
	if ev, data := bobs.next(); ev != "queued" || string(data) != `{"place":1}` {
		t.Fatalf("a job beyond the places: first event %s %s, want queued at place 1", ev, data)
	}
	for i := 0; i < 20; i++ {
		code, header, body := rawPost(t, carol, "/api/analysis", req)
		if code != http.StatusServiceUnavailable || !strings.Contains(body, `"analysis_busy"`) || header.Get("Retry-After") != "30" {
			t.Fatalf("a job beyond a full queue: %d %q %s, want 503 analysis_busy with Retry-After: 30", code, header.Get("Retry-After"), body)
		}
	}
	alice.must(http.StatusOK, "POST", "/api/analysis/"+second.ID+"/stop", nil, nil)
	bobs.until("report")
}

// rawPost sends body as JSON as c and returns the whole answer.
func rawPost(t *testing.T, c *client, path string, body any) (int, http.Header, string) {
	t.Helper()
	data, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", c.e.hs.URL+path, strings.NewReader(string(data)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, string(out)
}

// TestAnalysisSharedFairly (issue 23, finding 6): four guests holding
// streams of analyses on a node of four places do not keep a fifth user
// out — the fifth waits first in line, then, once the oldest analysis has
// had its quantum, that one yields its place (its stream ends "yielded")
// and the fifth gets reports.
func TestAnalysisSharedFairly(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.AnalysisJobs, c.AnalysisQuantum = 4, 300*time.Millisecond })
	req := map[string]any{"game": "sgolte", "moves": []string{"e5"}}
	ends := make(chan string, 4)
	for i := 0; i < 4; i++ {
		var st started
		g := e.guest()
		g.must(http.StatusCreated, "POST", "/api/analysis", req, &st)
		stream, code := g.events(st.ID)
		if code != http.StatusOK {
			t.Fatalf("events: %d", code)
		}
		defer stream.close()
		go func() {
			var end struct{ Reason string }
			for {
				ev, data := stream.next()
				if ev == "end" {
					json.Unmarshal(data, &end)
					ends <- end.Reason
					return
				}
				if ev == "" {
					ends <- "closed"
					return
				}
			}
		}()
	}
	var st started
	fifth := e.guest()
	code, body := fifth.do("POST", "/api/analysis", req)
	if code != http.StatusCreated {
		t.Fatalf("a fifth user while four hold every place: %d %s, want 201 and a place in line", code, body)
	}
	json.Unmarshal(body, &st)
	stream, _ := fifth.events(st.ID)
	defer stream.close()
	if ev, data := stream.next(); ev != "queued" || string(data) != `{"place":1}` {
		t.Fatalf("the fifth user's first event: %s %s, want queued at place 1", ev, data)
	}
	stream.until("report")
	if reason := <-ends; reason != "yielded" {
		t.Fatalf("an analysis that gave its place up ended %q, want yielded", reason)
	}
}

// TestReviewOfFinishedGame: a finished game's review streams its progress
// and ends with every move judged and the graph's points; asked again it
// comes whole at once. A live game is not reviewed.
func TestReviewOfFinishedGame(t *testing.T) {
	e := newEnv(t, func(c *server.Config) { c.ReviewPositionTime = 50 * time.Millisecond })
	alice, bob := e.guest(), e.guest()
	moves := []string{"1c3", "1c5", "1e3", "1e5", "*1a1", "*1a3"}
	id := importGame(t, alice, "sploof", "1", moves)
	var st started
	alice.must(http.StatusCreated, "POST", "/api/games/"+id+"/review", nil, &st)
	if st.Kind != "review" || st.ID == "" {
		t.Fatalf("started %+v", st)
	}
	if _, code := bob.events(st.ID); code != http.StatusNotFound {
		t.Fatalf("another user's review events: %d", code)
	}
	stream, _ := alice.events(st.ID)
	defer stream.close()
	var rv struct {
		Moves []struct {
			Move string `json:"move"`
		} `json:"moves"`
		Points []json.RawMessage `json:"points"`
	}
	if err := json.Unmarshal(stream.until("review"), &rv); err != nil {
		t.Fatal(err)
	}
	if len(rv.Moves) != len(moves) || len(rv.Points) != len(moves)+1 || rv.Moves[4].Move != "*1a1" {
		t.Fatalf("review %+v", rv)
	}
	var again started
	bob.must(http.StatusOK, "POST", "/api/games/"+id+"/review", nil, &again)
	if again.ID != "" || len(again.Review) == 0 {
		t.Fatalf("the second review was not the kept one: %+v", again)
	}
	// The review is kept in the store: after a restart (or on another node
	// of a cluster) it comes whole at once, not made again.
	e.stop()
	e.start()
	var afterRestart started
	bob.must(http.StatusOK, "POST", "/api/games/"+id+"/review", nil, &afterRestart)
	if afterRestart.ID != "" || !bytes.Equal(afterRestart.Review, again.Review) {
		t.Fatalf("after a restart the review was not the kept one: %+v", afterRestart)
	}
	live := alice.create(map[string]any{"game": "sploof", "seats": []map[string]string{{"kind": "me"}, {"kind": "bot", "level": "random"}}})
	bob.apiErr(http.StatusConflict, "not_finished", "POST", "/api/games/"+live.ID+"/review", nil)
	alice.apiErr(http.StatusConflict, "not_finished", "POST", "/api/games/"+live.ID+"/review", nil)
}

// TestAnalysisWaitsForBots: an analysis searches in Background slices of
// the node's compute pool, so while a bot's move (Live work) holds the
// pool's only core no report comes; once it is done, reports do.
func TestAnalysisWaitsForBots(t *testing.T) {
	pool := compute.New(compute.Config{Cores: 1})
	e := newEnv(t, func(c *server.Config) { c.Compute = pool })
	alice := e.guest()
	release, err := pool.Acquire(context.Background(), compute.Task{Class: compute.Live, Cores: 1, Label: "a bot's move"})
	if err != nil {
		t.Fatal(err)
	}
	var st started
	alice.must(http.StatusCreated, "POST", "/api/analysis", map[string]any{"game": "sgolte"}, &st)
	stream, _ := alice.events(st.ID)
	defer stream.close()
	got := make(chan string, 1)
	go func() {
		ev, _ := stream.next()
		got <- ev
	}()
	select {
	case ev := <-got:
		t.Fatalf("a %q event while a bot held the only core", ev)
	case <-time.After(700 * time.Millisecond):
	}
	if l := pool.Load(); l.BackgroundWaiting != 1 {
		t.Fatalf("the analysis is not waiting in the pool: %+v", l)
	}
	release()
	select {
	case ev := <-got:
		if ev != "report" {
			t.Fatalf("after the bot: %q", ev)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("no report after the bot's move was done")
	}
}
