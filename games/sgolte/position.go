package sgolte

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/tabula-games/tabula/game"
)

// position is the spec's position JSON. Besides the spec's fields it keeps
// what else decides the game: the minflip and continue options (size and
// pie are already there), whether the pie swap happened (it decides which
// seat plays which colour) and the passes just made (two end the game).
// Field order is the output order.
type position struct {
	Game     string   `json:"game"`
	Size     *int     `json:"size"`
	Black    []string `json:"black"`
	White    []string `json:"white"`
	ToMove   string   `json:"toMove"`
	Pie      string   `json:"pie"`
	Swapped  bool     `json:"swapped,omitempty"`
	Passes   int      `json:"passes,omitempty"`
	Minflip  string   `json:"minflip,omitempty"`
	Continue string   `json:"continue,omitempty"`
}

// MarshalPosition writes the position JSON: stones in cell order, every
// option, and swapped/passes only when set.
func (s *State) MarshalPosition() ([]byte, error) {
	size := int(s.size)
	p := position{
		Game:     "sgolte",
		Size:     &size,
		Black:    s.names(s.stones[black]),
		White:    s.names(s.stones[white]),
		ToMove:   colourNames[s.toMove],
		Pie:      pieNames[s.pie],
		Swapped:  s.swapped,
		Passes:   int(s.passes),
		Minflip:  minflipNames[s.minflip],
		Continue: continueNames[s.cont],
	}
	return json.Marshal(p)
}

func (s *State) names(b bitset) []string {
	out := make([]string, 0, b.count())
	for !b.isEmpty() {
		out = append(out, s.geo.names[b.pop()])
	}
	return out
}

func (sgolte) ParsePosition(data []byte) (game.State, error) {
	s, err := parsePosition(data)
	if err != nil {
		return nil, fmt.Errorf("sgolte: %w: %w", game.ErrPosition, err)
	}
	return s, nil
}

func parsePosition(data []byte) (*State, error) {
	var p position
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("trailing data after the position object")
	}
	if p.Game != "sgolte" {
		return nil, fmt.Errorf("game is %q, want \"sgolte\"", p.Game)
	}
	if p.Size == nil || *p.Size < 5 || *p.Size > 7 {
		return nil, errors.New("size must be 5, 6 or 7")
	}
	s := &State{geo: geometryFor(*p.Size)}
	s.size = uint8(*p.Size)
	var ok bool
	if s.minflip, ok = optionIndex(minflipNames, p.Minflip); !ok {
		return nil, fmt.Errorf("minflip %q: want global or group", p.Minflip)
	}
	if s.cont, ok = optionIndex(continueNames, p.Continue); !ok {
		return nil, fmt.Errorf("continue %q: want optional, mandatory or none", p.Continue)
	}
	for c, list := range [2][]string{p.Black, p.White} {
		for _, name := range list {
			i, ok := s.geo.parseCell(name)
			if !ok {
				return nil, fmt.Errorf("%q is not a cell of the size-%d board", name, s.size)
			}
			if s.stones[black].or(s.stones[white]).has(i) {
				return nil, fmt.Errorf("cell %s listed twice", name)
			}
			s.stones[c] = s.stones[c].or(single(i))
		}
	}
	switch p.ToMove {
	case "black":
		s.toMove = black
	case "white":
		s.toMove = white
	default:
		return nil, fmt.Errorf("toMove %q: want black or white", p.ToMove)
	}
	pie := indexOf(pieNames, p.Pie)
	if pie < 0 {
		return nil, fmt.Errorf("pie %q: want pending, done or off", p.Pie)
	}
	s.pie = uint8(pie)
	s.rules.pie = s.pie != pieOff
	if p.Passes < 0 || p.Passes > 2 {
		return nil, fmt.Errorf("passes %d: want 0, 1 or 2", p.Passes)
	}
	s.passes = uint8(p.Passes)
	s.swapped = p.Swapped
	nb, nw := s.stones[black].count(), s.stones[white].count()
	if s.pie == piePending {
		// The swap is open only before Black's first stone or right after it.
		start := nb == 0 && nw == 0 && s.toMove == black
		answer := nb == 1 && nw == 0 && s.toMove == white
		if !(start || answer) || s.passes != 0 || s.swapped {
			return nil, errors.New("pie is pending only on the empty board or after Black's first stone, before any pass or swap")
		}
	}
	if s.swapped && s.pie != pieDone {
		return nil, errors.New("swapped needs pie done")
	}
	s.placed = nb + nw
	s.rehash()
	return s, nil
}

// optionIndex reads an option value, the default when it is absent.
func optionIndex(list []string, v string) (uint8, bool) {
	if v == "" {
		return 0, true
	}
	i := indexOf(list, v)
	return uint8(i), i >= 0
}
