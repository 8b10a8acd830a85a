package match

import (
	"github.com/tabula-games/tabula/game"
)

// Origin says where a game's start came from when the server did not deal
// it itself. The creator of such a game chose the start — the totals of a
// Skyjo game, say — so it is never rated, and everyone is shown the start
// (as a spectator sees it) before joining.
type Origin string

// The origins of a start.
const (
	OriginServer   Origin = ""         // dealt by the server from the options and a seed of its own
	OriginPosition Origin = "position" // a position the creator gave
	OriginRecord   Origin = "record"   // the end of a record the creator imported, continued
)

// Valid reports whether o is one of the origins.
func (o Origin) Valid() bool { return o == OriginServer || o == OriginPosition || o == OriginRecord }

// startFrom checks the start position of a game m being created and makes
// it fair: a game from a position is unrated, shows its options, and —
// when the game hides cards — gets everything hidden in the position (the
// face-down cards, the deck's order and the generator of later deals) dealt
// afresh from the server's seed, unless m.KeepDeal says every seat agrees
// to the creator's deal. It returns the state the game starts from.
func startFrom(g game.Game, m *Meta, seed func() uint64) (game.State, error) {
	if len(m.Options) > 0 {
		return nil, errorf(CodeBadOption, "options cannot be combined with a position: a position carries its own")
	}
	if m.Rated {
		return nil, errorf(CodeBadOption, "a game from a position or a record is never rated: its creator chose the start")
	}
	if m.Origin == OriginServer {
		m.Origin = OriginPosition
	}
	st, err := g.ParsePosition(m.StartPosition)
	if err != nil {
		return nil, errorf(CodeBadPosition, "%v", err)
	}
	if st.Outcome().Over() {
		return nil, errorf(CodeBadPosition, "the position is already over")
	}
	h, hidden := st.(game.HiddenInfo)
	switch {
	case !game.Hidden(st) || !hidden:
		if m.KeepDeal {
			return nil, errorf(CodeBadOption, "%s hides nothing: keepDeal is for games with hidden cards", g.Title())
		}
	case !m.KeepDeal:
		dealt := st.Clone()
		rng := game.NewRNG(seed())
		h.Determinize(dealt, game.Spectator, &rng)
		b, err := dealt.MarshalPosition()
		if err != nil {
			return nil, errorf(CodeBadPosition, "%v", err)
		}
		st, m.StartPosition = dealt, b
	}
	m.Options, m.Seed = map[string]string{}, 0
	if c, ok := st.(game.Configured); ok {
		m.Options = c.Options()
	}
	return st, nil
}
