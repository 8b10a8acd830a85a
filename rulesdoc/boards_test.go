package rulesdoc

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// What the games' position JSON (for Skyjo: the public view) holds at a
// named place, read the way docs/rules describes the formats: "black",
// "white" or "empty" on a Sgolte cell; "W", "B", "R" or "empty" on a Sploof
// point; "1E" (player and direction) or "empty" on a Skjuub square; a
// value, "?" or "x" on a Skyjo card ("p0:a1": seat 0, column a, row 1 from
// the top).
func contents(gameName string, view json.RawMessage, name string) (string, error) {
	if !nameOnBoard(gameName, name) {
		return "", fmt.Errorf("%q names nothing on a %s board", name, gameName)
	}
	switch gameName {
	case "sgolte":
		var p struct{ Black, White []string }
		if err := json.Unmarshal(view, &p); err != nil {
			return "", err
		}
		for _, c := range p.Black {
			if c == name {
				return "black", nil
			}
		}
		for _, c := range p.White {
			if c == name {
				return "white", nil
			}
		}
		return "empty", nil
	case "sploof":
		var p struct{ Levels []string }
		if err := json.Unmarshal(view, &p); err != nil {
			return "", err
		}
		h := int(name[0] - '0')
		x, y := int(name[1]-'a'), int(name[2]-'1')
		c, r := (x-h+1)/2, (y-h+1)/2
		n := 5 - h
		rows := strings.Split(p.Levels[h-1], "/") // top row first
		if ch := rows[n-1-r][c]; ch != '.' {
			return string(ch), nil
		}
		return "empty", nil
	case "skjuub":
		var p struct{ Board map[string]string }
		if err := json.Unmarshal(view, &p); err != nil {
			return "", err
		}
		if v, ok := p.Board[name]; ok {
			return v, nil
		}
		return "empty", nil
	case "skyjo":
		var p struct {
			Players []struct{ Grid [][]json.RawMessage }
		}
		if err := json.Unmarshal(view, &p); err != nil {
			return "", err
		}
		seat, pos, _ := strings.Cut(name[1:], ":")
		i, _ := strconv.Atoi(seat)
		if i >= len(p.Players) {
			return "", fmt.Errorf("%q: no seat %d", name, i)
		}
		return strings.Trim(string(p.Players[i].Grid[pos[1]-'1'][pos[0]-'a']), `"`), nil
	}
	return "", fmt.Errorf("no board reader for %s", gameName)
}

var (
	sgolteCellRE = regexp.MustCompile(`^[a-m]([1-9]|1[0-3])$`)
	sploofRE     = regexp.MustCompile(`^(?:([1-4])([a-g])([1-7])|[a-g][1-7])$`)
	skjuubRE     = regexp.MustCompile(`^[a-f][1-6]$`)
	skyjoRE      = regexp.MustCompile(`^(?:p[0-7]:[a-d][1-3]|deck|discard)$`)
)

// nameOnBoard reports whether name is a place the game's board draws: a
// cell, a point or top-view square (Sploof), a square, a card.
func nameOnBoard(gameName, name string) bool {
	switch gameName {
	case "sgolte":
		return sgolteCellRE.MatchString(name)
	case "sploof":
		m := sploofRE.FindStringSubmatch(name)
		if m == nil {
			return false
		}
		if m[1] == "" {
			return true // a top-view square
		}
		h, x, y := int(m[1][0]-'0'), int(m[2][0]-'a'), int(m[3][0]-'1')
		// A level-h point sits where both coordinates are h−1 plus an even number.
		return (x-h+1)%2 == 0 && (y-h+1)%2 == 0 && x >= h-1 && x <= 7-h && y >= h-1 && y <= 7-h
	case "skjuub":
		return skjuubRE.MatchString(name)
	case "skyjo":
		return skyjoRE.MatchString(name)
	}
	return false
}

// skjuubActive asks the rules engine whether the skjuub on sq may act: it
// is given the move (main phase, no earlier action to undo) and must have a
// slide or tumble. docs/rules/skjuub.md: only active skjuubs move.
func skjuubActive(view json.RawMessage, sq string) (bool, error) {
	var p map[string]any
	if err := json.Unmarshal(view, &p); err != nil {
		return false, err
	}
	board, _ := p["board"].(map[string]any)
	piece, _ := board[sq].(string)
	if piece == "" {
		return false, fmt.Errorf("no skjuub on %s", sq)
	}
	owner := int(piece[0] - '0')
	p["toMove"] = owner
	p["phase"] = "main"
	delete(p, "sacrificed")
	delete(p, "earnedBy")
	delete(p, "history")
	p["lastAction"] = []string{"", ""}
	// Player 1 moves first: with player 1 to move both have completed the
	// same number of turns, with player 2 to move player 1 one more.
	t := 1
	if turn, ok := p["turn"].([]any); ok && len(turn) == 2 {
		t = max(t, int(turn[0].(float64)), int(turn[1].(float64)))
	}
	p["turn"] = []int{t, t - owner + 1}
	data, err := json.Marshal(p)
	if err != nil {
		return false, err
	}
	g, err := game.Lookup("skjuub")
	if err != nil {
		return false, err
	}
	s, err := g.ParsePosition(data)
	if err != nil {
		return false, err
	}
	for _, m := range s.Legal(nil) {
		if mv := s.FormatMove(m); strings.HasPrefix(mv, sq+"-") || strings.HasPrefix(mv, sq+"~") {
			return true, nil
		}
	}
	return false, nil
}
