package server_test

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"
)

type rulesAnswer struct {
	Game string `json:"game"`
	Move *struct {
		Text      string `json:"text"`
		Legal     bool   `json:"legal"`
		Canonical string `json:"canonical"`
		Error     *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	} `json:"move"`
	Position  json.RawMessage `json:"position"`
	View      json.RawMessage `json:"view"`
	ToMove    int             `json:"toMove"`
	SeatNames []string        `json:"seatNames"`
	Status    string          `json:"status"`
	Winners   []int           `json:"winners"`
	Legal     []string        `json:"legal"`
}

// TestRulesEndpoint: the stateless rules endpoint answers without an
// account: legal moves of a new game, a move's result, and an illegal move
// with the engine's own reason, the position left as it was.
func TestRulesEndpoint(t *testing.T) {
	e := newEnv(t)
	anon := e.anon()

	var start rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/sploof", map[string]any{"options": map[string]string{"first": "white"}}, &start)
	if start.Game != "sploof" || start.Status != "ongoing" || start.ToMove != 0 || len(start.Legal) != 16 {
		t.Fatalf("sploof start: %+v", start)
	}
	if start.Move != nil {
		t.Fatalf("no move asked, got %+v", start.Move)
	}

	var played rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/sploof", map[string]any{"position": start.Position, "move": "1c3"}, &played)
	if played.Move == nil || !played.Move.Legal || played.Move.Canonical != "1c3" || played.ToMove != 1 {
		t.Fatalf("1c3: %+v", played)
	}
	if !strings.Contains(string(played.Position), `"toMove":"black"`) {
		t.Fatalf("position after 1c3: %s", played.Position)
	}

	var bad rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/sploof", map[string]any{"position": start.Position, "move": "2d4"}, &bad)
	if bad.Move == nil || bad.Move.Legal || bad.Move.Error == nil || bad.Move.Error.Code != "illegal_move" ||
		!strings.Contains(bad.Move.Error.Message, "does not rest on four balls") {
		t.Fatalf("2d4 at the start: %+v", bad.Move)
	}
	if string(bad.Position) != string(start.Position) || !slices.Equal(bad.Legal, start.Legal) {
		t.Fatal("an illegal move changed the position")
	}

	var unread rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/sgolte", map[string]any{"move": "zz9"}, &unread)
	if unread.Move.Legal || unread.Move.Error.Code != "bad_move" {
		t.Fatalf("zz9: %+v", unread.Move)
	}

	// A move list, then the pie swap: the first player now plays White, and it is White's turn.
	var swapped rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/sgolte", map[string]any{"moves": []string{"e5"}, "move": "swap"}, &swapped)
	if !swapped.Move.Legal || swapped.ToMove != 0 || swapped.SeatNames[0] != "white" {
		t.Fatalf("after e5 swap: %+v", swapped)
	}

	// Skyjo: the view of the seat asked for, and a game decided by the seed.
	var sky rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/skyjo", map[string]any{"seed": 7, "moves": []string{"flip a1", "flip b2"}, "seat": 1}, &sky)
	var again rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/skyjo", map[string]any{"seed": 7, "moves": []string{"flip a1", "flip b2"}, "seat": 1}, &again)
	if string(sky.Position) != string(again.Position) || len(sky.View) == 0 || string(sky.View) == string(sky.Position) {
		t.Fatalf("skyjo: same seed, different games, or the view is the full position")
	}

	// A finished game: no legal moves, the winner named.
	var won rulesAnswer
	anon.must(http.StatusOK, "POST", "/api/rules/tnim", map[string]any{"options": map[string]string{"stones": "3"}, "moves": []string{"3"}}, &won)
	if won.Status != "won" || len(won.Legal) != 0 || !slices.Equal(won.Winners, []int{0}) {
		t.Fatalf("tnim after taking every stone: %+v", won)
	}
}

