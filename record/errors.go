package record

import (
	"errors"
	"fmt"
)

// Kind says what is wrong with a record that cannot be read or replayed,
// so that each way in (HTTP, the command line) can say it its own way.
type Kind int

// The kinds of a record's errors.
const (
	Unreadable  Kind = iota + 1 // neither form of the record
	UnknownGame                 // a game this build does not have
	BadStart                    // the start position does not read
	BadSeed                     // the seed is not an unsigned integer
	BadOptions                  // the options do not suit the game
	NoStart                     // neither a seed nor a start position
	IllegalMove                 // a move does not replay
)

// Error is a record that cannot be read or replayed: its kind, what is
// wrong in words, and the rules' own error where there is one.
type Error struct {
	Kind Kind
	Msg  string
	Err  error
}

func (e *Error) Error() string { return e.Msg }
func (e *Error) Unwrap() error { return e.Err }

func unreadable(msg string) error { return &Error{Kind: Unreadable, Msg: msg} }

func errorf(kind Kind, err error, format string, args ...any) error {
	return &Error{Kind: kind, Msg: fmt.Sprintf(format, args...), Err: err}
}

// KindOf is the kind of a record's error, 0 for any other error or nil.
func KindOf(err error) Kind {
	var re *Error
	if errors.As(err, &re) {
		return re.Kind
	}
	return 0
}
