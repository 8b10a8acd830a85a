// Package matchtest holds what tests of games on the site share: tnim, a
// tiny game registered only where this package is imported (the server's and
// the match package's tests), and fakes of the match package's outside world
// — a Journal in memory, a TimeSource that moves only when told, a
// Publisher that records events.
package matchtest

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// tnim is a tiny game registered only in tests, so the server and the
// owner of a game can be tested whatever real games are registered: a pile of stones,
// 2–4 players in turn take 1–3, who takes the last stone wins. With
// hidden=on it also has a secret: a shuffled "bag" of numbered tokens, one
// revealed with each move; the view shows only the revealed ones — a
// miniature of Skyjo's deck for redaction tests.
type tnimGame struct{}

type tnim struct {
	stones, players, toMove int
	hidden                  bool
	bag                     []int // secret order; bag[:revealed] are public
	revealed                int
	winner                  int
}

func init() { game.Register(tnimGame{}) }

func (tnimGame) Name() string  { return "tnim" }
func (tnimGame) Title() string { return "Test Nim" }
func (tnimGame) Facts() game.Facts {
	return game.Facts{MinPlayers: 2, MaxPlayers: 4, Chance: true}
}
func (tnimGame) Options() []game.OptionSpec {
	return []game.OptionSpec{
		{Name: "stones", Default: "7", Min: 1, Max: 2000},
		{Name: "players", Default: "2", Min: 2, Max: 4},
	}
}

func (g tnimGame) New(opts game.Options, seed uint64) (game.State, error) {
	hidden := opts["hidden"]
	delete(opts, "hidden")
	opts, err := game.Complete(g, opts)
	if err != nil {
		return nil, err
	}
	opts["hidden"] = hidden
	s := &tnim{stones: opts.Int("stones"), players: opts.Int("players"), hidden: opts["hidden"] == "on", winner: -1}
	if s.hidden {
		rng := game.NewRNG(seed)
		s.bag = make([]int, s.stones)
		for i := range s.bag {
			s.bag[i] = 1000 + i
		}
		for i := len(s.bag) - 1; i > 0; i-- {
			j := rng.IntN(i + 1)
			s.bag[i], s.bag[j] = s.bag[j], s.bag[i]
		}
	}
	return s, nil
}

type tnimJSON struct {
	Game     string `json:"game"`
	Stones   int    `json:"stones"`
	Players  int    `json:"players"`
	ToMove   int    `json:"toMove"`
	Winner   int    `json:"winner"`
	Bag      []int  `json:"bag,omitempty"`
	Revealed int    `json:"revealed,omitempty"`
}

func (tnimGame) ParsePosition(data []byte) (game.State, error) {
	var p tnimJSON
	if err := json.Unmarshal(data, &p); err != nil || (p.Game != "tnim" && p.Game != "tnimh") || p.Players < 2 || p.Players > 4 ||
		p.Stones < 0 || p.ToMove < -1 || p.ToMove >= p.Players || p.Revealed < 0 || p.Revealed > len(p.Bag) {
		return nil, fmt.Errorf("tnim: %w", game.ErrPosition)
	}
	return &tnim{stones: p.Stones, players: p.Players, toMove: p.ToMove, winner: p.Winner, hidden: p.Bag != nil, bag: p.Bag, revealed: p.Revealed}, nil
}

