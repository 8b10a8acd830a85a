package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/tabula-games/tabula/analysis"
)

// TestWriteErrorRetryAfter: an error that says when to retry carries
// Retry-After whatever its status (a 503 analysis_busy does, docs/api.md);
// a 429 always does; other errors do not.
func TestWriteErrorRetryAfter(t *testing.T) {
	for _, c := range []struct {
		err  *apiError
		want string
	}{
		{&apiError{Status: http.StatusServiceUnavailable, Code: "analysis_busy", Message: "busy", RetryAfter: 30 * time.Second}, "30"},
		{&apiError{Status: http.StatusTooManyRequests, Code: "rate_limited", Message: "slow"}, "1"},
		{&apiError{Status: http.StatusTooManyRequests, Code: "rate_limited", Message: "slow", RetryAfter: 1500 * time.Millisecond}, "2"},
		{errUnavailable, ""},
		{errNotFound, ""},
	} {
		w := httptest.NewRecorder()
		writeError(w, c.err)
		if got := w.Header().Get("Retry-After"); got != c.want || w.Code != c.err.Status {
			t.Errorf("%s: %d Retry-After %q, want %d %q", c.err.Code, w.Code, got, c.err.Status, c.want)
		}
	}
}

// TestAnalysisErrorsMapped: the analysis jobs' refusals become HTTP here —
// a user whose job is still running 429, a full node 503, each with the
// Retry-After the jobs chose; another user's job 404.
func TestAnalysisErrorsMapped(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int
		retry  string
	}{
		{&analysis.BusyError{Err: analysis.ErrUserBusy, RetryAfter: 5 * time.Second}, http.StatusTooManyRequests, "5"},
		{&analysis.BusyError{Err: analysis.ErrNodeBusy, RetryAfter: 30 * time.Second}, http.StatusServiceUnavailable, "30"},
		{analysis.ErrNoJob, http.StatusNotFound, ""},
	} {
		w := httptest.NewRecorder()
		writeError(w, c.err)
		if got := w.Header().Get("Retry-After"); got != c.retry || w.Code != c.status {
			t.Errorf("%v: %d Retry-After %q, want %d %q", c.err, w.Code, got, c.status, c.retry)
		}
	}
}
