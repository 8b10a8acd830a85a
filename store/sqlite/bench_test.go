package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/store/sqlite"
)

// BenchmarkAppendMove commits moves from many games at once with the
// durable settings (synchronous=FULL): group commit shares each fsync among
// the moves waiting for it. Reports moves/s.
func BenchmarkAppendMove(b *testing.B) {
	for _, games := range []int{2, 16, 128} {
		b.Run(fmt.Sprintf("games=%d", games), func(b *testing.B) {
			ctx := context.Background()
			db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "bench.db"), sqlite.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			for g := 0; g < games; g++ {
				if err := db.CreateGame(ctx, &match.Meta{ID: fmt.Sprint("g", g), Game: "x", Options: map[string]string{}, Status: match.Live, Created: time.Now()}); err != nil {
					b.Fatal(err)
				}
			}
			var next atomic.Int64
			b.ReportAllocs()
			b.SetParallelism(max(1, games/runtime.GOMAXPROCS(0))) // about one goroutine per game
			start := time.Now()
			b.RunParallel(func(pb *testing.PB) {
				g := int(next.Add(1)-1) % games
				id := fmt.Sprint("g", g)
				ply := 0
				for pb.Next() {
					err := db.AppendMove(ctx, id, match.Move{Ply: ply, Text: "m", At: time.Now()}, match.Turn{}, nil)
					if err != nil {
						// Two goroutines on one game: re-read the ply.
						gm, _ := db.Game(ctx, id)
						ply = gm.Ply
						continue
					}
					ply++
				}
			})
			b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "moves/s")
		})
	}
}
