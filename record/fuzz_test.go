package record

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParse: no input makes Parse panic, every refusal is an Unreadable
// Error, and a text record read back from what Text wrote has the same
// game, options, seed and moves.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"tabula-record/1 | game=skyjo | options=columns=on,players=3 | seed=7 | moves=flip a1; draw; swap c1 | result=won 1 normal",
		`"tabula-record/1 | game=tnim | moves=1; 2"`,
		`{"format":"tabula-record/1","game":"tnim","seed":"3","moves":[{"ply":0,"seat":0,"move":"1"}]}`,
		`{"game":"tnim","moves":["1","2"]}`,
		"tabula-record/1 | game=tnim | position={\"stones\":3} | moves=",
		"", "{", `"`, "tabula-record/1 | options=a",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rec, err := Parse(data)
		if err != nil {
			if KindOf(err) != Unreadable {
				t.Fatalf("Parse refused with %v, not an Unreadable error", err)
			}
			return
		}
		if !textable(rec) {
			return // a field holds the text form's separators: no game's notation does
		}
		back, err := ParseText(rec.Text(true))
		if err != nil {
			t.Fatalf("the text form of %+v does not read back: %v", rec, err)
		}
		if back.Game != rec.Game || back.Seed != rec.Seed || !reflect.DeepEqual(back.Texts(), nonEmpty(rec.Texts())) {
			t.Fatalf("text round trip\n%+v\n%+v", rec, back)
		}
	})
}

// nonEmpty is the moves a text line carries: trimmed, blank ones dropped.
func nonEmpty(ms []string) []string {
	out := []string{}
	for _, m := range ms {
		if m = strings.TrimSpace(m); m != "" {
			out = append(out, m)
		}
	}
	return out
}

// textable reports whether a record's fields keep clear of the text
// form's separators, as every game's notation, name and option does.
func textable(rec Record) bool {
	plain := func(s string, seps string) bool { return !strings.ContainsAny(s, seps) && strings.TrimSpace(s) == s }
	if !plain(rec.Game, "|=;\n") || !plain(rec.Seed, "|;\n") || rec.Game == "" || strings.ContainsAny(string(rec.Start), "|\n") {
		return false
	}
	for k, v := range rec.Options {
		if k == "" || !plain(k, "|=,;\n") || !plain(v, "|=,;\n") {
			return false
		}
	}
	for _, m := range rec.Moves {
		if strings.ContainsAny(m.Move, "|;\n") {
			return false
		}
	}
	return true
}
