package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tabula-games/tabula/game"
)

// solveResult is `tabula solve --json`.
type solveResult struct {
	Proven         bool     `json:"proven"`
	Winner         string   `json:"winner,omitempty"`
	Plies          int      `json:"plies,omitempty"`
	Line           []string `json:"line,omitempty"`
	Nodes          int64    `json:"nodes"`
	Seconds        float64  `json:"seconds"`
	NodesPerSecond float64  `json:"nodesPerSecond"`
}

func runSolve(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var asJSON *bool
	var budget *time.Duration
	var tableMB *int
	var buildDir, verifyDir *string
	var memMB, upTo *int
	var wl wlFlags
	var flags *flag.FlagSet
	_, g, s, err := gameCommand("solve", args, stdin, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print one JSON object")
		budget = fs.Duration("time", 30*time.Second, "give up unproven after this long")
		tableMB = fs.Int("table", 256, "transposition table size in MiB (with --winloss: 16384 unless given)")
		flags = fs
		buildDir = fs.String("build", "", "build (or go on building) the layered database of every position reachable from the position in this directory, forward then backward (Sploof)")
		verifyDir = fs.String("verify", "", "check a database built with --build: files against their checksums, every layer's keys re-derived from the layer before and every valued layer's values from the next, with the rules engine")
		memMB = fs.Int("mem", 1024, "MiB: with --build, for sorting a layer's keys in memory before runs go to disk; with --check, for the memo of the leaf search its workers share")
		upTo = fs.Int("upto", 0, "with --build: stop the forward sweep after the layer of this ply (0: to the end, then value)")
		wl.register(fs)
	})
	if err != nil {
		return err
	}
	if *buildDir != "" || *verifyDir != "" {
		if wl.any() {
			return fmt.Errorf("--winloss and its flags do not go with --build or --verify")
		}
		return runSolveDB(g, s, *buildDir, *verifyDir, *memMB, *upTo, stdout)
	}
	if wl.any() {
		table := 16384
		flags.Visit(func(f *flag.Flag) {
			if f.Name == "table" {
				table = *tableMB
			}
		})
		return runSolveWinLoss(s, wl, table, *memMB, *asJSON, stdout)
	}

	if *budget <= 0 {
		return fmt.Errorf("--time: want a positive duration such as 10s, got %v", *budget)
	}
	if *tableMB < 1 || *tableMB > 1<<16 {
		return fmt.Errorf("--table: want 1…65536 MiB, got %d", *tableMB)
	}
	solver, err := game.NewSolver(g.Name(), *tableMB<<20)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), *budget)
	defer cancel()
	t0 := time.Now()
	sol, err := solver.Solve(ctx, s, 0)
	if err != nil {
		return err
	}
	secs := time.Since(t0).Seconds()
	r := solveResult{Proven: sol.Proven, Nodes: sol.Nodes, Seconds: secs}
	if secs > 0 {
		r.NodesPerSecond = float64(sol.Nodes) / secs
	}
	if sol.Proven {
		r.Winner, r.Plies = s.SeatName(sol.Winner), sol.Plies
		r.Line = game.LineTexts(s, sol.Line)
	}
	if *asJSON {
		data, err := json.Marshal(r)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", data)
		return err
	}
	if !r.Proven {
		fmt.Fprintf(stdout, "unsolved: no proof within %v\n", *budget)
	} else {
		fmt.Fprintf(stdout, "%s wins in %d %s\n", capitalise(r.Winner), r.Plies, plural(r.Plies, "ply", "plies"))
		fmt.Fprintf(stdout, "line: %s\n", strings.Join(r.Line, " "))
		if len(r.Line) < r.Plies {
			fmt.Fprintf(stdout, "(the time ran out while the line was read: %d of %d plies)\n", len(r.Line), r.Plies)
		}
	}
	fmt.Fprintf(stdout, "nodes: %d in %.2fs (%.0f nodes/s)\n", r.Nodes, r.Seconds, r.NodesPerSecond)
	return nil
}

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
