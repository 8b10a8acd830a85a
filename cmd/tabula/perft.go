package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/tabula-games/tabula/game"
)

func runPerft(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var depth *int
	_, _, s, err := gameCommand("perft", args, stdin, func(fs *flag.FlagSet) {
		depth = fs.Int("depth", 1, "number of plies")
	})
	if err != nil {
		return err
	}
	if *depth < 0 || *depth > 64 {
		return fmt.Errorf("--depth %d: want 0…64", *depth)
	}
	_, err = fmt.Fprintln(stdout, game.Perft(s, *depth))
	return err
}
