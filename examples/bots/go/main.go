// Command go is a starter bot for Tabula written against the documented
// JSON only (docs/bots.md), with Go's standard library and nothing of
// Tabula's packages: it plays Sgolte, Sploof, Skjuub and Skyjo legally with
// a simple heuristic.
//
//	go build -o starter-go ./examples/bots/go
//	tabula bot check --engine "exec:./starter-go"
//	tabula play sgolte --p1 "exec:./starter-go" --p2 random
//
// Tabula writes one JSON object a line on standard input; the bot answers
// each hello and each move request with one line on standard output, and
// ignores what it does not know. Logs go to standard error.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"math/rand"
	"os"
	"slices"
	"strconv"
	"strings"
)

const name = "starter-go 1.0"

// request is every message Tabula sends; hello uses only Type and Protocol.
type request struct {
	Type  string          `json:"type"`
	Game  string          `json:"game"`
	Seat  int             `json:"seat"`
	View  json.RawMessage `json:"view"`
	Legal []string        `json:"legal"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<16), 1<<22) // a view can be long
	out := json.NewEncoder(os.Stdout)     // one line per Encode
	for in.Scan() {
		var req request
		if err := json.Unmarshal(in.Bytes(), &req); err != nil {
			fmt.Fprintln(os.Stderr, "unreadable message:", err)
			continue
		}
		switch req.Type {
		case "hello":
			out.Encode(map[string]any{"type": "hello", "protocol": 2, "name": name,
				"games": []string{"sgolte", "sploof", "skjuub", "skyjo"}})
		case "move":
			out.Encode(map[string]string{"move": choose(req)})
		default:
			fmt.Fprintf(os.Stderr, "ignoring a message of type %q\n", req.Type)
		}
	}
}

// choose picks a move, always one of the legal ones.
func choose(req request) string {
	var m string
	switch req.Game {
	case "sgolte":
		m = sgolte(req.View, req.Legal)
	case "sploof":
		m = sploof(req.Legal)
	case "skjuub":
		m = skjuub(req.Legal)
	case "skyjo":
		m = skyjo(req.View, req.Legal, req.Seat)
	}
	if !slices.Contains(req.Legal, m) {
		m = pick(req.Legal)
	}
	return m
}

func pick(ms []string) string { return ms[rand.Intn(len(ms))] }

// best returns the moves of ms with the highest score.
func best(ms []string, score func(string) float64) []string {
	var out []string
	top := math.Inf(-1)
	for _, m := range ms {
		switch s := score(m); {
		case s > top:
			top, out = s, []string{m}
		case s == top:
			out = append(out, m)
		}
	}
	return out
}

// sgolte flips as many stones as it can (flipping splits the opponent's
// groups), and among equals places where it touches the fewest of its own
// stones: measured, this beats the random bot in nearly every game, while
// placing next to its own stones or near the middle loses nearly every game.
func sgolte(view json.RawMessage, legal []string) string {
	var v struct {
		Size   int      `json:"size"`
		ToMove string   `json:"toMove"`
		Black  []string `json:"black"`
		White  []string `json:"white"`
	}
	json.Unmarshal(view, &v)
	mine := v.Black
	if v.ToMove == "white" {
		mine = v.White
	}
	return pick(best(legal, func(m string) float64 {
		if m == "swap" || m == "pass" {
			return -1000 // never swap: the simplest answer to the pie rule
		}
		cell, flipped, _ := strings.Cut(m, "(")
		flips := 0
		if flipped != "" {
			flips = strings.Count(flipped, ",") + 1
		}
		own := 0
		for _, n := range neighbours(cell, v.Size) {
			if slices.Contains(mine, n) {
				own++
			}
		}
		return float64(100*flips - own)
	}))
}

// neighbours lists the cells next to a Sgolte cell such as "e5" (rows a…
// from the bottom, numbered from 1 at the left; the middle row is the
// longest).
func neighbours(cell string, size int) []string {
	r, mid := int(cell[0]-'a'), size-1
	k, _ := strconv.Atoi(cell[1:])
	up := [][2]int{{r + 1, k - 1}, {r + 1, k}}
	if r < mid {
		up = [][2]int{{r + 1, k}, {r + 1, k + 1}}
	}
	down := [][2]int{{r - 1, k - 1}, {r - 1, k}}
	if r > mid {
		down = [][2]int{{r - 1, k}, {r - 1, k + 1}}
	}
	var out []string
	for _, c := range append(append([][2]int{{r, k - 1}, {r, k + 1}}, up...), down...) {
		if c[0] >= 0 && c[0] <= 2*mid && c[1] >= 1 && c[1] <= size+min(c[0], 2*mid-c[0]) {
			out = append(out, string(rune('a'+c[0]))+strconv.Itoa(c[1]))
		}
	}
	return out
}

// sploof places as high as it can and removes a red only when it must.
func sploof(legal []string) string {
	var places []string
	for _, m := range legal {
		if !strings.HasPrefix(m, "*") {
			places = append(places, m)
		}
	}
	if len(places) == 0 {
		return pick(legal)
	}
	return pick(best(places, func(m string) float64 { return float64(m[0]) }))
}

// skjuub brings pieces on, then moves them, and ends bonus chains at once.
func skjuub(legal []string) string {
	if slices.Contains(legal, "pass") {
		return "pass"
	}
	var places, moves []string
	for _, m := range legal {
		switch {
		case len(m) == 3 && strings.ContainsRune("NESW", rune(m[2])):
			places = append(places, m)
		case strings.ContainsAny(m, "-~"):
			moves = append(moves, m)
		}
	}
	if len(places) > 0 {
		return pick(places)
	}
	if len(moves) > 0 {
		return pick(moves)
	}
	return pick(legal)
}

// skyjo keeps low cards: it takes a low discard, keeps a drawn card lower
// than its worst known one, and otherwise reveals a face-down card.
func skyjo(view json.RawMessage, legal []string, seat int) string {
	var v struct {
		Phase   string `json:"phase"`
		Players []struct {
			Grid [][]any `json:"grid"` // numbers, "?" face down, "x" removed
		} `json:"players"`
		Discard []int `json:"discard"`
		Held    *int  `json:"held"`
	}
	if json.Unmarshal(view, &v) != nil || seat >= len(v.Players) {
		return pick(legal)
	}
	known := map[string]int{}
	var hidden []string
	for r, row := range v.Players[seat].Grid {
		for c, cell := range row {
			pos := string(rune('a'+c)) + strconv.Itoa(r+1)
			switch x := cell.(type) {
			case float64:
				known[pos] = int(x)
			case string:
				if x == "?" {
					hidden = append(hidden, pos)
				}
			}
		}
	}
	worst, worstPos := math.MinInt, ""
	for _, pos := range slices.Sorted(maps.Keys(known)) {
		if known[pos] > worst {
			worst, worstPos = known[pos], pos
		}
	}
	switch v.Phase {
	case "initial_flips":
		return pick(legal)
	case "choose":
		if len(v.Discard) > 0 {
			top := v.Discard[len(v.Discard)-1]
			if top <= 2 || (worstPos != "" && top < worst-4) {
				return "take"
			}
		}
		return "draw"
	}
	if v.Held == nil {
		return pick(legal)
	}
	held := *v.Held
	if worstPos != "" && worst > held && slices.Contains(legal, "swap "+worstPos) {
		return "swap " + worstPos
	}
	if held <= 4 && len(hidden) > 0 && slices.Contains(legal, "swap "+hidden[0]) {
		return "swap " + hidden[0]
	}
	var flips []string
	for _, m := range legal {
		if strings.HasPrefix(m, "flip ") {
			flips = append(flips, m)
		}
	}
	if len(flips) > 0 {
		return pick(flips)
	}
	return pick(legal)
}
