package skyjo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// positionJSON is the true state as JSON (tests, finished-game records): the
// view's fields plus every face-down value, the deck order and the
// generator. Field order is fixed, so the output is deterministic.
type positionJSON struct {
	Game       string            `json:"game"`
	Options    map[string]string `json:"options"`
	Seed       string            `json:"seed"` // decimal
	RNG        string            `json:"rng"`  // generator state, 16 hex digits
	Round      int               `json:"round"`
	Phase      string            `json:"phase"`
	ToMove     int               `json:"toMove"`
	Starter    int               `json:"starter"`
	Ender      int               `json:"ender"`
	Turn       int               `json:"turn"`
	Reshuffles int               `json:"reshuffles"`
	Players    []playerJSON      `json:"players"`
	Discard    []int             `json:"discard"` // bottom first
	Deck       []int             `json:"deck"`    // top first
	Held       *int              `json:"held"`
}

// playerJSON is one seat: grid rows top to bottom, columns a–d, each cell a
// face-up value (5), a face-down one ("?5") or a removed column ("x").
type playerJSON struct {
	Grid  [][]json.RawMessage `json:"grid"`
	Total int                 `json:"total"`
}

// MarshalPosition implements game.State.
func (s *State) MarshalPosition() ([]byte, error) {
	n := int(s.cfg.players)
	pj := positionJSON{
		Game:       "skyjo",
		Options:    s.cfg.options(),
		Seed:       strconv.FormatUint(s.seed, 10),
		RNG:        fmt.Sprintf("%016x", rngState(s.rng)),
		Round:      int(s.round),
		Phase:      phaseNames[s.phase],
		ToMove:     int(s.toMove),
		Starter:    int(s.starter),
		Ender:      int(s.ender),
		Turn:       int(s.turn),
		Reshuffles: int(s.reshuffles),
		Players:    make([]playerJSON, n),
		Discard:    make([]int, s.discN),
		Deck:       make([]int, s.deckN),
	}
	for p := 0; p < n; p++ {
		grid := make([][]json.RawMessage, 3)
		for r := range grid {
			grid[r] = make([]json.RawMessage, 4)
			for c := range grid[r] {
				i := c*3 + r
				v := strconv.Itoa(int(s.cards[p][i]))
				switch bit := uint16(1) << i; {
				case s.gone[p]&bit != 0:
					v = `"x"`
				case s.up[p]&bit == 0:
					v = `"?` + v + `"`
				}
				grid[r][c] = json.RawMessage(v)
			}
		}
		pj.Players[p] = playerJSON{Grid: grid, Total: int(s.totals[p])}
	}
	for i := range pj.Discard {
		pj.Discard[i] = int(s.disc[i])
	}
	for i := range pj.Deck {
		pj.Deck[i] = int(s.deck[int(s.deckN)-1-i])
	}
	if s.held != noCard {
		h := int(s.held)
		pj.Held = &h
	}
	return json.Marshal(pj)
}

// ParsePosition implements game.Game. It accepts only positions the rules
// can reach in spirit: the 150 cards all present exactly once, whole removed
// columns, counters and phase consistent with each other.
func (Game) ParsePosition(data []byte) (game.State, error) {
	s, err := parsePosition(data)
	if err != nil {
		return nil, fmt.Errorf("skyjo: %w: %v", game.ErrPosition, err)
	}
	return s, nil
}

// Bounds a position's round and totals must keep. The rules have none (a
// game ends when a total reaches the target, but rounds scored below zero
// can put that off without end); these keep every count far inside its
// int32 field.
const (
	maxRound = 1 << 20
	maxTotal = 10_000_000
)

