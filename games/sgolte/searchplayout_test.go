package sgolte

import (
	"bytes"
	"testing"

	"github.com/tabula-games/tabula/game"
)

// TestSearchPlayoutPlaysLegalMoves: every ply of the search playout is one
// of Legal's moves — checked by finding, for each ply, a legal move that
// leads to the very same position — under every option set and size, and
// the playout ends the game.
func TestSearchPlayoutPlaysLegalMoves(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for _, o := range conformanceOptions {
		for g := 0; g < games; g++ {
			st, err := Game.New(o, uint64(g))
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			var pg playoutGen
			pg.book.init(s)
			rng := game.NewRNG(uint64(g) + 99)
			for ply := 0; !s.over(); ply++ {
				before := *s
				s.cellPly(&pg, &rng)
				after, _ := s.MarshalPosition()
				found := false
				for _, m := range before.Legal(nil) {
					c := before
					c.Play(m)
					if p, _ := c.MarshalPosition(); bytes.Equal(p, after) {
						found = true
						break
					}
				}
				if !found {
					t.Fatalf("options %v game %d ply %d: the search playout reached %s, which no legal move reaches", o, g, ply, after)
				}
				if ply > 400 {
					t.Fatalf("options %v game %d: no end after %d plies", o, g, ply)
				}
			}
		}
	}
}

// BenchmarkSearchPlayout: the playout search uses, from the empty board.
func BenchmarkSearchPlayout(b *testing.B) {
	start := newState(b, "size=5")
	var s State
	rng := game.NewRNG(7)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		s = *start
		s.SearchPlayout(&rng)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
}
