package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
	"github.com/tabula-games/tabula/games/sploof/solve"
)

// runSolveDB is `tabula solve sploof --build DIR` and `--verify DIR`: the
// layered retrograde database (games/sploof/solve/retro.go).
func runSolveDB(g game.Game, s game.State, buildDir, verifyDir string, memMB, upTo int, stdout io.Writer) error {
	ss, ok := s.(*sploof.State)
	if !ok {
		return fmt.Errorf("--build and --verify: only sploof has a layered database")
	}
	if buildDir != "" && verifyDir != "" {
		return fmt.Errorf("--build and --verify: one at a time")
	}
	if memMB < 16 || memMB > 1<<20 {
		return fmt.Errorf("--mem: want 16…1048576 MiB, got %d", memMB)
	}
	if upTo < 0 {
		return fmt.Errorf("--upto: want a ply ≥ 0, got %d", upTo)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if verifyDir != "" {
		rep, err := solve.VerifyDB(ctx, verifyDir, solve.BuildOptions{Log: stdout})
		if err != nil {
			return err
		}
		fmt.Fprintln(stdout, rep)
		return nil
	}
	res, err := solve.Build(ctx, buildDir, ss, solve.BuildOptions{MemBytes: int64(memMB) << 20, UpTo: upTo, Log: stdout})
	if err != nil {
		return err
	}
	switch {
	case res.Complete:
		winner := s.ToMove()
		if !res.Win {
			winner = 1 - winner
		}
		fmt.Fprintf(stdout, "solved: %s wins in %d %s\n", capitalise(s.SeatName(winner)), res.Plies, plural(res.Plies, "ply", "plies"))
	default:
		last := res.Layers[len(res.Layers)-1]
		fmt.Fprintf(stdout, "forward sweep stopped after the layer of ply %d (--upto); not solved\n", last.Ply)
	}
	return nil
}
