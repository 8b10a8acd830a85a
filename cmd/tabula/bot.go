package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
)

// runBot is `tabula bot`: the server connector (tabula bot --server …,
// botconnect.go) and its subcommand check.
func runBot(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "check" {
		return runBotCheck(args[1:], stdout)
	}
	if len(args) > 0 && strings.HasPrefix(args[0], "-") { // --help too: the connector's flags
		return runBotConnect(args, stdout)
	}
	return fmt.Errorf("want a subcommand: tabula bot --server URL --token TOKEN --engine AGENT, or tabula bot check --engine AGENT")
}

func runBotCheck(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bot check", flag.ContinueOnError)
	engine := fs.String("engine", "", "the `AGENT` to check: exec:COMMAND (with exec:time=…:startup=…: limits) or a built-in agent")
	var games listFlag
	fs.Var(&games, "game", "check this `GAME` only (repeatable; default: the games the engine's hello lists, or all four)")
	seed := fs.Uint64("seed", 1, "seed for the engine and for the whole games against random")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return fmt.Errorf("unexpected argument %q (the engine is --engine \"exec:…\")", pos[0])
	}
	if *engine == "" {
		return fmt.Errorf("--engine: want the engine to check, as in --engine \"exec:python3 mybot.py\"")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	return checkEngine(ctx, *engine, games, *seed, stdout)
}
