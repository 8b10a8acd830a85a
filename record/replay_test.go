package record_test

import (
	"encoding/json"
	"errors"
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/all"
	"github.com/tabula-games/tabula/record"
)

// TestReplayRecordsSeatsAndCanonicalText: a record replays from its seed
// and options, each move gets its seat and canonical notation, and the
// text line written from the result reads back to the same game.
func TestReplayRecordsSeatsAndCanonicalText(t *testing.T) {
	g, err := game.Lookup("sgolte")
	if err != nil {
		t.Skip(err)
	}
	st, err := g.New(game.Defaults(g), 5)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for range 6 {
		ms := st.Legal(nil)
		texts = append(texts, st.FormatMove(ms[0]))
		st.Play(ms[0])
	}
	rec := record.Record{Format: record.Format, Game: "sgolte", Seed: "5", Options: map[string]string(game.Defaults(g))}
	for _, m := range texts {
		rec.Moves = append(rec.Moves, record.Move{Move: m})
	}
	setup, err := rec.StartState()
	if err != nil || setup.FromStart || setup.Seed != 5 {
		t.Fatalf("start %+v, %v", setup, err)
	}
	played, err := rec.Replay(setup.State)
	if err != nil || len(played) != 6 {
		t.Fatalf("replay %v, %v", played, err)
	}
	for i, m := range played {
		if m.Ply != i || m.Move != texts[i] {
			t.Errorf("move %d: %+v, want %q", i, m, texts[i])
		}
	}
	if setup.State.Hash() != st.Hash() {
		t.Error("the replay reached another position")
	}
	back, err := record.ParseText(rec.Text(false))
	if err != nil || len(back.Moves) != 6 {
		t.Fatalf("text line read back: %+v, %v", back, err)
	}
}

// TestReplayErrorsSayWhichKind: every way a record fails to replay has its
// kind (so each way in maps it once) and names the first bad ply.
func TestReplayErrorsSayWhichKind(t *testing.T) {
	cases := []struct {
		rec  record.Record
		kind record.Kind
		msg  string
	}{
		{record.Record{Game: "chess", Seed: "1"}, record.UnknownGame, `record: unknown game "chess"`},
		{record.Record{Game: "sgolte"}, record.NoStart, "a record needs its seed or its start position to replay"},
		{record.Record{Game: "sgolte", Seed: "-1"}, record.BadSeed, `record seed "-1": want an unsigned integer`},
		{record.Record{Game: "sgolte", Seed: "1", Options: map[string]string{"colour": "red"}}, record.BadOptions, ""},
		{record.Record{Game: "sgolte", Start: json.RawMessage(`{"nonsense":1}`)}, record.BadStart, ""},
		{record.Record{Game: "sgolte", Seed: "1", Moves: []record.Move{{Move: "zz99"}}}, record.IllegalMove, `ply 0 "zz99": `},
	}
	for _, c := range cases {
		setup, err := c.rec.StartState()
		if err == nil {
			_, err = c.rec.Replay(setup.State)
		}
		if record.KindOf(err) != c.kind {
			t.Errorf("%+v: %v, want kind %d", c.rec, err, c.kind)
			continue
		}
		if c.msg != "" && (len(err.Error()) < len(c.msg) || err.Error()[:len(c.msg)] != c.msg) {
			t.Errorf("%+v: %q, want it to start %q", c.rec, err, c.msg)
		}
		var re *record.Error
		if c.kind != record.NoStart && (!errors.As(err, &re) || re.Err == nil) {
			t.Errorf("%+v: %v does not carry the cause", c.rec, err)
		}
	}
}

// TestResultOf: the rules' result of a finished game, nil before.
func TestResultOf(t *testing.T) {
	g, _ := game.Lookup("sgolte")
	st, _ := g.New(game.Defaults(g), 1)
	if record.ResultOf(st) != nil {
		t.Fatal("a result before the end")
	}
	for !st.Outcome().Over() {
		st.Play(st.Legal(nil)[0])
	}
	res := record.ResultOf(st)
	if res == nil || res.Reason != "normal" || (res.Status == "won") != (len(res.Winners) > 0) {
		t.Fatalf("result %+v", res)
	}
}
