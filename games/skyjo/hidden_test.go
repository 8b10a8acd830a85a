package skyjo

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestViewFormat checks the public view against the spec's JSON, written out
// by hand.
func TestViewFormat(t *testing.T) {
	s := build(t, layout{
		grids:   []string{"5 ?3 -2 x / ?1 ?2 12 x / 0 ?4 ?6 x", allDown},
		discard: []int{3, 7, 11}, deck: []int{4},
	})
	s.round, s.totals[0], s.totals[1] = 2, 37, 12
	play(t, s, "draw")
	want := `{"game":"skyjo","round":2,"toMove":0,"phase":"drawn","players":[` +
		`{"grid":[[5,"?",-2,"x"],["?","?",12,"x"],[0,"?","?","x"]],"total":37,"ended":false},` +
		`{"grid":[["?","?","?","?"],["?","?","?","?"],["?","?","?","?"]],"total":12,"ended":false}],` +
		`"discard":[3,7,11],"deck":125,"held":4,"finalLap":false,"starter":0,"turn":0,"reshuffles":0,` +
		`"options":{"columns":"on","double":"positive","maxturns":"100","players":"2","starter":"winner","target":"100"}}`
	for seat := 0; seat < 2; seat++ {
		got, err := s.View(seat)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != want {
			t.Errorf("View(%d):\n got  %s\n want %s", seat, got, want)
		}
	}
	play(t, s, "flip b1")
	got, _ := s.View(0)
	if !contains(string(got), `"held":null`) || !contains(string(got), `"toMove":1,"phase":"choose"`) || !contains(string(got), `[5,3,-2,"x"]`) {
		t.Errorf("after the flip: %s", got)
	}
}

// permuteInto overwrites c with a copy of s whose hidden cards (face-down
// values and deck order) are shuffled among themselves: a different true
// state with the same public view.
func permuteInto(c, s *State, rng *game.RNG) {
	*c = *s
	var buf [deckSize]int8
	pool := buf[:0]
	for p := 0; p < int(s.cfg.players); p++ {
		for m := s.down(p); m != 0; m &= m - 1 {
			pool = append(pool, s.cards[p][trailingZeros(m)])
		}
	}
	pool = append(pool, s.deck[:s.deckN]...)
	shuffle(pool, rng)
	k := 0
	for p := 0; p < int(s.cfg.players); p++ {
		for m := s.down(p); m != 0; m &= m - 1 {
			c.cards[p][trailingZeros(m)] = pool[k]
			k++
		}
	}
	copy(c.deck[:c.deckN], pool[k:])
	c.rng = game.NewRNG(rng.Uint64()) // the generator is hidden too
	c.seed = rng.Uint64()
}

// scratch are the states samePublic reuses (a State is a large value).
type scratch struct{ c, d1, d2 State }

// TestHiddenInformationProperty plays thousands of seeded games (2–8
// players). At every checked ply a copy with the hidden cards permuted must
// give the same view, the same drawing, the same policy move and the same
// determinization: the public side cannot depend on anything hidden. Every
// finished game must replay exactly from its seed and from its chance record.
func TestHiddenInformationProperty(t *testing.T) {
	games := 2100
	if testing.Short() {
		games = 210
	}
	rng := game.NewRNG(31337)
	var changed, checked int
	sc := new(scratch)
	for g := 0; g < games; g++ {
		n := 2 + g%7
		opts := game.Options{"players": strconv.Itoa(n)}
		switch g % 3 {
		case 1:
			opts["columns"], opts["starter"] = "off", "finisher"
		case 2:
			opts["maxturns"], opts["double"] = "8", "always"
		}
		seed := uint64(1000 + g)
		s, err := NewState(opts, seed)
		if err != nil {
			t.Fatal(err)
		}
		var moves []string
		var buf []game.Move
		for ply := 0; ; ply++ {
			if ply%7 == 0 || s.Outcome().Over() {
				checked++
				if samePublic(t, s, &rng, checked%25 == 0, sc) {
					changed++
				}
				if t.Failed() {
					t.Fatalf("game %d (seed %d, %v) after %v", g, seed, opts, moves)
				}
			}
			if s.Outcome().Over() {
				break
			}
			buf = s.Legal(buf[:0])
			m := buf[rng.IntN(len(buf))]
			if g%2 == 1 {
				m = s.PolicyMove(&rng)
			}
			moves = append(moves, s.FormatMove(m))
			s.Play(m)
		}
		checkReplay(t, s, opts, seed, moves)
		if t.Failed() {
			t.Fatalf("game %d (seed %d, %v)", g, seed, opts)
		}
	}
	// The permutation must actually hide something most of the time, or the
	// test proves nothing.
	if changed < checked*9/10 {
		t.Errorf("the hidden cards differed in only %d of %d checks", changed, checked)
	}
}

