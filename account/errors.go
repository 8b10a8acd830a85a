package account

import (
	"fmt"
	"time"
)

// Code is the kind of a refusal, in the words of the API's error codes.
type Code string

// The refusals.
const (
	CodeBadRequest   Code = "bad_request"   // a name or a token name breaks the rules
	CodeWeakPassword Code = "weak_password" // CheckNewPassword's reasons
	CodeConflict     Code = "conflict"      // the name is taken, or the user already has an account
	CodeUnauthorized Code = "unauthorized"  // wrong credentials
	CodeForbidden    Code = "forbidden"     // not for a guest
	CodeRateLimited  Code = "rate_limited"  // the account backs off; RetryAfter says how long
)

// Error is a refusal: its code, what to tell the user, and for
// CodeRateLimited how long until a try is counted again. Errors of the
// store are not Errors: they come wrapped with what was being done.
type Error struct {
	Code       Code
	Message    string
	RetryAfter time.Duration
}

func (e *Error) Error() string { return e.Message }

func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrUnauthorized is a credential that does not check out: no such
// session (or it expired), no such API token, or its user is gone. A wrong
// credential is this error, never anonymity.
var ErrUnauthorized = errorf(CodeUnauthorized, "sign in, or send a valid session or API token")

// ErrBadCredentials is a sign-in with a wrong name or password; which of
// the two is not said.
var ErrBadCredentials = errorf(CodeUnauthorized, "wrong name or password")
