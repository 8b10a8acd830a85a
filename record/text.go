package record

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// Text writes the one-line record: fields separated by " | ", moves by
// "; ". withStart writes the start position, compact, for a game that
// began from a position of its own (for any other game the seed says it
// all, and the line stays short).
func (r *Record) Text(withStart bool) string {
	parts := []string{Format, "game=" + r.Game}
	if len(r.Options) > 0 {
		parts = append(parts, "options="+game.Options(r.Options).String())
	}
	if r.Seed != "" {
		parts = append(parts, "seed="+r.Seed)
	}
	if withStart && len(r.Start) > 0 {
		var v any
		if json.Unmarshal(r.Start, &v) == nil {
			if b, err := json.Marshal(v); err == nil {
				parts = append(parts, "position="+string(b))
			}
		}
	}
	parts = append(parts, "moves="+strings.Join(r.Texts(), "; "))
	if r.Result != nil {
		ws := make([]string, len(r.Result.Winners))
		for i, w := range r.Result.Winners {
			ws[i] = strconv.Itoa(w)
		}
		res := "result=" + r.Result.Status
		if len(ws) > 0 {
			res += " " + strings.Join(ws, ",")
		}
		parts = append(parts, res+" "+r.Result.Reason)
	}
	return strings.Join(parts, " | ")
}

// ParseText reads a one-line record. Its result, if any, is not read:
// whoever replays the record finds it again from the moves.
func ParseText(line string) (Record, error) {
	line = strings.TrimSpace(line)
	parts := strings.Split(line, " | ")
	if len(parts) < 2 || parts[0] != Format {
		return Record{}, unreadable(fmt.Sprintf("a text record starts with %q", Format))
	}
	rec := Record{Format: Format, Moves: []Move{}}
	for _, p := range parts[1:] {
		k, v, ok := strings.Cut(p, "=")
		if !ok {
			return rec, unreadable(fmt.Sprintf("field %q: want key=value", p))
		}
		switch k {
		case "game":
			rec.Game = v
		case "options":
			rec.Options = map[string]string{}
			for _, kv := range strings.Split(v, ",") {
				if kv == "" {
					continue
				}
				ok, ov, found := strings.Cut(kv, "=")
				if !found {
					return rec, unreadable(fmt.Sprintf("option %q: want key=value", kv))
				}
				rec.Options[ok] = ov
			}
		case "seed":
			rec.Seed = v
		case "position":
			rec.Start = json.RawMessage(v)
		case "moves":
			// Split at every ";", not at "; " only: the line is read
			// trimmed, so a last move left blank ("moves=e4; ") ended in
			// ";" and was read as a move "e4;" (found by FuzzParse), and a
			// line written by hand may leave out the space.
			for _, m := range strings.Split(v, ";") {
				if m = strings.TrimSpace(m); m != "" {
					rec.Moves = append(rec.Moves, Move{Ply: len(rec.Moves), Move: m})
				}
			}
		case "result":
			// Found again from the moves on replay.
		default:
			return rec, unreadable(fmt.Sprintf("unknown field %q", k))
		}
	}
	return rec, nil
}
