package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"os/signal"
	"sort"
	"time"

	"github.com/tabula-games/tabula/agent"
	"github.com/tabula-games/tabula/arena"
	"github.com/tabula-games/tabula/game"
)

// progressEvery is how often a long match reports on stderr.
const progressEvery = 5 * time.Second

func runArena(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("arena", flag.ContinueOnError)
	var opts listFlag
	fs.Var(&opts, "o", "game option key=value (repeatable)")
	agents := fs.String("agents", "", "comma-separated agents, e.g. \"mcts:time=200ms,greedy\"")
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed for the deals and the agents")
	parallel := fs.Int("parallel", 1, "games played at once")
	asJSON := fs.Bool("json", false, "print one JSON object")
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	logPath := fs.String("log", "", "append each finished game to this file, and resume the match it holds")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	name, err := oneGame(pos)
	if err != nil {
		return err
	}
	g, err := game.Lookup(name)
	if err != nil {
		return err
	}
	o, err := game.ParseOptions(g, opts)
	if err != nil {
		return err
	}
	if *games <= 0 {
		return fmt.Errorf("--games: want a positive number of games, got %d", *games)
	}
	if *parallel <= 0 {
		return fmt.Errorf("--parallel: want a positive number of games at once, got %d", *parallel)
	}
	list := agent.SplitList(*agents)
	if len(list) < 2 {
		return fmt.Errorf("--agents: want at least two agents, as in --agents \"mcts,greedy\"")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start, last := time.Now(), time.Now()
	cfg := arena.Config{Game: g, Options: o, Agents: list, Games: *games, Seed: *seed, Parallel: *parallel}
	if !*quiet {
		cfg.Progress = func(done int, r *arena.Result) {
			if time.Since(last) < progressEvery && done < *games {
				return
			}
			if time.Since(start) < progressEvery {
				return // short matches need no progress report
			}
			last = time.Now()
			fmt.Fprintf(stderr, "arena: %d/%d games, %s: %d-%d-%d (%.0fs)\n", done, *games, list[0],
				r.Scores[0].Wins, r.Scores[0].Draws, r.Scores[0].Losses, time.Since(start).Seconds())
		}
	}
	var log *arenaLog
	if *logPath != "" {
		var err error
		log, cfg.Played, err = openArenaLog(*logPath, arenaLogHeader{Game: g.Name(), Options: o.String(), Agents: list, Seed: *seed})
		if err != nil {
			return err
		}
		log.warn = stderr
		cfg.OnGame = log.add
		if len(cfg.Played) > 0 && !*quiet {
			fmt.Fprintf(stderr, "arena: resuming from %s: %d games played\n", *logPath, len(cfg.Played))
		}
	}
	res, err := arena.Run(ctx, cfg)
	if log != nil {
		if lerr := log.close(); err == nil {
			err = lerr
		}
	}
	if err != nil && res == nil {
		return err
	}
	rep := report(g.Name(), o, res, time.Since(start))
	if *asJSON {
		data, _ := json.MarshalIndent(rep, "", "  ")
		fmt.Fprintf(stdout, "%s\n", data)
	} else {
		printReport(stdout, rep)
	}
	return err
}

type agentReport struct {
	Agent      string   `json:"agent"`
	Games      int      `json:"games"`
	Wins       int      `json:"wins"`
	Draws      int      `json:"draws"`
	Losses     int      `json:"losses"`
	Points     float64  `json:"points"` // its share of the results: WinRate is Points per game
	WinRate    float64  `json:"winRate"`
	WinRateLow float64  `json:"winRateLow"`
	WinRateHi  float64  `json:"winRateHigh"`
	Elo        *float64 `json:"elo"` // against the others; null when unbounded or multi-seat
	EloLow     *float64 `json:"eloLow"`
	EloHigh    *float64 `json:"eloHigh"`
}

type arenaReport struct {
	Game     string        `json:"game"`
	Options  string        `json:"options"`
	Games    int           `json:"games"`
	Forfeits int           `json:"forfeits"`
	AvgPlies float64       `json:"avgPlies"`
	Seconds  float64       `json:"seconds"`
	Seats    int           `json:"seats"`
	Agents   []agentReport `json:"agents"`
	Results  []gameReport  `json:"results"`
}

// gameReport is one game of a match, for anyone who wants to look closer
// (which seat drew, which games ran long).
type gameReport struct {
	Index   int      `json:"index"`
	Seats   []string `json:"seats"`             // the agent in each seat
	Result  string   `json:"result"`            // won | drawn
	Winners []int    `json:"winners,omitempty"` // seat numbers, from 0
	Plies   int      `json:"plies"`
	Forfeit string   `json:"forfeit,omitempty"`
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// agentLabels names each agent of a match for the report. Self-play
// ("mcts,mcts") is a normal thing to run, and two rows both called "mcts"
// would leave the reader guessing which is which, so a repeated spec gets
// its rank: "mcts", "mcts#2".
func agentLabels(specs []string) []string {
	labels := make([]string, len(specs))
	seen := map[string]int{}
	for i, s := range specs {
		seen[s]++
		labels[i] = s
		if seen[s] > 1 {
			labels[i] = fmt.Sprintf("%s#%d", s, seen[s])
		}
	}
	return labels
}

func report(name string, o game.Options, r *arena.Result, d time.Duration) arenaReport {
	rep := arenaReport{Game: name, Options: o.String(), Games: len(r.Games), Forfeits: r.Forfeits, Seconds: d.Seconds()}
	labels := agentLabels(r.Agents)
	if len(r.Games) > 0 {
		rep.AvgPlies = float64(r.Plies) / float64(len(r.Games))
	}
	for _, g := range r.Games {
		gr := gameReport{Index: g.Index, Result: g.Outcome.Status.String(), Plies: g.Plies, Forfeit: g.Forfeit}
		for seat, ai := range g.Seats {
			gr.Seats = append(gr.Seats, labels[ai])
			if g.Outcome.IsWinner(seat) {
				gr.Winners = append(gr.Winners, seat)
			}
		}
		rep.Results = append(rep.Results, gr)
	}
	sort.Slice(rep.Results, func(i, j int) bool { return rep.Results[i].Index < rep.Results[j].Index })
	if len(r.Games) > 0 {
		rep.Seats = len(r.Games[0].Seats)
	}
	twoSeat := rep.Seats == 2
	for i, sc := range r.Scores {
		iv := sc.RateInterval()
		ar := agentReport{Agent: labels[i], Games: sc.Games, Wins: sc.Wins, Draws: sc.Draws, Losses: sc.Losses,
			Points: sc.Points, WinRate: sc.Rate(), WinRateLow: iv.Low, WinRateHi: iv.High}
		if twoSeat {
			elo, eiv := sc.EloDiff()
			ar.Elo, ar.EloLow, ar.EloHigh = finite(elo), finite(eiv.Low), finite(eiv.High)
		}
		rep.Agents = append(rep.Agents, ar)
	}
	return rep
}

func printReport(w io.Writer, rep arenaReport) {
	fmt.Fprintf(w, "%s (%s): %d games, %.1f plies/game, %d forfeits, %.0fs\n", rep.Game, rep.Options, rep.Games, rep.AvgPlies, rep.Forfeits, rep.Seconds)
	for _, a := range rep.Agents {
		fmt.Fprintf(w, "  %-28s W %4d  D %4d  L %4d  win rate %5.1f%% [%5.1f%%, %5.1f%%]",
			a.Agent, a.Wins, a.Draws, a.Losses, 100*a.WinRate, 100*a.WinRateLow, 100*a.WinRateHi)
		if a.Elo != nil || a.EloLow != nil || a.EloHigh != nil {
			sign := 1
			if a.WinRate < 0.5 {
				sign = -1
			}
			fmt.Fprintf(w, "  Elo %s [%s, %s]", eloText(a.Elo, sign), eloText(a.EloLow, -1), eloText(a.EloHigh, 1))
		}
		fmt.Fprintln(w)
	}
	if rep.Seats > 2 {
		fmt.Fprintln(w, "  (W: sole wins; D: drawn games and wins shared by k seats, worth 1/k; win rate: points per seat held)")
	}
}

func eloText(x *float64, inf int) string {
	if x == nil {
		if inf < 0 {
			return "-inf"
		}
		return "+inf"
	}
	return fmt.Sprintf("%+.0f", *x)
}
