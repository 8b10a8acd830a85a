package skjuub

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/tabula-games/tabula/game"
)

// positionJSON is the spec's position text. Beyond the spec's example
// fields it carries what makes a position exact:
//   - options: the option values the game is played under;
//   - earnedBy: in the bonus phase, the slide or tumble that sacrificed the
//     piece on "sacrificed" (it becomes the turn's last action if the bonus
//     is passed);
//   - lastAction: per player, the last action (passes ignored) of her most
//     recent completed turn, "" before her first; its reverse is what the
//     no-backtracking rule forbids. A pick-up is written with the picked-up
//     piece's direction ("^c3N"), since the forbidden reversal is the
//     placement c3N;
//   - turn: completed turns per player;
//   - history: the keys of every turn-start position so far (the current
//     one last in the main phase), for the repetition house rule.
type positionJSON struct {
	Game       string            `json:"game"`
	Options    map[string]string `json:"options,omitempty"`
	Board      map[string]string `json:"board"`
	Pool       []int             `json:"pool"`
	ToMove     int               `json:"toMove"`
	Phase      string            `json:"phase,omitempty"`
	Sacrificed string            `json:"sacrificed,omitempty"`
	EarnedBy   string            `json:"earnedBy,omitempty"`
	LastAction []string          `json:"lastAction,omitempty"`
	Turn       []int             `json:"turn,omitempty"`
	History    []string          `json:"history,omitempty"`
}

func formatLast(m game.Move) string {
	switch mKind(m) {
	case 0:
		return ""
	case kindPickup:
		return formatMove(m) + string(dirLetters[mDir(m)])
	}
	return formatMove(m)
}

// MarshalPosition writes the position JSON (map keys sorted, so the output
// is deterministic).
func (s *State) MarshalPosition() ([]byte, error) {
	pj := positionJSON{
		Game:       "skjuub",
		Options:    map[string]string(s.r.opts),
		Board:      map[string]string{},
		Pool:       []int{int(s.pool[0]), int(s.pool[1])},
		ToMove:     int(s.mover) + 1,
		Phase:      "main",
		LastAction: []string{formatLast(s.last[0]), formatLast(s.last[1])},
		Turn:       []int{int(s.turns[0]), int(s.turns[1])},
	}
	for sq := 0; sq < numSquares; sq++ {
		if p, d := s.b.at(sq); p >= 0 {
			pj.Board[squareName(sq)] = string([]byte{'1' + byte(p), dirLetters[d]})
		}
	}
	if s.pending != 0 {
		pj.Phase = "bonus"
		pj.Sacrificed = squareName(s.sacrificed())
		pj.EarnedBy = formatMove(s.pending)
	}
	for _, k := range s.hist[:s.nhist] {
		pj.History = append(pj.History, fmt.Sprintf("%016x", k))
	}
	return json.Marshal(pj)
}

func posErr(format string, args ...any) error {
	return fmt.Errorf("skjuub: %w: %s", game.ErrPosition, fmt.Sprintf(format, args...))
}

// ParsePosition reads the position JSON. Missing optional fields take the
// values of a game in progress without history: phase main, no last
// actions, the fewest turns consistent with toMove, no repetitions.
func (g skjuub) ParsePosition(data []byte) (game.State, error) {
	var pj positionJSON
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&pj); err != nil {
		return nil, posErr("%v", err)
	}
	if dec.More() {
		return nil, posErr("trailing data after the position")
	}
	if pj.Game != "skjuub" {
		return nil, posErr("game %q, want skjuub", pj.Game)
	}
	r, err := newRules(g, game.Options(pj.Options))
	if err != nil {
		return nil, posErr("%v", err)
	}
	s := &State{}
	s.r = r
	if err := s.readBoard(&pj); err != nil {
		return nil, err
	}
	if err := s.readTurn(&pj); err != nil {
		return nil, err
	}
	if err := s.readActions(&pj); err != nil {
		return nil, err
	}
	if !s.b.valid(r) {
		return nil, posErr("the pieces collide (overhang into another piece or into one square from perpendicular sides, or past a closed edge)")
	}
	if len(pj.History) > len(s.hist) {
		return nil, posErr("history of %d entries is longer than the turns played", len(pj.History))
	}
	for _, h := range pj.History {
		k, err := strconv.ParseUint(h, 16, 64)
		if err != nil || len(h) != 16 {
			return nil, posErr("history entry %q: want 16 hex digits", h)
		}
		s.push(k)
	}
	s.key = s.computeKey()
	if s.pending == 0 {
		if s.nhist == 0 || s.hist[s.nhist-1] != s.key {
			if int(s.nhist) == len(s.hist) {
				return nil, posErr("history of %d entries is longer than the turns played", len(pj.History))
			}
			s.push(s.key)
		}
		s.judgeTurnStart()
	}
	// One entry per turn start, the current turn's included.
	if int(s.nhist) > int(s.turns[0])+int(s.turns[1])+1 {
		return nil, posErr("history longer than the turns played")
	}
	return s, nil
}