func parsePosition(data []byte) (*State, error) {
	var pj positionJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pj); err != nil {
		return nil, err
	}
	if dec.More() {
		return nil, fmt.Errorf("trailing data")
	}
	if pj.Game != "skyjo" {
		return nil, fmt.Errorf("game %q, want skyjo", pj.Game)
	}
	opts, err := game.CheckOptions(Skyjo, game.Options(pj.Options))
	if err != nil {
		return nil, err
	}
	s := &State{cfg: configFrom(opts)}
	n := int(s.cfg.players)
	if len(pj.Players) != n {
		return nil, fmt.Errorf("%d players, options say %d", len(pj.Players), n)
	}
	if s.seed, err = strconv.ParseUint(pj.Seed, 10, 64); err != nil {
		return nil, fmt.Errorf("seed %q: want a decimal integer", pj.Seed)
	}
	rs, err := strconv.ParseUint(pj.RNG, 16, 64)
	if err != nil || len(pj.RNG) != 16 {
		return nil, fmt.Errorf("rng %q: want 16 hex digits", pj.RNG)
	}
	s.rng = game.NewRNG(rs)
	s.rec.forget()

	ph := -1
	for i, name := range phaseNames {
		if pj.Phase == name {
			ph = i
		}
	}
	if ph < 0 {
		return nil, fmt.Errorf("phase %q: want one of %v", pj.Phase, phaseNames)
	}
	s.phase = phase(ph)
	if pj.Round < 1 || pj.Round > maxRound {
		return nil, fmt.Errorf("round %d: want 1…%d (the rules set no last round; this is Tabula's bound)", pj.Round, maxRound)
	}
	limit := int(s.cfg.maxTurns) * n
	if pj.Turn < 0 || pj.Turn > limit || (pj.Turn == limit && s.phase != phaseOver) {
		return nil, fmt.Errorf("turn %d: want 0…%d", pj.Turn, limit-1)
	}
	if pj.Reshuffles < 0 || pj.Reshuffles > 1 {
		return nil, fmt.Errorf("reshuffles %d: want 0 or 1", pj.Reshuffles)
	}
	if pj.Starter < -1 || pj.Starter >= n || pj.Ender < -1 || pj.Ender >= n || pj.ToMove < -1 || pj.ToMove >= n {
		return nil, fmt.Errorf("toMove, starter or ender out of range")
	}
	s.round, s.turn, s.reshuffles = int32(pj.Round), int32(pj.Turn), uint8(pj.Reshuffles)
	s.toMove, s.starter, s.ender = int8(pj.ToMove), int8(pj.Starter), int8(pj.Ender)

	var count [15]int
	add := func(v int) (int8, error) {
		if v < -2 || v > 12 {
			return 0, fmt.Errorf("card %d: want −2…12", v)
		}
		count[v+2]++
		return int8(v), nil
	}
	for p, pl := range pj.Players {
		if pl.Total < -maxTotal || pl.Total > maxTotal {
			return nil, fmt.Errorf("player %d: total %d: want −%d…%d (the rules set no bound; this is Tabula's)", p, pl.Total, maxTotal, maxTotal)
		}
		s.totals[p] = int32(pl.Total)
		if err := s.parseGrid(p, pl.Grid, add); err != nil {
			return nil, fmt.Errorf("player %d: %v", p, err)
		}
	}
	if len(pj.Discard) > deckSize || len(pj.Deck) > deckSize {
		return nil, fmt.Errorf("more than %d cards", deckSize)
	}
	for i, v := range pj.Discard {
		if s.disc[i], err = add(v); err != nil {
			return nil, fmt.Errorf("discard: %v", err)
		}
	}
	s.discN = uint8(len(pj.Discard))
	for i, v := range pj.Deck {
		if s.deck[len(pj.Deck)-1-i], err = add(v); err != nil {
			return nil, fmt.Errorf("deck: %v", err)
		}
	}
	s.deckN = uint8(len(pj.Deck))
	s.held = noCard
	if pj.Held != nil {
		if s.held, err = add(*pj.Held); err != nil {
			return nil, fmt.Errorf("held: %v", err)
		}
	}
	var want [15]int
	for _, c := range fullDeck {
		want[c+2]++
	}
	if count != want {
		return nil, fmt.Errorf("the cards are not the 150 of the game (%v, want %v by value from −2)", count, want)
	}
	if err := s.checkPhase(); err != nil {
		return nil, err
	}
	return s, nil
}

