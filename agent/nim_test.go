package agent

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// nim is a toy game for testing agents on positions whose answer is known:
// one pile, a move takes 1–3 stones, whoever takes the last stone wins. A
// pile that is a multiple of 4 is lost for the side to move, so from any
// other pile the only winning move leaves a multiple of 4.
type nimGame struct{}

func (nimGame) Name() string               { return "nim" }
func (nimGame) Title() string              { return "Nim" }
func (nimGame) Options() []game.OptionSpec { return nil }
func (nimGame) Facts() game.Facts          { return game.Facts{MinPlayers: 2, MaxPlayers: 2} }
func (nimGame) New(game.Options, uint64) (game.State, error) {
	return &nim{Pile: 21}, nil
}
func (nimGame) ParsePosition(data []byte) (game.State, error) {
	var s nim
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, err
	}
	return &s, nil
}

type nim struct {
	Pile int `json:"pile"`
	Turn int `json:"toMove"`
}

func (s *nim) Game() game.Game       { return nimGame{} }
func (s *nim) NumPlayers() int       { return 2 }
func (s *nim) SeatName(i int) string { return strconv.Itoa(i + 1) }
func (s *nim) ToMove() int {
	if s.Pile == 0 {
		return -1
	}
	return s.Turn
}
func (s *nim) Legal(dst []game.Move) []game.Move {
	for k := 1; k <= 3 && k <= s.Pile; k++ {
		dst = append(dst, game.Move(k))
	}
	return dst
}
func (s *nim) Play(m game.Move) { s.Pile -= int(m); s.Turn = 1 - s.Turn }
func (s *nim) Outcome() game.Outcome {
	if s.Pile > 0 {
		return game.Outcome{}
	}
	return game.WinOutcome(1 - s.Turn) // whoever moved last took the last stone
}
func (s *nim) Clone() game.State             { c := *s; return &c }
func (s *nim) CopyFrom(src game.State)       { *s = *src.(*nim) }
func (s *nim) Hash() uint64                  { return uint64(s.Pile)<<1 | uint64(s.Turn) }
func (s *nim) FormatMove(m game.Move) string { return strconv.Itoa(int(m)) }
func (s *nim) ParseMove(t string) (game.Move, error) {
	k, err := strconv.Atoi(t)
	if err != nil {
		return 0, fmt.Errorf("nim: %q: %w", t, game.ErrSyntax)
	}
	if k < 1 || k > 3 || k > s.Pile {
		return 0, fmt.Errorf("nim: %q: %w", t, game.ErrIllegal)
	}
	return game.Move(k), nil
}
func (s *nim) MarshalPosition() ([]byte, error) { return json.Marshal(s) }

// seen is what the seat to move in s may know: what tests hand an agent.
func seen(s game.State) game.Observation {
	obs, err := game.Observe(s, s.ToMove())
	if err != nil {
		panic(err)
	}
	return obs
}
