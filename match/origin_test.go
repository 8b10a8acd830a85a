package match_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/tabula-games/tabula/game"
	_ "github.com/tabula-games/tabula/games/skyjo"
	"github.com/tabula-games/tabula/match"
)

// riggedSkyjo is a two-player Skyjo position its creator wrote: the
// opponent's total set to 99, every card known to the creator.
func riggedSkyjo(t *testing.T) []byte {
	t.Helper()
	g, err := game.Lookup("skyjo")
	if err != nil {
		t.Fatal(err)
	}
	st, err := g.New(game.Options{"players": "2"}, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, err := st.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	var pos map[string]any
	json.Unmarshal(b, &pos)
	pos["players"].([]any)[1].(map[string]any)["total"] = 99
	b, _ = json.Marshal(pos)
	if _, err := g.ParsePosition(b); err != nil {
		t.Fatalf("the rigged position does not parse: %v", err)
	}
	return b
}

// hiddenPart is what a position hides from everyone: the deck and the
// face-down cards.
func hiddenPart(t *testing.T, pos []byte) string {
	var p struct {
		Deck    []int
		Players []struct{ Grid [][]json.RawMessage }
	}
	if err := json.Unmarshal(pos, &p); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	json.NewEncoder(&b).Encode(p.Deck)
	for _, pl := range p.Players {
		for _, row := range pl.Grid {
			for _, c := range row {
				if bytes.HasPrefix(c, []byte(`"?`)) {
					b.Write(c)
				}
			}
		}
	}
	return b.String()
}

func spectatorView(t *testing.T, pos []byte) string {
	g, _ := game.Lookup("skyjo")
	st, err := g.ParsePosition(pos)
	if err != nil {
		t.Fatal(err)
	}
	v, err := game.View(st, game.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	return string(v)
}

// TestStartFromPosition (issue 16, finding 1): a game from its creator's
// position is never rated; the hidden part of the position is dealt afresh
// by the server, the public part (the totals of 99 included) kept and
// shown; a creator who keeps the deal needs every joiner's consent.
func TestStartFromPosition(t *testing.T) {
	n := newNode(t)
	rigged := riggedSkyjo(t)
	create := func(m match.Meta) (match.Ack, error) {
		m.ID, m.Game = "g"+string(rune('a'+len(n.events.All())%26))+m.ID, "skyjo"
		return n.reg.Create(context.Background(), alice, m)
	}
	seats := func() []match.Seat {
		return []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatOpen}}
	}

	if _, err := create(match.Meta{ID: "r", StartPosition: rigged, Rated: true, Seats: seats()}); codeOf(err) != match.CodeBadOption {
		t.Fatalf("a rated game from the creator's position: %v; want %s", err, match.CodeBadOption)
	}

	ack, err := create(match.Meta{ID: "u", StartPosition: rigged, Seats: seats()})
	if err != nil {
		t.Fatal(err)
	}
	m, _ := n.journal.Game(ack.Meta.ID)
	if m.Rated || m.Origin != match.OriginPosition || m.KeepDeal || m.Options["players"] != "2" {
		t.Fatalf("stored: rated %v, origin %q, keepDeal %v, options %v", m.Rated, m.Origin, m.KeepDeal, m.Options)
	}
	if spectatorView(t, m.StartPosition) != spectatorView(t, rigged) {
		t.Fatalf("the public part changed:\n%s\n%s", spectatorView(t, m.StartPosition), spectatorView(t, rigged))
	}
	if hiddenPart(t, m.StartPosition) == hiddenPart(t, rigged) {
		t.Fatal("the hidden cards are the creator's: not dealt afresh")
	}
	n.must(ack.Meta.ID, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1})

	// Kept: the creator's cards stand, and only those who accept join.
	ack, err = create(match.Meta{ID: "k", StartPosition: rigged, KeepDeal: true, Origin: match.OriginRecord, Seats: seats()})
	if err != nil {
		t.Fatal(err)
	}
	m, _ = n.journal.Game(ack.Meta.ID)
	if !m.KeepDeal || m.Origin != match.OriginRecord || hiddenPart(t, m.StartPosition) != hiddenPart(t, rigged) {
		t.Fatalf("kept deal: keepDeal %v, origin %q, hidden part kept %v", m.KeepDeal, m.Origin, hiddenPart(t, m.StartPosition) == hiddenPart(t, rigged))
	}
	if _, err := n.do(ack.Meta.ID, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1}); codeOf(err) != match.CodeKeptDeal {
		t.Fatalf("joining without accepting the kept deal: %v; want %s", err, match.CodeKeptDeal)
	}
	n.must(ack.Meta.ID, match.Command{Kind: match.CmdJoin, User: bob, Seat: -1, AcceptDeal: true})

	for name, m := range map[string]match.Meta{
		"keepDeal without a position": {ID: "x1", KeepDeal: true, Seats: seats()},
		"origin without a position":   {ID: "x2", Origin: match.OriginRecord, Seats: seats()},
		"an unknown origin":           {ID: "x3", StartPosition: rigged, Origin: "upload", Seats: seats()},
	} {
		if _, err := create(m); codeOf(err) != match.CodeBadOption {
			t.Errorf("%s: %v; want %s", name, err, match.CodeBadOption)
		}
	}
	// A game that hides nothing has no deal to keep.
	nim := match.Meta{ID: "nim", Game: "tnim", StartPosition: []byte(`{"game":"tnim","stones":5,"players":2,"toMove":0,"winner":-1}`), KeepDeal: true}
	if _, err := n.reg.Create(context.Background(), alice, nim); codeOf(err) != match.CodeBadOption {
		t.Errorf("keepDeal in a game without hidden cards: %v; want %s", err, match.CodeBadOption)
	}
}
