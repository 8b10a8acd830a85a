// Package game is the contract every Tabula game implements, in the spirit of
// OpenSpiel's Game/State split: a Game is an immutable description (name,
// options, how to start and how to read a position), a State is a mutable,
// cheaply copied position that knows its legal moves.
//
// The contract is shaped by the hot path. Search and random playouts call
// Legal, Play and Outcome millions of times per second, so:
//   - Move is a small integer whose meaning each game defines; text appears
//     only at the edges (FormatMove, ParseMove);
//   - Legal appends into a caller-owned buffer and never allocates;
//   - Play trusts its argument (it must come from Legal); validation of
//     untrusted input happens once, in ParseMove;
//   - Outcome is a small value, winners are a bit set, so asking "is it over?"
//     after every ply costs nothing;
//   - CopyFrom lets a searcher reuse one scratch state instead of allocating a
//     Clone per iteration.
//
// Turns made of several decisions (Skjuub bonus chains, the Sgolte pie swap,
// Skyjo draw-then-decide) are separate plies by the same seat, so nothing
// above this package needs to know about them.
package game

import (
	"errors"
	"fmt"
)

// Move is one decision of the seat to move. Its meaning is private to the
// game that produced it and valid only for the state it was generated in.
type Move uint32

// MaxPlayers is the most seats any Tabula game has (Skyjo: 8). Winner sets
// are bit sets of this width.
const MaxPlayers = 8

// Game is an immutable description of one game. It is safe for concurrent use.
// What a seat may be shown of a state is decided in one place, View and
// Observe (view.go, observation.go).
type Game interface {
	// Name is the registry name used on the command line: "sgolte", …
	Name() string
	// Title is the display name, for people.
	Title() string
	// Facts are what is fixed about the game whatever its options: seat
	// counts, hidden information, chance.
	Facts() Facts
	// Options lists the options of the game's spec with their defaults.
	Options() []OptionSpec
	// New starts a game. opts must come from ParseOptions for this game (or be
	// nil for all defaults). seed decides every chance event the game has (a
	// random first player, a shuffle): the same options and seed give the
	// same game.
	New(opts Options, seed uint64) (State, error)
	// ParsePosition reads the game's position JSON (as written by
	// State.MarshalPosition) and returns the state it describes.
	ParsePosition(data []byte) (State, error)
}

// State is a position together with everything needed to continue the game
// from it. Methods are not safe for concurrent use; Clone for each goroutine.
type State interface {
	// Game returns the game this state belongs to.
	Game() Game
	// NumPlayers is the number of seats, numbered 0…NumPlayers()-1.
	NumPlayers() int
	// ToMove is the seat that makes the next decision, or -1 once the game is over.
	ToMove() int
	// Legal appends the legal moves of the seat to move to dst and returns the
	// extended slice. It returns dst unchanged when the game is over. The
	// order is the game's own and deterministic; it never allocates when dst
	// has room.
	Legal(dst []Move) []Move
	// Play applies m, which must be one of Legal's moves for this state.
	// Passing anything else is a programming error with undefined results:
	// untrusted input goes through ParseMove first.
	Play(m Move)
	// Outcome reports whether the game is over and who won.
	Outcome() Outcome
	// Clone returns an independent deep copy.
	Clone() State
	// CopyFrom overwrites the receiver with a copy of src, which must be a
	// state of the same game. It lets searchers reuse scratch states.
	CopyFrom(src State)
	// Hash is a 64-bit hash of everything that decides the future of the
	// game; equal states have equal hashes.
	Hash() uint64
	// FormatMove writes m in the game's canonical notation.
	FormatMove(m Move) string
	// ParseMove reads a move in the game's notation (any accepted spelling)
	// and returns it if it is legal here. The error says whether the text
	// was unreadable or the move illegal.
	ParseMove(s string) (Move, error)
	// MarshalPosition writes the game's position JSON, which ParsePosition
	// reads back to an equal state.
	MarshalPosition() ([]byte, error)
	// SeatName is how the game's notation names a seat ("black", "white",
	// "1", …). It may change during a game (the Sgolte pie swap exchanges
	// colours).
	SeatName(seat int) string
}

// Status is the coarse state of a game.
type Status uint8

// The statuses of a game, as printed by `tabula moves --json`.
const (
	Ongoing Status = iota
	Won
	Drawn
)

func (s Status) String() string {
	switch s {
	case Ongoing:
		return "ongoing"
	case Won:
		return "won"
	case Drawn:
		return "drawn"
	}
	return fmt.Sprintf("Status(%d)", uint8(s))
}

// Outcome is the result of a game: ongoing, drawn, or won by one or more
// seats (Skyjo shares wins on a tie).
type Outcome struct {
	Status  Status
	Winners uint8 // bit i set: seat i is among the winners
}

// Over reports whether the game has ended.
func (o Outcome) Over() bool { return o.Status != Ongoing }

// IsWinner reports whether seat is among the winners.
func (o Outcome) IsWinner(seat int) bool { return o.Winners&(1<<uint(seat)) != 0 }

// WinOutcome is the outcome in which the given seats share the win.
func WinOutcome(seats ...int) Outcome {
	o := Outcome{Status: Won}
	for _, s := range seats {
		o.Winners |= 1 << uint(s)
	}
	return o
}

// Reward is seat's share of the result, in [0,1]: 1 for a sole win, 1/k for a
// win shared by k seats, 1/n for every seat of an n-seat draw, 0 for a loss.
// It is what search agents maximise.
func (o Outcome) Reward(seat, numPlayers int) float64 {
	switch o.Status {
	case Won:
		if !o.IsWinner(seat) {
			return 0
		}
		k := 0
		for w := o.Winners; w != 0; w &= w - 1 {
			k++
		}
		return 1 / float64(k)
	case Drawn:
		return 1 / float64(numPlayers)
	}
	return 0
}

// Errors wrapped by games so that callers can tell kinds of bad input apart.
var (
	ErrSyntax   = errors.New("unreadable")
	ErrIllegal  = errors.New("illegal move")
	ErrPosition = errors.New("invalid position")
	ErrOption   = errors.New("invalid option")
	ErrGameOver = errors.New("game is over")
)

// Play parses text as a move of s and plays it. It is the checked way to
// apply untrusted input.
func Play(s State, text string) error {
	m, err := s.ParseMove(text)
	if err != nil {
		return err
	}
	s.Play(m)
	return nil
}

// IsLegal reports whether m is among s's legal moves. It allocates; it is for
// validation at the edges, not for search.
func IsLegal(s State, m Move) bool {
	for _, l := range s.Legal(nil) {
		if l == m {
			return true
		}
	}
	return false
}