// samePublic checks s against a hidden-permuted copy; it reports whether the
// copy's true state differs from s (it almost always should). deep adds the
// slower checks (drawing, position validity of a determinization).
func samePublic(t *testing.T, s *State, rng *game.RNG, deep bool, sc *scratch) bool {
	t.Helper()
	c := &sc.c
	permuteInto(c, s, rng)
	differs := c.cards != s.cards || c.deck != s.deck
	for _, seat := range []int{0, s.NumPlayers() - 1} {
		v1, err1 := s.View(seat)
		v2, err2 := c.View(seat)
		if err1 != nil || err2 != nil || !bytes.Equal(v1, v2) {
			t.Errorf("views differ for seat %d:\n%s\n%s", seat, v1, v2)
			return differs
		}
		// A determinization is a function of the view and the generator.
		r1 := rng.Split()
		r2 := r1
		d1, d2 := &sc.d1, &sc.d2
		s.Determinize(d1, seat, &r1)
		c.Determinize(d2, seat, &r2)
		if *d1 != *d2 {
			q1, _ := d1.MarshalPosition()
			q2, _ := d2.MarshalPosition()
			t.Errorf("determinizations of equal views differ:\n%s\n%s", q1, q2)
		}
		if dv, _ := d1.View(seat); !bytes.Equal(dv, v1) {
			t.Errorf("a determinization changes the view:\n%s\n%s", v1, dv)
		}
		if deep {
			if !json.Valid(v1) {
				t.Errorf("view is not JSON: %s", v1)
			}
			q1, _ := d1.MarshalPosition()
			if _, err := Skyjo.ParsePosition(q1); err != nil {
				t.Errorf("a determinization is not a valid position: %v", err)
			}
		}
	}
	if deep && s.Draw() != c.Draw() {
		t.Error("drawings differ with the same view")
	}
	if !s.Outcome().Over() {
		r1 := rng.Split()
		r2 := r1
		if m1, m2 := s.PolicyMove(&r1), c.PolicyMove(&r2); m1 != m2 {
			t.Errorf("policy moves differ with the same view: %s, %s", s.FormatMove(m1), c.FormatMove(m2))
		}
	}
	return differs
}

// checkReplay replays a finished game from its seed and from its chance
// record.
func checkReplay(t *testing.T, s *State, opts game.Options, seed uint64, moves []string) {
	t.Helper()
	want, _ := s.MarshalPosition()
	r, err := Replay(opts, seed, moves)
	if err != nil {
		t.Fatalf("Replay: %v", err)
	}
	if got, _ := r.MarshalPosition(); !bytes.Equal(got, want) {
		t.Fatalf("replay from the seed differs:\n%s\n%s", got, want)
	}
	rec := s.ChanceRecord()
	if !rec.Complete || len(rec.Events) < int(s.round) {
		t.Fatalf("chance record incomplete: %d events for %d rounds", len(rec.Events), s.round)
	}
	r, err = ReplayRecord(opts, rec, moves)
	if err != nil {
		t.Fatalf("ReplayRecord: %v", err)
	}
	if got, _ := r.MarshalPosition(); !bytes.Equal(got, want) {
		t.Fatalf("replay from the chance record differs:\n%s\n%s", got, want)
	}
	// A record replays the same game whatever generator the replay starts
	// with: only the generator's state differs at the end.
	rec.Seed ^= 0xdead
	r, err = ReplayRecord(opts, rec, moves)
	if err != nil {
		t.Fatalf("ReplayRecord with another seed: %v", err)
	}
	a, b := *r, *s
	a.rng, a.seed, b.rng, b.seed = game.RNG{}, 0, game.RNG{}, 0
	pa, _ := a.MarshalPosition()
	pb, _ := b.MarshalPosition()
	if !bytes.Equal(pa, pb) {
		t.Fatalf("replay from the chance record with another seed differs:\n%s\n%s", pa, pb)
	}
}

func TestReplayRecordRejectsAWrongRecord(t *testing.T) {
	s, _ := NewState(nil, 5)
	rng := game.NewRNG(1)
	var moves []string
	for !s.Outcome().Over() {
		m := s.Legal(nil)[rng.IntN(len(s.Legal(nil)))]
		moves = append(moves, s.FormatMove(m))
		s.Play(m)
	}
	rec := s.ChanceRecord()
	bad := rec
	bad.Events = append([]ChanceEvent(nil), rec.Events...)
	bad.Events[0].Cards = append([]int(nil), rec.Events[0].Cards...)
	bad.Events[0].Cards[0] = 99
	if _, err := ReplayRecord(nil, bad, moves); err == nil {
		t.Error("a deal with a card 99 accepted")
	}
	short := rec
	short.Events = rec.Events[:1]
	if len(rec.Events) > 1 {
		if _, err := ReplayRecord(nil, short, moves); err == nil {
			t.Error("a record missing events accepted")
		}
	}
	// A different but valid deal changes the game: the cards of the deal are
	// what the record says.
	other := rec
	other.Events = append([]ChanceEvent(nil), rec.Events...)
	cards := append([]int(nil), rec.Events[0].Cards...)
	cards[0], cards[len(cards)-1] = cards[len(cards)-1], cards[0]
	other.Events[0].Cards = cards
	r, err := ReplayRecord(nil, other, moves[:1])
	if err != nil {
		t.Fatal(err)
	}
	if int(r.cards[0][0]) != cards[0] {
		t.Errorf("seat 0 a1 is %d, the record deals %d", r.cards[0][0], cards[0])
	}
}

