package server

import (
	"errors"
	"net/http"

	"github.com/tabula-games/tabula/match"
	"github.com/tabula-games/tabula/server/wire"
)

// statusOf is the HTTP status of each code a game's owner refuses a command
// with (docs/api.md, Errors).
var statusOf = map[match.Code]int{
	match.CodeBadRequest:  http.StatusBadRequest,
	match.CodeBadMove:     http.StatusBadRequest,
	match.CodeForbidden:   http.StatusForbidden,
	match.CodeNotYourTurn: http.StatusConflict,
	match.CodeStalePly:    http.StatusConflict,
	match.CodeGameOver:    http.StatusConflict,
	match.CodeConflict:    http.StatusConflict,
	match.CodeRateLimited: http.StatusTooManyRequests,
	match.CodeIllegalMove: http.StatusUnprocessableEntity,
	match.CodeBadOption:   http.StatusUnprocessableEntity,
	match.CodeBadPosition: http.StatusUnprocessableEntity,
	match.CodeUnavailable: http.StatusServiceUnavailable,
	match.CodeQuota:       http.StatusTooManyRequests,
	match.CodeKeptDeal:    http.StatusConflict,
}

// apiErrorOf is what a client is told of err: its own words for an
// *apiError or a refused command, the generic 503 for anything else.
func apiErrorOf(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var me *match.Error
	if errors.As(err, &me) {
		if st, ok := statusOf[me.Code]; ok {
			return &apiError{Status: st, Code: string(me.Code), Message: me.Message}
		}
	}
	return errUnavailable
}

// body is the wire form of an error.
func (e *apiError) body() wire.ErrorBody { return wire.ErrorBody{Code: e.Code, Message: e.Message} }