// TestRulesEndpointHostile: bad and hostile requests get a clear 4xx, never
// a 5xx, and cost no more than the bounded work.
func TestRulesEndpointHostile(t *testing.T) {
	e := newEnv(t)
	anon := e.anon()
	many := make([]string, 601)
	for i := range many {
		many[i] = "e5"
	}
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	cases := []struct {
		name   string
		path   string
		body   any
		status int
		code   string
	}{
		{"unknown game", "/api/rules/chess", map[string]any{}, 404, "unknown_game"},
		{"path traversal", "/api/rules/..%2Fgames", map[string]any{}, 404, "unknown_game"},
		{"no body", "/api/rules/sgolte", "", 400, "bad_json"},
		{"malformed JSON", "/api/rules/sgolte", `{"move": `, 400, "bad_json"},
		{"unknown field", "/api/rules/sgolte", `{"mvoe": "e5"}`, 400, "bad_json"},
		{"two values", "/api/rules/sgolte", `{} {}`, 400, "bad_json"},
		{"deep nesting", "/api/rules/sgolte", `{"position": ` + deep + `}`, 400, "bad_json"},
		{"oversized body", "/api/rules/sgolte", `{"move": "` + strings.Repeat("e", 100<<10) + `"}`, 413, "too_large"},
		{"too many moves", "/api/rules/sgolte", map[string]any{"moves": many}, 413, "too_large"},
		{"negative seed", "/api/rules/skyjo", `{"seed": -1}`, 400, "bad_json"},
		{"bad option", "/api/rules/sgolte", map[string]any{"options": map[string]string{"size": "99"}}, 422, "bad_option"},
		{"unknown option", "/api/rules/sgolte", map[string]any{"options": map[string]string{"x": "1"}}, 422, "bad_option"},
		{"options with a position", "/api/rules/sgolte", map[string]any{"options": map[string]string{"size": "6"}, "position": map[string]any{"game": "sgolte"}}, 400, "bad_request"},
		{"position of another game", "/api/rules/sgolte", map[string]any{"position": map[string]any{"game": "sploof"}}, 422, "bad_position"},
		{"position not an object", "/api/rules/skjuub", map[string]any{"position": "x"}, 422, "bad_position"},
		{"impossible position", "/api/rules/skjuub", map[string]any{"position": map[string]any{"game": "skjuub", "board": map[string]string{"b2": "1E", "c2": "2N"}, "pool": []int{10, 10}, "toMove": 1}}, 422, "bad_position"},
		{"illegal move in the list", "/api/rules/sgolte", map[string]any{"moves": []string{"e5", "e5"}}, 422, "illegal_move"},
		{"unreadable move in the list", "/api/rules/sgolte", map[string]any{"moves": []string{"<script>"}}, 422, "bad_move"},
		{"seat out of range", "/api/rules/skyjo", map[string]any{"seat": 9}, 400, "bad_request"},
		{"negative seat", "/api/rules/sgolte", map[string]any{"seat": -1}, 400, "bad_request"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			anon.apiErr(tc.status, tc.code, "POST", tc.path, tc.body)
		})
	}
	t.Run("wrong content type", func(t *testing.T) {
		req, _ := http.NewRequest("POST", e.hs.URL+"/api/rules/sgolte", strings.NewReader(`{}`))
		req.Header.Set("Content-Type", "text/plain")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnsupportedMediaType {
			t.Fatalf("status %d, want 415", resp.StatusCode)
		}
	})
	t.Run("GET is not a route", func(t *testing.T) {
		anon.apiErr(http.StatusNotFound, "not_found", "GET", "/api/rules/sgolte", nil)
	})
}

// TestRulesEndpointRateLimited: the endpoint needs no account but shares
// the per-address limit, so a flood is refused.
func TestRulesEndpointRateLimited(t *testing.T) {
	e := newEnv(t, func(c *serverConfig) { c.RateLimit, c.RateBurst = 1, 3 })
	anon := e.anon()
	limited := false
	for i := 0; i < 200 && !limited; i++ {
		st, _ := anon.do("POST", "/api/rules/sgolte", map[string]any{})
		limited = st == http.StatusTooManyRequests
	}
	if !limited {
		t.Fatal("200 rules queries in a burst were all answered")
	}
}
