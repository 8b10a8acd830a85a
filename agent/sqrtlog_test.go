package agent

import (
	"math"
	"testing"
)

// TestSqrtLogIsTheCall: the table gives the very float64 the call does, at
// every entry and past its end, so selection picks the same edges.
func TestSqrtLogIsTheCall(t *testing.T) {
	for _, v := range []uint32{0, 1, 2, 3, 100, 2047, 2048, 2049, 1 << 20, math.MaxUint32} {
		if got, want := sqrtLog(v), math.Sqrt(math.Log(float64(v)+1)); got != want {
			t.Fatalf("sqrtLog(%d) = %v; math says %v", v, got, want)
		}
	}
	for v := range uint32(len(sqrtLogs)) {
		if got, want := sqrtLog(v), math.Sqrt(math.Log(float64(v)+1)); got != want {
			t.Fatalf("sqrtLog(%d) = %v; math says %v", v, got, want)
		}
	}
}
