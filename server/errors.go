package server

import (
	"errors"
	"net/http"
	"time"

	"github.com/tabula-games/tabula/analysis"
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
	match.CodeBotsBusy:    http.StatusServiceUnavailable,
	match.CodeNotFinished: http.StatusConflict,
	match.CodeOwnGame:     http.StatusForbidden,
}

// retryAfterOf is the Retry-After of the codes that say when to try again:
// a node whose bots are at their memory budget frees it as games move on.
var retryAfterOf = map[match.Code]time.Duration{match.CodeBotsBusy: 30 * time.Second}

// apiErrorOf is what a client is told of err: its own words for an
// *apiError, a refused command or a refused analysis job, the generic 503
// for anything else. The domain packages' errors become HTTP here and
// nowhere else.
func apiErrorOf(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	var busy *analysis.BusyError
	if errors.As(err, &busy) {
		// A user with a job running asks again once it has stopped (429);
		// a node with every place and its queue taken is busy (503).
		st := http.StatusServiceUnavailable
		if errors.Is(err, analysis.ErrUserBusy) {
			st = http.StatusTooManyRequests
		}
		return &apiError{Status: st, Code: "analysis_busy", Message: busy.Error(), RetryAfter: busy.RetryAfter}
	}
	if errors.Is(err, analysis.ErrNoJob) {
		return errNotFound
	}
	var me *match.Error
	if errors.As(err, &me) {
		if st, ok := statusOf[me.Code]; ok {
			return &apiError{Status: st, Code: string(me.Code), Message: me.Message, RetryAfter: retryAfterOf[me.Code]}
		}
	}
	return errUnavailable
}

// body is the wire form of an error.
func (e *apiError) body() wire.ErrorBody { return wire.ErrorBody{Code: e.Code, Message: e.Message} }
