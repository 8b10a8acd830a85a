package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/tabula-games/tabula/game"
)

// This file turns what the server's user channel sends a seat (its view
// and legal moves) into an Observation an engine can be handed — the same
// thing `tabula play` hands it — so that `tabula bot` runs engines
// through the agent package like every other command.
//
// For the games that hide nothing the view is the position JSON. For
// Skyjo it is the public view: the world built from it holds, for every
// face-down card and the deck, cards visible nowhere, and game.Observe
// draws the world the engine gets from the view alone again — so the
// engine can know nothing its seat does not see.

// worldFromView builds a state of g whose view for seat is exactly view
// and whose legal moves are legal; an error when it cannot (a server of
// another version, say).
func worldFromView(g game.Game, seat int, view []byte, legal []string) (game.State, error) {
	var s game.State
	var err error
	if g.Facts().HiddenInfo {
		s, err = hiddenWorld(g, view)
	} else {
		s, err = g.ParsePosition(view)
	}
	if err != nil {
		return nil, fmt.Errorf("the view the server sent does not read: %v", err)
	}
	back, err := game.View(s, seat)
	if err != nil {
		return nil, err
	}
	if !sameJSON(back, view) {
		return nil, fmt.Errorf("the view the server sent does not read back the same (a server of another version?)")
	}
	if got := game.LegalTexts(s); !slices.Equal(got, legal) {
		return nil, fmt.Errorf("the legal moves the server sent are not the rules' here (server %q, rules %q)", clipText(strings.Join(legal, " "), 80), clipText(strings.Join(got, " "), 80))
	}
	return s, nil
}

// sameJSON reports whether two JSON texts hold the same value.
func sameJSON(a, b []byte) bool {
	if bytes.Equal(a, b) {
		return true
	}
	var x, y any
	return json.Unmarshal(a, &x) == nil && json.Unmarshal(b, &y) == nil && reflect.DeepEqual(x, y)
}

// hiddenWorld builds a full position from a public view. Only Skyjo hides
// cards; its view has every field of its position JSON but the face-down
// values, the deck's order and the generator, which are filled here with
// the cards visible nowhere (the game's own deck, read from a new game).
func hiddenWorld(g game.Game, view []byte) (game.State, error) {
	if g.Name() != "skyjo" {
		return nil, fmt.Errorf("tabula bot cannot rebuild a %s position from its view", g.Name())
	}
	var v struct {
		Options    map[string]string `json:"options"`
		Round      int               `json:"round"`
		Phase      string            `json:"phase"`
		ToMove     int               `json:"toMove"`
		Starter    int               `json:"starter"`
		Turn       int               `json:"turn"`
		Reshuffles int               `json:"reshuffles"`
		Players    []struct {
			Grid  [][]json.RawMessage `json:"grid"`
			Total int                 `json:"total"`
			Ended bool                `json:"ended"`
		} `json:"players"`
		Discard []int `json:"discard"`
		Deck    int   `json:"deck"`
		Held    *int  `json:"held"`
	}
	if err := json.Unmarshal(view, &v); err != nil {
		return nil, err
	}
	unseen, err := skyjoDeck(g)
	if err != nil {
		return nil, err
	}
	take := func(c int) error {
		if unseen[c] == 0 {
			return fmt.Errorf("more cards %d than the game has", c)
		}
		unseen[c]--
		return nil
	}
	ender := -1
	for p, pl := range v.Players {
		if pl.Ended {
			ender = p
		}
		for _, row := range pl.Grid {
			for _, cell := range row {
				var n int
				if json.Unmarshal(cell, &n) == nil {
					if err := take(n); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	for _, c := range v.Discard {
		if err := take(c); err != nil {
			return nil, err
		}
	}
	if v.Held != nil {
		if err := take(*v.Held); err != nil {
			return nil, err
		}
	}
	var pool []int
	for _, c := range sortedInts(unseen) {
		for range unseen[c] {
			pool = append(pool, c)
		}
	}
	next := func() (int, error) {
		if len(pool) == 0 {
			return 0, fmt.Errorf("fewer unseen cards than face-down ones")
		}
		c := pool[len(pool)-1]
		pool = pool[:len(pool)-1]
		return c, nil
	}
	type player struct {
		Grid  [][]json.RawMessage `json:"grid"`
		Total int                 `json:"total"`
	}
	players := make([]player, len(v.Players))
	for p, pl := range v.Players {
		players[p] = player{Total: pl.Total}
		for _, row := range pl.Grid {
			out := make([]json.RawMessage, len(row))
			for i, cell := range row {
				out[i] = cell
				if string(cell) == `"?"` {
					c, err := next()
					if err != nil {
						return nil, err
					}
					out[i] = json.RawMessage(fmt.Sprintf(`"?%d"`, c))
				}
			}
			players[p].Grid = append(players[p].Grid, out)
		}
	}
	if len(pool) != v.Deck {
		return nil, fmt.Errorf("%d cards unseen, but the deck has %d", len(pool), v.Deck)
	}
	deck := pool
	if deck == nil {
		deck = []int{}
	}
	pos, err := json.Marshal(map[string]any{
		"game": "skyjo", "options": v.Options, "seed": "1", "rng": "0000000000000001",
		"round": v.Round, "phase": v.Phase, "toMove": v.ToMove, "starter": v.Starter, "ender": ender,
		"turn": v.Turn, "reshuffles": v.Reshuffles, "players": players, "discard": v.Discard,
		"deck": deck, "held": v.Held,
	})
	if err != nil {
		return nil, err
	}
	return g.ParsePosition(pos)
}

var (
	skyjoDeckOnce sync.Once
	skyjoCards    map[int]int
	skyjoDeckErr  error
)

// skyjoDeck counts Skyjo's cards by value, from a new game's position.
func skyjoDeck(g game.Game) (map[int]int, error) {
	skyjoDeckOnce.Do(func() {
		skyjoCards, skyjoDeckErr = countCards(g)
	})
	out := make(map[int]int, len(skyjoCards))
	for k, n := range skyjoCards {
		out[k] = n
	}
	return out, skyjoDeckErr
}

func countCards(g game.Game) (map[int]int, error) {
	s, err := g.New(nil, 1)
	if err != nil {
		return nil, err
	}
	data, err := s.MarshalPosition()
	if err != nil {
		return nil, err
	}
	var p struct {
		Players []struct {
			Grid [][]json.RawMessage `json:"grid"`
		} `json:"players"`
		Discard []int `json:"discard"`
		Deck    []int `json:"deck"`
		Held    *int  `json:"held"`
	}
	if err := json.Unmarshal(data, &p); err != nil {
		return nil, err
	}
	count := map[int]int{}
	for _, pl := range p.Players {
		for _, row := range pl.Grid {
			for _, cell := range row {
				var n int
				var txt string
				switch {
				case json.Unmarshal(cell, &n) == nil:
				case json.Unmarshal(cell, &txt) == nil && strings.HasPrefix(txt, "?"):
					if _, err := fmt.Sscanf(txt[1:], "%d", &n); err != nil {
						return nil, fmt.Errorf("skyjo position: cell %q", txt)
					}
				default:
					continue
				}
				count[n]++
			}
		}
	}
	for _, c := range append(p.Discard, p.Deck...) {
		count[c]++
	}
	if p.Held != nil {
		count[*p.Held]++
	}
	return count, nil
}

func sortedInts(m map[int]int) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
