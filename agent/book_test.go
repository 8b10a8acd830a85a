package agent

import (
	"context"
	"testing"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
	_ "github.com/tabula-games/tabula/games/sploof/solve" // registers Sploof's solver and book
)

// TestHardPlaysTheBook: the hard Sploof bot, as Black from the start
// (Black wins: docs/solving.md), plays the book's move whatever White
// played, without searching; as White, whom the book gives no move, it
// searches.
func TestHardPlaysTheBook(t *testing.T) {
	cfg, ok := LevelConfig("sploof", "hard")
	if !ok {
		t.Fatal("no hard level for Sploof")
	}
	cfg.Iters, cfg.Time = 200, 0 // the search, should it run, a short one
	st, err := sploof.Game{}.New(game.Options{"first": "white"}, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(11)
	for ply := 0; ply < 11; ply++ {
		bot := NewMCTS(cfg, 1)
		obs, err := game.Observe(st, st.ToMove())
		if err != nil {
			t.Fatal(err)
		}
		mv, err := bot.Choose(context.Background(), obs)
		if err != nil {
			t.Fatal(err)
		}
		e, inBook := game.LookUpBook(st)
		if !inBook {
			t.Fatalf("ply %d: off the book", ply)
		}
		if st.ToMove() == sploof.Black {
			if !bot.LastStats.Book || !bot.LastStats.Proven || bot.LastStats.Iterations != 0 || mv != e.Move {
				t.Fatalf("ply %d: played %d (%+v); the book's move %d", ply, mv, bot.LastStats, e.Move)
			}
		} else {
			if bot.LastStats.Book {
				t.Fatalf("ply %d: White played from the book", ply)
			}
			// The loser's move is searched without the exact solver, which
			// spent its whole budget there and proved nothing.
			if bot.LastStats.SolverNodes != 0 || bot.LastStats.Iterations == 0 {
				t.Fatalf("ply %d: White's move: %+v, want a search without the solver", ply, bot.LastStats)
			}
			legal := st.Legal(nil)
			mv = legal[rng.IntN(len(legal))] // White: anything
		}
		st.Play(mv)
		if st.Outcome().Over() {
			break
		}
	}
}