func (s *tnim) Game() game.Game { return tnimGame{} }
func (s *tnim) NumPlayers() int { return s.players }
func (s *tnim) ToMove() int {
	if s.winner >= 0 {
		return -1
	}
	return s.toMove
}
func (s *tnim) Legal(dst []game.Move) []game.Move {
	if s.winner >= 0 {
		return dst
	}
	for k := 1; k <= 3 && k <= s.stones; k++ {
		dst = append(dst, game.Move(k))
	}
	return dst
}
func (s *tnim) Play(m game.Move) {
	s.stones -= int(m)
	if s.hidden {
		s.revealed = min(s.revealed+int(m), len(s.bag))
	}
	if s.stones == 0 {
		s.winner = s.toMove
		return
	}
	s.toMove = (s.toMove + 1) % s.players
}
func (s *tnim) Outcome() game.Outcome {
	if s.winner >= 0 {
		return game.WinOutcome(s.winner)
	}
	return game.Outcome{}
}
func (s *tnim) Clone() game.State {
	c := *s
	c.bag = append([]int(nil), s.bag...)
	return &c
}
func (s *tnim) CopyFrom(src game.State) {
	o := src.(*tnim)
	bag := append(s.bag[:0], o.bag...)
	*s = *o
	s.bag = bag
}
func (s *tnim) Hash() uint64 { return uint64(s.stones)<<8 | uint64(s.toMove) }
func (s *tnim) FormatMove(m game.Move) string {
	return strconv.Itoa(int(m))
}
func (s *tnim) ParseMove(text string) (game.Move, error) {
	k, err := strconv.Atoi(text)
	if err != nil {
		return 0, fmt.Errorf("tnim: %q: %w", text, game.ErrSyntax)
	}
	if s.winner >= 0 || k < 1 || k > 3 || k > s.stones {
		return 0, fmt.Errorf("tnim: %q: %w", text, game.ErrIllegal)
	}
	return game.Move(k), nil
}
func (s *tnim) MarshalPosition() ([]byte, error) {
	name := "tnim"
	if s.hidden {
		name = "tnimh"
	}
	return json.Marshal(tnimJSON{Game: name, Stones: s.stones, Players: s.players, ToMove: s.toMove, Winner: s.winner, Bag: s.bag, Revealed: s.revealed})
}
func (s *tnim) SeatName(seat int) string { return strconv.Itoa(seat + 1) }

// tnimh is tnim with a secret bag: its state implements game.HiddenInfo,
// so the server may send only its View.
type tnimhGame struct{ tnimGame }

type tnimh struct{ *tnim }

func (tnimhGame) Name() string  { return "tnimh" }
func (tnimhGame) Title() string { return "Test Nim (hidden)" }
func (tnimhGame) Facts() game.Facts {
	return game.Facts{MinPlayers: 2, MaxPlayers: 4, HiddenInfo: true, Chance: true}
}
func (g tnimhGame) Options() []game.OptionSpec {
	return []game.OptionSpec{{Name: "stones", Default: "7", Min: 1, Max: 2000}, {Name: "players", Default: "2", Min: 2, Max: 4}}
}
func (g tnimhGame) New(opts game.Options, seed uint64) (game.State, error) {
	opts, err := game.Complete(g, opts)
	if err != nil {
		return nil, err
	}
	opts["hidden"] = "on"
	st, err := tnimGame{}.New(opts, seed)
	if err != nil {
		return nil, err
	}
	return tnimh{st.(*tnim)}, nil
}
func (tnimhGame) ParsePosition(data []byte) (game.State, error) {
	st, err := tnimGame{}.ParsePosition(data)
	if err != nil {
		return nil, err
	}
	return tnimh{st.(*tnim)}, nil
}
func (s tnimh) Game() game.Game                                     { return tnimhGame{} }
func (s tnimh) Clone() game.State                                   { return tnimh{s.tnim.Clone().(*tnim)} }
func (s tnimh) CopyFrom(src game.State)                             { s.tnim.CopyFrom(src.(tnimh).tnim) }
func (s tnimh) Determinize(dst game.State, seat int, rng *game.RNG) { dst.CopyFrom(s) }
func (s tnimh) View(seat int) ([]byte, error) {
	return json.Marshal(map[string]any{"game": "tnimh", "stones": s.stones, "toMove": s.ToMove(), "shown": s.bag[:s.revealed], "bag": len(s.bag) - s.revealed})
}

func init() { game.Register(tnimhGame{}) }
