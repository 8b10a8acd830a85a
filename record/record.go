// Package record is the game record, the one format in which a finished
// (or ongoing) game leaves the site and comes back: the JSON record of
// GET /api/games/{id}/record, the one-line text record of record.txt, and
// the file `tabula play --record` writes. The server and the command line
// read and write it through this package alone, so a game played in the
// terminal imports on the site and a game downloaded from the site
// reviews in the terminal.
//
// A record is data, not a game: Replay checks it against the rules. The
// package knows nothing of HTTP, matches or the store.
package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// Format names this version of the record, the first field of both forms.
const Format = "tabula-record/1"

// Player is one seat of a record.
type Player struct {
	Seat int `json:"seat"`
	// Name is how the game's notation names the seat ("1", "white").
	Name string `json:"name,omitempty"`
	// Kind is how the seat was held: on the site human, bot, open,
	// invite or imported; in the terminal human or bot.
	Kind  string `json:"kind"`
	User  string `json:"user,omitempty"`
	Level string `json:"level,omitempty"` // a bot's level or agent
}

// Move is one move of a record, in the game's notation.
type Move struct {
	Ply  int       `json:"ply"`
	Seat int       `json:"seat"`
	Move string    `json:"move"`
	At   time.Time `json:"at,omitzero"` // when it was played, where known
}

// UnmarshalJSON reads a move written as an object or as its text alone
// (the easy way to write a record by hand; the other fields then come from
// the replay).
func (m *Move) UnmarshalJSON(data []byte) error {
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '"' {
		var s string
		if err := json.Unmarshal(t, &s); err != nil {
			return err
		}
		*m = Move{Move: s}
		return nil
	}
	type plain Move
	return json.Unmarshal(data, (*plain)(m))
}

// Result is how the game ended.
type Result struct {
	Status  string `json:"status"` // won or drawn
	Winners []int  `json:"winners"`
	Reason  string `json:"reason"` // normal, resign, timeout, agreed, abandoned
	Scores  []int  `json:"scores,omitempty"`
}

// Record is a game's record. Seed, Start, Final and Chance reveal
// everything hidden: whoever writes a record fills them only when that is
// allowed (for a game with hidden information, once it is over).
type Record struct {
	Format   string            `json:"format"`
	ID       string            `json:"id,omitempty"`
	Game     string            `json:"game"`
	Options  map[string]string `json:"options,omitempty"`
	Players  []Player          `json:"players,omitempty"`
	Status   string            `json:"status,omitempty"`
	Created  *time.Time        `json:"created,omitempty"`
	Started  *time.Time        `json:"started,omitempty"`
	Finished *time.Time        `json:"finished,omitempty"`
	Moves    []Move            `json:"moves"`
	Result   *Result           `json:"result,omitempty"`
	// Seed decided every chance event of a game dealt from Options.
	Seed string `json:"seed,omitempty"`
	// Start is the position the moves are played from; Final the one
	// they reach (both the game's position JSON).
	Start json.RawMessage `json:"start,omitempty"`
	Final json.RawMessage `json:"final,omitempty"`
	// Chance is the game's own list of its chance outcomes, where it
	// keeps one (Skyjo's shuffles).
	Chance json.RawMessage `json:"chance,omitempty"`
}

// Texts is the record's moves in the game's notation.
func (r *Record) Texts() []string {
	out := make([]string, len(r.Moves))
	for i, m := range r.Moves {
		out[i] = m.Move
	}
	return out
}

// Parse reads a record in any of its forms: a JSON record, the text
// record, or the text record as a JSON string (how POST /api/records
// carries it).
func Parse(data []byte) (Record, error) {
	t := bytes.TrimSpace(data)
	switch {
	case len(t) > 0 && t[0] == '"':
		var line string
		if err := json.Unmarshal(t, &line); err != nil {
			return Record{}, unreadable("want a JSON record or a text record string")
		}
		return ParseText(line)
	case len(t) > 0 && t[0] == '{':
		var rec Record
		if err := json.Unmarshal(t, &rec); err != nil || rec.Game == "" {
			return Record{}, unreadable("want a JSON record or a text record string")
		}
		if rec.Format != "" && rec.Format != Format {
			return Record{}, unreadable(fmt.Sprintf("format %q: this site reads %s", rec.Format, Format))
		}
		if rec.Moves == nil {
			rec.Moves = []Move{}
		}
		return rec, nil
	case strings.HasPrefix(string(t), Format):
		return ParseText(string(t))
	}
	return Record{}, unreadable("want a JSON record or a text record string")
}
