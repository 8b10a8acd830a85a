package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
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
