package bitsel

import (
	"math/bits"
	"testing"
)

// TestInByte checks every byte and index against clearing bits one by one.
func TestInByte(t *testing.T) {
	for b := range 256 {
		rest := uint8(b)
		for i := range bits.OnesCount8(uint8(b)) {
			want := bits.TrailingZeros8(rest)
			rest &= rest - 1
			if got := InByte(uint8(b), i); got != want {
				t.Fatalf("InByte(%08b, %d) = %d, want %d", b, i, got, want)
			}
		}
	}
}
