package game

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
)

// This file is the information barrier: what of a state a seat may be shown.
// The server, the command line, the bot protocol and agents all ask here, so
// the rule is written once.

// Hidden reports whether s keeps something from some seat: its game
// declares hidden information (Facts) or its state has a view (HiddenInfo).
// Either is enough, so a game that forgets one of the two fails closed.
func Hidden(s State) bool {
	_, ok := s.(HiddenInfo)
	return ok || s.Game().Facts().HiddenInfo
}

// View is what seat (or Spectator) may see of s: the game's own view for a
// game with hidden information, the position JSON for a game that hides
// nothing. It fails closed: a view that panics or is not JSON is an error,
// never a fallback to the full position.
func View(s State, seat int) (json.RawMessage, error) {
	h, ok := s.(HiddenInfo)
	if !ok {
		if Hidden(s) {
			return nil, fmt.Errorf("%s: the game hides information but its state has no view", s.Game().Name())
		}
		return s.MarshalPosition()
	}
	v, err := safeView(h, seat)
	if err != nil {
		return nil, fmt.Errorf("view for seat %d: %w", seat, err)
	}
	return v, nil
}

// safeView turns a panic in a game's View (a seat it did not expect) into an
// error.
func safeView(h HiddenInfo, seat int) (v json.RawMessage, err error) {
	defer func() {
		if r := recover(); r != nil {
			v, err = nil, fmt.Errorf("view panicked: %v", r)
		}
	}()
	b, err := h.View(seat)
	if err != nil {
		return nil, err
	}
	if !json.Valid(b) {
		return nil, errors.New("view is not JSON")
	}
	return b, nil
}

// LegalTexts lists the legal moves of s in canonical notation, sorted by
// byte order: as `tabula moves` prints them and the bot protocol sends
// them. It is never nil (an empty list once the game is over).
func LegalTexts(s State) []string {
	ms := s.Legal(nil)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = s.FormatMove(m)
	}
	sort.Strings(out)
	return out
}

// LineTexts writes a line of moves from s (the first is a move of s, each
// next one a move of the position the previous one reached) in canonical
// notation, playing them on a copy of s.
func LineTexts(s State, line []Move) []string {
	c := s.Clone()
	out := make([]string, 0, len(line))
	for _, m := range line {
		out = append(out, c.FormatMove(m))
		c.Play(m)
	}
	return out
}
