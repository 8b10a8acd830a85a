package server

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/tabula-games/tabula/match"
)

// TestBotsBusyMapped: a node refusing a new bot game because its bots are at
// their memory budget answers 503 bots_busy with Retry-After: 30
// (docs/api.md), wrapped or not.
func TestBotsBusyMapped(t *testing.T) {
	refusal := &match.Error{Code: match.CodeBotsBusy, Message: "this server's bots are using all the memory they may"}
	for _, err := range []error{refusal, fmt.Errorf("create: %w", refusal)} {
		w := httptest.NewRecorder()
		writeError(w, err)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "30" {
			t.Fatalf("%v: %d Retry-After %q; want 503 and 30", err, w.Code, w.Header().Get("Retry-After"))
		}
		if ae := apiErrorOf(err); ae.Code != "bots_busy" {
			t.Fatalf("%v: code %q", err, ae.Code)
		}
	}
}
