// Command tabula plays, checks and serves the Tabula games. docs/cli.md is
// the contract its output follows; this file only dispatches to one file per
// subcommand.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	_ "github.com/tabula-games/tabula/games/all"
)

type command struct {
	name  string
	usage string
	run   func(args []string, stdin io.Reader, stdout, stderr io.Writer) error
}

func commands() []command {
	return []command{
		{"moves", "moves GAME [-o k=v]… [--moves \"M1 M2 …\"] [--position FILE|-] [--seed N] [--json]", runMoves},
		{"perft", "perft GAME --depth N [-o k=v]… [--moves …] [--position FILE|-] [--seed N]", runPerft},
		{"show", "show GAME [-o k=v]… [--moves …] [--position FILE|-] [--seed N]", runShow},
		{"play", "play GAME [-o k=v]… [--p1 AGENT] [--p2 AGENT] … [--seed N] [--record FILE]", runPlay},
		{"solve", "solve GAME [-o k=v]… [--moves …] [--position FILE|-] [--time 30s] [--table MiB] [--json]", runSolve},
		{"analyse", "analyse GAME [-o k=v]… [--moves …] [--position FILE|-] [--time 5s] [--iters N] [--lines 3] [--workers N] [--json [--every 1s]]", runAnalyse},
		{"review", "review GAME [-o k=v]… --moves \"M1 M2 …\" [--position FILE|-] [--seed N] [--iters N] [--worlds N] [--json]", runReview},
		{"bench", "bench [GAME…] [--time 1s] [--json]", runBench},
		{"arena", "arena GAME --agents \"mcts:time=200ms,greedy\" --games N [-o k=v]… [--parallel N] [--seed N] [--log FILE] [--json]", runArena},
		{"bot", "bot --server URL --token TOKEN --engine AGENT [--config FILE] [--on-stop finish|resign] [--dry-run] | bot check --engine AGENT [--game GAME]… [--seed N]", runBot},
		{"serve", "serve [--addr 127.0.0.1:8080] [--db FILE|postgres://…] [--web DIR] [--log text|json] [--rate N] [--tls-cert FILE --tls-key FILE] [--trusted-proxy CIDR] [--metrics-addr ADDR]", runServe},
		{"admin", adminUsage, runAdmin},
		{"ladder", ladderUsage, runLadder},
		{"tournament", "tournament simulate --format swiss|arena|roundrobin|tables --game GAME --players N [--rounds R] [--trf FILE|-] [--seed N] [--agents \"greedy,random\"]", runTournament},
		{"loadtest", "loadtest [--addr URL [--metrics URL]] [--games 100] [--duration 20s] [--game all|NAME] [--flood] [--json]", runLoadtest},
	}
}

// errUsage marks a command-line mistake; the message is already written.
var errUsage = errors.New("usage")

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: tests call it directly.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stderr)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	for _, c := range commands() {
		if c.name == args[0] {
			err := c.run(args[1:], stdin, stdout, stderr)
			switch {
			case err == nil:
				return 0
			case errors.Is(err, flag.ErrHelp):
				fmt.Fprintln(stderr, "usage: tabula "+c.usage)
				var h helpError
				if errors.As(err, &h) {
					fmt.Fprint(stderr, h.flagsText())
				}
				if strings.Contains(c.usage, "--position") {
					fmt.Fprintln(stderr, positionNote)
				}
				return 0
			case errors.Is(err, errUsage):
				return 2
			}
			fmt.Fprintln(stderr, "tabula "+c.name+": "+oneLine(err.Error()))
			return 1
		}
	}
	fmt.Fprintf(stderr, "tabula: unknown command %q (run 'tabula help')\n", args[0])
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "tabula — Sgolte, Sploof, Skjuub and Skyjo: rules, bots, server")
	fmt.Fprintln(w, "usage:")
	for _, c := range commands() {
		fmt.Fprintln(w, "  tabula "+c.usage)
	}
	fmt.Fprintln(w, positionNote)
}

// positionNote is the help's word on -o beside --position.
const positionNote = "-o key=value sets a game option; a position carries its own, so beside --position -o may only repeat them."

// oneLine keeps an error to the single line the contract promises.
func oneLine(s string) string {
	s = strings.ReplaceAll(s, "\r", " ")
	return strings.Join(strings.Fields(strings.ReplaceAll(s, "\n", " ")), " ")
}