// parseGrid reads seat p's 3×4 grid.
func (s *State) parseGrid(p int, grid [][]json.RawMessage, add func(int) (int8, error)) error {
	if len(grid) != 3 {
		return fmt.Errorf("grid has %d rows, want 3", len(grid))
	}
	for r, row := range grid {
		if len(row) != 4 {
			return fmt.Errorf("grid row %d has %d cells, want 4", r+1, len(row))
		}
		for c, raw := range row {
			i := c*3 + r
			var v int
			if n, err := strconv.Atoi(string(raw)); err == nil {
				v = n
				s.up[p] |= 1 << i
			} else {
				var txt string
				if err := json.Unmarshal(raw, &txt); err != nil {
					return fmt.Errorf("cell %s: want a number, \"?N\" or \"x\"", posName(i))
				}
				switch {
				case txt == "x":
					s.gone[p] |= 1 << i
					continue
				case len(txt) > 1 && txt[0] == '?':
					n, err := strconv.Atoi(txt[1:])
					if err != nil || strconv.Itoa(n) != txt[1:] {
						return fmt.Errorf("cell %s: %q: want \"?N\"", posName(i), txt)
					}
					v = n
				default:
					return fmt.Errorf("cell %s: %q: want a number, \"?N\" or \"x\"", posName(i), txt)
				}
			}
			var err error
			if s.cards[p][i], err = add(v); err != nil {
				return fmt.Errorf("cell %s: %v", posName(i), err)
			}
		}
	}
	for c := 0; c < gridCards; c += 3 {
		m := uint16(colMask) << c
		g := s.gone[p] & m
		if g != 0 && g != m {
			return fmt.Errorf("column %c partly removed", 'a'+c/3)
		}
		if g != 0 && !s.cfg.columns {
			return fmt.Errorf("column %c removed with columns=off", 'a'+c/3)
		}
		x := &s.cards[p]
		if s.cfg.columns && s.up[p]&m == m && x[c] == x[c+1] && x[c] == x[c+2] {
			return fmt.Errorf("column %c is three equal face-up cards and should have been removed", 'a'+c/3)
		}
	}
	return nil
}

// checkPhase checks that the counters and grids fit the phase, so that
// every parsed position has legal moves until its game ends.
func (s *State) checkPhase() error {
	n := int(s.cfg.players)
	held := s.held != noCard
	if held != (s.phase == phaseDrawn || s.phase == phaseTook) {
		return fmt.Errorf("a held card exactly in phases drawn and took")
	}
	switch s.phase {
	case phaseFlips:
		if s.ender != -1 || s.turn != 0 || s.reshuffles != 0 || s.discN != 1 || s.toMove < 0 {
			return fmt.Errorf("initial flips: want ender -1, turn 0, no reshuffle, one discard and a seat to move")
		}
		if (s.round == 1) != (s.starter == -1) {
			return fmt.Errorf("initial flips: starter is -1 exactly in round 1")
		}
		for p := 0; p < n; p++ {
			k := popcount(s.up[p])
			if s.gone[p] != 0 || (p < int(s.toMove) && k != 2) || (p == int(s.toMove) && k > 1) || (p > int(s.toMove) && k != 0) {
				return fmt.Errorf("initial flips: seat %d has %d face-up cards", p, k)
			}
		}
	case phaseChoose, phaseDrawn, phaseTook:
		t := int(s.toMove)
		if t < 0 || s.starter < 0 || s.toMove == s.ender {
			return fmt.Errorf("%s: want a seat to move other than the ender, and a starter", phaseNames[s.phase])
		}
		if s.present(t) == 0 {
			return fmt.Errorf("%s: the seat to move has no card", phaseNames[s.phase])
		}
		if s.phase == phaseChoose && (s.deckN == 0 || s.discN == 0) {
			return fmt.Errorf("choose: the deck and the discard pile must not be empty")
		}
		for p := 0; p < n; p++ {
			if s.ender < 0 && s.down(p) == 0 {
				return fmt.Errorf("seat %d has no face-down card but nobody ended the round", p)
			}
		}
		if s.ender >= 0 && s.down(int(s.ender)) != 0 {
			return fmt.Errorf("the ender has a face-down card")
		}
		// The seats still to play in the final lap (from the seat to move
		// up to the ender) had their last turn before anyone ended the
		// round, so each still has a face-down card.
		for p := t; s.ender >= 0 && p != int(s.ender); p = (p + 1) % n {
			if s.down(p) == 0 {
				return fmt.Errorf("seat %d is still to play in the final lap but has no face-down card", p)
			}
		}
	case phaseOver:
		if s.toMove != -1 {
			return fmt.Errorf("game over: toMove must be -1")
		}
		reached := false
		for p := 0; p < n; p++ {
			if s.down(p) != 0 {
				return fmt.Errorf("game over: seat %d has a face-down card", p)
			}
			reached = reached || s.totals[p] >= s.cfg.target
		}
		if !reached {
			return fmt.Errorf("game over but no total reaches %d", s.cfg.target)
		}
		s.finish()
	}
	return nil
}
