package match_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
)

// TestNewPairing: an unknown game or time control is a bad option; no time
// control is "none"; the options are the game's defaults.
func TestNewPairing(t *testing.T) {
	_, err := match.NewPairing("chess", "blitz")
	wantCode(t, err, match.CodeBadOption)
	_, err = match.NewPairing("tnim", "bullet")
	wantCode(t, err, match.CodeBadOption)
	p, err := match.NewPairing("tnim", "")
	if err != nil {
		t.Fatal(err)
	}
	if p.Clock != match.PairingClocks["none"] || p.Options["stones"] != "7" || p.Game != "tnim" {
		t.Fatalf("pairing %+v", p)
	}
}

// TestPairingWhoWaits: a waiting game is an open, unrated game of the same
// game, default options and time control from the ordinary start, its
// creator alone in seat 0 and every other seat open, younger than the
// window; a player is paired with another's, and finds their own again.
func TestPairingWhoWaits(t *testing.T) {
	p, err := match.NewPairing("tnim", "blitz")
	if err != nil {
		t.Fatal(err)
	}
	waiting := func(id string, creator int64) match.Meta {
		m := p.NewGame(id, t0)
		m.Status, m.CreatorID, m.Options = match.Open, creator, map[string]string{"stones": "7", "players": "2"}
		m.Seats = []match.Seat{{Kind: match.SeatHuman, UserID: creator}, {Kind: match.SeatOpen}}
		return m
	}
	now := t0.Add(match.PairingWindow)
	base := waiting("x", alice.ID)
	if !p.Waiting(&base, now) {
		t.Fatalf("%+v does not wait", base)
	}
	for _, c := range []struct {
		name string
		edit func(*match.Meta)
	}{
		{"live", func(m *match.Meta) { m.Status = match.Live }},
		{"another game", func(m *match.Meta) { m.Game = "skyjo" }},
		{"rated", func(m *match.Meta) { m.Rated = true }},
		{"set position", func(m *match.Meta) { m.StartPosition = json.RawMessage(`{}`) }},
		{"other options", func(m *match.Meta) { m.Options["stones"] = "8" }},
		{"other clock", func(m *match.Meta) { m.Clock = match.PairingClocks["rapid"] }},
		{"too old", func(m *match.Meta) { m.Created = t0.Add(-time.Millisecond) }},
		{"invitation", func(m *match.Meta) { m.Seats[1] = match.Seat{Kind: match.SeatInvite, UserID: bob.ID} }},
		{"bot", func(m *match.Meta) { m.Seats[1] = match.Seat{Kind: match.SeatBot, Level: "easy"} }},
		{"creator not first", func(m *match.Meta) { m.Seats[0], m.Seats[1] = m.Seats[1], m.Seats[0] }},
	} {
		m := waiting("x", alice.ID)
		c.edit(&m)
		if p.Waiting(&m, now) {
			t.Errorf("%s: waits", c.name)
		}
	}

	open := []match.Meta{waiting("a1", alice.ID), waiting("b1", bob.ID), waiting("c1", carol.ID)}
	open[2].Rated = true
	partners := p.Partners(open, alice.ID, now)
	if len(partners) != 1 || partners[0].ID != "b1" {
		t.Fatalf("alice's partners %+v, want bob's game", partners)
	}
	if own := p.Own(open, alice.ID, now); own == nil || own.ID != "a1" {
		t.Fatalf("alice's own waiting game %+v", own)
	}
	if own := p.Own(open, carol.ID, now); own != nil {
		t.Fatalf("carol waits in %s, a rated game", own.ID)
	}
}
