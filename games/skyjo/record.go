package skyjo

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/tabula-games/tabula/game"
)

// recRounds is how many rounds of chance outcomes a State keeps. Games last
// about five rounds (two or three under random play); a game past 32 rounds
// still replays exactly from its seed, but its chance record is marked
// incomplete. The bound keeps State a flat value of fixed size.
const recRounds = 32

// record is the chance outcomes of a game, packed two cards to a byte
// (card+2 in each nibble): each round's shuffled deck and the round's
// reshuffle, if any.
type record struct {
	rounds  uint8 // rounds whose deal is recorded
	partial bool  // some outcomes are missing: see ChanceRecord
	deal    [recRounds][deckSize / 2]byte
	reshN   [recRounds]uint8 // cards in the round's reshuffled deck, 0 if none
	resh    [recRounds][deckSize / 2]byte
}

func (r *record) reset() {
	r.rounds = 0
	r.partial = false
}

// forget marks the record as not covering the game (a state read from a
// position or sampled from a view has no known history).
func (r *record) forget() {
	r.rounds = 0
	r.partial = true
}

func (r *record) addDeal(round int32, deck *[deckSize]int8) {
	if r.partial {
		return
	}
	if round > recRounds {
		r.partial = true
		return
	}
	pack(r.deal[round-1][:], deck[:])
	r.reshN[round-1] = 0
	r.rounds = uint8(round)
}

func (r *record) addReshuffle(round int32, deck []int8) {
	if r.partial || int32(r.rounds) != round {
		return
	}
	pack(r.resh[round-1][:], deck)
	r.reshN[round-1] = uint8(len(deck))
}

func pack(dst []byte, cards []int8) {
	for i := 0; i < len(cards); i += 2 {
		b := byte(cards[i] + 2)
		if i+1 < len(cards) {
			b |= byte(cards[i+1]+2) << 4
		}
		dst[i/2] = b
	}
}

// unpackTopFirst returns the n packed cards of a deck stored bottom first
// (as State keeps it) listed top first (the order they are drawn in).
func unpackTopFirst(src []byte, n int) []int {
	out := make([]int, n)
	for i := 0; i < n; i++ {
		v := int(src[i/2]>>(4*(i%2))&15) - 2
		out[n-1-i] = v
	}
	return out
}

// ChanceEvent is one chance outcome of a game: a shuffled deck.
type ChanceEvent struct {
	Round int `json:"round"`
	// Kind is "deal" (the round's 150 shuffled cards: seat 0's twelve cards
	// come first, for positions a1 a2 a3 b1 … d3, then seat 1's, …, then the
	// first discard, then the deck) or "reshuffle" (the discard pile but its
	// top card, shuffled into the new deck).
	Kind string `json:"kind"`
	// Cards are listed top first, in the order they are dealt or drawn.
	Cards []int `json:"cards"`
}

// ChanceRecord is every chance outcome of a game so far, for a finished
// game's record: with the decisions it replays the game exactly.
type ChanceRecord struct {
	Seed   uint64        `json:"seed"`
	Events []ChanceEvent `json:"events"`
	// Complete is false when the state does not know its whole history: it
	// was read from a position, sampled by Determinize, or its game passed
	// recRounds rounds. Replay from the seed is exact in every case.
	Complete bool `json:"complete"`
}

// ChanceRecord returns the chance outcomes of the game so far. It reveals
// the deck order and every face-down card dealt: it belongs in a finished
// game's record, never in anything a player sees while the game goes on.
func (s *State) ChanceRecord() ChanceRecord {
	r := &s.rec
	out := ChanceRecord{Seed: s.seed, Complete: !r.partial}
	for i := 0; i < int(r.rounds); i++ {
		out.Events = append(out.Events, ChanceEvent{Round: i + 1, Kind: "deal", Cards: unpackTopFirst(r.deal[i][:], deckSize)})
		if n := int(r.reshN[i]); n > 0 {
			out.Events = append(out.Events, ChanceEvent{Round: i + 1, Kind: "reshuffle", Cards: unpackTopFirst(r.resh[i][:], n)})
		}
	}
	return out
}

// ChanceJSON implements game.ChanceRecorder: ChanceRecord as JSON.
func (s *State) ChanceJSON() ([]byte, error) { return json.Marshal(s.ChanceRecord()) }

// chanceMark is what changes when a ply makes a chance event: a new deal
// changes the round, a reshuffle the reshuffle count.
type chanceMark struct {
	round      int32
	reshuffles uint8
}

func (s *State) mark() chanceMark { return chanceMark{s.round, s.reshuffles} }

