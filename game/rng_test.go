package game_test

import (
	"math/bits"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// refSeed and refValues are the reference SplitMix64 stream (Vigna's
// splitmix64.c, as Apache Commons RNG checks it): the generator must
// produce exactly these.
const refSeed = 0x1a2b3c4d5e6f7531

var refValues = []uint64{0x4141302768c9e9d0, 0x64df48c4eab51b1a, 0x4e723b53dbd901b3, 0xead8394409dd6454}

func TestRNGMatchesTheReferenceStream(t *testing.T) {
	r := game.NewRNG(refSeed)
	for i, want := range refValues {
		if got := r.Uint64(); got != want {
			t.Fatalf("value %d = %#x, want %#x", i, got, want)
		}
	}
}

// IntN maps each 64-bit draw x to ⌊x·n/2⁶⁴⌋ (Lemire); the expected values
// below were worked out from refValues by hand arithmetic.
func TestRNGIntN(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want []int
	}{
		{1, []int{0, 0, 0, 0}},
		{6, []int{1, 2, 1, 5}},
		{10, []int{2, 3, 3, 9}},
		{1000, []int{254, 394, 306, 917}},
	} {
		r := game.NewRNG(refSeed)
		for i, want := range tc.want {
			if got := r.IntN(tc.n); got != want {
				t.Errorf("IntN(%d) draw %d = %d, want %d", tc.n, i, got, want)
			}
		}
	}
}

func TestRNGFloat64(t *testing.T) {
	// (x >> 11) / 2⁵³ for the reference values.
	want := []float64{0.2549009414877116, 0.3940320473436326, 0.30643053815206045, 0.9173618117437079}
	r := game.NewRNG(refSeed)
	for i, w := range want {
		if got := r.Float64(); got != w {
			t.Errorf("Float64 draw %d = %v, want %v", i, got, w)
		}
	}
}

func TestRNGIntNIsUniform(t *testing.T) {
	r := game.NewRNG(42)
	const n, draws = 7, 70000
	var counts [n]int
	for i := 0; i < draws; i++ {
		counts[r.IntN(n)]++
	}
	for v, c := range counts {
		// 10,000 expected; ±4% is more than 4 standard deviations (≈ 92).
		if c < 9600 || c > 10400 {
			t.Errorf("value %d drawn %d times of %d, want about %d", v, c, draws, draws/n)
		}
	}
}

func TestRNGStateSeedAndCopies(t *testing.T) {
	r := game.NewRNG(refSeed)
	r.Uint64()
	// A copy is an independent generator at the same point of the stream.
	c := r
	if got := c.Uint64(); got != refValues[1] {
		t.Fatalf("copy continues with %#x, want %#x", got, refValues[1])
	}
	// State captures the point reached; NewRNG(State) resumes there.
	resumed := game.NewRNG(r.State())
	if got := resumed.Uint64(); got != refValues[1] {
		t.Fatalf("NewRNG(State()) continues with %#x, want %#x", got, refValues[1])
	}
	if got := r.Uint64(); got != refValues[1] {
		t.Fatalf("the original was moved by its copies: %#x, want %#x", got, refValues[1])
	}
	r.Seed(refSeed)
	if got := r.Uint64(); got != refValues[0] {
		t.Fatalf("after Seed: %#x, want %#x", got, refValues[0])
	}
}

func TestRNGSplit(t *testing.T) {
	r := game.NewRNG(refSeed)
	child := r.Split()
	// Split takes exactly one value of the parent's stream.
	if got := r.Uint64(); got != refValues[1] {
		t.Fatalf("parent after Split continues with %#x, want %#x", got, refValues[1])
	}
	// The child's stream is not the parent's continuation, nor a sibling's.
	r2 := game.NewRNG(refSeed)
	sibling := r2.Split()
	other := r2.Split()
	parent := game.NewRNG(refSeed)
	parent.Uint64()
	for i := 0; i < 100; i++ {
		c, p, o := child.Uint64(), parent.Uint64(), other.Uint64()
		if s := sibling.Uint64(); s != c {
			t.Fatalf("two splits at the same point differ at value %d", i)
		}
		if c == p || c == o {
			t.Fatalf("value %d of the child equals the parent's or the next split's (%#x)", i, c)
		}
	}
}

// TestRNGIntNRejects checks the rejection step where it is frequent: for
// n = 3·2⁶¹, a quarter of all draws land in the biased zone (the low word
// of x·n below 2⁶⁴ mod n = 2⁶⁴ − 2n = 2⁶²) and must be drawn again. The expected
// values follow the method step by step on a copy of the generator.
func TestRNGIntNRejects(t *testing.T) {
	const n = 3 << 61
	r := game.NewRNG(refSeed)
	ref := r
	rejected := 0
	for i := range 1000 {
		var want uint64
		for {
			hi, lo := bits.Mul64(ref.Uint64(), n)
			if lo >= 1<<62 {
				want = hi
				break
			}
			rejected++
		}
		if got := r.IntN(n); uint64(got) != want {
			t.Fatalf("IntN(3<<61) draw %d = %d, want %d", i, got, want)
		}
		if r.State() != ref.State() {
			t.Fatalf("after draw %d IntN used a different number of values", i)
		}
	}
	if rejected < 150 {
		t.Fatalf("%d rejections in 1000 draws, want about 333", rejected)
	}
}
