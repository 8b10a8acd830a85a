package server

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

func TestTextRecordRoundTrip(t *testing.T) {
	rec := recordJSON{
		Format: recordFormat, Game: "skyjo", Options: map[string]string{"players": "3", "columns": "on"}, Seed: "18446744073709551615",
		Moves:  []wire.Move{{Ply: 0, Move: "flip a1"}, {Ply: 1, Move: "d4(e3,e4)"}, {Ply: 2, Move: "b2-b5"}},
		Result: &match.Result{Status: match.Won, Winners: []int{0, 2}, Reason: match.ReasonNormal},
	}
	line := textRecord(rec, false)
	want := "tabula-record/1 | game=skyjo | options=columns=on,players=3 | seed=18446744073709551615 | moves=flip a1; d4(e3,e4); b2-b5 | result=won 0,2 normal"
	if line != want {
		t.Fatalf("text record\n%s\nwant\n%s", line, want)
	}
	back, err := parseTextRecord(line)
	if err != nil {
		t.Fatal(err)
	}
	if back.Game != rec.Game || back.Seed != rec.Seed || !reflect.DeepEqual(back.Options, rec.Options) || len(back.Moves) != 3 || back.Moves[1].Move != "d4(e3,e4)" {
		t.Fatalf("parsed back %+v", back)
	}
	// A game started from a position carries it, compact, on the line.
	rec.Seed, rec.Start = "", json.RawMessage(`{ "game": "tnim", "stones": 3 }`)
	line = textRecord(rec, true)
	back, err = parseTextRecord(line)
	if err != nil || string(back.Start) != `{"game":"tnim","stones":3}` {
		t.Fatalf("position record %q → %+v, %v", line, back, err)
	}
}

func TestTextRecordRejects(t *testing.T) {
	for _, bad := range []string{"", "tabula-record/1", "pgn | game=x", "tabula-record/1 | game", "tabula-record/1 | colour=red", "tabula-record/1 | options=a"} {
		if _, err := parseTextRecord(bad); err == nil {
			t.Errorf("parseTextRecord(%q) accepted it", bad)
		}
	}
}
