package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/tabula-games/tabula/game"
)

func runPerft(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("perft", flag.ContinueOnError)
	var st setup
	st.register(fs)
	depth := fs.Int("depth", 1, "number of plies")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	name, err := oneGame(pos)
	if err != nil {
		return err
	}
	if *depth < 0 || *depth > 64 {
		return fmt.Errorf("--depth %d: want 0…64", *depth)
	}
	_, s, err := st.state(name, stdin)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, game.Perft(s, *depth))
	return err
}