// Replay plays the decisions (canonical or any accepted notation) from the
// start of a game with the given options and seed, drawing chance from the
// seed as New does.
func Replay(opts game.Options, seed uint64, moves []string) (*State, error) {
	s, err := NewState(opts, seed)
	if err != nil {
		return nil, err
	}
	for i, txt := range moves {
		if err := game.Play(s, txt); err != nil {
			return nil, fmt.Errorf("skyjo: replay move %d: %w", i+1, err)
		}
	}
	return s, nil
}

// ErrRecord reports a chance record that does not fit the decisions.
var ErrRecord = errors.New("chance record does not fit the game")

// ReplayRecord plays the decisions with the chance outcomes of rec instead of
// fresh shuffles: every deal and reshuffle is taken from rec, in order, and
// must be a permutation of the cards being shuffled (events left over when
// the decisions stop belong to the rest of the game). The generator is seeded
// from rec.Seed and advanced as in the original game, so a record written by
// ChanceRecord gives back exactly the same state, generator included; a
// record from elsewhere gives the same game with a different generator.
func ReplayRecord(opts game.Options, rec ChanceRecord, moves []string) (*State, error) {
	s, err := NewState(opts, rec.Seed)
	if err != nil {
		return nil, err
	}
	next := 0
	apply := func(before chanceMark) error {
		after := s.mark()
		if after == before {
			return nil
		}
		if s.phase == phaseOver {
			return nil
		}
		if next >= len(rec.Events) {
			return fmt.Errorf("skyjo: round %d needs chance event %d: %w", s.round, next+1, ErrRecord)
		}
		ev := rec.Events[next]
		next++
		kind := "deal"
		if after.round == before.round {
			kind = "reshuffle"
		}
		if ev.Kind != kind || ev.Round != int(s.round) {
			return fmt.Errorf("skyjo: chance event %d is a %s of round %d, the game needs a %s of round %d: %w",
				next, ev.Kind, ev.Round, kind, s.round, ErrRecord)
		}
		if kind == "deal" {
			return s.redeal(ev.Cards)
		}
		return s.restack(ev.Cards)
	}
	if err := apply(chanceMark{}); err != nil {
		return nil, err
	}
	for i, txt := range moves {
		before := s.mark()
		if err := game.Play(s, txt); err != nil {
			return nil, fmt.Errorf("skyjo: replay move %d: %w", i+1, err)
		}
		if err := apply(before); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// sameCards reports whether a (top first) and b (bottom first) hold the same
// multiset of cards.
func sameCards(a []int, b []int8) bool {
	if len(a) != len(b) {
		return false
	}
	var count [15]int
	for _, v := range b {
		count[v+2]++
	}
	for _, v := range a {
		if v < -2 || v > 12 {
			return false
		}
		count[v+2]--
		if count[v+2] < 0 {
			return false
		}
	}
	return true
}

// redeal replaces the deal just made with the given shuffled deck.
func (s *State) redeal(cards []int) error {
	if !sameCards(cards, fullDeck[:]) {
		return fmt.Errorf("skyjo: round %d deal is not the 150 cards: %w", s.round, ErrRecord)
	}
	for i, v := range cards {
		s.deck[deckSize-1-i] = int8(v)
	}
	// Deal again from the recorded deck; the generator is left as the
	// original shuffle left it.
	n := int(s.cfg.players)
	top := deckSize
	for p := 0; p < n; p++ {
		for i := 0; i < gridCards; i++ {
			top--
			s.cards[p][i] = s.deck[top]
		}
	}
	top--
	s.disc[0] = s.deck[top]
	s.deckN = uint8(top)
	if !s.rec.partial && int32(s.rec.rounds) == s.round {
		pack(s.rec.deal[s.round-1][:], s.deck[:])
	}
	return nil
}

// restack replaces the deck of the reshuffle just made with the given order.
func (s *State) restack(cards []int) error {
	k := int(s.deckN)
	if !sameCards(cards, s.deck[:k]) {
		return fmt.Errorf("skyjo: round %d reshuffle is not the discarded cards: %w", s.round, ErrRecord)
	}
	for i, v := range cards {
		s.deck[k-1-i] = int8(v)
	}
	if !s.rec.partial && int32(s.rec.rounds) == s.round {
		pack(s.rec.resh[s.round-1][:], s.deck[:k])
	}
	return nil
}

// String writes the record compactly, one event a line, for logs of
// finished games.
func (r ChanceRecord) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "seed %d", r.Seed)
	if !r.Complete {
		b.WriteString(" (incomplete)")
	}
	for _, e := range r.Events {
		fmt.Fprintf(&b, "\nround %d %s:", e.Round, e.Kind)
		for _, v := range e.Cards {
			fmt.Fprintf(&b, " %d", v)
		}
	}
	return b.String()
}
