package match

import (
	"errors"
	"fmt"
)

// Code classifies what went wrong with a command, for the client: the server
// turns it into an HTTP status, and a node forwarding a command to the
// game's owner passes it on unchanged. The codes are docs/api.md's.
type Code string

// The codes a command can fail with.
const (
	CodeBadRequest  Code = "bad_request"   // a field is missing or out of range
	CodeBadOption   Code = "bad_option"    // an unknown game, option, seat list, clock or bot level
	CodeBadPosition Code = "bad_position"  // a start position the game cannot use
	CodeBadMove     Code = "bad_move"      // unreadable in the game's notation
	CodeIllegalMove Code = "illegal_move"  // readable but not legal now
	CodeForbidden   Code = "forbidden"     // not yours to do
	CodeNotYourTurn Code = "not_your_turn" // another seat is to move
	CodeStalePly    Code = "stale_ply"     // the command is for another ply than the current one
	CodeGameOver    Code = "game_over"     // the game has ended
	CodeConflict    Code = "conflict"      // the game is not in the state the command needs
	CodeRateLimited Code = "rate_limited"  // too many offers or chat lines; wait
	CodeQuota       Code = "quota"         // the user has as many games of the kind going as allowed
	CodeKeptDeal    Code = "kept_deal"     // joining a game that keeps its creator's deal needs AcceptDeal
	CodeUnavailable Code = "unavailable"   // storage failed; nothing was changed
)

// Error is a refused command: nothing was changed.
type Error struct {
	Code    Code
	Message string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Message }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrClosed is returned for a command to a game that has no owner here any
// more (it ended, or the node is stopping); the store has its final state.
var ErrClosed = errors.New("match: the game has no owner here")

// NoOwner is why a command to the game m (as the store has it) cannot be
// run when no owner answers for it (ErrClosed): it is over, or it was
// aborted; a game still open or live has no owner that can run it now
// (its node is stopping, or no node has taken it over yet): unavailable.
func NoOwner(m *Meta) error {
	switch m.Status {
	case Finished, Imported:
		return errorf(CodeGameOver, "the game is over")
	case Aborted:
		return errorf(CodeConflict, "the game was aborted")
	}
	return errUnavailable
}

// ErrDeposed is what a Journal returns (wrapped) when a write is refused
// because another node has taken the game over: the write was fenced by the
// ownership epoch this node held, and nothing was written. The owner here
// stops, and its command answers ErrClosed, so that the caller forwards it
// to the new owner.
var ErrDeposed = errors.New("match: another node owns the game now")

// errUnavailable answers a command whose write the store refused for a
// reason other than a conflict (the cause is logged, not shown).
var errUnavailable = &Error{Code: CodeUnavailable, Message: "the server cannot do that now; nothing was changed"}
