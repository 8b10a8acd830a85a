package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/pprof"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/game"
)

// benchResult is one game's line of `tabula bench`.
type benchResult struct {
	Game              string  `json:"game"`
	Playouts          int     `json:"playouts"`
	PlayoutsPerSecond float64 `json:"playoutsPerSecond"`
	PliesPerSecond    float64 `json:"pliesPerSecond"`
	PliesPerPlayout   float64 `json:"pliesPerPlayout"`
	AllocsPerPlayout  float64 `json:"allocsPerPlayout"`
	// Path says which playout code ran: the game's own fast path
	// ("specialised") or Legal+Play through the contract ("generic").
	Path string `json:"path"`
	// MCTSItersPerSecond is the search speed from the start position on
	// one core (0 when no search agent is built in).
	MCTSItersPerSecond float64 `json:"mctsItersPerSecond,omitempty"`
	// SolverNodesPerSecond is the exact solver's speed (0 when the game
	// has none; see solverSpeed).
	SolverNodesPerSecond float64 `json:"solverNodesPerSecond,omitempty"`
}

// mctsBench measures search iterations per second for a game.
var mctsBench = agent.SearchSpeed

func runBench(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object")
	dur := fs.Duration("time", time.Second, "time spent on each measurement")
	generic := fs.Bool("generic", false, "measure the generic Legal+Play path even where a game has a faster one")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the measurements to this file")
	names, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if *dur <= 0 {
		return fmt.Errorf("--time: want a positive duration such as 2s, got %v", *dur)
	}
	if len(names) == 0 {
		names = game.Names()
	}
	var games []game.Game
	for _, n := range names {
		g, err := game.Lookup(n)
		if err != nil {
			return err
		}
		games = append(games, g)
	}
	// One core: the figures are per core, as the issues state them.
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var results []benchResult
	for _, g := range games {
		r, err := benchGame(g, *dur, *generic)
		if err != nil {
			return fmt.Errorf("%s: %w", g.Name(), err)
		}
		if mctsBench != nil {
			if r.MCTSItersPerSecond, err = mctsBench(g, *dur); err != nil {
				return fmt.Errorf("%s: mcts: %w", g.Name(), err)
			}
		}
		if r.SolverNodesPerSecond, err = solverSpeed(g, *dur); err != nil {
			return fmt.Errorf("%s: solver: %w", g.Name(), err)
		}
		results = append(results, r)
		if !*asJSON {
			fmt.Fprintf(stdout, "%-7s %10.0f playouts/s %12.0f plies/s %6.1f plies/playout %5.2f allocs/playout (%s)",
				r.Game, r.PlayoutsPerSecond, r.PliesPerSecond, r.PliesPerPlayout, r.AllocsPerPlayout, r.Path)
			if r.MCTSItersPerSecond > 0 {
				fmt.Fprintf(stdout, " %10.0f mcts iters/s", r.MCTSItersPerSecond)
			}
			if r.SolverNodesPerSecond > 0 {
				fmt.Fprintf(stdout, " %10.0f solver nodes/s", r.SolverNodesPerSecond)
			}
			fmt.Fprintln(stdout)
		}
	}
	if *asJSON {
		data, err := json.Marshal(map[string]any{"cores": 1, "results": results})
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%s\n", data)
	}
	return nil
}

// benchGame plays random games from the default start for about d.
func benchGame(g game.Game, d time.Duration, forceGeneric bool) (benchResult, error) {
	start, err := g.New(nil, 1)
	if err != nil {
		return benchResult{}, err
	}
	scratch := start.Clone()
	rng := game.NewRNG(42)
	buf := make([]game.Move, 0, 4096)
	fast, ok := scratch.(game.Playouter)
	path := "generic"
	if ok && !forceGeneric {
		path = "specialised"
	}
	playout := func() int {
		scratch.CopyFrom(start)
		if path == "specialised" {
			return fast.Playout(&rng)
		}
		var n int
		buf, n = game.RandomPlayout(scratch, &rng, buf)
		return n
	}
	for i := 0; i < 20; i++ { // warm up caches and buffers
		playout()
	}
	var ms0, ms1 runtime.MemStats
	runtime.ReadMemStats(&ms0)
	const allocProbe = 200
	for i := 0; i < allocProbe; i++ {
		playout()
	}
	runtime.ReadMemStats(&ms1)
	allocs := float64(ms1.Mallocs-ms0.Mallocs) / allocProbe

	plies, n := 0, 0
	t0 := time.Now()
	for time.Since(t0) < d {
		for i := 0; i < 64; i++ {
			plies += playout()
		}
		n += 64
	}
	secs := time.Since(t0).Seconds()
	return benchResult{
		Game: g.Name(), Playouts: n,
		PlayoutsPerSecond: float64(n) / secs, PliesPerSecond: float64(plies) / secs,
		PliesPerPlayout: float64(plies) / float64(n), AllocsPerPlayout: allocs, Path: path,
	}, nil
}