// TestDeterminizeSamplesUniformly: from one view, the unseen cards land on a
// face-down position and on the deck's top with the frequencies of the
// cards visible nowhere.
func TestDeterminizeSamplesUniformly(t *testing.T) {
	s, _ := NewState(game.Options{"players": "3"}, 8)
	play(t, s, "flip a1", "flip b1", "flip a1", "flip b1", "flip a1", "flip b1", "draw")
	v := s.public()
	pool, k := v.unseen()
	var want [15]float64
	for _, c := range pool[:k] {
		want[c+2]++
	}
	const samples = 30000
	var atCell, atTop [15]float64
	rng := game.NewRNG(4)
	d := &State{}
	for i := 0; i < samples; i++ {
		s.Determinize(d, 1, &rng)
		atCell[d.cards[2][pos(t, "d3")]+2]++
		atTop[d.deck[d.deckN-1]+2]++
	}
	for c := range want {
		p := want[c] / float64(k)
		sd := math.Sqrt(samples * p * (1 - p))
		for _, got := range []float64{atCell[c], atTop[c]} {
			if math.Abs(got-samples*p) > 5*sd+1 {
				t.Errorf("card %d sampled %v times, want about %.0f", c-2, got, samples*p)
			}
		}
	}
	// The generator of future shuffles is reseeded: two determinizations
	// with different draws do not share it, and none has the true one.
	if d.rng == s.rng || d.seed != 0 || d.ChanceRecord().Complete {
		t.Error("a determinization kept the true generator, seed or record")
	}
}

// TestDeterminizeAfterReshuffle: after a reshuffle the unseen pool is all
// the cards not visible, deck included.
func TestDeterminizeConservesCards(t *testing.T) {
	for _, st := range statesOf(t, 300) {
		d := &State{}
		rng := game.NewRNG(uint64(st.turn))
		st.Determinize(d, 0, &rng)
		conserved(t, d)
		if d.deckN != st.deckN {
			t.Fatalf("deck %d, want %d", d.deckN, st.deckN)
		}
	}
}

// statesOf collects states of random 2–8 player games.
func statesOf(t testing.TB, n int) []*State {
	var out []*State
	rng := game.NewRNG(77)
	for g := 0; len(out) < n; g++ {
		s, _ := NewState(game.Options{"players": strconv.Itoa(2 + g%7)}, uint64(g))
		for !s.Outcome().Over() && len(out) < n {
			ms := s.Legal(nil)
			s.Play(ms[rng.IntN(len(ms))])
			if rng.IntN(20) == 0 {
				c := *s
				out = append(out, &c)
			}
		}
	}
	return out
}

// TestPublicHoldsNothingHidden pins the fields of public, the only input of
// View, Determinize, the policy and the drawing: a field added to it (say,
// the deck) must be added here too, on purpose. face holds face-up values
// only, disc only the discard pile, deckN only the deck's size.
func TestPublicHoldsNothingHidden(t *testing.T) {
	want := []string{"cfg", "round", "turn", "phase", "toMove", "starter", "ender", "reshuffles", "held",
		"winners", "totals", "face", "up", "gone", "deckN", "discN", "disc"}
	typ := reflect.TypeOf(public{})
	var got []string
	for i := 0; i < typ.NumField(); i++ {
		got = append(got, typ.Field(i).Name)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("public has fields %v, want %v", got, want)
	}
	// face is zero wherever the card is face down, and the view's legal
	// moves are the state's.
	for _, s := range statesOf(t, 200) {
		v := s.public()
		if a, b := v.legal(nil), s.Legal(nil); !slices.Equal(a, b) {
			t.Fatalf("legal moves from the view %v, from the state %v", a, b)
		}
		for p := 0; p < MaxPlayers; p++ {
			for i := 0; i < gridCards; i++ {
				if v.up[p]&(1<<i) == 0 && v.face[p][i] != 0 {
					t.Fatalf("public shows seat %d %s face down as %d", p, posName(i), v.face[p][i])
				}
			}
		}
	}
}
