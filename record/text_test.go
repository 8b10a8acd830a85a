package record

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestTextRecordRoundTrip(t *testing.T) {
	rec := Record{
		Format: Format, Game: "skyjo", Options: map[string]string{"players": "3", "columns": "on"}, Seed: "18446744073709551615",
		Moves:  []Move{{Ply: 0, Move: "flip a1"}, {Ply: 1, Move: "d4(e3,e4)"}, {Ply: 2, Move: "b2-b5"}},
		Result: &Result{Status: "won", Winners: []int{0, 2}, Reason: "normal"},
	}
	line := rec.Text(false)
	want := "tabula-record/1 | game=skyjo | options=columns=on,players=3 | seed=18446744073709551615 | moves=flip a1; d4(e3,e4); b2-b5 | result=won 0,2 normal"
	if line != want {
		t.Fatalf("text record\n%s\nwant\n%s", line, want)
	}
	back, err := ParseText(line)
	if err != nil {
		t.Fatal(err)
	}
	if back.Game != rec.Game || back.Seed != rec.Seed || !reflect.DeepEqual(back.Options, rec.Options) || len(back.Moves) != 3 || back.Moves[1].Move != "d4(e3,e4)" {
		t.Fatalf("parsed back %+v", back)
	}
	// A game started from a position carries it, compact, on the line.
	rec.Seed, rec.Start = "", json.RawMessage(`{ "game": "tnim", "stones": 3 }`)
	line = rec.Text(true)
	back, err = ParseText(line)
	if err != nil || string(back.Start) != `{"game":"tnim","stones":3}` {
		t.Fatalf("position record %q → %+v, %v", line, back, err)
	}
}

// TestTextRecordMovesSeparators: moves are separated by ";" with or without
// the space Text writes, a blank move is no move, and the plies count the
// moves kept. A last blank move was read as part of the one before it.
func TestTextRecordMovesSeparators(t *testing.T) {
	for line, want := range map[string][]string{
		"tabula-record/1 | game=tnim | moves=1; 2":          {"1", "2"},
		"tabula-record/1 | game=tnim | moves=1;2":           {"1", "2"},
		"tabula-record/1 | game=tnim | moves=1; ":           {"1"},
		"tabula-record/1 | game=tnim | moves=1; ; 2;":       {"1", "2"},
		"tabula-record/1 | game=tnim | moves=flip a1 ;draw": {"flip a1", "draw"},
	} {
		rec, err := ParseText(line)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if !reflect.DeepEqual(rec.Texts(), want) {
			t.Errorf("%q: moves %q, want %q", line, rec.Texts(), want)
		}
		for i, m := range rec.Moves {
			if m.Ply != i {
				t.Errorf("%q: move %d has ply %d", line, i, m.Ply)
			}
		}
	}
}

func TestTextRecordRejects(t *testing.T) {
	for _, bad := range []string{"", "tabula-record/1", "pgn | game=x", "tabula-record/1 | game", "tabula-record/1 | colour=red", "tabula-record/1 | options=a"} {
		if _, err := ParseText(bad); KindOf(err) != Unreadable {
			t.Errorf("ParseText(%q) = %v, want an Unreadable error", bad, err)
		}
	}
}

// TestParseEveryForm: one reader for the JSON record, the text line, the
// text line as a JSON string (POST /api/records), and the moves as bare
// strings (a record written by hand).
func TestParseEveryForm(t *testing.T) {
	line := "tabula-record/1 | game=tnim | seed=3 | moves=1; 2"
	quoted, _ := json.Marshal(line)
	for _, in := range []string{
		line,
		"  " + line + "\n",
		string(quoted),
		`{"format":"tabula-record/1","game":"tnim","seed":"3","moves":[{"ply":0,"seat":0,"move":"1"},{"ply":1,"seat":1,"move":"2"}]}`,
		`{"game":"tnim","seed":"3","moves":["1","2"]}`,
	} {
		rec, err := Parse([]byte(in))
		if err != nil {
			t.Fatalf("Parse(%s): %v", in, err)
		}
		if rec.Game != "tnim" || rec.Seed != "3" || !reflect.DeepEqual(rec.Texts(), []string{"1", "2"}) {
			t.Errorf("Parse(%s) = %+v", in, rec)
		}
	}
	for _, bad := range []string{"", "{}", `{"moves":[]}`, `"pgn"`, "[1]", `{"game":"tnim","moves":[3]}`, `{"format":"tabula-record/2","game":"tnim"}`} {
		if _, err := Parse([]byte(bad)); KindOf(err) != Unreadable {
			t.Errorf("Parse(%s) = %v, want an Unreadable error", bad, err)
		}
	}
}

// TestMoveAtOmittedWhenUnknown: a move without a time (a game played in
// the terminal) writes no "at" rather than the year 1.
func TestMoveAtOmittedWhenUnknown(t *testing.T) {
	b, err := json.Marshal(Move{Ply: 2, Seat: 1, Move: "e5"})
	if err != nil || string(b) != `{"ply":2,"seat":1,"move":"e5"}` {
		t.Fatalf("%s %v", b, err)
	}
}
