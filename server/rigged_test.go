package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// riggedSkyjo is issue 16's first finding: a two-player Skyjo position
// whose creator set the opponent's total to 99 and knows every card.
func riggedSkyjo(t *testing.T) json.RawMessage {
	t.Helper()
	g, err := game.Lookup("skyjo")
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(game.Options{"players": "2"}, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := st.MarshalPosition()
	var pos map[string]any
	json.Unmarshal(b, &pos)
	pos["players"].([]any)[1].(map[string]any)["total"] = 99
	b, _ = json.Marshal(pos)
	return b
}

// deck is the hidden order of a Skyjo position's deck.
func deck(t *testing.T, pos []byte) string {
	t.Helper()
	var p struct{ Deck []int }
	if err := json.Unmarshal(pos, &p); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p.Deck)
	return string(b)
}

type startJSON struct {
	From     string          `json:"from"`
	KeepDeal bool            `json:"keepDeal"`
	View     json.RawMessage `json:"view"`
}

// TestRiggedStart (issue 16, finding 1): a rated game from a position of
// its creator's choosing — the opponent's total set to 99, every hidden
// card known — or from a record continued with a seed of the creator's
// choosing is refused; unrated, it is created with its hidden cards dealt
// afresh by the server, and everyone sees where it came from and its
// public start (the 99 included) before joining; a creator who keeps the
// deal needs each joiner's explicit consent.
func TestRiggedStart(t *testing.T) {
	e := newEnv(t)
	alice, bob := e.register("alice"), e.register("bob")
	rigged := riggedSkyjo(t)
	seats := []map[string]string{{"kind": "me"}, {"kind": "invite", "user": "bob"}}

	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/games",
		map[string]any{"game": "skyjo", "position": rigged, "rated": true, "seats": seats})
	record := map[string]any{"format": "tabula-record/1", "game": "skyjo", "options": map[string]string{"players": "2"}, "seed": "777", "moves": []string{}}
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/records",
		map[string]any{"record": record, "mode": "continue", "rated": true, "seats": seats})
	if _, data := e.anon().do("GET", "/api/games?status=open&user=alice", nil); strings.Contains(string(data), `"rated":true`) {
		t.Fatalf("a rated game was created: %s", data)
	}

	// Unrated: created, marked, its public start shown to everyone.
	var created struct {
		Game struct {
			ID      string            `json:"id"`
			Rated   bool              `json:"rated"`
			Options map[string]string `json:"options"`
			Start   *startJSON        `json:"start"`
		} `json:"game"`
	}
	alice.must(http.StatusCreated, "POST", "/api/games", map[string]any{"game": "skyjo", "position": rigged, "seats": seats}, &created)
	g := created.Game
	if g.Rated || g.Start == nil || g.Start.From != "position" || g.Start.KeepDeal || g.Options["players"] != "2" {
		t.Fatalf("created %+v", g)
	}
	var view struct{ Players []struct{ Total int } }
	if err := json.Unmarshal(g.Start.View, &view); err != nil || len(view.Players) != 2 || view.Players[1].Total != 99 {
		t.Fatalf("the start shown: %s (%v)", g.Start.View, err)
	}
	if regexp.MustCompile(`"\?-?[0-9]`).Match(g.Start.View) || bytes.Contains(g.Start.View, []byte(`"deck":[`)) {
		t.Fatalf("the start shown holds hidden cards: %s", g.Start.View)
	}
	// the invited player's list (the public one leaves out a game for invited players only)
	_, lobby := e.anon().do("GET", "/api/games?status=open&user=bob", nil)
	if !bytes.Contains(lobby, []byte(`"start":{"from":"position"`)) {
		t.Fatalf("the lobby does not say where the game came from: %s", lobby)
	}
	stored, err := e.db.Game(context.Background(), g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if deck(t, stored.StartPosition) == deck(t, rigged) {
		t.Fatal("the deck is the creator's: not dealt afresh")
	}
	bob.must(http.StatusOK, "POST", "/api/games/"+g.ID+"/join", nil, nil)

	// Kept: the record's own cards, for those who accept them.
	var kept struct {
		Game struct {
			ID    string     `json:"id"`
			Start *startJSON `json:"start"`
		} `json:"game"`
	}
	alice.must(http.StatusCreated, "POST", "/api/records",
		map[string]any{"record": record, "mode": "continue", "keepDeal": true, "seats": seats}, &kept)
	if kept.Game.Start == nil || kept.Game.Start.From != "record" || !kept.Game.Start.KeepDeal {
		t.Fatalf("kept: %+v", kept.Game.Start)
	}
	bob.apiErr(http.StatusConflict, "kept_deal", "POST", "/api/games/"+kept.Game.ID+"/join", nil)
	bob.apiErr(http.StatusConflict, "kept_deal", "POST", "/api/games/"+kept.Game.ID+"/join", map[string]any{"acceptDeal": false})
	bob.must(http.StatusOK, "POST", "/api/games/"+kept.Game.ID+"/join", map[string]any{"acceptDeal": true}, nil)
	sk, _ := game.Lookup("skyjo")
	fromSeed, _ := sk.New(game.Options{"players": "2"}, 777)
	want, _ := fromSeed.MarshalPosition()
	if stored, _ := e.db.Game(context.Background(), kept.Game.ID); deck(t, stored.StartPosition) != deck(t, want) {
		t.Fatal("the kept deal is not the record's")
	}

	// keepDeal where there is nothing to keep.
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/games", map[string]any{"game": "skyjo", "keepDeal": true})
	alice.apiErr(http.StatusUnprocessableEntity, "bad_option", "POST", "/api/games", map[string]any{"game": "sploof", "keepDeal": true,
		"position": json.RawMessage(startPosition(t, "sploof"))})
}

func startPosition(t *testing.T, name string) []byte {
	g, err := game.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	st, _ := g.New(game.Defaults(g), 1)
	b, _ := st.MarshalPosition()
	return b
}
