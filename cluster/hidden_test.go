package cluster

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"regexp"
	"strconv"
	"sync"
	"testing"

	"github.com/nats-io/nats.go"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/skyjo"
	"github.com/tabula-games/tabula/match"
)

// sniffer records every message on the test's subjects.
type sniffer struct {
	mu   sync.Mutex
	msgs [][]byte
}

func (s *sniffer) all() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.msgs...)
}

// secrets lists what a message must not hold, in its text or in any of its
// strings decoded from base64 (how encoding/json writes a []byte such as
// Meta.StartPosition): a face-down card ("?5" in a position's grid), a
// deck's order, a generator's state, a position's seed, and the games'
// seeds written out.
func secrets(seeds ...uint64) []*regexp.Regexp {
	res := []*regexp.Regexp{
		regexp.MustCompile(`"\?-?[0-9]`),
		regexp.MustCompile(`"deck":\s*\[`),
		regexp.MustCompile(`"rng":`),
		regexp.MustCompile(`"seed":`),
	}
	for _, s := range seeds {
		res = append(res, regexp.MustCompile(`\b`+strconv.FormatUint(s, 10)+`\b`))
	}
	return res
}

// leaks is what of secrets msg holds.
func leaks(msg []byte, secrets []*regexp.Regexp) []string {
	texts := [][]byte{msg}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, x := range v {
				walk(x)
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case string:
			if b, err := base64.StdEncoding.DecodeString(v); err == nil && len(b) > 0 {
				texts = append(texts, b)
			}
		}
	}
	var v any
	if json.Unmarshal(msg, &v) == nil {
		walk(v)
	}
	var out []string
	for _, t := range texts {
		for _, re := range secrets {
			if re.Match(t) {
				out = append(out, re.String())
			}
		}
	}
	return out
}

// TestNothingHiddenOnTheBus: during two Skyjo games — one from the deal
// of the game's seed, one from a position the server deals afresh — with
// their commands forwarded and their events heard by another node, no
// message on NATS holds a face-down card, the deck's order, the
// generator's state or a seed; and the node that hears the game still has
// its start position, read from PostgreSQL.
func TestNothingHiddenOnTheBus(t *testing.T) {
	e := newQuietEnv(t)
	const seed, posSeed = 8130946617204431871, 5723101948373645023
	nc, err := nats.Connect(e.nats)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var sn sniffer
	if _, err := nc.Subscribe(e.prefix+".>", func(m *nats.Msg) {
		sn.mu.Lock()
		sn.msgs = append(sn.msgs, bytes.Clone(m.Data))
		sn.mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	seeds := func(c *match.Config) { c.GameSeed = func() uint64 { return seed } }
	a, b := e.start(seeds), e.start(seeds)
	watch(b, "dealt")
	watch(b, "fromPosition")

	seats := []match.Seat{{Kind: match.SeatHuman, UserID: alice.ID}, {Kind: match.SeatInvite, UserID: bob.ID}}
	a.create("dealt", match.Meta{Game: "skyjo", Options: map[string]string{"players": "2"}, Seats: seats})
	st, err := skyjo.Game{}.New(game.Options{"players": "2"}, posSeed)
	if err != nil {
		t.Fatal(err)
	}
	pos, err := st.MarshalPosition()
	if err != nil {
		t.Fatal(err)
	}
	a.create("fromPosition", match.Meta{Game: "skyjo", StartPosition: pos, Origin: match.OriginPosition, Seats: seats})

	for _, id := range []string{"dealt", "fromPosition"} {
		// A dozen decisions, every one forwarded by b.
		for ply := 0; ply < 12; ply++ {
			snap, err := a.reg.Snapshot(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			u := []match.User{alice, bob}[snap.State.ToMove()]
			ack, err := b.do(id, match.Command{Kind: match.CmdMove, User: u, Seat: -1, Ply: ply, Move: game.LegalTexts(snap.State)[0]})
			if err != nil {
				t.Fatalf("%s ply %d: %v", id, ply, err)
			}
			if id == "fromPosition" && len(ack.Meta.StartPosition) == 0 {
				t.Fatal("a forwarded answer came back without the game's start position")
			}
		}
		if _, err := b.do(id, match.Command{Kind: match.CmdResign, User: bob, Ply: -1}); err != nil {
			t.Fatal(err)
		}
	}
	evs, err := b.events.Wait(func(ev match.Event) bool { return ev.Game == "fromPosition" && ev.Kind == match.EventEnd })
	if err != nil {
		t.Fatal(err)
	}
	stored, err := a.db.Game(context.Background(), "fromPosition")
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range evs {
		if ev.Game == "fromPosition" && !bytes.Equal(ev.Meta.StartPosition, stored.StartPosition) {
			t.Fatalf("b's %s event of the game from a position: start position %d bytes, want the stored %d", ev.Kind, len(ev.Meta.StartPosition), len(stored.StartPosition))
		}
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	msgs := sn.all()
	if len(msgs) < 50 {
		t.Fatalf("sniffed only %d messages", len(msgs))
	}
	// The sniffer works: it sees each secret in a position.
	if l := leaks(pos, secrets(posSeed)); len(l) != 5 {
		t.Fatalf("the sniffer finds %v in a position", l)
	}
	for _, m := range msgs {
		if l := leaks(m, secrets(seed, posSeed)); len(l) > 0 {
			t.Fatalf("a message on the bus holds %v: %.600s", l, m)
		}
	}
	t.Logf("%d messages sniffed, nothing hidden in them", len(msgs))
}
