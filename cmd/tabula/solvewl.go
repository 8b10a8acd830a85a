package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tabula-games/tabula/game"
	"github.com/tabula-games/tabula/games/sploof"
	"github.com/tabula-games/tabula/games/sploof/solve"
)

// wlFlags are `tabula solve sploof --winloss`'s flags.
type wlFlags struct {
	on         *bool
	checkpoint *string
	layers     *string
	workers    *int
	every      *time.Duration
	duration   *time.Duration
	ckPly      *int
	etc        *int
	strategy   *string
	check      *string
	sample     *int
	progress   *string
	within     *int
}

func (f *wlFlags) register(fs *flag.FlagSet) {
	f.on = fs.Bool("winloss", false, "decide only who wins (Sploof), with the win/loss solver")
	f.checkpoint = fs.String("checkpoint", "", "with --winloss: read and keep writing the decided positions of one layer in this file, so that the run can go on later")
	f.layers = fs.String("layers", "", "with --checkpoint: directory of the forward layers (built when missing; default: one in the temporary directory)")
	f.workers = fs.Int("workers", 0, "with --winloss: search goroutines sharing the table (0: one per core)")
	f.every = fs.Duration("every", 5*time.Minute, "with --checkpoint: time between checkpoints")
	f.duration = fs.Duration("duration", 0, "with --winloss: stop after this long (0: when decided or interrupted)")
	f.ckPly = fs.Int("ckply", 0, "with --checkpoint: the ply of the checkpoint's layer (0: 12, or 2 after the position when that is later)")
	f.etc = fs.Int("etc", 0, "with --winloss: look children up in the table before searching at positions before this ply (0: never)")
	f.strategy = fs.String("strategy", "", "with --winloss: once decided, write the winner's strategy down to the checkpoint's ply (or ply 12) to this file")
	f.check = fs.String("check", "", "check a strategy file written by --strategy: rebuild its layers and walk it with the rules engine, prove its leaves")
	f.sample = fs.Int("sample", 0, "with --check: prove this many leaves drawn at random (0: all)")
	f.progress = fs.String("progress", "", "with --check: keep which leaves are proved in this file (read at the start, written every --every and when stopped), so that a full check goes on where it stopped")
	f.within = fs.Int("within", 0, "with --check: prove each leaf won by this ply at the latest, whatever the loser does, which bounds the game's length under the strategy (0: by any ply)")
}

// any reports whether a win/loss flag was given.
func (f *wlFlags) any() bool {
	return *f.on || *f.checkpoint != "" || *f.strategy != "" || *f.check != "" || *f.sample != 0 || *f.layers != "" || *f.workers != 0 || *f.duration != 0 || *f.ckPly != 0 || *f.etc != 0 || *f.progress != "" || *f.within != 0
}

// wlResult is `tabula solve sploof --winloss --json`.
type wlResult struct {
	Decided bool    `json:"decided"`
	Winner  string  `json:"winner,omitempty"`
	Move    string  `json:"move,omitempty"` // a winning first move
	Nodes   int64   `json:"nodes"`
	Seconds float64 `json:"seconds"`
	// With --checkpoint: the layer's positions decided and their count.
	Layer     int   `json:"layer,omitempty"`
	Positions int   `json:"positions,omitempty"`
	Decisions int64 `json:"decisions,omitempty"`
}

