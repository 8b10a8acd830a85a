package sploof

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/bits"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// positionJSON is the spec's position text plus what makes it self-contained:
// the options, and which colour moved first when that is known.
type positionJSON struct {
	Game    string            `json:"game"`
	Levels  []string          `json:"levels"`
	ToMove  string            `json:"toMove"`
	Stock   *counts           `json:"stock"`
	Supply  *counts           `json:"supply"`
	Options map[string]string `json:"options,omitempty"`
	First   string            `json:"first,omitempty"`
}

type counts struct {
	White *int `json:"white"`
	Black *int `json:"black"`
}

// Levels returns the spec's picture of each level, level 1 first: rows top
// row first, separated by "/", one of W, B, R, . per point.
func (s *State) Levels() [4]string {
	var out [4]string
	for h := 1; h <= 4; h++ {
		n := 5 - h
		var b strings.Builder
		for r := n - 1; r >= 0; r-- {
			for c := 0; c < n; c++ {
				b.WriteByte(s.cell(pointIndex(h, r, c)))
			}
			if r > 0 {
				b.WriteByte('/')
			}
		}
		out[h-1] = b.String()
	}
	return out
}

// cell is the position letter of point p.
func (s *State) cell(p int) byte {
	switch bit := uint32(1) << p; {
	case s.col[White]&bit != 0:
		return 'W'
	case s.col[Black]&bit != 0:
		return 'B'
	case s.red&bit != 0:
		return 'R'
	}
	return '.'
}

// MarshalPosition implements game.State.
func (s *State) MarshalPosition() ([]byte, error) {
	lv := s.Levels()
	w, b := int(s.stock[White]), int(s.stock[Black])
	sw, sb := int(s.supply[White]), int(s.supply[Black])
	p := positionJSON{
		Game:    "sploof",
		Levels:  lv[:],
		ToMove:  colourNames[s.turn],
		Stock:   &counts{White: &w, Black: &b},
		Supply:  &counts{White: &sw, Black: &sb},
		Options: s.rules.options(),
	}
	if s.first >= 0 {
		p.First = colourNames[s.first]
	}
	return json.Marshal(p)
}

// ParsePosition implements game.State. Missing options take their defaults.
// Besides the shape of the text it checks that the position could stand:
// reds only on level 1, every ball above level 1 on four balls, counts in
// range, and with the finite supply 16 balls of each colour in all.
func (g Game) ParsePosition(data []byte) (game.State, error) {
	s, err := parsePosition(g, data)
	if err != nil {
		return nil, fmt.Errorf("sploof: %w: %v", game.ErrPosition, err)
	}
	return s, nil
}

func parsePosition(g Game, data []byte) (*State, error) {
	var p positionJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the position")
	}
	if p.Game != "sploof" {
		return nil, fmt.Errorf("game %q, want \"sploof\"", p.Game)
	}
	opts, err := game.CheckOptions(g, game.Options(p.Options))
	if err != nil {
		return nil, err
	}
	s := &State{rules: rulesOf(opts), first: -1}
	if err := s.readLevels(p.Levels); err != nil {
		return nil, err
	}
	if s.turn, err = colourByName(p.ToMove, "toMove"); err != nil {
		return nil, err
	}
	if p.First != "" {
		f, err := colourByName(p.First, "first")
		if err != nil {
			return nil, err
		}
		if s.rules.first != firstRandom && f != s.rules.first {
			return nil, fmt.Errorf("first %q contradicts the option first=%s", p.First, colourNames[s.rules.first])
		}
		s.first = int8(f)
	}
	stock, why := stockLimit(s.rules, bits.OnesCount32(s.red))
	for _, f := range []struct {
		name string
		c    *counts
		dst  *[2]uint8
		max  int
		why  string
	}{{"stock", p.Stock, &s.stock, stock, why}, {"supply", p.Supply, &s.supply, ballsPerColour, "16 balls of each colour"}} {
		if f.c == nil || f.c.White == nil || f.c.Black == nil {
			return nil, fmt.Errorf("%s: want {\"white\":n,\"black\":n}", f.name)
		}
		for i, v := range [2]int{*f.c.White, *f.c.Black} {
			if v < 0 || v > f.max {
				return nil, fmt.Errorf("%s of %s is %d, want 0…%d (%s)", f.name, colourNames[i], v, f.max, f.why)
			}
			f.dst[i] = uint8(v)
		}
	}
	if !s.rules.unlimited {
		for c := 0; c < 2; c++ {
			n := bits.OnesCount32(s.col[c]) + int(s.stock[c]) + int(s.supply[c])
			if n != ballsPerColour {
				return nil, fmt.Errorf("%s has %d balls on the board, in stock and in the supply, want %d (supply=finite)", colourNames[c], n, ballsPerColour)
			}
		}
	}
	s.finish()
	return s, nil
}

// ballsPerColour is the number of balls of each colour a finite supply
// starts with, in stock and supply together.
const ballsPerColour = startStock + startSupply

// stockLimit is the largest stock a position may hold beside reds red balls
// on the board, and what sets it. With the finite supply it is the rule: a
// colour has 16 balls. With the unlimited supply the rules set no limit on a
// composed position, and the bound is Tabula's: a stock gains 2 only when a
// red leaves the board, so stock + 2×reds never grows, and keeping it at
// most maxStock keeps every later stock within the hash's key table — every
// position reachable from one that reads back reads back too.
func stockLimit(r rules, reds int) (int, string) {
	if !r.unlimited {
		return ballsPerColour, "16 balls of each colour"
	}
	return maxStock - 2*reds, fmt.Sprintf("with supply=unlimited Tabula keeps stock + 2×reds at most %d", maxStock)
}

func colourByName(name, field string) (uint8, error) {
	switch name {
	case "white":
		return White, nil
	case "black":
		return Black, nil
	}
	return 0, fmt.Errorf("%s %q, want \"white\" or \"black\"", field, name)
}

// readLevels fills the board from the spec's level pictures.
func (s *State) readLevels(levels []string) error {
	if len(levels) != 4 {
		return fmt.Errorf("levels: want 4, got %d", len(levels))
	}
	for h := 1; h <= 4; h++ {
		n := 5 - h
		rows := strings.Split(levels[h-1], "/")
		if len(rows) != n {
			return fmt.Errorf("level %d %q: want %d rows", h, levels[h-1], n)
		}
		for i, row := range rows {
			if len(row) != n {
				return fmt.Errorf("level %d row %q: want %d points", h, row, n)
			}
			r := n - 1 - i
			for c := 0; c < n; c++ {
				bit := uint32(1) << pointIndex(h, r, c)
				switch row[c] {
				case 'W':
					s.col[White] |= bit
				case 'B':
					s.col[Black] |= bit
				case 'R':
					if h != 1 {
						return fmt.Errorf("red ball on %s: reds only sit on level 1", PointName(pointIndex(h, r, c)))
					}
					s.red |= bit
				case '.':
				default:
					return fmt.Errorf("level %d row %q: %q is not W, B, R or .", h, row, row[c])
				}
			}
		}
	}
	occ := s.occ()
	if floating := occ &^ supported(occ); floating != 0 {
		return fmt.Errorf("the ball on %s does not rest on four balls", PointName(bits.TrailingZeros32(floating)))
	}
	return nil
}
