package skyjo

import (
	"bytes"
	"strconv"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestPlayoutMatchesRandomPlayout: the fast path and the generic
// Legal+Play path play the very same games for the same generator.
func TestPlayoutMatchesRandomPlayout(t *testing.T) {
	for g := 0; g < 300; g++ {
		opts := game.Options{"players": strconv.Itoa(2 + g%7)}
		if g%4 == 3 {
			opts["columns"] = "off"
		}
		a, _ := NewState(opts, uint64(g))
		b, _ := NewState(opts, uint64(g))
		r1, r2 := game.NewRNG(uint64(g)*7), game.NewRNG(uint64(g)*7)
		n1 := a.Playout(&r1)
		_, n2 := game.RandomPlayout(b, &r2, nil)
		pa, _ := a.MarshalPosition()
		pb, _ := b.MarshalPosition()
		if n1 != n2 || !bytes.Equal(pa, pb) || r1 != r2 {
			t.Fatalf("game %d: Playout and RandomPlayout differ (%d and %d plies)", g, n1, n2)
		}
	}
}

func TestZeroAllocationsPerGame(t *testing.T) {
	s, _ := NewState(nil, 1)
	rng := game.NewRNG(1)
	seed := uint64(0)
	allocs := testing.AllocsPerRun(200, func() {
		seed++
		s.Reset(seed)
		s.Playout(&rng)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per random game, want 0", allocs)
	}
	// The generic path too, with a roomy buffer, and the policy.
	buf := make([]game.Move, 0, 64)
	allocs = testing.AllocsPerRun(100, func() {
		seed++
		s.Reset(seed)
		buf, _ = game.RandomPlayout(s, &rng, buf)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per generic random game, want 0", allocs)
	}
	allocs = testing.AllocsPerRun(20, func() {
		seed++
		s.Reset(seed)
		for !s.Outcome().Over() {
			s.Play(s.PolicyMove(&rng))
		}
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per policy game, want 0", allocs)
	}
	d := &State{}
	allocs = testing.AllocsPerRun(100, func() { s.Determinize(d, 0, &rng) })
	if allocs != 0 {
		t.Errorf("%.1f allocations per Determinize, want 0", allocs)
	}
}

func TestRNGStateRoundTrip(t *testing.T) {
	r := game.NewRNG(99)
	for i := 0; i < 1000; i++ {
		x := r.Uint64()
		g := game.NewRNG(x)
		if got := rngState(g); got != x {
			t.Fatalf("rngState(NewRNG(%x)) = %x", x, got)
		}
		// A generator read back continues the same stream.
		g.Uint64()
		h := game.NewRNG(rngState(g))
		if g.Uint64() != h.Uint64() {
			t.Fatal("a generator read back does not continue the same stream")
		}
	}
}

// TestRecordOfLongGames: a game longer than the record keeps replaying from
// its seed; its record says it is incomplete.
func TestRecordBeyondItsBound(t *testing.T) {
	s, _ := NewState(game.Options{"maxturns": "1", "target": "10000"}, 3)
	rng := game.NewRNG(3)
	for s.round <= recRounds+2 {
		ms := s.Legal(nil)
		s.Play(ms[rng.IntN(len(ms))])
	}
	if rec := s.ChanceRecord(); rec.Complete || len(rec.Events) < recRounds {
		t.Errorf("record past %d rounds: complete %v, %d events", recRounds, rec.Complete, len(rec.Events))
	}
}

// TestNthBit checks the table-driven nthBit against clearing bits one by
// one, for every 12-bit grid mask and every index within its count.
func TestNthBit(t *testing.T) {
	for m := range uint16(1 << 12) {
		rest := m
		for i := range popcount(m) {
			want := trailingZeros(rest)
			rest &= rest - 1
			if got := nthBit(m, i); got != want {
				t.Fatalf("nthBit(%012b, %d) = %d, want %d", m, i, got, want)
			}
		}
	}
}