func (s *State) readBoard(pj *positionJSON) error {
	keys := make([]string, 0, len(pj.Board))
	for k := range pj.Board {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var count [2]int
	for _, k := range keys {
		v := pj.Board[k]
		sq, ok := parseSquare(k)
		if !ok || len(k) != 2 {
			return posErr("board square %q", k)
		}
		if s.b.occ()&(1<<uint(sq)) != 0 {
			return posErr("square %q given twice", k)
		}
		if len(v) != 2 || (v[0] != '1' && v[0] != '2') {
			return posErr("board %s: %q, want player and direction like \"1N\"", k, v)
		}
		d, ok := parseDir(v[1])
		if !ok {
			return posErr("board %s: %q, want player and direction like \"1N\"", k, v)
		}
		p := int(v[0] - '1')
		s.b.put(p, d, sq)
		count[p]++
	}
	if len(pj.Pool) != 2 {
		return posErr("pool: want two numbers")
	}
	for p := 0; p < 2; p++ {
		if pj.Pool[p] < 0 || pj.Pool[p]+count[p] != poolSize {
			return posErr("player %d has %d skjuubs on the board and %d in the pool, want %d in all", p+1, count[p], pj.Pool[p], poolSize)
		}
		s.pool[p] = int8(pj.Pool[p])
	}
	return nil
}

func (s *State) readTurn(pj *positionJSON) error {
	if pj.ToMove != 1 && pj.ToMove != 2 {
		return posErr("toMove %d, want 1 or 2", pj.ToMove)
	}
	s.mover = int8(pj.ToMove - 1)
	t := []int{int(s.mover), 0}
	if pj.Turn != nil {
		t = pj.Turn
	}
	if len(t) != 2 || t[0] < 0 || t[1] < 0 || t[0]-t[1] != int(s.mover) {
		return posErr("turn %v: player 1 moves first, so it has completed as many turns as player 2 (toMove 1) or one more (toMove 2)", t)
	}
	if t[0]+t[1] > s.r.maxTurns {
		return posErr("turn %v: beyond maxturns=%d", t, s.r.maxTurns)
	}
	s.turns = [2]int16{int16(t[0]), int16(t[1])}
	return nil
}

func (s *State) readActions(pj *positionJSON) error {
	if pj.LastAction != nil {
		if len(pj.LastAction) != 2 {
			return posErr("lastAction: want two entries (\"\" for none)")
		}
		for p, txt := range pj.LastAction {
			if txt == "" {
				continue
			}
			m, ok := parseToken(txt, true)
			if !ok || mKind(m) == kindPass {
				return posErr("lastAction %q", txt)
			}
			s.last[p], s.restrict[p] = m, reverse(m)
			s.rkey[p] = restrictKey(p, s.restrict[p])
		}
	}
	switch pj.Phase {
	case "", "main":
		if pj.Sacrificed != "" || pj.EarnedBy != "" {
			return posErr("sacrificed/earnedBy only in the bonus phase")
		}
		return nil
	case "bonus":
	default:
		return posErr("phase %q, want main or bonus", pj.Phase)
	}
	if int(s.turns[0])+int(s.turns[1]) >= s.r.maxTurns {
		return posErr("a bonus action after the last turn (maxturns=%d)", s.r.maxTurns)
	}
	m, ok := parseToken(pj.EarnedBy, false)
	if !ok || (mKind(m) != kindSlide && mKind(m) != kindTumble) {
		return posErr("bonus phase: earnedBy %q, want the sacrificing slide or tumble", pj.EarnedBy)
	}
	to := mTo(m)
	if pj.Sacrificed != "" && pj.Sacrificed != squareName(to) {
		return posErr("sacrificed %q is not where earnedBy %q ends", pj.Sacrificed, pj.EarnedBy)
	}
	p, d := s.b.at(to)
	if p != int(s.mover) || neighbours[to]&s.b.dirs[d] == 0 {
		return posErr("bonus phase: no inactive skjuub of the player to move on %s", squareName(to))
	}
	if mKind(m) == kindTumble {
		if ax := dirBetween(mFrom(m), to); ax != d && ax != opposite(d) {
			return posErr("earnedBy %q cannot leave the piece facing %c", pj.EarnedBy, dirLetters[d])
		}
	}
	if s.b.occ()&(1<<uint(mFrom(m))) != 0 && mFrom(m) != to {
		// The slide or tumble left its start square empty, and no action
		// of the pending turn has filled it since.
		return posErr("earnedBy %q starts on an occupied square", pj.EarnedBy)
	}
	s.pending = m
	return nil
}
