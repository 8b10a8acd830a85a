package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"runtime"
	"strings"
	"time"

	"github.com/tabula-games/tabula/analysis"
	"github.com/tabula-games/tabula/game"
)

// runAnalyse is `tabula analyse`: the analysis board in the terminal. With
// --json it prints one report a line as the search goes (every --every),
// the last with "done": true; without, the final report in words.
func runAnalyse(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var asJSON *bool
	var budget, every *time.Duration
	var iters, lines, workers *int
	_, _, s, err := gameCommand("analyse", args, stdin, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print a JSON report a line while searching, the last with \"done\": true")
		budget = fs.Duration("time", 5*time.Second, "search this long")
		every = fs.Duration("every", time.Second, "with --json, report this often")
		iters = fs.Int("iters", 0, "stop after this many iterations per worker instead (reproducible)")
		lines = fs.Int("lines", 3, "how many best moves to show")
		workers = fs.Int("workers", runtime.GOMAXPROCS(0), "search goroutines")
	})
	if err != nil {
		return err
	}
	if *budget <= 0 && *iters <= 0 {
		return fmt.Errorf("--time: want a positive duration such as 5s, or --iters N")
	}
	if *iters < 0 || *lines < 1 || *lines > 50 || *workers < 1 || *workers > 64 || *every <= 0 {
		return fmt.Errorf("want --iters ≥ 0, --lines 1…50, --workers 1…64, a positive --every")
	}
	if err := analysis.CanAnalyse(s); err != nil {
		return err
	}
	opt := analysis.Options{Time: *budget, Iters: *iters, Lines: *lines, Interval: *every, Search: analysis.Search{Workers: *workers, Seed: 1}}
	if *iters > 0 {
		opt.Time = 0
	}
	var werr error
	report := func(r analysis.Report) {
		if !*asJSON || werr != nil {
			return
		}
		data, err := json.Marshal(r)
		if err == nil {
			_, err = fmt.Fprintf(stdout, "%s\n", data)
		}
		werr = err
	}
	r, err := analysis.Analyse(context.Background(), s, opt, report)
	if err != nil || werr != nil || *asJSON {
		return firstErr(err, werr)
	}
	return writeReport(stdout, s, r)
}

// writeReport prints a report in words.
func writeReport(w io.Writer, s game.State, r analysis.Report) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s to move: %s wins %s\n", r.Seat, r.Seat, percent(r.Win))
	if r.Exact != nil {
		fmt.Fprintf(&b, "proven: %s: %s\n", r.Exact.Text, strings.Join(r.Exact.Line, " "))
	} else if v := r.Solved; v != nil {
		fmt.Fprintf(&b, "solved: %s wins with best play (%s)", v.WinnerName, v.Source)
		if v.Move != "" {
			fmt.Fprintf(&b, "; the proof plays %s", v.Move)
		}
		b.WriteByte('\n')
	}
	for i, l := range r.Lines {
		fmt.Fprintf(&b, "%d. %-8s %s wins %s  visits %s (%d)  %s", i+1, l.Move, r.Seat, percent(l.Win), percent(l.Share), l.Visits, strings.Join(l.PV, " "))
		if l.Exact != nil {
			fmt.Fprintf(&b, "  [%s]", l.Exact.Text)
		}
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "search: %d iterations in %.1fs", r.Iterations, float64(r.Millis)/1000)
	if r.SolverNodes > 0 {
		fmt.Fprintf(&b, ", solver %d nodes", r.SolverNodes)
	}
	b.WriteByte('\n')
	_, err := io.WriteString(w, b.String())
	return err
}

func percent(x float64) string { return fmt.Sprintf("%.0f%%", 100*x) }

// runReview is `tabula review`: the game review of a game given by its
// start (options and seed, or a position) and its moves.
func runReview(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var asJSON *bool
	var iters, worlds, workers *int
	var perMove *time.Duration
	st, _, _, err := gameCommand("review", args, stdin, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print the review as one JSON object")
		iters = fs.Int("iters", analysis.DefaultReviewIters, "search iterations per position (games of perfect information)")
		worlds = fs.Int("worlds", analysis.DefaultReviewWorlds, "sampled worlds per decision and per run (games with hidden information: each decision is judged in two independent runs)")
		perMove = fs.Duration("time", 0, "cap each position's search at this long (0: none)")
		workers = fs.Int("workers", 1, "search goroutines")
	})
	if err != nil {
		return err
	}
	if *iters < 1 || *worlds < 1 || *workers < 1 || *workers > 64 || *perMove < 0 {
		return fmt.Errorf("want --iters ≥ 1, --worlds ≥ 1, --workers 1…64, --time ≥ 0")
	}
	rv, err := analysis.ReviewGame(context.Background(), st.start, st.played, analysis.ReviewOptions{
		Iters: *iters, Worlds: *worlds, Time: *perMove, Search: analysis.Search{Workers: *workers, Seed: 1},
	}, nil)
	if err != nil {
		return err
	}
	if *asJSON {
		data, err := json.Marshal(rv)
		if err != nil {
			return err
		}
		_, err = fmt.Fprintf(stdout, "%s\n", data)
		return err
	}
	var b strings.Builder
	if rv.Hidden {
		b.WriteString("each decision judged from its player's own view only (no hidden card is used)\n")
	}
	for _, j := range rv.Moves {
		fmt.Fprintf(&b, "%3d. %-8s %-6s %s → %s", j.Ply+1, rv.Seats[j.Seat], j.Move, percent(j.Before), percent(j.After))
		if j.Mark != analysis.Good {
			fmt.Fprintf(&b, "  %s (−%s), better %s", j.Mark, percent(j.Loss), strings.Join(j.BetterLine, " "))
		}
		b.WriteByte('\n')
	}
	for seat, c := range rv.Counts {
		fmt.Fprintf(&b, "%s: %d inaccuracies, %d mistakes, %d blunders\n", rv.Seats[seat], c.Inaccuracies, c.Mistakes, c.Blunders)
	}
	_, err = io.WriteString(stdout, b.String())
	return err
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
