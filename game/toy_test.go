package game_test

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// take is a toy game for testing the contract itself: a pile of stones,
// 2–3 players in turn take one or two, whoever takes the last one wins.
// With a secret (the takeh game) every state also carries a number nobody
// may see, and its view leaves it out.
type takeGame struct{ hidden bool }

func (g takeGame) Name() string {
	if g.hidden {
		return "takeh"
	}
	return "take"
}
func (takeGame) Title() string { return "Take" }
func (g takeGame) Facts() game.Facts {
	return game.Facts{MinPlayers: 2, MaxPlayers: 3, HiddenInfo: g.hidden, Chance: g.hidden}
}
func (takeGame) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "pile", Doc: "stones at the start", Default: "5", Min: 1, Max: 30},
		{Name: game.PlayersOption, Doc: "seats", Default: "2", Min: 2, Max: 3},
		{Name: "last", Doc: "who takes the last stone wins or loses", Default: "wins", Values: []string{"wins", "loses"}},
	}
}
func (g takeGame) New(opts game.Options, seed uint64) (game.State, error) {
	full, err := game.Complete(g, opts)
	if err != nil {
		return nil, err
	}
	s := &take{Pile: full.Int("pile"), Players: full.Int(game.PlayersOption), Winner: -1}
	if g.hidden {
		rng := game.NewRNG(seed)
		s.Secret = 1 + rng.IntN(1000)
		return &takeh{s}, nil
	}
	return s, nil
}
func (g takeGame) ParsePosition(data []byte) (game.State, error) {
	var s take
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("%w: %v", game.ErrPosition, err)
	}
	if g.hidden {
		return &takeh{&s}, nil
	}
	return &s, nil
}

type take struct {
	Pile    int `json:"pile"`
	Players int `json:"players"`
	Turn    int `json:"toMove"`
	Winner  int `json:"winner"`
	Secret  int `json:"secret,omitempty"`
}

func (s *take) Game() game.Game { return takeGame{} }
func (s *take) NumPlayers() int { return s.Players }
func (s *take) ToMove() int {
	if s.Winner >= 0 {
		return -1
	}
	return s.Turn
}
func (s *take) Legal(dst []game.Move) []game.Move {
	for k := 2; k >= 1 && s.Winner < 0; k-- { // the game's own order: 2 before 1
		if k <= s.Pile {
			dst = append(dst, game.Move(k))
		}
	}
	return dst
}
func (s *take) Play(m game.Move) {
	s.Pile -= int(m)
	if s.Pile == 0 {
		s.Winner = s.Turn
		return
	}
	s.Turn = (s.Turn + 1) % s.Players
}
func (s *take) Outcome() game.Outcome {
	if s.Winner < 0 {
		return game.Outcome{}
	}
	return game.WinOutcome(s.Winner)
}
func (s *take) Clone() game.State             { c := *s; return &c }
func (s *take) CopyFrom(src game.State)       { *s = *src.(*take) }
func (s *take) Hash() uint64                  { return uint64(s.Pile)<<8 | uint64(s.Turn) }
func (s *take) FormatMove(m game.Move) string { return "take" + strconv.Itoa(int(m)) }
func (s *take) ParseMove(text string) (game.Move, error) {
	var k int
	if _, err := fmt.Sscanf(text, "take%d", &k); err != nil {
		return 0, fmt.Errorf("take: %q: %w", text, game.ErrSyntax)
	}
	if !game.IsLegal(s, game.Move(k)) {
		return 0, fmt.Errorf("take: %q: %w", text, game.ErrIllegal)
	}
	return game.Move(k), nil
}
func (s *take) MarshalPosition() ([]byte, error) { return json.Marshal(s) }
func (s *take) SeatName(seat int) string         { return "p" + strconv.Itoa(seat+1) }

// takeh is take with its secret hidden.
type takeh struct{ *take }

func (s *takeh) Game() game.Game         { return takeGame{hidden: true} }
func (s *takeh) Clone() game.State       { return &takeh{s.take.Clone().(*take)} }
func (s *takeh) CopyFrom(src game.State) { *s.take = *src.(*takeh).take }
func (s *takeh) View(seat int) ([]byte, error) {
	return json.Marshal(map[string]int{"pile": s.Pile, "toMove": s.ToMove()})
}
func (s *takeh) Determinize(dst game.State, seat int, rng *game.RNG) {
	d := dst.(*takeh)
	*d.take = *s.take
	d.Secret = 1 + rng.IntN(1000)
}
