package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/tabula-games/tabula/game"
)

func runMoves(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	var asJSON *bool
	_, _, s, err := gameCommand("moves", args, stdin, func(fs *flag.FlagSet) {
		asJSON = fs.Bool("json", false, "print one JSON object")
	})
	if err != nil {
		return err
	}
	texts := game.LegalTexts(s)
	if !*asJSON {
		for _, t := range texts {
			fmt.Fprintln(stdout, t)
		}
		return nil
	}
	out, err := movesJSON(s, texts)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(stdout, "%s\n", out)
	return err
}

// movesJSON is the `moves --json` object of docs/cli.md.
func movesJSON(s game.State, texts []string) ([]byte, error) {
	pos, err := s.MarshalPosition()
	if err != nil {
		return nil, err
	}
	o := s.Outcome()
	var toMove, winner any
	if tm := s.ToMove(); tm >= 0 {
		toMove = s.SeatName(tm)
	}
	if o.Status == game.Won {
		var ws []string
		for seat := 0; seat < s.NumPlayers(); seat++ {
			if o.IsWinner(seat) {
				ws = append(ws, s.SeatName(seat))
			}
		}
		if len(ws) == 1 {
			winner = ws[0]
		} else {
			winner = ws
		}
	}
	return json.Marshal(struct {
		ToMove   any             `json:"toMove"`
		Moves    []string        `json:"moves"`
		Status   string          `json:"status"`
		Winner   any             `json:"winner"`
		Position json.RawMessage `json:"position"`
	}{toMove, texts, o.Status.String(), winner, pos})
}