func runSolveWinLoss(s game.State, f wlFlags, tableMB, memMB int, asJSON bool, stdout io.Writer) error {
	ss, ok := s.(*sploof.State)
	if !ok {
		return fmt.Errorf("--winloss: only sploof has a win/loss solver")
	}
	switch {
	case tableMB < 1 || tableMB > 1<<20:
		return fmt.Errorf("--table: want 1…1048576 MiB, got %d", tableMB)
	case *f.workers < 0 || *f.workers > 256:
		return fmt.Errorf("--workers: want 0…256, got %d", *f.workers)
	case *f.every <= 0:
		return fmt.Errorf("--every: want a positive duration such as 5m, got %v", *f.every)
	case *f.duration < 0:
		return fmt.Errorf("--duration: want a duration ≥ 0, got %v", *f.duration)
	case *f.ckPly < 0 || *f.ckPly > 40:
		return fmt.Errorf("--ckply: want 0…40, got %d", *f.ckPly)
	case *f.etc < 0:
		return fmt.Errorf("--etc: want a ply ≥ 0, got %d", *f.etc)
	case *f.layers != "" && *f.checkpoint == "":
		return fmt.Errorf("--layers goes with --checkpoint")
	case *f.sample < 0:
		return fmt.Errorf("--sample: want a count ≥ 0, got %d", *f.sample)
	case *f.sample != 0 && *f.check == "":
		return fmt.Errorf("--sample goes with --check")
	case *f.check != "" && (*f.on || *f.checkpoint != "" || *f.strategy != ""):
		return fmt.Errorf("--check takes only a strategy file (and --sample or --progress, --workers, --every)")
	case *f.progress != "" && *f.check == "":
		return fmt.Errorf("--progress goes with --check")
	case *f.within != 0 && *f.check == "":
		return fmt.Errorf("--within goes with --check")
	case *f.progress != "" && *f.sample != 0:
		return fmt.Errorf("--progress keeps a full check's leaves; it does not go with --sample")
	}
	if memMB < 16 || memMB > 1<<20 {
		return fmt.Errorf("--mem: want 16…1048576 MiB, got %d", memMB)
	}
	// An interrupt or a kill ends the search; the checkpoint is written
	// before the command returns.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if *f.check != "" {
		return runCheckStrategy(ctx, *f.check, solve.CheckOptions{Workers: *f.workers, Sample: *f.sample,
			Seed: uint64(time.Now().UnixNano()), Log: stdout, ProgressPath: *f.progress, ProgressEvery: *f.every, MemoBytes: int64(memMB) << 20, Within: *f.within}, stdout)
	}
	if *f.duration > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, *f.duration)
		defer cancel()
	}
	opt := solve.WinLossOptions{TableBytes: int64(tableMB) << 20, Workers: *f.workers, ETCPly: *f.etc}
	t0 := time.Now()
	var res solve.WinLossResult
	var nodes int64
	decided := false
	r := wlResult{}
	var sv *solve.WinLoss
	if *f.checkpoint != "" {
		var log io.Writer = stdout
		if asJSON {
			log = nil
		}
		run, err := solve.RunWinLoss(ctx, ss, solve.WinLossRunOptions{WinLossOptions: opt, LayersDir: *f.layers,
			CheckpointPath: *f.checkpoint, Ply: *f.ckPly, Every: *f.every, MemBytes: int64(memMB) << 20, Log: log})
		if err != nil {
			return err
		}
		res, nodes, decided, sv = run.Result, run.Nodes, run.Solved, run.Solver
		r.Layer, r.Positions = int(run.Checkpoint.Ply), run.Checkpoint.Len()
		r.Decisions, _ = run.Checkpoint.Decided()
	} else {
		sv = solve.NewWinLoss(opt)
		var err error
		res, err = sv.Solve(ctx, ss)
		nodes = res.Nodes
		switch {
		case err == nil:
			decided = true
		case err != solve.ErrWinLossStopped:
			return err
		}
	}
	r.Decided, r.Nodes, r.Seconds = decided, nodes, time.Since(t0).Seconds()
	if decided && *f.strategy != "" {
		leaf := *f.ckPly
		if leaf == 0 {
			leaf = 12
		}
		layers := *f.layers
		if layers == "" {
			var err error
			if layers, err = os.MkdirTemp("", "tabula-strategy-layers"); err != nil {
				return err
			}
			defer os.RemoveAll(layers)
		}
		// The solver that decided the position: its table (and checkpoint)
		// hold most of the strategy.
		strat, err := sv.ExtractStrategy(ctx, ss, leaf, layers)
		if err != nil {
			return err
		}
		if err := strat.Save(*f.strategy); err != nil {
			return err
		}
		if !asJSON {
			fmt.Fprintf(stdout, "strategy: %d positions with the winner to move, %d leaves at ply %d, in %s\n", strat.Entries(), strat.Leaves(), leaf, *f.strategy)
		}
	}
	if decided {
		r.Winner = s.SeatName(res.Winner)
		if res.Winner == s.ToMove() && res.Move != solve.NoMove {
			r.Move = s.FormatMove(game.Move(res.Move))
		}
	}
	if asJSON {
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", data)
		return err
	}
	if !decided {
		fmt.Fprintf(stdout, "undecided: stopped after %d nodes in %.0fs\n", r.Nodes, r.Seconds)
		return nil
	}
	fmt.Fprintf(stdout, "%s wins\n", capitalise(r.Winner))
	if r.Move != "" {
		fmt.Fprintf(stdout, "a winning move: %s\n", r.Move)
	}
	fmt.Fprintf(stdout, "nodes: %d in %.2fs\n", r.Nodes, r.Seconds)
	return nil
}

// runCheckStrategy is `tabula solve sploof --check FILE`.
func runCheckStrategy(ctx context.Context, path string, opt solve.CheckOptions, stdout io.Writer) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	strat, err := solve.ReadStrategy(f)
	f.Close()
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	fmt.Fprintf(stdout, "strategy: seat %d wins from the position %016x (ply %d), %d positions with it to move, leaves at ply %d\n",
		strat.Winner, strat.RootKey, strat.RootPly, strat.Entries(), strat.LeafPly)
	rep, err := solve.CheckStrategy(ctx, strat, opt)
	if err != nil && ctx.Err() != nil && opt.ProgressPath != "" {
		return fmt.Errorf("%s: stopped with %d of %d leaves proved, kept in %s: run the same command to go on", path, rep.LeavesProved, rep.Leaves, opt.ProgressPath)
	}
	if err != nil {
		return fmt.Errorf("%s: refused: %w", path, err)
	}
	what := "every leaf"
	if opt.Sample > 0 && rep.LeavesProved < rep.Leaves {
		what = fmt.Sprintf("a sample of %d leaves", rep.LeavesProved)
	}
	won := "won"
	if opt.Within > 0 {
		won = fmt.Sprintf("won by ply %d", opt.Within)
	}
	fmt.Fprintf(stdout, "checked: %d positions with the winner to move and %d with the loser walked; %s of %d proved %s (%d nodes)\n",
		rep.WinnerPositions, rep.LoserPositions, what, rep.Leaves, won, rep.Nodes)
	return nil
}
