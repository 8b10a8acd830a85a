package main

import (
	"fmt"
	"io"

	"github.com/tabula-games/tabula/game"
)

func runShow(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	_, _, s, err := gameCommand("show", args, stdin, nil)
	if err != nil {
		return err
	}
	_, err = io.WriteString(stdout, drawing(s))
	return err
}

// drawing is the game's terminal picture, or its position JSON for a game
// that has none, plus a status line.
func drawing(s game.State) string {
	return board(s) + statusLine(s) + "\n"
}

// board is the game's own drawing of the position, without the status line.
func board(s game.State) string {
	var out string
	if d, ok := s.(game.Drawer); ok {
		out = d.Draw()
	} else if p, err := s.MarshalPosition(); err == nil {
		out = string(p) + "\n"
	}
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out += "\n"
	}
	return out
}

func statusLine(s game.State) string {
	o := s.Outcome()
	switch o.Status {
	case game.Won:
		w := ""
		for seat := 0; seat < s.NumPlayers(); seat++ {
			if o.IsWinner(seat) {
				if w != "" {
					w += ", "
				}
				w += s.SeatName(seat)
			}
		}
		return "Game over: " + w + " won."
	case game.Drawn:
		return "Game over: drawn."
	}
	return fmt.Sprintf("%s to move.", s.SeatName(s.ToMove()))
}
